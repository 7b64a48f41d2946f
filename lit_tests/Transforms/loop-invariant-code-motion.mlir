// RUN: mlkit-opt %s -split-input-file -loop-invariant-code-motion | filecheck %s

// What is invariant in the inner loop moves to the outer one, and from there
// on out; the store, which writes memory, stays.

// CHECK-LABEL: func.func @nested_affine_loops
// CHECK:       %[[M:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:  %[[A:.+]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:  %[[B:.+]] = arith.constant 2.500000e+00 : f32
// CHECK-NEXT:  %[[S:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:  arith.subf %[[S]], %[[B]] : f32
// CHECK-NEXT:  affine.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT:    affine.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:      affine.store %[[S]], %[[M]][%[[I]]] : memref<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @nested_affine_loops() {
  %m = memref.alloc() : memref<16xf32>
  %a = arith.constant 1.5 : f32
  %b = arith.constant 2.5 : f32
  affine.for %i = 0 to 16 {
    %s = arith.mulf %a, %b : f32
    affine.for %j = 0 to 4 {
      %t = arith.subf %s, %b : f32
      affine.store %s, %m[%i] : memref<16xf32>
    }
  }
  return
}

// -----

// Nothing that depends on the induction variable or on memory moves.

// CHECK-LABEL: func.func @nothing_invariant
// CHECK:       affine.for
// CHECK-NEXT:    affine.load
// CHECK-NEXT:    affine.load
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    affine.store
func.func @nothing_invariant(%p: memref<8xf32>, %q: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %p[%i] : memref<8xf32>
    %y = affine.load %q[%i] : memref<8xf32>
    %z = arith.addf %x, %y : f32
    affine.store %z, %p[%i] : memref<8xf32>
  }
  return
}

// -----

// An affine.if that depends on the loop, and everything in it, stays.

// CHECK-LABEL: func.func @if_on_induction_variable
// CHECK:       arith.constant
// CHECK-NEXT:  affine.for
// CHECK-NEXT:    affine.apply
// CHECK-NEXT:    affine.if
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      affine.store
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @if_on_induction_variable(%m: memref<10xf32>) {
  %c = arith.constant 3.0 : f32
  affine.for %i = 0 to 10 {
    %n = affine.apply affine_map<(d0) -> (d0 + 2)>(%i)
    affine.if affine_set<(d0, d1) : (d1 - d0 >= 0)> (%i, %n) {
      %v = arith.addf %c, %c : f32
      affine.store %v, %m[%i] : memref<10xf32>
    }
  }
  return
}

// -----

// A side-effect-free affine.if on the outer variable leaves the inner loop;
// the inner loop, now empty, leaves the outer one.

// CHECK-LABEL: func.func @pure_if_hoisted
// CHECK:       %[[C:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:  affine.for %{{.+}} = 0 to 20 {
// CHECK-NEXT:  }
// CHECK-NEXT:  affine.for %[[I:.+]] = 0 to 10 {
// CHECK-NEXT:    affine.if {{.+}}(%[[I]], %[[I]]) {
// CHECK-NEXT:      arith.addf %[[C]], %[[C]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @pure_if_hoisted() {
  %c = arith.constant 3.0 : f32
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 20 {
      affine.if affine_set<(d0, d1) : (d1 - d0 >= 0)> (%i, %i) {
        %v = arith.addf %c, %c : f32
      }
    }
  }
  return
}

// -----

// An affine.if that stores stays where it is.

// CHECK-LABEL: func.func @storing_if_stays
// CHECK:       arith.constant
// CHECK-NEXT:  affine.for
// CHECK-NEXT:    affine.for
// CHECK-NEXT:      affine.if
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        affine.store
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @storing_if_stays(%m: memref<10xf32>) {
  %c = arith.constant 3.0 : f32
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      affine.if affine_set<(d0, d1) : (d1 - d0 >= 0)> (%i, %i) {
        %v = arith.addf %c, %c : f32
        affine.store %v, %m[%j] : memref<10xf32>
      }
    }
  }
  return
}

// -----

// Nested pure ifs move as a whole; an else branch that stores keeps the
// outer if in place.

