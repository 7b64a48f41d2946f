// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(func.func(canonicalize{test-convergence}))' | FileCheck %s

// scf.if: results both branches take from outside become arith.select (or
// the value itself where the branches agree); the rest stay in the if.

// CHECK-LABEL: func.func @if_to_select(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK:         %[[SEL:.*]] = arith.select %[[C]], %[[A]], %[[B]] : i32
// CHECK:         %[[IF:.*]] = scf.if %[[C]] -> (i32) {
// CHECK-NEXT:      %[[X:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:      scf.yield %[[X]] : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[B]] : i32
// CHECK-NEXT:    }
// CHECK:         return %[[SEL]], %[[A]], %[[IF]] : i32, i32, i32
func.func @if_to_select(%c: i1, %a: i32, %b: i32) -> (i32, i32, i32) {
  %0, %1, %2 = scf.if %c -> (i32, i32, i32) {
    %x = arith.addi %a, %b : i32
    scf.yield %a, %a, %x : i32, i32, i32
  } else {
    scf.yield %b, %a, %b : i32, i32, i32
  }
  return %0, %1, %2 : i32, i32, i32
}

// -----

// An i1 result of constants is the condition or its negation; a result
// both branches yield alike is that value, and then goes from the if.

// CHECK-LABEL: func.func @if_yields_condition(
// CHECK-SAME:      %[[C:.*]]: i1)
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         %[[NOT:.*]] = arith.xori %[[C]], %[[TRUE]] : i1
// CHECK-NOT:     scf.if
// CHECK:         return %[[C]], %[[NOT]], %[[C]] : i1, i1, i1
func.func @if_yields_condition(%c: i1) -> (i1, i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %0, %1, %2 = scf.if %c -> (i1, i1, i1) {
    scf.yield %true, %false, %c : i1, i1, i1
  } else {
    scf.yield %false, %true, %c : i1, i1, i1
  }
  return %0, %1, %2 : i1, i1, i1
}

// -----

// Inside the branches the condition is a constant (true in the then
// branch, false in the else branch); outside it stays.

