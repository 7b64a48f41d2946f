// RUN: mlkit-opt %s -split-input-file -test-math-polynomial-approximation | filecheck %s
// RUN: mlkit-opt %s -split-input-file -test-math-polynomial-approximation=enable-avx2 \
// RUN:   | filecheck %s --check-prefix=AVX2

// tanh: the argument is clamped to +-7.9988 and a rational function of it
// returned, the argument itself where it is tiny. No math.tanh is left.
// CHECK-LABEL: func.func @tanh_scalar
// CHECK-SAME:    (%[[X:.*]]: f32) -> f32
// CHECK-NOT:     math.tanh
// CHECK-DAG:     %[[LO:.*]] = arith.constant -7.99881172 : f32
// CHECK-DAG:     %[[HI:.*]] = arith.constant 7.99881172 : f32
// CHECK-DAG:     %[[TINY:.*]] = arith.constant 4.000000e-04 : f32
// CHECK-DAG:     arith.constant 0.00489352457 : f32
// CHECK-DAG:     arith.constant -2.76076837E-16 : f32
// CHECK-DAG:     arith.constant 0.00489352504 : f32
// CHECK-DAG:     arith.constant 1.19825836E-6 : f32
// CHECK:         %[[C0:.*]] = arith.cmpf ult, %[[X]], %[[HI]] : f32
// CHECK:         %[[S0:.*]] = arith.select %[[C0]], %[[X]], %[[HI]] : f32
// CHECK:         %[[C1:.*]] = arith.cmpf ugt, %[[S0]], %[[LO]] : f32
// CHECK:         %[[CLAMPED:.*]] = arith.select %[[C1]], %[[S0]], %[[LO]] : f32
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK:         %[[IS_TINY:.*]] = arith.cmpf olt, %[[ABS]], %[[TINY]] : f32
// CHECK-COUNT-6: math.fma
// CHECK:         %[[P:.*]] = arith.mulf %[[CLAMPED]], %{{.*}} : f32
// CHECK-COUNT-3: math.fma
// CHECK:         %[[R:.*]] = arith.divf %[[P]], %{{.*}} : f32
// CHECK:         %[[RES:.*]] = arith.select %[[IS_TINY]], %[[CLAMPED]], %[[R]] : f32
// CHECK:         return %[[RES]] : f32
// AVX2-LABEL:  func.func @tanh_scalar
// AVX2-NOT:      math.tanh
func.func @tanh_scalar(%x: f32) -> f32 {
  %0 = math.tanh %x : f32
  return %0 : f32
}

// -----

