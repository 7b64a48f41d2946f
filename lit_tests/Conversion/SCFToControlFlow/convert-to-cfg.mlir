// RUN: mlkit-opt %s -split-input-file -convert-scf-to-cf | filecheck %s
// RUN: mlkit-opt %s -split-input-file -convert-scf-to-cf='allow-pattern-rollback=0' | filecheck %s

// scf.for: a condition block carrying the iv, a body, and an exit.
// CHECK-LABEL: func.func @simple_for
// CHECK-SAME:  (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index)
// CHECK-NEXT:   cf.br ^[[COND:.*]](%[[LB]] : index)
// CHECK-NEXT: ^[[COND]](%[[IV:.*]]: index):
// CHECK-NEXT:   %[[CMP:.*]] = arith.cmpi slt, %[[IV]], %[[UB]] : index
// CHECK-NEXT:   cf.cond_br %[[CMP]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK-NEXT: ^[[BODY]]:
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[IV]], %[[STEP]] : index
// CHECK-NEXT:   cf.br ^[[COND]](%[[NEXT]] : index)
// CHECK-NEXT: ^[[EXIT]]:
// CHECK-NEXT:   return
func.func @simple_for(%lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {
  }
  return
}

// -----

// scf.while: "before" blocks, then "after" blocks, then the continuation;
// the results are the condition's operands, visible by dominance.
// CHECK-LABEL: func.func @while
// CHECK-SAME:  (%[[A:.*]]: i32, %[[N:.*]]: i32)
// CHECK-NEXT:   cf.br ^[[BEFORE:.*]](%[[A]] : i32)
// CHECK-NEXT: ^[[BEFORE]](%[[X:.*]]: i32):
// CHECK-NEXT:   %[[C:.*]] = arith.cmpi slt, %[[X]], %[[N]] : i32
// CHECK-NEXT:   cf.cond_br %[[C]], ^[[AFTER:.*]](%[[X]] : i32), ^[[CONT:.*]]
// CHECK-NEXT: ^[[AFTER]](%[[Y:.*]]: i32):
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[Z:.*]] = arith.addi %[[Y]], %[[ONE]] : i32
// CHECK-NEXT:   cf.br ^[[BEFORE]](%[[Z]] : i32)
// CHECK-NEXT: ^[[CONT]]:
// CHECK-NEXT:   return %[[X]] : i32
func.func @while(%a: i32, %n: i32) -> i32 {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = arith.cmpi slt, %x, %n : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    %one = arith.constant 1 : i32
    %z = arith.addi %y, %one : i32
    scf.yield %z : i32
  }
  return %r : i32
}

// -----

// A do-while ("after" only forwards its arguments) loops on the "before" block.
// CHECK-LABEL: func.func @do_while
// CHECK-NEXT:   cf.br ^[[BEFORE:.*]](%{{.*}} : i32)
// CHECK-NEXT: ^[[BEFORE]](%[[X:.*]]: i32):
// CHECK:        %[[Z:.*]] = arith.addi %[[X]], %{{.*}} : i32
// CHECK:        cf.cond_br %{{.*}}, ^[[BEFORE]](%[[Z]] : i32), ^[[CONT:.*]]
// CHECK-NEXT: ^[[CONT]]:
// CHECK-NEXT:   return %[[Z]] : i32
func.func @do_while(%a: i32, %n: i32) -> i32 {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %one = arith.constant 1 : i32
    %z = arith.addi %x, %one : i32
    %c = arith.cmpi slt, %z, %n : i32
    scf.condition(%c) %z : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  return %r : i32
}

// -----

// scf.execute_region: a branch in, every scf.yield branches to the continuation.
// CHECK-LABEL: func.func @execute_region
// CHECK-NEXT:   cf.br ^[[ENTRY:.*]]
// CHECK-NEXT: ^[[ENTRY]]:
// CHECK-NEXT:   cf.cond_br %{{.*}}, ^[[T:.*]], ^[[F:.*]]
// CHECK-NEXT: ^[[T]]:
// CHECK-NEXT:   cf.br ^[[CONT:.*]](%{{.*}} : i32)
// CHECK-NEXT: ^[[F]]:
// CHECK-NEXT:   %[[S:.*]] = arith.addi
// CHECK-NEXT:   cf.br ^[[CONT]](%[[S]] : i32)
// CHECK-NEXT: ^[[CONT]](%[[R:.*]]: i32):
// CHECK-NEXT:   return %[[R]] : i32
func.func @execute_region(%a: i32, %c: i1) -> i32 {
  %r = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %a : i32
  ^bb2:
    %z = arith.addi %a, %a : i32
    scf.yield %z : i32
  }
  return %r : i32
}

