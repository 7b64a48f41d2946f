// Canonicalization of cf branches: pass-through chains collapse to their end
// (every branch of the chain retargeted on the way), a loop of pass-through
// blocks is not entered, and a branch condition is known in successors that
// have no other predecessor (not in regions nested there).
// RUN: mlkit-opt %s -p 'builtin.module(canonicalize)' --allow-unregistered-dialect --split-input-file | filecheck %s

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK-NEXT:   cf.cond_br %[[C]], ^[[END:.*]](%[[X]] : i32), ^[[R:.*]]
// CHECK-NEXT: ^[[END]](%[[Z:.*]]: i32):
// CHECK-NEXT:   return %[[Z]] : i32
// CHECK-NEXT: ^[[R]]:
// CHECK-NEXT:   %[[S:.*]] = arith.addi %[[Y]], %[[Y]]
// CHECK-NEXT:   cf.br ^[[END]](%[[S]] : i32)
func.func @chain(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^a, ^r
^a:
  cf.br ^m2(%x : i32)
^m2(%v: i32):
  cf.br ^m1(%v : i32)
^m1(%w: i32):
  cf.br ^m0(%w : i32)
^m0(%z: i32):
  return %z : i32
^r:
  %s = arith.addi %y, %y : i32
  cf.br ^m1(%s : i32)
}

// Both successors reach the same block: a select.
// CHECK-LABEL: func.func @chains_meet
// CHECK-NEXT:   %[[S:.*]] = arith.select
// CHECK-NEXT:   return %[[S]] : i32
func.func @chains_meet(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^m1(%x : i32)
^b:
  cf.br ^m2(%y : i32)
^m2(%v: i32):
  cf.br ^m1(%v : i32)
^m1(%w: i32):
  cf.br ^m0(%w : i32)
^m0(%z: i32):
  return %z : i32
}

// -----

// A block whose argument has another use does not pass through.
// CHECK-LABEL: func.func @argument_used
// CHECK:         arith.addi
// CHECK:         cf.br ^[[M:.*]](%{{.*}} : i32)
// CHECK:       ^[[M]](%{{.*}}: i32):
func.func @argument_used(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^a(%x : i32), ^b
^a(%v: i32):
  %s = arith.addi %v, %v : i32
  cf.br ^m(%s : i32)
^b:
  cf.br ^m(%y : i32)
^m(%z: i32):
  return %z : i32
}

// -----

// The loop is kept (its blocks merged, as upstream does), not collapsed.
// CHECK-LABEL: func.func @pass_through_loop
// CHECK-NEXT:   cf.cond_br %{{.*}}, ^[[A:.*]], ^[[D:.*]]
// CHECK-NEXT: ^[[A]]:
// CHECK-NEXT:   cf.br ^[[A]]
// CHECK-NEXT: ^[[D]]:
// CHECK-NEXT:   return
func.func @pass_through_loop(%c: i1) {
  cf.cond_br %c, ^a, ^d
^a:
  cf.br ^b
^b:
  cf.br ^a
^d:
  return
}

// -----

// CHECK-LABEL: func.func @truth
// CHECK-SAME: (%[[C:.*]]: i1, %[[D:.*]]: i1,
// CHECK-DAG:    %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:    %[[FALSE:.*]] = arith.constant false
// CHECK:        cf.cond_br %[[C]], ^[[T:.*]], ^[[E:.*]]
// CHECK:      ^[[T]]:
// CHECK-NEXT:   "test.use"(%[[TRUE]])
// CHECK-NEXT:   scf.if %[[D]] {
// CHECK-NEXT:     "test.use"(%[[C]])
// CHECK:      ^[[E]]:
// CHECK-NEXT:   "test.use"(%[[FALSE]])
func.func @truth(%c: i1, %d: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^t, ^e
^t:
  "test.use"(%c) : (i1) -> ()
  scf.if %d {
    "test.use"(%c) : (i1) -> ()
  }
  return %x : i32
^e:
  "test.use"(%c) : (i1) -> ()
  return %x : i32
}

// -----

// ^e has two predecessors: %c is not known there.
// CHECK-LABEL: func.func @two_predecessors
// CHECK-SAME: (%[[C:.*]]: i1,
// CHECK:      "test.use"(%[[C]])
func.func @two_predecessors(%c: i1, %d: i1) {
  cf.cond_br %c, ^t, ^e
^t:
  cf.cond_br %d, ^t, ^e
^e:
  "test.use"(%c) : (i1) -> ()
  return
}
