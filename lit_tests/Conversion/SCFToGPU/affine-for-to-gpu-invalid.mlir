// RUN: mlkit-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=1 gpu-thread-dims=1}))" --verify-diagnostics

func.func @not_perfect(%m: memref<16x16xf32>, %x: f32) {
  // expected-error @+1 {{expected perfectly nested loops in the body}}
  affine.for %i = 0 to 16 {
    affine.store %x, %m[%i, %i] : memref<16x16xf32>
    affine.for %j = 0 to 16 {
      affine.store %x, %m[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

// -----

func.func @not_a_loop(%m: memref<16x16xf32>, %x: f32) {
  affine.for %i = 0 to 16 {
    // expected-error @+1 {{expected a nested loop}}
    affine.store %x, %m[%i, %i] : memref<16x16xf32>
  }
  return
}

// -----

func.func @dependent_bounds(%m: memref<16x16xf32>, %x: f32) {
  affine.for %i = 0 to 16 {
    // expected-error @+1 {{loops with bounds depending on other mapped loops are not supported}}
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.store %x, %m[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

// -----

func.func @reduction(%m: memref<16x16xf32>, %x: f32) -> f32 {
  // expected-error @+1 {{affine loop with iter_args cannot be converted to GPU kernel}}
  %r = affine.for %i = 0 to 16 iter_args(%acc = %x) -> (f32) {
    %s = affine.for %j = 0 to 16 iter_args(%a2 = %acc) -> (f32) {
      %v = affine.load %m[%i, %j] : memref<16x16xf32>
      %t = arith.addf %a2, %v : f32
      affine.yield %t : f32
    }
    affine.yield %s : f32
  }
  return %r : f32
}
