// printMemrefInd prints index values as uint64_t.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0,   7],
// CHECK-NEXT{LITERAL}: [18446744073709551615,   42]]

func.func private @printMemrefInd(memref<*xindex>)

func.func @main() {
  %m = memref.alloc() : memref<2x2xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %cm1 = arith.constant -1 : index
  %c42 = arith.constant 42 : index
  memref.store %c0, %m[%c0, %c0] : memref<2x2xindex>
  memref.store %c7, %m[%c0, %c1] : memref<2x2xindex>
  memref.store %cm1, %m[%c1, %c0] : memref<2x2xindex>
  memref.store %c42, %m[%c1, %c1] : memref<2x2xindex>
  %u = memref.cast %m : memref<2x2xindex> to memref<*xindex>
  call @printMemrefInd(%u) : (memref<*xindex>) -> ()
  memref.dealloc %m : memref<2x2xindex>
  return
}
