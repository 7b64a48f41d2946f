// RUN: mlkit-opt %s -pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=1 gpu-thread-dims=4}))" --verify-diagnostics

func.func @too_many(%m: memref<16xf32>, %x: f32) {
  // expected-error @+1 {{cannot map to more than 3 thread dimensions}}
  affine.for %i = 0 to 16 {
    affine.store %x, %m[%i] : memref<16xf32>
  }
  return
}