// CHECK-LABEL: func.func @nested_pure_ifs
// CHECK:       arith.constant
// CHECK-NEXT:  affine.for
// CHECK-NEXT:  }
// CHECK-NEXT:  affine.for
// CHECK-NEXT:    affine.if
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      affine.if
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @if_else_with_store
// CHECK:       arith.constant
// CHECK-NEXT:  affine.for
// CHECK-NEXT:    affine.for
// CHECK-NEXT:      affine.if
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        affine.if
// CHECK-NEXT:          arith.addf
// CHECK-NEXT:        } else {
// CHECK-NEXT:          affine.store
// CHECK-NEXT:        }
func.func @nested_pure_ifs() {
  %c = arith.constant 3.0 : f32
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      affine.if affine_set<(d0, d1) : (d1 - d0 >= 0)> (%i, %i) {
        %v = arith.addf %c, %c : f32
        affine.if affine_set<(d0, d1) : (d1 - d0 >= 0)> (%i, %i) {
          %w = arith.addf %v, %v : f32
        }
      }
    }
  }
  return
}
func.func @if_else_with_store(%m: memref<10xf32>) {
  %c = arith.constant 3.0 : f32
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      affine.if affine_set<(d0, d1) : (d1 - d0 >= 0)> (%i, %i) {
        %v = arith.addf %c, %c : f32
        affine.if affine_set<(d0, d1) : (d1 - d0 >= 0)> (%i, %i) {
          %w = arith.addf %v, %v : f32
        } else {
          affine.store %v, %m[%j] : memref<10xf32>
        }
      }
    }
  }
  return
}

// -----

// A loop with a step of 1 always terminates, so it may move even with
// unknown bounds; one with another step may not.

// CHECK-LABEL: func.func @affine_unit_step_moves
// CHECK-SAME:  (%[[LB:[^:]+]]: index, %[[UB:[^:]+]]: index)
// CHECK-NEXT:  affine.for %{{.+}} = %[[LB]] to %[[UB]] {
// CHECK-NEXT:  }
// CHECK-NEXT:  affine.for %{{.+}} = 0 to 10 {
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @affine_other_step_stays
// CHECK-NEXT:  affine.for %{{.+}} = 0 to 10 {
// CHECK-NEXT:    affine.for %{{.+}} = %{{.+}} to %{{.+}} step 3 {
func.func @affine_unit_step_moves(%lb: index, %ub: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = %lb to %ub {
    }
  }
  return
}
func.func @affine_other_step_stays(%lb: index, %ub: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = %lb to %ub step 3 {
    }
  }
  return
}

// -----

// The same for scf.for: only a constant step of 1 lets the loop move.

// CHECK-LABEL: func.func @scf_steps
// CHECK-SAME:  (%[[LB:[^:]+]]: index, %[[UB:[^:]+]]: index, %[[STEP:[^:]+]]: index)
// CHECK:       scf.for %{{.+}} = %[[LB]] to %[[UB]] step %[[C1:[^ ]+]] {
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.for %{{.+}} = %[[LB]] to %[[UB]] step %[[C1]] {
// CHECK-NEXT:    scf.for %{{.+}} = %[[LB]] to %[[UB]] step %{{.+}} {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %{{.+}} = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @scf_steps(%lb: index, %ub: index, %step: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %lb to %ub step %c1 {
    scf.for %j = %lb to %ub step %c1 {
    }
    scf.for %j = %lb to %ub step %c2 {
    }
    scf.for %j = %lb to %ub step %step {
    }
  }
  return
}

// -----

// Invariant arithmetic leaves nested scf loops; arithmetic on the induction
// variables stays.

// CHECK-LABEL: func.func @scf_invariant
// CHECK:       arith.constant 4.000000e+00 : f32
// CHECK-NEXT:  arith.mulf
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @scf_invariant() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 4.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = arith.mulf %f, %f : f32
      %y = arith.addi %i, %j : index
    }
  }
  return
}

// -----

// scf.parallel, scf.forall and affine.parallel are loops too.

// CHECK-LABEL: func.func @parallel_loops
// CHECK:       %[[C7:.+]] = arith.constant 7 : i32
// CHECK-NEXT:  arith.muli %[[C7]], %[[C7]] : i32
// CHECK-NEXT:  scf.parallel (%[[I:.+]], %[[J:.+]]) =
// CHECK-NEXT:    arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:    scf.reduce
// CHECK-NEXT:  }
// CHECK-NEXT:  arith.addi %[[C7]], %[[C7]] : i32
// CHECK-NEXT:  scf.forall
// CHECK-NEXT:  }
// CHECK-NEXT:  arith.subi %[[C7]], %[[C7]] : i32
// CHECK-NEXT:  affine.parallel
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @parallel_loops() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %a = arith.muli %c7, %c7 : i32
    %b = arith.addi %i, %j : index
  }
  scf.forall (%k) in (4) {
    %d = arith.addi %c7, %c7 : i32
  }
  affine.parallel (%l) = (0) to (4) {
    %e = arith.subi %c7, %c7 : i32
  }
  return
}

// -----

