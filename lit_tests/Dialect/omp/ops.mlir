// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// CHECK-LABEL: func.func @team
func.func @team(%lb: index, %ub: index, %st: index, %n: i32, %m: memref<?x?xf32>) {
  // CHECK: omp.parallel num_threads(%{{.*}} : i32) {
  // CHECK-NEXT: omp.wsloop {
  // CHECK-NEXT: omp.loop_nest (%[[I:.*]], %[[J:.*]]) : index = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}}) collapse(2) {
  // CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
  // CHECK-NEXT: omp.yield
  // CHECK: omp.terminator
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%lb, %lb) to (%ub, %ub) step (%st, %st) collapse(2) {
        %c = arith.constant 1.0 : f32
        memref.store %c, %m[%i, %j] : memref<?x?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// CHECK-LABEL: func.func @plain
func.func @plain(%lb: i32, %ub: i32, %st: i32) {
  // CHECK: omp.parallel {
  // CHECK-NEXT: omp.wsloop nowait {
  // CHECK-NEXT: omp.loop_nest (%{{.*}}) : i32 = (%{{.*}}) to (%{{.*}}) inclusive step (%{{.*}}) {
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : i32 = (%lb) to (%ub) inclusive step (%st) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// The synchronization ops, which mlkit reads and prints but does not translate.
// CHECK-LABEL: func.func @sync
// CHECK-SAME: (%[[P:.*]]: memref<i32>)
func.func @sync(%p: memref<i32>) {
  // CHECK-NEXT: omp.barrier
  omp.barrier
  // CHECK-NEXT: omp.master {
  // CHECK-NEXT:   omp.terminator
  // CHECK-NEXT: }
  omp.master {
    omp.terminator
  }
  // CHECK-NEXT: omp.taskwait
  omp.taskwait
  // CHECK-NEXT: omp.taskyield
  omp.taskyield
  // CHECK-NEXT: omp.flush{{$}}
  omp.flush
  // CHECK-NEXT: omp.flush(%[[P]] : memref<i32>)
  omp.flush(%p : memref<i32>)
  // CHECK-NEXT: omp.flush(%[[P]], %[[P]] : memref<i32>, memref<i32>)
  omp.flush(%p, %p : memref<i32>, memref<i32>)
  return
}
