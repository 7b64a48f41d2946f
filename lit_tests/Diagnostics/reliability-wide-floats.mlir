// RUN: mlkit-opt %s | filecheck %s
// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// f80 and f128 constants print as upstream's printFloatValue does: exponent
// form when six digits read back exactly, else a longer decimal, and Inf and
// NaN as the wide type's bit pattern.

// CHECK-LABEL: func.func @wide
func.func @wide() -> (f80, f128, f80, f128, f80, f128, f80) {
  // CHECK: arith.constant 1.500000e+00 : f80
  %a = arith.constant 1.5 : f80
  // CHECK: arith.constant 1.000000e+00 : f128
  %b = arith.constant 1.0 : f128
  // CHECK: arith.constant 1.000000e-01 : f80
  %c = arith.constant 0.1 : f80
  // CHECK: arith.constant 0.123456789 : f128
  %d = arith.constant 0.123456789 : f128
  // CHECK: arith.constant -2.500000e+00 : f80
  %e = arith.constant 0xC000A000000000000000 : f80
  // CHECK: arith.constant 0x7FFF0000000000000000000000000000 : f128
  %f = arith.constant 0x7FFF0000000000000000000000000000 : f128
  // CHECK: arith.constant 0xFFFFC000000000000000 : f80
  %g = arith.constant 0xFFFFC000000000000000 : f80
  return %a, %b, %c, %d, %e, %f, %g : f80, f128, f80, f128, f80, f128, f80
}
