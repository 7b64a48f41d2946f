// RUN: mlkit-opt %s -p 'builtin.module(convert-scf-to-openmp, convert-to-llvm, reconcile-unrealized-casts)' | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(convert-scf-to-openmp, convert-openmp-to-llvm)' | filecheck %s --check-prefix=ONLY

// The teams stay; their loop bounds and induction variables become i64.
// CHECK-LABEL: llvm.func @fill
// CHECK: omp.parallel {
// CHECK: omp.loop_nest (%[[I:.*]]) : i64 = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: llvm.getelementptr inbounds|nuw %{{.*}}[%[[I]]]
// CHECK: llvm.store
// CHECK: omp.yield
// ONLY-LABEL: func.func @fill
// ONLY: omp.loop_nest (%[[I:.*]]) : i64 = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// ONLY-NEXT: %[[IDX:.*]] = builtin.unrealized_conversion_cast %[[I]] : i64 to index
// ONLY-NEXT: memref.store %{{.*}}, %{{.*}}[%[[IDX]]]
func.func @fill(%m: memref<?xf32>, %v: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}
