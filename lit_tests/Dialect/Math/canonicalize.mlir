// canonicalize folds math ops of constants as upstream's folders do: libm
// functions on f32 and f64 only, rounding to integral on every float type,
// the integer ops on any width, scalars and dense constants alike; what a
// folder refuses (a negative log or sqrt, f16 transcendentals, 0 to a negative
// power, a non-splat isnan) is left alone. tests/test_math_folding.py checks
// each chunk against upstream.
// RUN: mlkit-opt %s -split-input-file -canonicalize | filecheck %s

// CHECK-LABEL: func.func @libm_f32
// CHECK-NEXT:    %[[SIN:.*]] = arith.constant 0.47942555 : f32
// CHECK-NEXT:    %[[COS:.*]] = arith.constant 0.87758255 : f32
// CHECK-NEXT:    %[[EXP:.*]] = arith.constant 1.64872122 : f32
// CHECK-NEXT:    %[[TANH:.*]] = arith.constant 0.462117165 : f32
// CHECK-NEXT:    %[[LOG:.*]] = arith.constant -0.693147182 : f32
// CHECK-NEXT:    %[[RSQRT:.*]] = arith.constant 1.41421354 : f32
// CHECK-NEXT:    %[[SQRT:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %[[EXP2:.*]] = arith.constant 8.000000e+00 : f32
// CHECK-NEXT:    %[[LOG2:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:    return %[[SIN]], %[[COS]], %[[EXP]], %[[TANH]], %[[LOG]], %[[RSQRT]], %[[SQRT]], %[[EXP2]], %[[LOG2]]
func.func @libm_f32() -> (f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %half = arith.constant 0.5 : f32
  %four = arith.constant 4.0 : f32
  %three = arith.constant 3.0 : f32
  %eight = arith.constant 8.0 : f32
  %0 = math.sin %half : f32
  %1 = math.cos %half : f32
  %2 = math.exp %half : f32
  %3 = math.tanh %half fastmath<fast> : f32
  %4 = math.log %half : f32
  %5 = math.rsqrt %half : f32
  %6 = math.sqrt %four : f32
  %7 = math.exp2 %three : f32
  %8 = math.log2 %eight : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @libm_f64
// CHECK-NEXT:    %[[ATAN:.*]] = arith.constant 0.46364760900080609 : f64
// CHECK-NEXT:    %[[POW:.*]] = arith.constant 1.250000e-01 : f64
// CHECK-NEXT:    %[[ATAN2:.*]] = arith.constant 0.78539816339744828 : f64
// CHECK-NEXT:    %[[ERFC:.*]] = arith.constant 0.47950012218695348 : f64
// CHECK-NEXT:    return %[[ATAN]], %[[POW]], %[[ATAN2]], %[[ERFC]]
func.func @libm_f64() -> (f64, f64, f64, f64) {
  %half = arith.constant 0.5 : f64
  %three = arith.constant 3.0 : f64
  %0 = math.atan %half : f64
  %1 = math.powf %half, %three : f64
  %2 = math.atan2 %half, %half : f64
  %3 = math.erfc %half : f64
  return %0, %1, %2, %3 : f64, f64, f64, f64
}

// -----

// f16 and bf16 have no libm function upstream folds with.
// CHECK-LABEL: func.func @libm_not_f16
// CHECK:         math.sin %{{.*}} : f16
// CHECK-NEXT:    math.exp %{{.*}} : bf16
// CHECK-NEXT:    math.powf %{{.*}}, %{{.*}} : f16
// CHECK-NEXT:    math.round %{{.*}} : f16
func.func @libm_not_f16(%h: f16, %b: bf16) -> (f16, bf16, f16, f16) {
  %ch = arith.constant 0.5 : f16
  %cb = arith.constant 0.5 : bf16
  %0 = math.sin %ch : f16
  %1 = math.exp %cb : bf16
  %2 = math.powf %ch, %ch : f16
  %3 = math.round %ch : f16
  return %0, %1, %2, %3 : f16, bf16, f16, f16
}

// -----

// The domain upstream folds: not a negative operand (-0.0 and -NaN included)
// of log, log2, log10, sqrt and rsqrt, not one below -1 of log1p.
// CHECK-LABEL: func.func @domains
// CHECK-DAG:     %[[NEG:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG:     %[[NZ:.*]] = arith.constant -0.000000e+00 : f64
// CHECK-DAG:     %[[M2:.*]] = arith.constant -2.000000e+00 : f32
// (xDSL prints the hex digits of an infinity in lower case)
// CHECK-DAG:     %[[INF:.*]] = arith.constant {{0x[fF][fF]800000}} : f32
// CHECK-DAG:     math.log %[[NEG]] : f32
// CHECK-DAG:     math.log2 %[[NZ]] : f64
// CHECK-DAG:     math.log10 %[[NEG]] : f32
// CHECK-DAG:     math.sqrt %[[NEG]] : f32
// CHECK-DAG:     math.rsqrt %[[NZ]] : f64
// CHECK-DAG:     math.log1p %[[M2]] : f32
// CHECK:         return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[INF]]
func.func @domains() -> (f32, f64, f32, f32, f64, f32, f32) {
  %neg = arith.constant -1.0 : f32
  %nz = arith.constant -0.0 : f64
  %m2 = arith.constant -2.0 : f32
  %0 = math.log %neg : f32
  %1 = math.log2 %nz : f64
  %2 = math.log10 %neg : f32
  %3 = math.sqrt %neg : f32
  %4 = math.rsqrt %nz : f64
  %5 = math.log1p %m2 : f32
  %6 = math.log1p %neg : f32
  return %0, %1, %2, %3, %4, %5, %6 : f32, f64, f32, f32, f64, f32, f32
}

// -----

// ceil, floor and roundeven round to integral on any float type and keep the
// sign; round rounds halves away from zero, roundeven to even.
// CHECK-LABEL: func.func @rounding
// CHECK-NEXT:    %[[C:.*]] = arith.constant -0.000000e+00 : f16
// CHECK-NEXT:    %[[F:.*]] = arith.constant -3.000000e+00 : bf16
// CHECK-NEXT:    %[[RE:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %[[R:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:    %[[RN:.*]] = arith.constant -3.000000e+00 : f64
// CHECK-NEXT:    %[[T:.*]] = arith.constant -2.000000e+00 : f64
// CHECK-NEXT:    return %[[C]], %[[F]], %[[RE]], %[[R]], %[[RN]], %[[T]]
func.func @rounding() -> (f16, bf16, f32, f32, f64, f64) {
  %h = arith.constant -0.5 : f16
  %b = arith.constant -2.5 : bf16
  %f = arith.constant 2.5 : f32
  %d = arith.constant -2.5 : f64
  %0 = math.ceil %h : f16
  %1 = math.floor %b : bf16
  %2 = math.roundeven %f : f32
  %3 = math.round %f : f32
  %4 = math.round %d : f64
  %5 = math.trunc %d : f64
  return %0, %1, %2, %3, %4, %5 : f16, bf16, f32, f32, f64, f64
}

// -----

// CHECK-LABEL: func.func @sign_ops
// CHECK-NEXT:    %[[ABS:.*]] = arith.constant {{0x7[fF][cC]00000}} : f32
// CHECK-NEXT:    %[[CS:.*]] = arith.constant -4.000000e+00 : f16
// CHECK-NEXT:    return %[[ABS]], %[[CS]]
func.func @sign_ops() -> (f32, f16) {
  %nan = arith.constant 0xFFC00000 : f32
  %four = arith.constant 4.0 : f16
  %nzero = arith.constant -0.0 : f16
  %0 = math.absf %nan : f32
  %1 = math.copysign %four, %nzero : f16
  return %0, %1 : f32, f16
}

// -----

// CHECK-LABEL: func.func @dense
// CHECK-NEXT:    %[[SQ:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : vector<3xf32>
// CHECK-NEXT:    %[[SP:.*]] = arith.constant dense<2.000000e+00> : tensor<2x2xf64>
// CHECK-NEXT:    %[[POW:.*]] = arith.constant dense<[1.000000e+00, 8.000000e+00, 2.700000e+01]> : vector<3xf32>
// CHECK-NEXT:    return %[[SQ]], %[[SP]], %[[POW]]
func.func @dense() -> (vector<3xf32>, tensor<2x2xf64>, vector<3xf32>) {
  %v = arith.constant dense<[1.0, 4.0, 9.0]> : vector<3xf32>
  %s = arith.constant dense<8.0> : tensor<2x2xf64>
  %b = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %e = arith.constant dense<3.0> : vector<3xf32>
  %0 = math.sqrt %v : vector<3xf32>
  %1 = math.cbrt %s : tensor<2x2xf64>
  %2 = math.powf %b, %e : vector<3xf32>
  return %0, %1, %2 : vector<3xf32>, tensor<2x2xf64>, vector<3xf32>
}

// -----

// One refused element leaves the whole op.
// CHECK-LABEL: func.func @dense_refused
// CHECK:         math.sqrt %{{.*}} : vector<3xf32>
func.func @dense_refused() -> vector<3xf32> {
  %v = arith.constant dense<[1.0, -4.0, 9.0]> : vector<3xf32>
  %0 = math.sqrt %v : vector<3xf32>
  return %0 : vector<3xf32>
}

// -----

// CHECK-LABEL: func.func @ctlz
// CHECK-NEXT:    %[[R:.*]] = arith.constant 6 : i7
// CHECK-NEXT:    return %[[R]]
func.func @ctlz() -> i7 {
  %one = arith.constant 1 : i7
  %0 = math.ctlz %one : i7
  return %0 : i7
}

// CHECK-LABEL: func.func @cttz_zero
// CHECK-NEXT:    %[[R:.*]] = arith.constant 64 : index
// CHECK-NEXT:    return %[[R]]
func.func @cttz_zero() -> index {
  %zero = arith.constant 0 : index
  %0 = math.cttz %zero : index
  return %0 : index
}

// CHECK-LABEL: func.func @ctpop_dense
// CHECK-NEXT:    %[[R:.*]] = arith.constant dense<[0, 8, 2]> : vector<3xi8>
// CHECK-NEXT:    return %[[R]]
func.func @ctpop_dense() -> vector<3xi8> {
  %v = arith.constant dense<[0, -1, 3]> : vector<3xi8>
  %0 = math.ctpop %v : vector<3xi8>
  return %0 : vector<3xi8>
}

// The absolute value of the most negative value wraps to itself.
// CHECK-LABEL: func.func @absi_min
// CHECK-NEXT:    %[[R:.*]] = arith.constant -128 : i8
// CHECK-NEXT:    return %[[R]]
func.func @absi_min() -> i8 {
  %min = arith.constant -128 : i8
  %0 = math.absi %min : i8
  return %0 : i8
}

// CHECK-LABEL: func.func @ipowi
// CHECK-NEXT:    %[[R:.*]] = arith.constant 81 : i32
// CHECK-NEXT:    return %[[R]]
func.func @ipowi() -> i32 {
  %three = arith.constant 3 : i32
  %four = arith.constant 4 : i32
  %0 = math.ipowi %three, %four : i32
  return %0 : i32
}

// CHECK-LABEL: func.func @ipowi_wraps
// CHECK-NEXT:    %[[R:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    return %[[R]]
func.func @ipowi_wraps() -> i8 {
  %two = arith.constant 2 : i8
  %eight = arith.constant 8 : i8
  %0 = math.ipowi %two, %eight : i8
  return %0 : i8
}

// -----

// ipowi: a negative power gives 0 unless the base is 1 or -1; 0 to a
// negative power and anything on i1 stay.
// CHECK-LABEL: func.func @ipowi_negative_power
// CHECK-NEXT:    %[[R:.*]] = arith.constant 0 : i16
// CHECK-NEXT:    return %[[R]]
func.func @ipowi_negative_power() -> i16 {
  %five = arith.constant 5 : i16
  %m1 = arith.constant -1 : i16
  %0 = math.ipowi %five, %m1 : i16
  return %0 : i16
}

// CHECK-LABEL: func.func @ipowi_minus_one_odd
// CHECK-NEXT:    %[[R:.*]] = arith.constant -1 : i16
// CHECK-NEXT:    return %[[R]]
func.func @ipowi_minus_one_odd() -> i16 {
  %m1 = arith.constant -1 : i16
  %m3 = arith.constant -3 : i16
  %0 = math.ipowi %m1, %m3 : i16
  return %0 : i16
}

// CHECK-LABEL: func.func @ipowi_zero_negative_power
// CHECK:         math.ipowi
func.func @ipowi_zero_negative_power() -> i16 {
  %zero = arith.constant 0 : i16
  %m1 = arith.constant -1 : i16
  %0 = math.ipowi %zero, %m1 : i16
  return %0 : i16
}

// CHECK-LABEL: func.func @ipowi_i1
// CHECK:         math.ipowi
func.func @ipowi_i1() -> i1 {
  %t = arith.constant true
  %0 = math.ipowi %t, %t : i1
  return %0 : i1
}

// -----

// fpowi multiplies in the base's type (f32 or f64); a negative power takes
// the reciprocal.
// CHECK-LABEL: func.func @fpowi
// CHECK-NEXT:    %[[R:.*]] = arith.constant 3.375000e+00 : f32
// CHECK-NEXT:    return %[[R]]
func.func @fpowi() -> f32 {
  %b = arith.constant 1.5 : f32
  %three = arith.constant 3 : i32
  %0 = math.fpowi %b, %three : f32, i32
  return %0 : f32
}

// CHECK-LABEL: func.func @fpowi_negative
// CHECK-NEXT:    %[[R:.*]] = arith.constant 2.500000e-01 : f64
// CHECK-NEXT:    return %[[R]]
func.func @fpowi_negative() -> f64 {
  %d = arith.constant 2.0 : f64
  %m2 = arith.constant -2 : i8
  %0 = math.fpowi %d, %m2 : f64, i8
  return %0 : f64
}

// CHECK-LABEL: func.func @fpowi_f16
// CHECK:         math.fpowi
func.func @fpowi_f16() -> f16 {
  %h = arith.constant 1.5 : f16
  %three = arith.constant 3 : i32
  %0 = math.fpowi %h, %three : f16, i32
  return %0 : f16
}

// -----

// The classification ops fold scalars and splats only.
// CHECK-LABEL: func.func @isnan
// CHECK-NEXT:    %[[R:.*]] = arith.constant true
// CHECK-NEXT:    return %[[R]]
func.func @isnan() -> i1 {
  %nan = arith.constant 0x7FC00000 : f32
  %0 = math.isnan %nan : f32
  return %0 : i1
}

// CHECK-LABEL: func.func @isnormal_subnormal
// CHECK-NEXT:    %[[R:.*]] = arith.constant false
// CHECK-NEXT:    return %[[R]]
func.func @isnormal_subnormal() -> i1 {
  %tiny = arith.constant 1.0e-40 : f32
  %0 = math.isnormal %tiny : f32
  return %0 : i1
}

// CHECK-LABEL: func.func @isfinite_inf
// CHECK-NEXT:    %[[R:.*]] = arith.constant false
// CHECK-NEXT:    return %[[R]]
func.func @isfinite_inf() -> i1 {
  %inf = arith.constant 0xFFF0000000000000 : f64
  %0 = math.isfinite %inf : f64
  return %0 : i1
}

// CHECK-LABEL: func.func @isinf_splat
// CHECK-NEXT:    %[[R:.*]] = arith.constant dense<true> : vector<2xi1>
// CHECK-NEXT:    return %[[R]]
func.func @isinf_splat() -> vector<2xi1> {
  %splat = arith.constant dense<0x7F800000> : vector<2xf32>
  %0 = math.isinf %splat : vector<2xf32>
  return %0 : vector<2xi1>
}

// CHECK-LABEL: func.func @isnan_not_splat
// CHECK:         math.isnan %{{.*}} : vector<2xf32>
func.func @isnan_not_splat() -> vector<2xi1> {
  %mixed = arith.constant dense<[0x7FC00000, 1.0]> : vector<2xf32>
  %0 = math.isnan %mixed : vector<2xf32>
  return %0 : vector<2xi1>
}

// -----

// CHECK-LABEL: func.func @sincos
// CHECK-NEXT:    %[[S:.*]] = arith.constant 0.47942555 : f32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0.87758255 : f32
// CHECK-NEXT:    return %[[S]], %[[C]]
func.func @sincos() -> (f32, f32) {
  %half = arith.constant 0.5 : f32
  %s, %c = math.sincos %half : f32
  return %s, %c : f32, f32
}

// -----

// fma, clampf and ops on non-constants are not folded.
// CHECK-LABEL: func.func @left_alone
// CHECK:         math.fma
// CHECK-NEXT:    math.clampf
// CHECK-NEXT:    math.sin %arg0 : f32
func.func @left_alone(%x: f32) -> (f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %0 = math.fma %one, %one, %one : f32
  %1 = math.clampf %one to [%one, %one] : f32
  %2 = math.sin %x : f32
  return %0, %1, %2 : f32, f32, f32
}