// CHECK-LABEL: func.func @if_condition_propagation(
// CHECK-SAME:      %[[C:.*]]: i1, %[[M:.*]]: memref<i1>, %[[V:.*]]: f32, %[[F:.*]]: memref<f32>)
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         scf.if %[[C]] {
// CHECK-NEXT:      memref.store %[[TRUE]], %[[M]][]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %[[V]], %[[F]][]
// CHECK-NEXT:    }
// CHECK:         memref.store %[[C]], %[[M]][]
// CHECK-LABEL: func.func @if_condition_propagation_else(
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK:         scf.if %[[C]] {
// CHECK-NEXT:      memref.store %[[V]], %[[F]][]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %[[FALSE]], %[[M]][]
// CHECK-NEXT:    }
func.func @if_condition_propagation(%c: i1, %m: memref<i1>, %v: f32, %f: memref<f32>) {
  scf.if %c {
    memref.store %c, %m[] : memref<i1>
  } else {
    memref.store %v, %f[] : memref<f32>
  }
  memref.store %c, %m[] : memref<i1>
  return
}

func.func @if_condition_propagation_else(%c: i1, %m: memref<i1>, %v: f32, %f: memref<f32>) {
  scf.if %c {
    memref.store %v, %f[] : memref<f32>
  } else {
    memref.store %c, %m[] : memref<i1>
  }
  return
}

// -----

// An empty else branch goes; a non-empty one and the branches' ops stay.

// CHECK-LABEL: func.func @empty_else
// CHECK:         scf.if
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @empty_else(%c: i1, %m: memref<f32>, %v: f32) {
  scf.if %c {
    memref.store %v, %m[] : memref<f32>
  } else {
  }
  return
}

// -----

// scf.for: an iteration argument forwarded unchanged, one whose initial value
// is what it yields, one unused with an unused result, and a duplicate of
// another go; the loop keeps the one that changes.

// CHECK-LABEL: func.func @for_iter_args(
// CHECK-SAME:      %[[LB:.*]]: index, %[[UB:.*]]: index, %[[S:.*]]: index, %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK:         %[[R:.*]] = scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[S]] iter_args(%[[X:.*]] = %[[A]]) -> (i32) {
// CHECK-NEXT:      %[[N:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:      scf.yield %[[N]] : i32
// CHECK-NEXT:    }
// CHECK:         return %[[A]], %[[B]], %[[R]], %[[R]] : i32, i32, i32, i32
func.func @for_iter_args(%lb: index, %ub: index, %s: index, %a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %0:5 = scf.for %i = %lb to %ub step %s iter_args(%p = %a, %q = %b, %x = %a, %y = %a, %u = %b) -> (i32, i32, i32, i32, i32) {
    %n = arith.addi %x, %x : i32
    scf.yield %p, %b, %n, %n, %u : i32, i32, i32, i32, i32
  }
  return %0#0, %0#1, %0#2, %0#3 : i32, i32, i32, i32
}

// -----

// An empty loop that runs at least once and yields a value from outside is
// that value; an unsigned loop whose bounds only look reversed as signed
// numbers keeps running.

// CHECK-LABEL: func.func @trivial_loops(
// CHECK-SAME:      %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK:         %[[U:.*]] = scf.for unsigned
// CHECK:         return %[[B]], %[[U]] : i32, i32
func.func @trivial_loops(%a: i32, %b: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a) -> i32 {
    scf.yield %b : i32
  }
  %lb = arith.constant 0 : i32
  %ub = arith.constant -100 : i32
  %step = arith.constant 1000 : i32
  %1 = scf.for unsigned %j = %lb to %ub step %step iter_args(%y = %a) -> (i32) : i32 {
    %n = arith.addi %y, %j : i32
    scf.yield %n : i32
  }
  return %0, %1 : i32, i32
}

// -----

// A tensor.cast to a less static type on the way into the loop moves inside
// it, so the loop carries the static type.

// CHECK-LABEL: func.func @for_tensor_cast(
// CHECK-SAME:      %[[T:.*]]: tensor<4x8xf32>
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args(%[[X:.*]] = %[[T]]) -> (tensor<4x8xf32>) {
// CHECK-NEXT:      %[[IN:.*]] = tensor.cast %[[X]] : tensor<4x8xf32> to tensor<?x?xf32>
// CHECK-NEXT:      %[[D:.*]] = func.call @step(%[[IN]])
// CHECK-NEXT:      %[[OUT:.*]] = tensor.cast %[[D]] : tensor<?x?xf32> to tensor<4x8xf32>
// CHECK-NEXT:      scf.yield %[[OUT]] : tensor<4x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[RES:.*]] = tensor.cast %[[R]] : tensor<4x8xf32> to tensor<?x?xf32>
// CHECK-NEXT:    return %[[RES]]
func.func private @step(tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @for_tensor_cast(%t: tensor<4x8xf32>, %n: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = tensor.cast %t : tensor<4x8xf32> to tensor<?x?xf32>
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %0) -> (tensor<?x?xf32>) {
    %2 = func.call @step(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
    scf.yield %2 : tensor<?x?xf32>
  }
  return %1 : tensor<?x?xf32>
}

// -----

// scf.parallel: a dimension of one iteration becomes its lower bound; a
// nest of two parallel loops whose inner bounds do not use the outer
// indices becomes one loop; one of no iterations goes.

// CHECK-LABEL: func.func @parallel(
// CHECK-SAME:      %[[M:.*]]: memref<?x?x?xf32>, %[[N:.*]]: index, %[[V:.*]]: f32)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0]], %[[C0]]) to (%[[N]], %[[N]]) step (%[[C1]], %[[C1]]) {
// CHECK-NEXT:      memref.store %[[V]], %[[M]][%[[I]], %[[C5]], %[[J]]]
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @parallel(%m: memref<?x?x?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  scf.parallel (%i, %k) = (%c0, %c5) to (%n, %c6) step (%c1, %c1) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      memref.store %v, %m[%i, %k, %j] : memref<?x?x?xf32>
    }
  }
  scf.parallel (%i) = (%c5) to (%c5) step (%c1) {
    memref.store %v, %m[%i, %i, %i] : memref<?x?x?xf32>
  }
  return
}

// -----

// A reduction loop of one iteration is its body and its reductions on the
// initial values.

// CHECK-LABEL: func.func @parallel_single_reduce(
// CHECK-SAME:      %[[A:.*]]: index)
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[S:.*]] = arith.addi %[[A]], %[[C3]] : index
// CHECK:         return %[[S]] : index
func.func @parallel_single_reduce(%a: index) -> index {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %0 = scf.parallel (%i) = (%c3) to (%c4) step (%c1) init(%a) -> index {
    scf.reduce(%i : index) {
    ^bb0(%x: index, %y: index):
      %s = arith.addi %x, %y : index
      scf.reduce.return %s : index
    }
  }
  return %0 : index
}

// -----

// Left alone: an if whose results come from its own branches, a loop whose
// argument changes, and a nest of parallel loops whose inner bounds use the
// outer index.

// CHECK-LABEL: func.func @left_alone
// CHECK:         scf.if %{{.*}} -> (i32)
// CHECK:         scf.for
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK:           scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[I]])
func.func @left_alone(%c: i1, %a: i32, %n: index, %m: memref<?xf32>, %v: f32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    %x = arith.muli %a, %a : i32
    scf.yield %x : i32
  } else {
    %y = arith.addi %a, %a : i32
    scf.yield %y : i32
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (i32) {
    %y = arith.addi %x, %a : i32
    scf.yield %y : i32
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%i) step (%c1) {
      memref.store %v, %m[%j] : memref<?xf32>
    }
  }
  return %0, %1 : i32, i32
}
