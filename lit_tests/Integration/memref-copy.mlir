// memref.copy of a strided subview goes through the runtime's memrefCopy.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void -O3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[4,   7],
// CHECK-NEXT{LITERAL}: [12,   15]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 4 sizes = [2, 2] strides = [8, 3] data = {{$}}
// CHECK-NEXT{LITERAL}:[[4,   7],
// CHECK-NEXT{LITERAL}: [12,   15]]

func.func private @printMemrefF32(memref<*xf32>)

// A strided subview copied into a fresh buffer goes through memrefCopy.
func.func @main() {
  %m = memref.alloc() : memref<4x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k = arith.muli %i, %c4 : index
      %l = arith.addi %k, %j : index
      %n = arith.index_cast %l : index to i32
      %f = arith.sitofp %n : i32 to f32
      memref.store %f, %m[%i, %j] : memref<4x4xf32>
    }
  }
  %s = memref.subview %m[1, 0] [2, 2] [2, 3] : memref<4x4xf32> to memref<2x2xf32, strided<[8, 3], offset: 4>>
  %d = memref.alloc() : memref<2x2xf32>
  memref.copy %s, %d : memref<2x2xf32, strided<[8, 3], offset: 4>> to memref<2x2xf32>
  %u = memref.cast %d : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %s : memref<2x2xf32, strided<[8, 3], offset: 4>> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  memref.dealloc %d : memref<2x2xf32>
  memref.dealloc %m : memref<4x4xf32>
  return
}
