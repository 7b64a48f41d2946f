// RUN: mlkit-opt %s -split-input-file -convert-math-to-llvm | filecheck %s
// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(convert-math-to-llvm{approximate-log1p=false})' | filecheck %s --check-prefix=NOAPPROX

// One intrinsic per op, same operands and types.
// CHECK-LABEL: @one_to_one
func.func @one_to_one(%a: f32, %b: f32, %c: f32) {
  // CHECK: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
  %0 = math.sqrt %a : f32
  // CHECK: llvm.intr.exp(%{{.*}}) : (f32) -> f32
  %1 = math.exp %a : f32
  // CHECK: llvm.intr.exp2(%{{.*}}) : (f32) -> f32
  %2 = math.exp2 %a : f32
  // CHECK: llvm.intr.log(%{{.*}}) : (f32) -> f32
  %3 = math.log %a : f32
  // CHECK: llvm.intr.log2(%{{.*}}) : (f32) -> f32
  %4 = math.log2 %a : f32
  // CHECK: llvm.intr.log10(%{{.*}}) : (f32) -> f32
  %5 = math.log10 %a : f32
  // CHECK: llvm.intr.pow(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
  %6 = math.powf %a, %b : f32
  // CHECK: llvm.intr.fabs(%{{.*}}) : (f32) -> f32
  %7 = math.absf %a : f32
  // CHECK: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
  %8 = math.fma %a, %b, %c : f32
  // CHECK: llvm.intr.floor(%{{.*}}) : (f32) -> f32
  %9 = math.floor %a : f32
  // CHECK: llvm.intr.ceil(%{{.*}}) : (f32) -> f32
  %10 = math.ceil %a : f32
  // CHECK: llvm.intr.round(%{{.*}}) : (f32) -> f32
  %11 = math.round %a : f32
  // CHECK: llvm.intr.roundeven(%{{.*}}) : (f32) -> f32
  %12 = math.roundeven %a : f32
  // CHECK: llvm.intr.trunc(%{{.*}}) : (f32) -> f32
  %13 = math.trunc %a : f32
  // CHECK: llvm.intr.copysign(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
  %14 = math.copysign %a, %b : f32
  // CHECK: llvm.intr.sin(%{{.*}}) : (f32) -> f32
  %15 = math.sin %a : f32
  // CHECK: llvm.intr.cos(%{{.*}}) : (f32) -> f32
  %16 = math.cos %a : f32
  return
}

// -----

// The trigonometric and hyperbolic functions LLVM has intrinsics for.
// CHECK-LABEL: @trig
func.func @trig(%a: f64, %b: f64) {
  // CHECK: llvm.intr.tan(%{{.*}}) : (f64) -> f64
  %0 = math.tan %a : f64
  // CHECK: llvm.intr.tanh(%{{.*}}) : (f64) -> f64
  %1 = math.tanh %a : f64
  // CHECK: llvm.intr.asin(%{{.*}}) : (f64) -> f64
  %2 = math.asin %a : f64
  // CHECK: llvm.intr.acos(%{{.*}}) : (f64) -> f64
  %3 = math.acos %a : f64
  // CHECK: llvm.intr.atan(%{{.*}}) : (f64) -> f64
  %4 = math.atan %a : f64
  // CHECK: llvm.intr.atan2(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
  %5 = math.atan2 %a, %b : f64
  // CHECK: llvm.intr.sinh(%{{.*}}) : (f64) -> f64
  %6 = math.sinh %a : f64
  // CHECK: llvm.intr.cosh(%{{.*}}) : (f64) -> f64
  %7 = math.cosh %a : f64
  return
}

// -----

// Integer ops: ctlz, cttz and abs with their poison flag false.
// CHECK-LABEL: @integer
func.func @integer(%i: i32, %v: vector<4xi64>, %f: f32) {
  // CHECK: "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i32) -> i32
  %0 = math.ctlz %i : i32
  // CHECK: "llvm.intr.cttz"(%{{.*}}) <{is_zero_poison = false}> : (i32) -> i32
  %1 = math.cttz %i : i32
  // CHECK: llvm.intr.ctpop(%{{.*}}) : (vector<4xi64>) -> vector<4xi64>
  %2 = math.ctpop %v : vector<4xi64>
  // CHECK: "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (vector<4xi64>) -> vector<4xi64>
  %3 = math.absi %v : vector<4xi64>
  // CHECK: llvm.intr.powi(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
  %4 = math.fpowi %f, %i : f32, i32
  return
}

// -----

