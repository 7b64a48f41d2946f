// scf-forall-to-for: one scf.for per dimension, outermost first; static
// bounds and steps become constants; nested foralls are converted too; a
// forall with shared_outs stays, with a warning.
// RUN: mlkit-opt %s -p 'builtin.module(func.func(scf-forall-to-for))' --split-input-file --verify-diagnostics | filecheck %s

func.func private @callee(%i: index, %j: index)

// CHECK-LABEL: func.func @two_dims
// CHECK-SAME: (%[[UB1:.*]]: index, %[[UB2:.*]]: index)
// CHECK:        scf.for %[[I:.*]] = %{{.*}} to %[[UB1]] step
// CHECK-NEXT:     scf.for %[[J:.*]] = %{{.*}} to %[[UB2]] step
// CHECK-NEXT:       func.call @callee(%[[I]], %[[J]])
// CHECK-NOT:    scf.forall
func.func @two_dims(%ub1: index, %ub2: index) {
  scf.forall (%i, %j) in (%ub1, %ub2) {
    func.call @callee(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

func.func private @callee(%i: index, %j: index)

// CHECK-LABEL: func.func @mixed_and_nested
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index)
// CHECK-DAG:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:    %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:    %[[C4:.*]] = arith.constant 4 : index
// CHECK:        scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[C2]]
// CHECK-NEXT:     scf.for %[[J:.*]] = %[[C0]] to %[[C16]] step %[[C4]]
// CHECK-NEXT:       func.call @callee(%[[I]], %[[J]])
// CHECK:            %[[C8:.*]] = arith.constant 8 : index
// CHECK:            scf.for %[[K:.*]] = %{{.*}} to %[[C8]]
// CHECK-NEXT:         func.call @callee(%[[K]], %[[K]])
// CHECK-NOT:    scf.forall
func.func @mixed_and_nested(%lb: index, %ub: index) {
  scf.forall (%i, %j) = (%lb, 0) to (%ub, 16) step (2, 4) {
    func.call @callee(%i, %j) : (index, index) -> ()
    scf.forall (%k) in (8) {
      func.call @callee(%k, %k) : (index, index) -> ()
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @shared_outs
// CHECK:        scf.forall
func.func @shared_outs(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning @+1 {{skipping scf.forall with outputs, currently not supported}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<4xf32>
}
