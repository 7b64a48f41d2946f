// RUN: mlkit-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=4 gpu-thread-dims=1}))" --verify-diagnostics


func.func @too_many(%m: memref<16xf32>, %x: f32) {
  // expected-error @+1 {{cannot map to more than 3 block dimensions}}
  affine.for %i = 0 to 16 {
    affine.store %x, %m[%i] : memref<16xf32>
  }
  return
}
