// An scf.forall on memrefs runs through lower-to-cpu (scf-forall-to-parallel,
// then the thread pool) with 1 and 3 threads, and gives the same numbers.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{deallocation=false})' | mlkit-run -e main -entry-point-result=void -num-threads=1 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{deallocation=false})' | mlkit-run -e main -entry-point-result=void -num-threads=3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{threads=false deallocation=false})' | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{deallocation=false})' --emit=llvm | filecheck %s --check-prefix=TEAM
// TEAM: call void @_mlkit_parallel_for(

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0,   1,   2,   3],
// CHECK-NEXT{LITERAL}: [10,   11,   12,   13],
// CHECK-NEXT{LITERAL}: [20,   21,   22,   23]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c10 = arith.constant 10 : index
  %m = memref.alloc() : memref<3x4xf32>
  scf.forall (%i, %j) in (3, 4) {
    %row = arith.muli %i, %c10 : index
    %v = arith.addi %row, %j : index
    %w = arith.index_cast %v : index to i32
    %f = arith.sitofp %w : i32 to f32
    memref.store %f, %m[%i, %j] : memref<3x4xf32>
  }
  %u = memref.cast %m : memref<3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<3x4xf32>
  return
}