// Vectors get splat constants and i1-vector selects.
// CHECK-LABEL: func.func @tanh_vector
// CHECK-NOT:     math.tanh
// CHECK-DAG:     arith.constant dense<-7.99881172> : vector<8xf32>
// CHECK-DAG:     arith.constant dense<7.99881172> : vector<8xf32>
// CHECK:         arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK:         math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:         %[[RES:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    return %[[RES]] : vector<8xf32>
func.func @tanh_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.tanh %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// exp: x clamped to [-87.8, 88.8], n = floor(x log2(e) + 1/2) clamped to
// [-127, 127], a polynomial for e^(x - n ln2), and 2^n built from its bits.
// CHECK-LABEL: func.func @exp_scalar
// CHECK-SAME:    (%[[X:.*]]: f32) -> f32
// CHECK-NOT:     math.exp
// CHECK-DAG:     arith.constant -8.780000e+01 : f32
// CHECK-DAG:     arith.constant 8.880000e+01 : f32
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG:     arith.constant -0.693359375 : f32
// CHECK-DAG:     arith.constant 2.12194442E-4 : f32
// CHECK-DAG:     arith.constant 1.98756912E-4 : f32
// CHECK-DAG:     arith.constant -1.270000e+02 : f32
// CHECK-DAG:     arith.constant 1.270000e+02 : f32
// CHECK-DAG:     %[[BIAS:.*]] = arith.constant 127 : i32
// CHECK-DAG:     %[[SHIFT:.*]] = arith.constant 23 : i32
// CHECK:         arith.cmpf uge, %[[X]], %{{.*}} : f32
// CHECK:         arith.cmpf ule
// CHECK:         %[[T:.*]] = math.fma %{{.*}}, %[[LOG2E]], %{{.*}} : f32
// CHECK:         %[[N:.*]] = math.floor %[[T]] : f32
// CHECK:         %[[NI:.*]] = arith.fptosi %{{.*}} : f32 to i32
// CHECK:         %[[B:.*]] = arith.addi %[[NI]], %[[BIAS]] : i32
// CHECK:         %[[E:.*]] = arith.shli %[[B]], %[[SHIFT]] : i32
// CHECK:         %[[P2:.*]] = arith.bitcast %[[E]] : i32 to f32
// CHECK:         %[[RES:.*]] = arith.mulf %{{.*}}, %[[P2]] : f32
// CHECK:         return %[[RES]] : f32
func.func @exp_scalar(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// -----

// expm1 goes through exp and log, both approximated in turn.
// CHECK-LABEL: func.func @expm1_vector
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.log
// CHECK:         arith.cmpf ueq, %{{.*}}, %{{.*}} : vector<8x8xf32>
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.log
// CHECK:         return %{{.*}} : vector<8x8xf32>
func.func @expm1_vector(%x: vector<8x8xf32>) -> vector<8x8xf32> {
  %0 = math.expm1 %x : vector<8x8xf32>
  return %0 : vector<8x8xf32>
}

// -----

// log: frexp on the bits, Cephes' polynomial, and the IEEE answers for 0
// (-inf), negative (NaN) and +inf arguments.
// CHECK-LABEL: func.func @log_scalar
// CHECK-SAME:    (%[[X:.*]]: f32) -> f32
// CHECK-NOT:     math.log
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[MIN:.*]] = arith.constant 1.17549435E-38 : f32
// CHECK-DAG:     %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     arith.constant 0.707106769 : f32
// CHECK-DAG:     arith.constant 0.0703768358 : f32
// CHECK-DAG:     arith.constant 0.333333313 : f32
// CHECK-DAG:     %[[MASK:.*]] = arith.constant -2139095041 : i32
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 1056964608 : i32
// CHECK-DAG:     %[[LN2:.*]] = arith.constant 0.693147182 : f32
// CHECK:         %[[GT:.*]] = arith.cmpf ugt, %[[X]], %[[MIN]] : f32
// CHECK:         %[[M:.*]] = arith.select %[[GT]], %[[X]], %[[MIN]] : f32
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[M]] : f32 to i32
// CHECK:         %[[AND:.*]] = arith.andi %[[BITS]], %[[MASK]] : i32
// CHECK:         %[[OR:.*]] = arith.ori %[[AND]], %[[HALF]] : i32
// CHECK:         arith.bitcast %[[OR]] : i32 to f32
// CHECK:         arith.shrui
// CHECK:         arith.sitofp %{{.*}} : i32 to f32
// CHECK:         %[[L:.*]] = math.fma %{{.*}}, %[[LN2]], %{{.*}} : f32
// CHECK:         %[[NEG:.*]] = arith.cmpf ult, %[[X]], %[[ZERO]] : f32
// CHECK:         %[[IS0:.*]] = arith.cmpf oeq, %[[X]], %[[ZERO]] : f32
// CHECK:         %[[ISINF:.*]] = arith.cmpf oeq, %[[X]], %[[INF]] : f32
// CHECK:         %[[S0:.*]] = arith.select %[[ISINF]], %[[INF]], %[[L]] : f32
// CHECK:         %[[S1:.*]] = arith.select %[[NEG]], %[[NAN]], %[[S0]] : f32
// CHECK:         %[[S2:.*]] = arith.select %[[IS0]], %[[NINF]], %[[S1]] : f32
// CHECK:         return %[[S2]] : f32
func.func @log_scalar(%x: f32) -> f32 {
  %0 = math.log %x : f32
  return %0 : f32
}

// -----

// A non-finite splat is an i32 splat bitcast to f32.
// CHECK-LABEL: func.func @log_vector
// CHECK-NOT:     math.log
// CHECK-DAG:     %[[NINF_BITS:.*]] = arith.constant dense<-8388608> : vector<8xi32>
// CHECK-DAG:     arith.bitcast %[[NINF_BITS]] : vector<8xi32> to vector<8xf32>
// CHECK-DAG:     %[[INF_BITS:.*]] = arith.constant dense<2139095040> : vector<8xi32>
// CHECK-DAG:     arith.bitcast %[[INF_BITS]] : vector<8xi32> to vector<8xf32>
// CHECK-DAG:     %[[NAN_BITS:.*]] = arith.constant dense<2143289344> : vector<8xi32>
// CHECK-DAG:     arith.bitcast %[[NAN_BITS]] : vector<8xi32> to vector<8xf32>
// CHECK-DAG:     arith.constant dense<0.693147182> : vector<8xf32>
// CHECK:         arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK:         arith.cmpf ult, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-COUNT-2: arith.select %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    %[[RES:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    return %[[RES]] : vector<8xf32>
func.func @log_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.log %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// log2 adds the exponent to the polynomial times log2(e).
// CHECK-LABEL: func.func @log2_scalar
// CHECK-NOT:     math.log2
// CHECK:         %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK:         math.fma %{{.*}}, %[[LOG2E]], %{{.*}} : f32
func.func @log2_scalar(%x: f32) -> f32 {
  %0 = math.log2 %x : f32
  return %0 : f32
}

