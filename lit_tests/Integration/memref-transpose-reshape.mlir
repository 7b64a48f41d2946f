// memref.transpose, memref.reshape and memref.prefetch lowered by
// finalize-memref-to-llvm and run: the transposed view and the reshaped
// buffer print through their own strides.

// RUN: mlkit-opt %s -p 'builtin.module(convert-scf-to-cf, finalize-memref-to-llvm, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 2] strides = [1, 3] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0,   3],
// CHECK-NEXT{LITERAL}: [1,   4],
// CHECK-NEXT{LITERAL}: [2,   5]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0,   1],
// CHECK-NEXT{LITERAL}: [2,   3],
// CHECK-NEXT{LITERAL}: [4,   5]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0,  1,  2,  3,  4,  5]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : i32
  %m = memref.alloc() : memref<2x3xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      memref.prefetch %m[%i, %j], write, locality<3>, data : memref<2x3xf32>
      %k = arith.muli %i, %c3 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i64
      %lf = arith.sitofp %li : i64 to f32
      memref.store %lf, %m[%i, %j] : memref<2x3xf32>
    }
  }
  %t = memref.transpose %m (i, j) -> (j, i) : memref<2x3xf32> to memref<3x2xf32, strided<[1, 3]>>
  %tu = memref.cast %t : memref<3x2xf32, strided<[1, 3]>> to memref<*xf32>
  call @printMemrefF32(%tu) : (memref<*xf32>) -> ()

  // The second size is read from the shape at run time.
  %shape = memref.alloca() : memref<2xindex>
  memref.store %c3, %shape[%c0] : memref<2xindex>
  memref.store %c2, %shape[%c1] : memref<2xindex>
  %r = memref.reshape %m(%shape) : (memref<2x3xf32>, memref<2xindex>) -> memref<3x?xf32>
  %ru = memref.cast %r : memref<3x?xf32> to memref<*xf32>
  call @printMemrefF32(%ru) : (memref<*xf32>) -> ()

  // An i32 shape, with a dynamic size.
  %flat = memref.alloca() : memref<1xi32>
  memref.store %c6, %flat[%c0] : memref<1xi32>
  %f = memref.reshape %m(%flat) : (memref<2x3xf32>, memref<1xi32>) -> memref<?xf32>
  %fu = memref.cast %f : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<2x3xf32>
  return
}
