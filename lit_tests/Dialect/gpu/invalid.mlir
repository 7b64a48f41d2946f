// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

gpu.module @m {
  // expected-error @+1 {{expected void return type for kernel function}}
  gpu.func @f() -> f32 kernel {
    %c = arith.constant 1.0 : f32
    gpu.return %c : f32
  }
}

// -----

gpu.module @m {
  // expected-note @+1 {{return type declared here}}
  gpu.func @f() -> f32 {
    // expected-error @+1 {{expected 1 result operands}}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @f(%a: i32) -> f32 {
    // expected-error @+1 {{unexpected type `'i32'' for operand #0}}
    gpu.return %a : i32
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{expected memory space workgroup in attribution}}
  gpu.func @f() workgroup(%w : memref<4xf32, #gpu.address_space<private>>) {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{expected memory space private in attribution}}
  gpu.func @f() private(%p : memref<4xf32, #gpu.address_space<global>>) {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{expected memref type in attribution}}
  gpu.func @f() workgroup(%w : f32) {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{attribute 'known_block_size' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present) and all elements >= 1}}
  gpu.func @f() kernel attributes {known_block_size = array<i32: 1, 2>} {
    gpu.return
  }
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{expects parent op 'gpu.module'}}
  "gpu.func"() <{function_type = () -> ()}> ({
    "gpu.return"() : () -> ()
  }) {sym_name = "g"} : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{expects parent op 'gpu.launch'}}
  gpu.terminator
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{expected either an op attribute or a non-empty body}}
  %r = gpu.all_reduce %a {} : (f32) -> f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{`minnumf` reduction operation is not compatible with type 'i32'}}
  %r = gpu.all_reduce minnumf %a {} : (i32) -> i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{expected two region arguments}}
  %r = gpu.all_reduce %a {
  ^bb0(%x: f32):
    gpu.yield %x : f32
  } : (f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{incorrect gpu.yield type}}
  %r = gpu.all_reduce %a {
  ^bb0(%x: f32, %y: f32):
    %i = arith.constant 0 : i32
    gpu.yield %i : i32
  } : (f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{`and` reduction operation is not compatible with type 'f32'}}
  %r = gpu.subgroup_reduce and %a : (f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{cluster size 3 is not a power of two}}
  %r = gpu.subgroup_reduce add %a cluster(size = 3) : (f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{cluster stride can only be specified if cluster size is specified}}
  %r = "gpu.subgroup_reduce"(%a) <{op = #gpu<all_reduce_op add>, cluster_stride = 2 : i32}> : (f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{cluster stride 3 is not a power of two}}
  %r = gpu.subgroup_reduce add %a cluster(size = 4, stride = 3) : (f32) -> f32
  return
}

// -----

func.func @f(%n: index) {
  // expected-error @+1 {{incorrect number of dynamic sizes, has 2, expected 1}}
  %m = gpu.alloc (%n, %n) : memref<?x4xf32>
  return
}

// -----

func.func @f(%n: index) {
  // expected-error @+1 {{symbol operand count does not equal memref symbol count}}
  %m = gpu.alloc (%n)[%n] : memref<?xf32>
  return
}

// -----

func.func @f(%a: memref<4xf32>, %b: memref<4xi32>) {
  // expected-error @+1 {{arguments have incompatible element type}}
  gpu.memcpy %a, %b : memref<4xf32>, memref<4xi32>
  return
}

// -----

func.func @f(%a: memref<4xf32>, %b: memref<8xf32>) {
  // expected-error @+1 {{arguments have incompatible shape}}
  gpu.memcpy %a, %b : memref<4xf32>, memref<8xf32>
  return
}

// -----

func.func @f(%a: memref<4xf32>, %v: i32) {
  // expected-error @+1 {{failed to verify that all of {dst, value} have same element type}}
  gpu.memset %a, %v : memref<4xf32>, i32
  return
}

// -----

gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}
func.func @f(%c: index) {
  // expected-error @+1 {{expected the closest surrounding module to have the 'gpu.container_module' attribute}}
  gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
  return
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%c: index) {
    // expected-error @+1 {{kernel container 'nope' is undefined}}
    gpu.launch_func @nope::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
  func.func @f(%c: index) {
    // expected-error @+1 {{kernel function '@kernels::@k' is undefined}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() {
      gpu.return
    }
  }
  func.func @f(%c: index) {
    // expected-error @+1 {{kernel function is missing the 'gpu.kernel' attribute}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @f(%c: index) {
    // expected-error @+1 {{got 0 kernel operands but expected 1}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @f(%c: index, %i: i32) {
    // expected-error @+1 {{type of function argument 0 does not match}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%i : i32)
    return
  }
}

// -----

func.func @f(%c: index) {
  // expected-note @+1 {{in 'gpu.launch' body region}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c, %gy = %c, %gz = %c) threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c) {
    // expected-error @+1 {{expected 'gpu.terminator' or a terminator with successors}}
    gpu.yield
  }
  return
}

// -----

func.func @f(%a: index, %i: i32) {
  // expected-error @+1 {{operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'index'}}
  %r, %v = gpu.shuffle xor %a, %i, %i : index
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{operand #0 must be variadic of integer or index or floating-point}}
  gpu.printf "%p", %m : memref<4xf32>
  return
}


// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'gpu.rotate' op offset must be in the range [0, 8)}}
  %r, %v = gpu.rotate %a, 8, 8 : f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'gpu.rotate' op attribute 'offset' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0}}
  %r, %v = gpu.rotate %a, -3, 8 : f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'gpu.rotate' op attribute 'width' failed to satisfy constraint: 32-bit signless integer attribute whose value is a power of two > 0}}
  %r, %v = gpu.rotate %a, 1, 12 : f32
  return
}

// -----

func.func @f(%a: vector<[4]xf32>) {
  // expected-error @+1 {{'gpu.rotate' op operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<[4]xf32>'}}
  %r, %v = gpu.rotate %a, 1, 8 : vector<[4]xf32>
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'gpu.rotate' op failed to verify that all of {value, rotateResult} have same type}}
  %r, %v = "gpu.rotate"(%a) <{offset = 1 : i32, width = 8 : i32}> : (f32) -> (f16, i1)
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'gpu.rotate' op attribute 'width' failed to satisfy constraint: 32-bit signless integer attribute whose value is a power of two > 0}}
  %r, %v = "gpu.rotate"(%a) <{offset = 1 : i32, width = 8 : i64}> : (f32) -> (f32, i1)
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'gpu.rotate' op expected 2 results}}
  %r = "gpu.rotate"(%a) <{offset = 1 : i32, width = 8 : i32}> : (f32) -> f32
  return
}
