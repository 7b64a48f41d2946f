// RUN: not mlkit-opt %s 2>&1 | filecheck %s

// CHECK: undefined-value.mlir:[[# @LINE + 2]]:19: error: use of undeclared SSA value name
func.func @f() {
  %0 = arith.addi %x, %x : i32
  return
}
