// RUN: mlkit-opt %s | filecheck %s
// RUN: not mlkit-opt %s --no-implicit-module 2>&1 | filecheck %s --check-prefix=NOIMPLICIT
// RUN: mlkit-opt %S/Inputs/module.mlir --no-implicit-module | filecheck %s --check-prefix=EXPLICIT

// Top-level ops are wrapped in a builtin.module.
// CHECK: builtin.module {
// CHECK-NEXT: func.func @f
// NOIMPLICIT: error: builtin.module operation expected
// EXPLICIT: builtin.module attributes {test.attr} {
func.func @f() {
  return
}