// Calls may have effects: they stay, and so does what uses their results,
// even from a nested region.

// CHECK-LABEL: func.func @calls_stay
// CHECK-NEXT:  arith.constant
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    func.call @make
// CHECK-NEXT:    func.call @make
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield
func.func private @make() -> index
func.func @calls_stay(%lb: index, %ub: index, %step: index) {
  %true = arith.constant true
  scf.for %i = %lb to %ub step %step {
    %a = func.call @make() : () -> index
    %b = func.call @make() : () -> index
    %r = scf.if %true -> (index) {
      scf.yield %a : index
    } else {
      scf.yield %b : index
    }
  }
  return
}

// -----

// A chain of invariant ops moves in order, ahead of the loop.

// CHECK-LABEL: func.func @invariant_chain
// CHECK-SAME:  (%{{.+}}: index, %{{.+}}: index, %{{.+}}: index, %[[X:[^:]+]]: i64, %[[M:[^:]+]]: memref<i64>)
// CHECK-NEXT:  %[[A:.+]] = arith.muli %[[X]], %[[X]] : i64
// CHECK-NEXT:  %[[B:.+]] = arith.addi %[[X]], %[[A]] : i64
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    memref.store %[[B]], %[[M]][] : memref<i64>
func.func @invariant_chain(%lb: index, %ub: index, %step: index, %x: i64, %m: memref<i64>) {
  scf.for %i = %lb to %ub step %step {
    %a = arith.muli %x, %x : i64
    %b = arith.addi %x, %a : i64
    memref.store %b, %m[] : memref<i64>
  }
  return
}

// -----

// Divisions move only where they cannot trap: a constant divisor that is
// not zero (and, when signed, not -1).

// CHECK-LABEL: func.func @divisions
// CHECK-DAG:   arith.divui %{{.+}}, %[[C5:[^ ]+]] : i32
// CHECK-DAG:   arith.ceildivui %{{.+}}, %[[C5]] : i32
// CHECK-DAG:   arith.remui %{{.+}}, %[[C5]] : i32
// CHECK-DAG:   arith.remsi %{{.+}}, %[[CM1:[^ ]+]] : i32
// CHECK-DAG:   arith.divsi %{{.+}}, %[[C5]] : i32
// CHECK-DAG:   arith.ceildivsi %{{.+}}, %[[C5]] : i32
// CHECK-DAG:   arith.floordivsi
// CHECK:       scf.for
// CHECK-DAG:     arith.divui %{{.+}}, %[[D:[^ ]+]] : i32
// CHECK-DAG:     arith.divui %{{.+}}, %[[C0:[^ ]+]] : i32
// CHECK-DAG:     arith.remsi %{{.+}}, %[[D]] : i32
// CHECK-DAG:     arith.divsi %{{.+}}, %[[CM1]] : i32
// CHECK-DAG:     arith.ceildivsi %{{.+}}, %[[CM1]] : i32
// CHECK-DAG:     arith.ceildivsi %{{.+}}, %[[C0]] : i32
// CHECK:       }
func.func @divisions(%lb: index, %ub: index, %step: index, %n: i32, %d: i32) {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %cm1 = arith.constant -1 : i32
  scf.for %i = %lb to %ub step %step {
    %0 = arith.divui %n, %d : i32
    %1 = arith.divui %n, %c0 : i32
    %2 = arith.divui %n, %c5 : i32
    %3 = arith.ceildivui %n, %c5 : i32
    %4 = arith.remui %n, %c5 : i32
    %5 = arith.remsi %n, %d : i32
    %6 = arith.remsi %n, %cm1 : i32
    %7 = arith.divsi %n, %cm1 : i32
    %8 = arith.divsi %n, %c5 : i32
    %9 = arith.ceildivsi %n, %cm1 : i32
    %10 = arith.ceildivsi %n, %c0 : i32
    %11 = arith.ceildivsi %n, %c5 : i32
    %12 = arith.floordivsi %n, %d : i32
  }
  return
}

// -----

// A dimension query moves when its index is a constant within the rank.