// -----

// log1p(x) = x * log(1 + x) / ((1 + x) - 1), with log approximated too.
// CHECK-LABEL: func.func @log1p_scalar
// CHECK-SAME:    (%[[X:.*]]: f32) -> f32
// CHECK-NOT:     math.log
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[U:.*]] = arith.addf %[[X]], %[[ONE]] : f32
// CHECK:         %[[U_ONE:.*]] = arith.cmpf oeq, %[[U]], %[[ONE]] : f32
// CHECK-COUNT-5: arith.select
// CHECK:         %[[LOGU:.*]] = arith.select
// CHECK:         %[[U_INF:.*]] = arith.cmpf oeq, %[[U]], %[[LOGU]] : f32
// CHECK:         %[[UM1:.*]] = arith.subf %[[U]], %[[ONE]] : f32
// CHECK:         %[[D:.*]] = arith.divf %[[LOGU]], %[[UM1]] : f32
// CHECK:         %[[LARGE:.*]] = arith.mulf %[[X]], %[[D]] : f32
// CHECK:         %[[EITHER:.*]] = arith.ori %[[U_ONE]], %[[U_INF]] : i1
// CHECK:         %[[RES:.*]] = arith.select %[[EITHER]], %[[X]], %[[LARGE]] : f32
// CHECK:         return %[[RES]] : f32
func.func @log1p_scalar(%x: f32) -> f32 {
  %0 = math.log1p %x : f32
  return %0 : f32
}

// -----

// erf: coefficients selected per interval (0.8, 2, 3.75); equal ones fold.
// CHECK-LABEL: func.func @erf_scalar
// CHECK-SAME:    (%[[X:.*]]: f32) -> f32
// CHECK-NOT:     math.erf
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     arith.constant 1.12837911 : f32
// CHECK-DAG:     arith.constant -1.71048032E-5 : f32
// CHECK-DAG:     arith.constant 0.0821908935 : f32
// CHECK-DAG:     %[[B0:.*]] = arith.constant 8.000000e-01 : f32
// CHECK-DAG:     %[[B1:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[B2:.*]] = arith.constant 3.750000e+00 : f32
// CHECK:         %[[NEG:.*]] = arith.cmpf olt, %[[X]], %[[ZERO]] : f32
// CHECK:         %[[A:.*]] = arith.select %[[NEG]], %{{.*}}, %[[X]] : f32
// CHECK:         %[[C0:.*]] = arith.cmpf olt, %[[A]], %[[B0]] : f32
// CHECK-COUNT-8: arith.select %[[C0]]
// CHECK:         %[[C1:.*]] = arith.cmpf olt, %[[A]], %[[B1]] : f32
// CHECK-COUNT-10: arith.select %[[C1]]
// CHECK:         %[[IN:.*]] = arith.cmpf ult, %[[A]], %[[B2]] : f32
// CHECK-COUNT-8: math.fma %[[A]]
// CHECK:         arith.divf
// CHECK:         arith.addf
// CHECK:         %[[R:.*]] = arith.select %[[IN]], %{{.*}}, %[[ONE]] : f32
// CHECK:         %[[NR:.*]] = arith.negf %[[R]] : f32
// CHECK:         %[[RES:.*]] = arith.select %[[NEG]], %[[NR]], %[[R]] : f32
// CHECK:         return %[[RES]] : f32
func.func @erf_scalar(%x: f32) -> f32 {
  %0 = math.erf %x : f32
  return %0 : f32
}

// -----

