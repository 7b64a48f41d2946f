// RUN: mlkit-opt %s | filecheck %s
// RUN: mlkit-opt %s --no-implicit-module | filecheck %s --check-prefix=NOIMPLICIT
// RUN: not mlkit-opt %s --no-implicit-module -p 'builtin.module(cse)' 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: mlkit-opt %s --no-implicit-module -p 'func.func(cse)' | filecheck %s --check-prefix=NOIMPLICIT
// RUN: mlkit-opt %S/Inputs/module.mlir --no-implicit-module | filecheck %s --check-prefix=EXPLICIT
// RUN: not mlkit-opt %S/Inputs/two-funcs.mlir --no-implicit-module 2>&1 | filecheck %s --check-prefix=TWO

// Top-level ops are wrapped in a builtin.module unless --no-implicit-module.
// CHECK: module {
// CHECK-NEXT: func.func @f
// NOIMPLICIT-NOT: builtin.module
// NOIMPLICIT: func.func @f
// ANCHOR: implicit-module.mlir:[[# @LINE + 4]]:1: error: can't run 'builtin.module' pass manager on 'func.func' op
// EXPLICIT: module attributes {test.attr} {
// TWO: two-funcs.mlir:2:1: error: source must contain a single top-level operation if --no-implicit-module is specified

func.func @f() {
  return
}
