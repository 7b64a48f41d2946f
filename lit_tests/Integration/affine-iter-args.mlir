// affine.for loops with iter_args and a stepped loop.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [2] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[6,  10]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %m = memref.alloc() : memref<4xf32>
  %out = memref.alloc() : memref<2xf32>
  affine.for %i = 0 to 4 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    affine.store %f, %m[%i] : memref<4xf32>
  }
  %zero = arith.constant 0.0 : f32
  %sum = affine.for %i = 0 to 4 iter_args(%acc = %zero) -> (f32) {
    %v = affine.load %m[%i] : memref<4xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  %sq = affine.for %i = 0 to 4 step 2 iter_args(%acc = %zero) -> (f32) {
    %v = affine.load %m[%i + 1] : memref<4xf32>
    %p = arith.mulf %v, %v : f32
    %s = arith.addf %acc, %p : f32
    affine.yield %s : f32
  }
  affine.store %sum, %out[0] : memref<2xf32>
  affine.store %sq, %out[1] : memref<2xf32>
  %u = memref.cast %out : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<4xf32>
  memref.dealloc %out : memref<2xf32>
  return
}