// sin and cos: k = floor(x * 2/pi), y = x - k * pi/2, and k mod 4 (as i32)
// picks the polynomial (sin or cos of y) and the sign.
// CHECK-LABEL: func.func @sin_cos
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK-NOT:     math.sin
// CHECK-NOT:     math.cos
// CHECK-DAG:     %[[TWO_OVER_PI:.*]] = arith.constant 0.636619746 : f32
// CHECK-DAG:     %[[PI_OVER_2:.*]] = arith.constant 1.57079637 : f32
// CHECK-DAG:     arith.constant -0.166666672 : f32
// CHECK-DAG:     arith.constant -2.59630184E-7 : f32
// CHECK:         %[[M:.*]] = arith.mulf %[[X]], %[[TWO_OVER_PI]] : f32
// CHECK:         %[[K:.*]] = math.floor %[[M]] : f32
// CHECK:         arith.mulf %[[K]], %[[PI_OVER_2]] : f32
// CHECK:         %[[KI:.*]] = arith.fptosi %[[K]] : f32 to i32
// CHECK:         %[[Q:.*]] = arith.andi %[[KI]], %{{.*}} : i32
// CHECK:         arith.cmpi eq, %[[Q]], %{{.*}} : i32
// CHECK:         arith.cmpi sgt, %[[Q]], %{{.*}} : i32
// CHECK-COUNT-5: math.fma
// CHECK:         %[[SIN:.*]] = arith.select
// CHECK-NOT:     math.sin
// CHECK-NOT:     math.cos
// CHECK:         arith.ori
// CHECK:         arith.ori
// CHECK-COUNT-5: math.fma
// CHECK:         %[[COS:.*]] = arith.select
// CHECK:         return %[[SIN]], %[[COS]] : f32, f32
func.func @sin_cos(%x: f32) -> (f32, f32) {
  %0 = math.sin %x : f32
  %1 = math.cos %x : f32
  return %0, %1 : f32, f32
}

// -----

// atan: Cephes' rational function after reducing by pi/4 or pi/2; the sign
// copied back.
// CHECK-LABEL: func.func @atan_scalar
// CHECK-SAME:    (%[[X:.*]]: f32) -> f32
// CHECK-NOT:     math.atan
// CHECK-DAG:     arith.constant 6.600000e-01 : f32
// CHECK-DAG:     arith.constant 2.41421366 : f32
// CHECK-DAG:     arith.constant -0.875060856 : f32
// CHECK-DAG:     arith.constant 194.550659 : f32
// CHECK-DAG:     arith.constant 0.785398185 : f32
// CHECK-DAG:     arith.constant 1.57079637 : f32
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK:         arith.cmpf ogt, %[[ABS]], %{{.*}} : f32
// CHECK-COUNT-9: math.fma
// CHECK:         %[[R:.*]] = arith.select
// CHECK-NEXT:    arith.subf
// CHECK-NEXT:    %[[R2:.*]] = arith.select
// CHECK-NEXT:    %[[RES:.*]] = math.copysign %[[R2]], %[[X]] : f32
// CHECK-NEXT:    return %[[RES]] : f32
func.func @atan_scalar(%x: f32) -> f32 {
  %0 = math.atan %x : f32
  return %0 : f32
}

// -----

// atan2 on f16: both operands extended, atan(y / x) corrected by quadrant
// and for x == 0, truncated back.
// CHECK-LABEL: func.func @atan2_f16
// CHECK-SAME:    (%[[Y:.*]]: f16, %[[X:.*]]: f16) -> f16
// CHECK-NOT:     math.atan
// CHECK:         %[[YW:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK:         %[[XW:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-DAG:     arith.constant 3.14159274 : f32
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK:         arith.divf %[[YW]], %[[XW]] : f32
// CHECK:         math.copysign
// CHECK:         arith.cmpf oeq, %[[XW]], %{{.*}} : f32
// CHECK:         arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:         %[[R:.*]] = arith.select %{{.*}}, %[[NAN]], %{{.*}} : f32
// CHECK-NEXT:    %[[RES:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK:         return %[[RES]] : f16
func.func @atan2_f16(%y: f16, %x: f16) -> f16 {
  %0 = math.atan2 %y, %x : f16
  return %0 : f16
}

// -----

// asin and acos are approximated in f16 itself; acos goes through asin.
// CHECK-LABEL: func.func @asin_acos_f16
// CHECK-NOT:     math.asin
// CHECK-NOT:     math.acos
// CHECK-NOT:     arith.extf
// CHECK-DAG:     arith.constant dense<5.557250e-02> : vector<4xf16>
// CHECK-DAG:     arith.constant dense<1.570310e+00> : vector<4xf16>
// CHECK:         math.sqrt %{{.*}} : vector<4xf16>
// CHECK:         math.copysign %{{.*}} : vector<4xf16>
// CHECK-NOT:     math.asin
// CHECK-NOT:     math.acos
// CHECK:         return
func.func @asin_acos_f16(%x: vector<4xf16>) -> (vector<4xf16>, vector<4xf16>) {
  %0 = math.asin %x : vector<4xf16>
  %1 = math.acos %x : vector<4xf16>
  return %0, %1 : vector<4xf16>, vector<4xf16>
}