// -----

// scf.parallel: a loop nest, the reduction accumulated in the inner loop.
// (Written in generic form: xDSL's scf.parallel has no custom syntax.)
// CHECK-LABEL: func.func @parallel
// CHECK-SAME:  (%[[M:.*]]: memref<?x?xf32>, %[[N:.*]]: index)
// CHECK:        cf.br ^[[OC:.*]](%{{.*}}, %[[INIT:.*]] : index, f32)
// CHECK-NEXT: ^[[OC]](%[[I:.*]]: index, %[[OACC:.*]]: f32):
// CHECK-NEXT:   arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK-NEXT:   cf.cond_br %{{.*}}, ^[[OB:.*]], ^[[EXIT:.*]]
// CHECK-NEXT: ^[[OB]]:
// CHECK-NEXT:   cf.br ^[[IC:.*]](%{{.*}}, %[[OACC]] : index, f32)
// CHECK-NEXT: ^[[IC]](%[[J:.*]]: index, %[[IACC:.*]]: f32):
// CHECK-NEXT:   arith.cmpi slt, %[[J]], %[[N]] : index
// CHECK-NEXT:   cf.cond_br %{{.*}}, ^[[IB:.*]], ^[[OT:.*]]
// CHECK-NEXT: ^[[IB]]:
// CHECK-NEXT:   %[[V:.*]] = memref.load %[[M]][%[[I]], %[[J]]]
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[IACC]], %[[V]] : f32
// CHECK-NEXT:   %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK-NEXT:   cf.br ^[[IC]](%[[J1]], %[[S]] : index, f32)
// CHECK-NEXT: ^[[OT]]:
// CHECK-NEXT:   %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:   cf.br ^[[OC]](%[[I1]], %[[IACC]] : index, f32)
// CHECK-NEXT: ^[[EXIT]]:
// CHECK-NEXT:   return %[[OACC]] : f32
func.func @parallel(%m: memref<?x?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1, %z) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      scf.reduce.return %s : f32
    }
  }) : (index, index, index, index, index, index, f32) -> f32
  return %r : f32
}

// -----

// scf.index_switch: cf.switch on an i64 cast of the index.
// CHECK-LABEL: func.func @index_switch
// CHECK:        %[[C:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:   cf.switch %[[C]] : i64, [
// CHECK-NEXT:     default: ^[[D:[^,]*]],
// CHECK-NEXT:     4294967296: ^[[B:.*]]
// CHECK-NEXT:   ]
func.func @index_switch(%i: index, %a: i32) -> i32 {
  %r = scf.index_switch %i -> i32
  case 4294967296 {
    scf.yield %a : i32
  }
  default {
    %c = arith.constant 7 : i32
    scf.yield %c : i32
  }
  return %r : i32
}

// -----

// Unstructured control flow and other ops are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:   cf.cond_br %{{.*}}, ^[[A:.*]], ^[[B:.*]]
// CHECK-NEXT: ^[[A]]:
// CHECK-NEXT:   cf.br ^[[B]]
// CHECK-NEXT: ^[[B]]:
// CHECK-NEXT:   return
func.func @untouched(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb2
^bb2:
  return
}

// -----

// An unsigned loop compares the induction variable with its upper bound
// unsigned: from 0 to -100 (4294967196 unsigned) it runs.
// CHECK-LABEL: func.func @unsigned_for
// CHECK:         cf.br ^[[COND:.*]](%{{.*}} : i32)
// CHECK:       ^[[COND]](%[[IV:.*]]: i32):
// CHECK-NEXT:    %[[CMP:.*]] = arith.cmpi ult, %[[IV]], %{{.*}} : i32
// CHECK-NEXT:    cf.cond_br %[[CMP]]
func.func @unsigned_for(%m: memref<i32>) {
  %lb = arith.constant 0 : i32
  %ub = arith.constant -100 : i32
  %step = arith.constant 1000000000 : i32
  scf.for unsigned %i = %lb to %ub step %step : i32 {
    memref.store %i, %m[] : memref<i32>
  }
  return
}
