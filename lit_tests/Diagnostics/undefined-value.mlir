// RUN: not mlkit-opt %s 2>&1 | filecheck %s

// CHECK: undefined-value.mlir:[[# @LINE + 2]]:19: error: values used but not defined: [%x]
func.func @f() {
  %0 = arith.addi %x, %x : i32
  return
}
