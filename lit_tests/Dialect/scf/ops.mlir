// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of the scf ops in upstream MLIR's custom syntax; the same file is
// read by upstream MLIR in tests/test_dialect_scf.py.

// CHECK-LABEL: func.func @if_ops
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: index, %[[B:.*]]: index)
func.func @if_ops(%c: i1, %a: index, %b: index) -> (index, index) {
  // One result type may be written without parentheses; it prints with them.
  // CHECK-NEXT: %[[R0:.*]] = scf.if %[[C]] -> (index) {
  // CHECK-NEXT:   scf.yield %[[A]] : index
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %[[B]] : index
  // CHECK-NEXT: }
  %0 = scf.if %c -> index {
    scf.yield %a : index
  } else {
    scf.yield %b : index
  }
  // CHECK-NEXT: %[[R1:.*]]:2 = scf.if %[[C]] -> (index, index) {
  %1:2 = scf.if %c -> (index, index) {
    scf.yield %a, %b : index, index
  } else {
    scf.yield %b, %a : index, index
  }
  // CHECK: scf.if %[[C]] {
  // CHECK-NEXT: } {tag = 1 : i32}
  scf.if %c {
  } {tag = 1 : i32}
  return %0, %1#0 : index, index
}

// CHECK-LABEL: func.func @for_ops
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[ST:.*]]: index, %[[T:.*]]: tensor<?xf32>, %[[X:.*]]: f32)
func.func @for_ops(%lb: index, %ub: index, %st: index, %t: tensor<?xf32>, %x: f32) -> tensor<?xf32> {
  // CHECK-NEXT: %[[R:.*]] = scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[ST]] iter_args(%[[ARG:.*]] = %[[T]]) -> (tensor<?xf32>) {
  // CHECK-NEXT:   scf.yield %[[ARG]] : tensor<?xf32>
  // CHECK-NEXT: }
  %0 = scf.for %i = %lb to %ub step %st iter_args(%a = %t) -> tensor<?xf32> {
    scf.yield %a : tensor<?xf32>
  }
  // CHECK-NEXT: scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[ST]] iter_args(%{{.*}} = %[[T]], %{{.*}} = %[[X]]) -> (tensor<?xf32>, f32) {
  %1:2 = scf.for %i = %lb to %ub step %st iter_args(%a = %t, %b = %x) -> (tensor<?xf32>, f32) {
    scf.yield %a, %b : tensor<?xf32>, f32
  }
  // CHECK: scf.for unsigned %{{.*}} = %[[LB]] to %[[UB]] step %[[ST]] {
  // CHECK-NEXT: }
  scf.for unsigned %i = %lb to %ub step %st {
  }
  // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
  // CHECK-NEXT: } {tag = 2 : i32}
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %c5 step %c1 : i32 {
  } {tag = 2 : i32}
  return %0 : tensor<?xf32>
}

// CHECK-LABEL: func.func @execute_region
func.func @execute_region(%x: f32, %y: i32) -> i32 {
  // A single result type prints without parentheses.
  // CHECK: %[[E:.*]] = scf.execute_region -> i32 {
  // CHECK-NEXT: scf.yield %{{.*}} : i32
  %0 = scf.execute_region -> (i32) {
    scf.yield %y : i32
  }
  // CHECK: scf.execute_region -> i32 no_inline {
  %1 = scf.execute_region -> i32 no_inline {
    scf.yield %y : i32
  }
  // CHECK: scf.execute_region -> (i32, f32) {
  // CHECK-NEXT: cf.br ^bb1
  // CHECK-NEXT: ^bb1:
  %2:2 = scf.execute_region -> (i32, f32) {
    cf.br ^bb1
  ^bb1:
    scf.yield %y, %x : i32, f32
  }
  // CHECK: scf.execute_region {
  // CHECK-NEXT: scf.yield
  scf.execute_region {
    scf.yield
  }
  return %0 : i32
}

