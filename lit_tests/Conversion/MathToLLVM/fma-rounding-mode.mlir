// RUN: mlkit-opt %s -p 'builtin.module(convert-math-to-libm)' -verify-diagnostics
// RUN: mlkit-opt %s -p 'builtin.module(convert-math-to-llvm)' | FileCheck %s
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' -verify-diagnostics

// An fma with a rounding mode needs upstream's constrained intrinsic
// (llvm.intr.experimental.constrained.fma), which mlkit's llvm dialect
// lacks: neither llvm.intr.fma nor libm's fmaf (both round to nearest) may
// stand for it. convert-math-to-llvm leaves it (and lowers the fma without
// a rounding mode as before); convert-math-to-libm and lower-to-cpu refuse
// it with an error.

// CHECK-LABEL: func.func @rounded
// CHECK:         math.fma %{{.*}}, %{{.*}}, %{{.*}} upward : f32
// CHECK:         llvm.intr.fma

func.func @rounded(%a: f32) -> (f32, f32) {
  // expected-error @+1 {{failed to legalize operation 'math.fma'}}
  %0 = math.fma %a, %a, %a upward : f32
  %1 = math.fma %a, %a, %a : f32
  return %0, %1 : f32, f32
}