// rsqrt, expm1 and log1p expand; log1p only with approximate-log1p.
// CHECK-LABEL: @expansions
// NOAPPROX-LABEL: @expansions
func.func @expansions(%a: f32) {
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[SQRT:.*]] = llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
  // CHECK-NEXT: llvm.fdiv %[[ONE]], %[[SQRT]] : f32
  %0 = math.rsqrt %a : f32
  // CHECK: %[[ONE2:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[EXP:.*]] = llvm.intr.exp(%{{.*}}) : (f32) -> f32
  // CHECK-NEXT: llvm.fsub %[[EXP]], %[[ONE2]] : f32
  %1 = math.expm1 %a : f32
  // CHECK: %[[ONE3:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[ADD:.*]] = llvm.fadd %[[ONE3]], %{{.*}} : f32
  // CHECK-NEXT: llvm.intr.log(%[[ADD]]) : (f32) -> f32
  // NOAPPROX: math.log1p
  // NOAPPROX-NOT: llvm.intr.log(
  %2 = math.log1p %a : f32
  return
}

// -----

// A 1-D vector's constant one is a splat.
// CHECK-LABEL: @vector_expansion
func.func @vector_expansion(%v: vector<4xf64>) -> vector<4xf64> {
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf64>) : vector<4xf64>
  // CHECK-NEXT: %[[SQRT:.*]] = llvm.intr.sqrt(%{{.*}}) : (vector<4xf64>) -> vector<4xf64>
  // CHECK-NEXT: %[[DIV:.*]] = llvm.fdiv %[[ONE]], %[[SQRT]] : vector<4xf64>
  // CHECK-NEXT: return %[[DIV]]
  %0 = math.rsqrt %v : vector<4xf64>
  return %0 : vector<4xf64>
}

// -----

// Fastmath flags and discardable attributes carry over, to every op of an expansion.
// CHECK-LABEL: @fastmath
func.func @fastmath(%a: f32, %v: vector<2xf16>) {
  // CHECK: llvm.intr.exp(%{{.*}}) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
  %0 = math.exp %a fastmath<fast> : f32
  // CHECK: llvm.intr.exp(%{{.*}}) {fastmathFlags = #llvm.fastmath<nnan, afn>} : (vector<2xf16>) -> vector<2xf16>
  // CHECK-NEXT: llvm.fsub %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<nnan, afn>} : vector<2xf16>
  %1 = math.expm1 %v fastmath<nnan,afn> : vector<2xf16>
  // CHECK: llvm.intr.sin(%{{.*}}) {foo = 1 : i32} : (f32) -> f32
  %2 = math.sin %a {foo = 1 : i32} : f32
  return
}

// -----

// n-D vectors are unrolled over their 1-D vectors.
// CHECK-LABEL: @nd_vector
// CHECK-SAME: (%[[ARG:.*]]: vector<2x3xf32>)
func.func @nd_vector(%v: vector<2x3xf32>) -> vector<2x3xf32> {
  // CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %[[ARG]] : vector<2x3xf32> to !llvm.array<2 x vector<3xf32>>
  // CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[E0:.*]] = llvm.extractvalue %[[A]][0] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[R0:.*]] = llvm.intr.exp(%[[E0]]) : (vector<3xf32>) -> vector<3xf32>
  // CHECK-NEXT: %[[I0:.*]] = llvm.insertvalue %[[R0]], %[[P]][0] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[E1:.*]] = llvm.extractvalue %[[A]][1] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[R1:.*]] = llvm.intr.exp(%[[E1]]) : (vector<3xf32>) -> vector<3xf32>
  // CHECK-NEXT: %[[I1:.*]] = llvm.insertvalue %[[R1]], %[[I0]][1] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %[[I1]] : !llvm.array<2 x vector<3xf32>> to vector<2x3xf32>
  // CHECK-NEXT: return %[[B]]
  %0 = math.exp %v : vector<2x3xf32>
  return %0 : vector<2x3xf32>
}

// -----

// Expansions and flag intrinsics unroll the same way.
// CHECK-LABEL: @nd_expansion
func.func @nd_expansion(%v: vector<2x2x4xf32>, %i: vector<3x2xi8>) {
  // CHECK-COUNT-4: llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
  // CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1, 1] : !llvm.array<2 x array<2 x vector<4xf32>>>
  %0 = math.log1p %v : vector<2x2x4xf32>
  // CHECK-COUNT-3: "llvm.intr.cttz"(%{{.*}}) <{is_zero_poison = false}> : (vector<2xi8>) -> vector<2xi8>
  %1 = math.cttz %i : vector<3x2xi8>
  return
}

// -----

// What has no LLVM intrinsic stays.
// CHECK-LABEL: @left_alone
func.func @left_alone(%a: f32, %i: i32, %v: vector<2xf32>, %n: vector<2xi32>) {
  // CHECK: math.erf
  %0 = math.erf %a : f32
  // CHECK: math.cbrt
  %1 = math.cbrt %a : f32
  // CHECK: math.asinh
  %2 = math.asinh %a : f32
  // CHECK: math.acosh
  %3 = math.acosh %a : f32
  // CHECK: math.atanh
  %4 = math.atanh %a : f32
  // CHECK: math.ipowi
  %5 = math.ipowi %i, %i : i32
  // CHECK: math.fpowi
  %6 = math.fpowi %v, %n : vector<2xf32>, vector<2xi32>
  // CHECK: arith.addf
  %7 = arith.addf %a, %a : f32
  return
}
