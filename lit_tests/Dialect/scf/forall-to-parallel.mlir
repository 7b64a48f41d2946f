// scf-forall-to-parallel: one scf.parallel with the forall's bounds and steps
// (static ones as constants) and its mapping; nested foralls too; a forall
// with shared_outs fails the pass, with an error at it.
// RUN: mlkit-opt %s -p 'builtin.module(func.func(scf-forall-to-parallel))' --split-input-file --verify-diagnostics | filecheck %s

// CHECK-LABEL: func.func @mixed_bounds
// CHECK-SAME:    (%[[M:[a-z0-9_]+]]: memref<?x8xf32>, %[[N:[a-z0-9_]+]]: index)
// CHECK-DAG:     %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:[a-z0-9_]+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C8:[a-z0-9_]+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C3:[a-z0-9_]+]] = arith.constant 3 : index
// CHECK:         scf.parallel (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) = (%[[C0]], %[[C2]]) to (%[[N]], %[[C8]]) step (%[[C3]], %{{.*}}) {
// CHECK-NEXT:      memref.store %{{.*}}, %[[M]][%[[I]], %[[J]]]
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NOT:     scf.forall
func.func @mixed_bounds(%m: memref<?x8xf32>, %n: index) {
  %c = arith.constant 1.0 : f32
  scf.forall (%i, %j) = (0, 2) to (%n, 8) step (3, 2) {
    memref.store %c, %m[%i, %j] : memref<?x8xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @nested_with_mapping
// CHECK:         scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK:           scf.parallel (%[[J:[a-z0-9_]+]]) =
// CHECK:             memref.store %{{.*}}[%[[I]], %[[J]]]
// CHECK:           } {mapping = [#gpu.thread<x>]}
// CHECK:         } {mapping = [#gpu.block<x>]}
func.func @nested_with_mapping(%m: memref<4x4xf32>) {
  %c = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    scf.forall (%j) in (4) {
      memref.store %c, %m[%i, %j] : memref<4x4xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @shared_outs(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{only fully bufferized scf.forall ops can be lowered to scf.parallel}}
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
  }
  return %r : tensor<8xf32>
}
