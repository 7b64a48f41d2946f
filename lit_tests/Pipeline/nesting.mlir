// RUN: mlkit-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(func.func(cse),canonicalize)' | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(any(cse))' | filecheck %s
// RUN: mlkit-opt %s -p 'cse' | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module()' | filecheck %s --check-prefix=NOOP
// RUN: mlkit-opt %s --mlir-print-ir-after-all -p 'builtin.module(func.func(cse))' 2>&1 >/dev/null | filecheck %s --check-prefix=ANCHOR

// A nested pipeline runs on each op of its anchor kind directly inside the parent.
// CHECK-LABEL: func.func @one
// CHECK-NEXT: %[[C:.*]] = arith.constant 1 : i32
// CHECK-NEXT: return %[[C]], %[[C]] : i32, i32
// CHECK-LABEL: func.func @two
// CHECK-NEXT: arith.constant 2 : i32
// CHECK-NEXT: return

// NOOP: arith.constant 1 : i32
// NOOP-NEXT: arith.constant 1 : i32

// ANCHOR: // -----// IR Dump After CSE (cse) ('func.func' operation: @one) //----- //
// ANCHOR-NEXT: func.func @one
// ANCHOR: // -----// IR Dump After CSE (cse) ('func.func' operation: @two) //----- //
func.func @one() -> (i32, i32) {
  %0 = arith.constant 1 : i32
  %1 = arith.constant 1 : i32
  return %0, %1 : i32, i32
}
func.func @two() -> i32 {
  %0 = arith.constant 2 : i32
  %1 = arith.constant 2 : i32
  return %1 : i32
}
