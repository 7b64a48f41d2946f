// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of the gpu ops in upstream MLIR's custom syntax; the same file is
// read by upstream MLIR in tests/test_dialect_gpu.py.

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: gpu.module @kernels
// CHECK-LABEL: gpu.func @kernel
// CHECK-SAME: (%arg0: f32, %arg1: memref<?xf32>) workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>) private(%pv : memref<1xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>}
// CHECK: %tid = gpu.thread_id x
// CHECK: %bid = gpu.block_id y upper_bound 8
// CHECK: %bdim = gpu.block_dim z
// CHECK: %gdim = gpu.grid_dim x
// CHECK: %gid = gpu.global_id x upper_bound 65536
// CHECK: %lane = gpu.lane_id
// CHECK: %lane2 = gpu.lane_id upper_bound 32
// CHECK: %sgid = gpu.subgroup_id : index
// CHECK: %nsg = gpu.num_subgroups : index
// CHECK: %sgsize = gpu.subgroup_size : index
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @sync
// CHECK-SAME: (%a: f32, %i: i32, %v: vector<4xf32>) kernel
// CHECK-NEXT: gpu.barrier
// CHECK: gpu.barrier scope <subgroup>
// CHECK: gpu.barrier memfence [#gpu.address_space<workgroup>]
// CHECK: gpu.barrier memfence []
// CHECK: gpu.barrier memfence [#gpu.address_space<global>] scope <cluster>
// CHECK: %sh, %valid = gpu.shuffle xor %a, %i, %i : f32
// CHECK: %shv, %validv = gpu.shuffle idx %v, %i, %i : vector<4xf32>
// CHECK: %shi, %validi = gpu.shuffle down %i, %i, %i : i32
// CHECK: %shu, %validu = gpu.shuffle up %a, %i, %i : f32
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @reduce
// CHECK-SAME: (%a: f32, %i: i32, %v: vector<4xf32>) kernel
// CHECK: %r0 = gpu.all_reduce add %a {
// CHECK: } : (f32) -> f32
// CHECK: %r1 = gpu.all_reduce minsi %i uniform {
// CHECK: } : (i32) -> i32
// CHECK: %r2 = gpu.all_reduce %a {
// CHECK: ^bb0(%lhs: f32, %rhs: f32):
// CHECK: %sum = arith.addf %lhs, %rhs : f32
// CHECK: gpu.yield %sum : f32
// CHECK: } : (f32) -> f32
// CHECK: %r3 = gpu.subgroup_reduce maxnumf %v : (vector<4xf32>) -> vector<4xf32>
// CHECK: %r4 = gpu.subgroup_reduce add %a cluster(size = 4) : (f32) -> f32
// CHECK: %r5 = gpu.subgroup_reduce xor %i uniform cluster(size = 8, stride = 2) : (i32) -> i32
// CHECK: gpu.printf "Hello %f\0A", %a : f32
// CHECK: gpu.printf "done\0A"
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @device
// CHECK-SAME: (%a: f32 {foo.arg}, %b: index) -> (f32 {foo.res}) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>> {foo.align = 8 : i64}, %w2 : memref<4xf32, 3{{( : i64)?}}>) private(%p : memref<1xf32, 5{{( : i64)?}}>) attributes {gpu.known_block_size = array<i32: 1, 2, 3>, known_grid_size = array<i32: 2, 2, 2>}
// CHECK: gpu.return %a : f32
// CHECK-LABEL: gpu.func @plain
// CHECK-SAME: (%a: i32) -> (i32, i32)
// CHECK: gpu.return %a, %a : i32, i32
// CHECK-LABEL: gpu.module @empty attributes {foo = 1 : i64}
// CHECK-LABEL: func.func @memory
// CHECK-SAME: (%m: memref<?xf32>, %n: index, %f: f32)
// CHECK: %t0 = gpu.wait async
// CHECK: %t1 = gpu.wait async [%t0, %t0]
// CHECK: %mem, %ta = gpu.alloc async [%t1] (%n) : memref<?xf32, #gpu.address_space<global>>
// CHECK: %shared = gpu.alloc host_shared (%n) : memref<?xf32, #gpu.address_space<global>>
// CHECK: %sym, %ts = gpu.alloc async (%n)[%n] : memref<?x4xf32, {{.*}}>
// CHECK: %t2 = gpu.memcpy async [%ta] %mem, %m : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
// CHECK: gpu.memcpy %mem, %m : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
// CHECK: %t3 = gpu.memset async [%t2] %mem, %f : memref<?xf32, #gpu.address_space<global>>, f32
// CHECK: gpu.memset %mem, %f : memref<?xf32, #gpu.address_space<global>>, f32
// CHECK: %t4 = gpu.dealloc async [%t3] %mem : memref<?xf32, #gpu.address_space<global>>
// CHECK: gpu.dealloc %shared : memref<?xf32, #gpu.address_space<global>>
// CHECK: gpu.wait [%t4]
// CHECK-NEXT: gpu.wait
// CHECK: func.return
// CHECK-LABEL: func.func @launch_func
// CHECK-SAME: (%m: memref<?xf32>, %f: f32, %i: i32, %p: !llvm.ptr)
// CHECK: %c1 = arith.constant 1 : index
// CHECK: %t0 = gpu.wait async
// CHECK: gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : f32, %m : memref<?xf32>)
// CHECK: %t1 = gpu.launch_func async [%t0] @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %i args(%f : f32, %m : memref<?xf32>)
// CHECK: gpu.launch_func <%p : !llvm.ptr> @kernels::@kernel clusters in (%i, %i, %i) blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 args(%f : f32, %m : memref<?xf32>) {foo}
// CHECK: func.return
// CHECK-LABEL: func.func @launch
// CHECK-SAME: (%sz: index, %smem: i32)
// CHECK: gpu.launch blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz) threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz) {
// CHECK: %s = arith.addi %bx, %tx : index
// CHECK: gpu.terminator
// CHECK: %t0 = gpu.wait async
// CHECK: %t1 = gpu.launch async [%t0] clusters(%cx, %cy, %cz) in (%ncx = %sz, %ncy = %sz, %ncz = %sz) blocks(%bx2, %by2, %bz2) in (%gx2 = %sz, %gy2 = %sz, %gz2 = %sz) threads(%tx2, %ty2, %tz2) in (%sx2 = %sz, %sy2 = %sz, %sz3 = %sz) dynamic_shared_memory_size %smem module(@km) function(@kf) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
// CHECK: %s2 = arith.addi %cx, %ncz : index
// CHECK: %v = memref.load %w[%s2] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %v, %p[%bx2] : memref<1xf32, #gpu.address_space<private>>
// CHECK: gpu.terminator
// CHECK: } {attr = 3 : i64}
// CHECK: func.return

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%arg0: f32, %arg1: memref<?xf32>) workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>) private(%pv : memref<1xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id y upper_bound 8
      %bdim = gpu.block_dim z
      %gdim = gpu.grid_dim x
      %gid = gpu.global_id x upper_bound 65536
      %lane = gpu.lane_id
      %lane2 = gpu.lane_id upper_bound 32
      %sgid = gpu.subgroup_id : index
      %nsg = gpu.num_subgroups : index
      %sgsize = gpu.subgroup_size : index
      gpu.return
    }
    gpu.func @sync(%a: f32, %i: i32, %v: vector<4xf32>) kernel {
      gpu.barrier
      gpu.barrier scope <subgroup>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      gpu.barrier memfence []
      gpu.barrier memfence [#gpu.address_space<global>] scope <cluster>
      %sh, %valid = gpu.shuffle xor %a, %i, %i : f32
      %shv, %validv = gpu.shuffle idx %v, %i, %i : vector<4xf32>
      %shi, %validi = gpu.shuffle down %i, %i, %i : i32
      %shu, %validu = gpu.shuffle up %a, %i, %i : f32
      gpu.return
    }
    gpu.func @reduce(%a: f32, %i: i32, %v: vector<4xf32>) kernel {
      %r0 = gpu.all_reduce add %a {} : (f32) -> (f32)
      %r1 = gpu.all_reduce minsi %i uniform {} : (i32) -> i32
      %r2 = gpu.all_reduce %a {
      ^bb0(%lhs: f32, %rhs: f32):
        %sum = arith.addf %lhs, %rhs : f32
        gpu.yield %sum : f32
      } : (f32) -> f32
      %r3 = gpu.subgroup_reduce maxnumf %v : (vector<4xf32>) -> vector<4xf32>
      %r4 = gpu.subgroup_reduce add %a cluster(size = 4) : (f32) -> f32
      %r5 = gpu.subgroup_reduce xor %i uniform cluster(size = 8, stride = 2) : (i32) -> i32
      gpu.printf "Hello %f\n", %a : f32
      gpu.printf "done\n"
      gpu.return
    }
    gpu.func @device(%a: f32 {foo.arg}, %b: index) -> (f32 {foo.res}) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>> {foo.align = 8 : i64}, %w2 : memref<4xf32, 3>) private(%p : memref<1xf32, 5>) attributes {gpu.known_block_size = array<i32: 1, 2, 3>, known_grid_size = array<i32: 2, 2, 2>} {
      gpu.return %a : f32
    }
    gpu.func @plain(%a: i32) -> (i32, i32) {
      gpu.return %a, %a : i32, i32
    }
  }
  gpu.module @empty attributes {foo = 1 : i64} {
  }
  func.func @memory(%m: memref<?xf32>, %n: index, %f: f32) {
    %t0 = gpu.wait async
    %t1 = gpu.wait async [%t0, %t0]
    %mem, %ta = gpu.alloc async [%t1] (%n) : memref<?xf32, #gpu.address_space<global>>
    %shared = gpu.alloc host_shared (%n) : memref<?xf32, #gpu.address_space<global>>
    %sym, %ts = gpu.alloc async (%n)[%n] : memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
    %t2 = gpu.memcpy async [%ta] %mem, %m : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    gpu.memcpy %mem, %m : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    %t3 = gpu.memset async [%t2] %mem, %f : memref<?xf32, #gpu.address_space<global>>, f32
    gpu.memset %mem, %f : memref<?xf32, #gpu.address_space<global>>, f32
    %t4 = gpu.dealloc async [%t3] %mem : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %shared : memref<?xf32, #gpu.address_space<global>>
    gpu.wait [%t4]
    gpu.wait
    return
  }
  func.func @launch_func(%m: memref<?xf32>, %f: f32, %i: i32, %p: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : f32, %m : memref<?xf32>)
    %t1 = gpu.launch_func async [%t0] @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %i args(%f : f32, %m : memref<?xf32>)
    gpu.launch_func <%p : !llvm.ptr> @kernels::@kernel clusters in (%i, %i, %i) blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 args(%f : f32, %m : memref<?xf32>) {foo}
    return
  }
  func.func @launch(%sz: index, %smem: i32) {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz) threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz) {
      %s = arith.addi %bx, %tx : index
      gpu.terminator
    }
    %t0 = gpu.wait async
    %t1 = gpu.launch async [%t0] clusters(%cx, %cy, %cz) in (%ncx = %sz, %ncy = %sz, %ncz = %sz) blocks(%bx2, %by2, %bz2) in (%gx2 = %sz, %gy2 = %sz, %gz2 = %sz) threads(%tx2, %ty2, %tz2) in (%sx2 = %sz, %sy2 = %sz, %sz3 = %sz) dynamic_shared_memory_size %smem module(@km) function(@kf) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
      %s2 = arith.addi %cx, %ncz : index
      %v = memref.load %w[%s2] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %v, %p[%bx2] : memref<1xf32, #gpu.address_space<private>>
      gpu.terminator
    } {attr = 3 : i64}
    return
  }
}
