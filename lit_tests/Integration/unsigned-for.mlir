// An unsigned scf.for from 0 to -2147483648 (2^31 unsigned) by 10^9 runs
// three times (a signed comparison would run it never); the last index is
// 2000000000.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:( 3, 2000000000 )

func.func @main() {
  %lb = arith.constant 0 : i32
  %ub = arith.constant -2147483648 : i32
  %step = arith.constant 1000000000 : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.for unsigned %i = %lb to %ub step %step iter_args(%n = %zero, %last = %zero) -> (i32, i32) : i32 {
    %n1 = arith.addi %n, %one : i32
    scf.yield %n1, %i : i32, i32
  }
  %v0 = vector.broadcast %r#0 : i32 to vector<2xi32>
  %v = vector.insert %r#1, %v0 [1] : i32 into vector<2xi32>
  vector.print %v : vector<2xi32>
  return
}
