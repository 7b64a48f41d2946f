// RUN: mlkit-opt %s -p 'builtin.module(convert-scf-to-openmp{num-threads=4})' --split-input-file | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(convert-scf-to-openmp{automatic-num-threads})' --split-input-file | filecheck %s --check-prefix=AUTO
// RUN: mlkit-opt %s -p 'builtin.module(convert-scf-to-openmp)' --split-input-file | filecheck %s --check-prefix=DEFAULT

// CHECK-LABEL: func.func @two_dims
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: omp.parallel num_threads(%[[FOUR]] : i32) {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%[[I:.*]], %[[J:.*]]) : index = (%arg0, %arg1) to (%arg2, %arg3) step (%arg4, %arg5) collapse(2) {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT: omp.yield
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: omp.terminator
// CHECK-NEXT: }
// DEFAULT-LABEL: func.func @two_dims
// DEFAULT-NOT: llvm.mlir.constant
// DEFAULT: omp.parallel {
func.func @two_dims(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %m: memref<?x?xf32>, %v: f32) {
  scf.parallel (%i, %j) = (%arg0, %arg1) to (%arg2, %arg3) step (%arg4, %arg5) {
    memref.store %v, %m[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// Nested loops become nested teams; the static trip count sets the threads.
// AUTO-LABEL: func.func @nested
// AUTO: llvm.mlir.constant(8 : i32)
// AUTO: omp.parallel
// AUTO: omp.loop_nest (%[[O:.*]]) : index
// AUTO: llvm.mlir.constant(3 : i32)
// AUTO: omp.parallel
// AUTO: omp.loop_nest (%[[IN:.*]]) : index
// AUTO: memref.store %{{.*}}, %{{.*}}[%[[O]], %[[IN]]]
func.func @nested(%m: memref<8x6xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c6) step (%c2) {
      memref.store %v, %m[%i, %j] : memref<8x6xf32>
    }
  }
  return
}

// -----

// A loop that reduces stays sequential, and so does the loop around it.
// CHECK-LABEL: func.func @reduction
// CHECK-NOT: omp.
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.reduce
func.func @reduction(%m: memref<8x8xf32>, %init: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c8) step (%c1) init (%init) -> f32 {
      %x = memref.load %m[%i, %j] : memref<8x8xf32>
      scf.reduce(%x : f32) {
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        scf.reduce.return %r : f32
      }
    }
    memref.store %s, %m[%i, %c0] : memref<8x8xf32>
  }
  return
}
