// affine.if with an else branch inside an affine loop nest.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[1,   2,   2],
// CHECK-NEXT{LITERAL}: [1,   1,   2],
// CHECK-NEXT{LITERAL}: [1,   1,   1]]

#set = affine_set<(d0, d1) : (d0 - d1 >= 0)>
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %m = memref.alloc() : memref<3x3xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 3 {
      affine.if #set(%i, %j) {
        affine.store %one, %m[%i, %j] : memref<3x3xf32>
      } else {
        affine.store %two, %m[%i, %j] : memref<3x3xf32>
      }
    }
  }
  %u = memref.cast %m : memref<3x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<3x3xf32>
  return
}
