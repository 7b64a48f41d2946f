// index folds only where a 32-bit and a 64-bit target agree.
// RUN: mlkit-opt %s -canonicalize | filecheck %s

// CHECK-LABEL: func.func @wraps_the_same
// CHECK-DAG: %[[SUM:.*]] = index.constant 6000000000
// CHECK-DAG: %[[QUOT:.*]] = index.constant 3
// CHECK: return %[[SUM]], %[[QUOT]]
func.func @wraps_the_same() -> (index, index) {
  %big = index.constant 3000000000
  %seven = index.constant 7
  %two = index.constant 2
  %sum = index.add %big, %big
  %quot = index.divs %seven, %two
  return %sum, %quot : index, index
}

// CHECK-LABEL: func.func @depends_on_the_width
// CHECK: index.divu
// CHECK: index.shl
// CHECK: index.cmp ult
// CHECK: index.divs
func.func @depends_on_the_width() -> (index, index, i1, index) {
  %wide = index.constant 0x100000000
  %two = index.constant 2
  %forty = index.constant 40
  %zero = index.constant 0
  // 2^32 / 2 is 2^31 on 64 bits, 0 on 32 bits
  %q = index.divu %wide, %two
  // a shift by 40 is defined on 64 bits only
  %s = index.shl %two, %forty
  // 2 < 2^32 on 64 bits; 2 < 0 is false on 32 bits
  %c = index.cmp ult(%two, %wide)
  // division by zero never folds
  %d = index.divs %two, %zero
  return %q, %s, %c, %d : index, index, i1, index
}

// CHECK-LABEL: func.func @with_a_variable
// CHECK-SAME: (%[[X:.*]]: index)
// CHECK-DAG: %[[TRUE:.*]] = index.bool.constant true
// CHECK-DAG: %[[FALSE:.*]] = index.bool.constant false
// CHECK-DAG: %[[C0:.*]] = index.constant 0
// CHECK: %[[LT:.*]] = index.cmp slt(%[[X]], %[[C0]])
// CHECK: return %[[X]], %[[C0]], %[[TRUE]], %[[FALSE]], %[[TRUE]], %[[LT]]
func.func @with_a_variable(%x: index) -> (index, index, i1, i1, i1, i1) {
  %zero = index.constant 0
  %one = index.constant 1
  %ten = index.constant 10
  %a = index.mul %x, %one
  %m = index.mul %x, %zero
  // x <= x, and max(x, 10) is never below 10
  %same = index.cmp sle(%x, %x)
  %big_enough = index.maxs %x, %ten
  %below = index.cmp slt(%big_enough, %ten)
  %ge = index.cmp sge(%big_enough, %ten)
  // (x - 0) < 0 compares x with 0 itself
  %d = index.sub %x, %zero
  %lt = index.cmp slt(%d, %zero)
  return %a, %m, %same, %below, %ge, %lt : index, index, i1, i1, i1, i1
}

// CHECK-LABEL: func.func @casts_into_index
// CHECK-DAG: index.constant -1000
// CHECK-DAG: index.constant 281474976709656
// CHECK: index.casts %{{.*}} : index to i48
func.func @casts_into_index(%x: index) -> (index, index, i48) {
  %v = arith.constant -1000 : i48
  %s = index.casts %v : i48 to index
  %u = index.castu %v : i48 to index
  // upstream's index dialect builds no i48 constant, so this stays
  %c = index.constant 5
  %n = index.casts %c : index to i48
  return %s, %u, %n : index, index, i48
}
