// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// math.fma's optional rounding mode (arith's modes, before the fastmath
// flags), which upstream reads as the same IR (tests/test_dialect_math.py).
// Lowering it needs constrained intrinsics mlkit lacks, so it is refused
// (Conversion/MathToLLVM/fma-rounding-mode.mlir).

// CHECK-LABEL: func.func @fma_rounding(
// CHECK-SAME:      %[[A:.*]]: f64, %[[B:.*]]: f64, %[[V:.*]]: vector<2xf32>)
// CHECK-NEXT:    math.fma %[[A]], %[[B]], %[[A]] to_nearest_even : f64
// CHECK-NEXT:    math.fma %[[A]], %[[B]], %[[A]] downward fastmath<contract> : f64
// CHECK-NEXT:    math.fma %[[V]], %[[V]], %[[V]] to_nearest_away : vector<2xf32>
// CHECK-NEXT:    math.fma %[[A]], %[[B]], %[[A]] : f64
func.func @fma_rounding(%a: f64, %b: f64, %v: vector<2xf32>) {
  %0 = math.fma %a, %b, %a to_nearest_even : f64
  %1 = math.fma %a, %b, %a downward fastmath<contract> : f64
  %2 = math.fma %v, %v, %v to_nearest_away : vector<2xf32>
  %3 = math.fma %a, %b, %a : f64
  return
}