// CHECK-LABEL: func.func @parallel
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[ST:.*]]: index, %[[M:.*]]: memref<?x?xf32>, %[[X:.*]]: f32, %[[Y:.*]]: i32)
func.func @parallel(%lb: index, %ub: index, %st: index, %m: memref<?x?xf32>, %x: f32, %y: i32) -> f32 {
  // CHECK-NEXT: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[LB]], %[[LB]]) to (%[[UB]], %[[UB]]) step (%[[ST]], %[[ST]]) {
  // CHECK-NEXT:   memref.store %[[X]], %[[M]][%[[I]], %[[J]]] : memref<?x?xf32>
  // CHECK-NEXT:   scf.reduce
  // CHECK-NEXT: }
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
    memref.store %x, %m[%i, %j] : memref<?x?xf32>
  }
  // CHECK-NEXT: %[[R:.*]] = scf.parallel (%[[I:.*]]) = (%[[LB]]) to (%[[UB]]) step (%[[ST]]) init (%[[X]]) -> f32 {
  // CHECK-NEXT:   %[[V:.*]] = memref.load %[[M]][%[[I]], %[[I]]] : memref<?x?xf32>
  // CHECK-NEXT:   scf.reduce(%[[V]] : f32) {
  // CHECK-NEXT:   ^bb0(%[[L:.*]]: f32, %[[RR:.*]]: f32):
  // CHECK-NEXT:     %[[S:.*]] = arith.addf %[[L]], %[[RR]] : f32
  // CHECK-NEXT:     scf.reduce.return %[[S]] : f32
  // CHECK-NEXT:   }
  // CHECK-NEXT: }
  %0 = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x) -> f32 {
    %v = memref.load %m[%i, %i] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  // CHECK-NEXT: scf.parallel (%{{.*}}) = (%[[LB]]) to (%[[UB]]) step (%[[ST]]) init (%[[X]], %[[Y]]) -> (f32, i32) {
  // CHECK-NEXT:   scf.reduce(%[[X]], %[[Y]] : f32, i32) {
  // CHECK:        }, {
  // CHECK:        }
  // CHECK-NEXT: } {mapping = "x"}
  %1:2 = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x, %y) -> (f32, i32) {
    scf.reduce(%x, %y : f32, i32) {
    ^bb0(%l: f32, %r: f32):
      scf.reduce.return %l : f32
    }, {
    ^bb0(%l: i32, %r: i32):
      scf.reduce.return %r : i32
    }
  } {mapping = "x"}
  return %0 : f32
}

// CHECK-LABEL: func.func @while_switch
func.func @while_switch(%a: index, %b: index) -> index {
  // CHECK: scf.while (%{{.*}} = %{{.*}}) : (index) -> (index, index) {
  // CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : index, index
  // CHECK: } do {
  // CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index):
  // CHECK-NEXT: scf.yield %{{.*}} : index
  %0:2 = scf.while (%arg = %a) : (index) -> (index, index) {
    %cond = arith.cmpi slt, %arg, %b : index
    scf.condition(%cond) %arg, %arg : index, index
  } do {
  ^bb0(%x: index, %y: index):
    scf.yield %x : index
  }
  // CHECK: scf.index_switch %{{.*}} -> index
  // CHECK-NEXT: case 2 {
  // CHECK: default {
  %1 = scf.index_switch %a -> index
  case 2 {
    scf.yield %b : index
  }
  default {
    scf.yield %a : index
  }
  // An empty region gets its implicit scf.yield.
  // CHECK: scf.index_switch %{{.*}}{{ *$}}
  // CHECK-NEXT: case 1 {
  // CHECK: default {
  scf.index_switch %a
  case 1 {
    scf.yield
  }
  default {
  }
  return %1 : index
}

// CHECK-LABEL: func.func @forall
// CHECK-SAME: (%[[N:.*]]: index, %[[T:.*]]: tensor<?xf32>, %[[M:.*]]: memref<?xf32>, %[[X:.*]]: f32)
func.func @forall(%n: index, %t: tensor<?xf32>, %m: memref<?xf32>, %x: f32) -> tensor<?xf32> {
  // CHECK-NEXT: scf.forall (%[[I:.*]], %{{.*}}) in (4, %[[N]]) {
  // CHECK-NEXT:   memref.store %[[X]], %[[M]][%[[I]]] : memref<?xf32>
  // CHECK-NEXT: }
  scf.forall (%i, %j) in (4, %n) {
    memref.store %x, %m[%i] : memref<?xf32>
  }
  // CHECK-NEXT: scf.forall (%{{.*}}) = (0) to (%[[N]]) step (2) {
  // CHECK-NEXT: }
  scf.forall (%i) = (0) to (%n) step (2) {
  }
  // CHECK-NEXT: scf.forall (%{{.*}}, %{{.*}}) = (%[[N]], 0) to (8, %[[N]]) step (2, %[[N]]) {
  // CHECK-NEXT: }
  scf.forall (%i, %j) = (%n, 0) to (8, %n) step (2, %n) {
  }
  // CHECK-NEXT: %[[R:.*]] = scf.forall (%{{.*}}) in (%[[N]]) shared_outs(%{{.*}} = %[[T]]) -> (tensor<?xf32>) {
  // CHECK-NEXT:   scf.forall.in_parallel {
  // CHECK-NEXT:   }
  // CHECK-NEXT: }
  %r = scf.forall (%i) in (%n) shared_outs(%o = %t) -> (tensor<?xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<?xf32>
}