// -----

// cbrt: a guess from the exponent bits and two Newton steps.
// CHECK-LABEL: func.func @cbrt_vector
// CHECK-SAME:    (%[[X:.*]]: vector<4xf32>)
// CHECK-NOT:     math.cbrt
// CHECK-DAG:     %[[TWO:.*]] = arith.constant dense<2> : vector<4xi32>
// CHECK-DAG:     %[[FOUR:.*]] = arith.constant dense<4> : vector<4xi32>
// CHECK-DAG:     %[[MAGIC:.*]] = arith.constant dense<709965728> : vector<4xi32>
// CHECK-DAG:     %[[THIRD:.*]] = arith.constant dense<0.333333343> : vector<4xf32>
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : vector<4xf32>
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[ABS]] : vector<4xf32> to vector<4xi32>
// CHECK:         arith.shrsi %[[BITS]], %[[TWO]] : vector<4xi32>
// CHECK:         arith.shrsi %[[BITS]], %[[FOUR]] : vector<4xi32>
// CHECK:         arith.addi %{{.*}}, %[[MAGIC]] : vector<4xi32>
// CHECK-COUNT-2: arith.mulf %{{.*}}, %[[THIRD]] : vector<4xf32>
// CHECK:         %[[RES:.*]] = math.copysign %{{.*}}, %[[X]] : vector<4xf32>
// CHECK:         return %[[RES]]
func.func @cbrt_vector(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = math.cbrt %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// Scalable and 0-d vectors keep their shape; bf16 is extended to f32.
// CHECK-LABEL: func.func @shapes
// CHECK-NOT:     math.exp
// CHECK:         arith.constant dense<-8.780000e+01> : vector<[4]xf32>
// CHECK:         arith.fptosi %{{.*}} : vector<[4]xf32> to vector<[4]xi32>
// CHECK:         arith.extf %{{.*}} : vector<bf16> to vector<f32>
// CHECK:         arith.constant dense<-7.99881172> : vector<f32>
// CHECK:         arith.truncf %{{.*}} : vector<f32> to vector<bf16>
// CHECK-NOT:     math.tanh
func.func @shapes(%a: vector<[4]xf32>, %b: vector<bf16>) -> (vector<[4]xf32>, vector<bf16>) {
  %0 = math.exp %a : vector<[4]xf32>
  %1 = math.tanh %b : vector<bf16>
  return %0, %1 : vector<[4]xf32>, vector<bf16>
}

// -----

// Left alone: f64, tensors, bf16 asin (upstream approximates it in f32 and
// f16 only), math ops without an approximation, and rsqrt, which upstream
// approximates only with enable-avx2 through x86vector (mlkit has no such
// dialect, so the option changes nothing).
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT:    math.tanh %{{.*}} : f64
// CHECK-NEXT:    math.exp %{{.*}} : vector<4xf64>
// CHECK-NEXT:    math.erf %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    math.asin %{{.*}} : bf16
// CHECK-NEXT:    math.sqrt %{{.*}} : f32
// CHECK-NEXT:    math.rsqrt %{{.*}} : vector<8xf32>
// CHECK-NEXT:    return
// AVX2-LABEL:  func.func @left_alone
// AVX2:          math.rsqrt %{{.*}} : vector<8xf32>
func.func @left_alone(%d: f64, %v: vector<4xf64>, %t: tensor<4xf32>, %h: bf16, %f: f32, %r: vector<8xf32>)
    -> (f64, vector<4xf64>, tensor<4xf32>, bf16, f32, vector<8xf32>) {
  %0 = math.tanh %d : f64
  %1 = math.exp %v : vector<4xf64>
  %2 = math.erf %t : tensor<4xf32>
  %3 = math.asin %h : bf16
  %4 = math.sqrt %f : f32
  %5 = math.rsqrt %r : vector<8xf32>
  return %0, %1, %2, %3, %4, %5 : f64, vector<4xf64>, tensor<4xf32>, bf16, f32, vector<8xf32>
}