// CHECK-LABEL: func.func @dims
// CHECK-SAME:  (%[[T:[^:]+]]: tensor<?x?xf32>, %[[U:[^:]+]]: tensor<*xf32>, %[[M:[^:]+]]: memref<?xf32>, %[[K:[^:]+]]: index
// CHECK-DAG:   tensor.dim %[[T]], %[[C1:[^ ]+]] : tensor<?x?xf32>
// CHECK-DAG:   memref.dim %[[M]], %[[C0:[^ ]+]] : memref<?xf32>
// CHECK:       scf.for
// CHECK-DAG:     tensor.dim %[[T]], %[[K]] : tensor<?x?xf32>
// CHECK-DAG:     tensor.dim %[[T]], %[[C2:[^ ]+]] : tensor<?x?xf32>
// CHECK-DAG:     tensor.dim %[[U]], %[[C0]] : tensor<*xf32>
// CHECK-DAG:     memref.dim %[[M]], %[[C1]] : memref<?xf32>
// CHECK:       }
func.func @dims(%t: tensor<?x?xf32>, %u: tensor<*xf32>, %m: memref<?xf32>, %k: index, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %lb to %ub step %step {
    %0 = tensor.dim %t, %k : tensor<?x?xf32>
    %1 = tensor.dim %t, %c1 : tensor<?x?xf32>
    %2 = tensor.dim %t, %c2 : tensor<?x?xf32>
    %3 = tensor.dim %u, %c0 : tensor<*xf32>
    %4 = memref.dim %m, %c0 : memref<?xf32>
    %5 = memref.dim %m, %c1 : memref<?xf32>
  }
  return
}

// -----

// Both regions of scf.while are loop bodies.

// CHECK-LABEL: func.func @while_regions
// CHECK-SAME:  (%[[X:[^:]+]]: i32, %{{.+}}: i32)
// CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : i32
// CHECK-DAG:   %[[LIMIT:.+]] = arith.addi %[[X]], %[[C3]] : i32
// CHECK-DAG:   arith.constant 1 : i32
// CHECK:       scf.while
// CHECK-NEXT:    %[[CMP:.+]] = arith.cmpi slt, %{{.+}}, %[[LIMIT]] : i32
// CHECK-NEXT:    scf.condition(%[[CMP]])
// CHECK:       } do {
// CHECK-NEXT:  ^{{.*}}(%[[V:[^:]+]]: i32):
// CHECK-NEXT:    arith.addi %{{.+}}, %[[V]] : i32
func.func @while_regions(%x: i32, %y: i32) -> i32 {
  %0 = scf.while (%v = %y) : (i32) -> (i32) {
    %c3 = arith.constant 3 : i32
    %limit = arith.addi %x, %c3 : i32
    %cmp = arith.cmpi slt, %v, %limit : i32
    scf.condition(%cmp) %v : i32
  } do {
  ^bb0(%v: i32):
    %one = arith.constant 1 : i32
    %next = arith.addi %one, %v : i32
    scf.yield %next : i32
  }
  return %0 : i32
}

// -----

// A linalg op on tensors moves when its body may be speculated; one that
// divides by an element may not.

// CHECK-LABEL: func.func @linalg_on_tensors
// CHECK:       %[[G:.+]] = linalg.generic
// CHECK:         arith.mulf
// CHECK:       scf.for
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK:           arith.divui
// CHECK:         tensor.insert_slice %[[G]]
// CHECK:         tensor.insert_slice %[[D]]
func.func @linalg_on_tensors(%a: tensor<16x16xf32>, %b: tensor<16x16xi32>, %lb: index, %ub: index, %step: index, %acc: tensor<?x16xf32>, %iacc: tensor<?x16xi32>) -> (tensor<?x16xf32>, tensor<?x16xi32>) {
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%x = %acc, %y = %iacc) -> (tensor<?x16xf32>, tensor<?x16xi32>) {
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<16x16xf32>) outs(%a : tensor<16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %out : f32
      linalg.yield %m : f32
    } -> tensor<16x16xf32>
    %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%b : tensor<16x16xi32>) outs(%b : tensor<16x16xi32>) {
    ^bb0(%in: i32, %out: i32):
      %q = arith.divui %in, %out : i32
      linalg.yield %q : i32
    } -> tensor<16x16xi32>
    %nx = tensor.insert_slice %g into %x[%i, 0] [16, 16] [1, 1] : tensor<16x16xf32> into tensor<?x16xf32>
    %ny = tensor.insert_slice %d into %y[%i, 0] [16, 16] [1, 1] : tensor<16x16xi32> into tensor<?x16xi32>
    scf.yield %nx, %ny : tensor<?x16xf32>, tensor<?x16xi32>
  }
  return %r#0, %r#1 : tensor<?x16xf32>, tensor<?x16xi32>
}

// -----

// Reads of memory stay, even from memory the loop does not write.

// CHECK-LABEL: func.func @loads_stay
// CHECK:       scf.for
// CHECK-NEXT:    memref.load
func.func @loads_stay(%m: memref<4xf32>, %lb: index, %ub: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%s = %z) -> (f32) {
    %v = memref.load %m[%c0] : memref<4xf32>
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  return %r : f32
}
