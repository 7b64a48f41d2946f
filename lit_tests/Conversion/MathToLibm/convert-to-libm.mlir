// RUN: mlkit-opt %s -split-input-file -convert-math-to-libm | filecheck %s

// f32 calls the f-suffixed function, f64 the plain one; each is declared once,
// private and readnone, at the start of the module.
// CHECK-DAG: func.func private @tanhf(f32) -> f32 attributes {llvm.readnone}
// CHECK-DAG: func.func private @tanh(f64) -> f64 attributes {llvm.readnone}
// CHECK-DAG: func.func private @atan2f(f32, f32) -> f32 attributes {llvm.readnone}
// CHECK-DAG: func.func private @fma(f64, f64, f64) -> f64 attributes {llvm.readnone}
// CHECK-LABEL: func.func @scalars
func.func @scalars(%a: f32, %d: f64) -> (f32, f32, f64, f32, f64) {
  // CHECK: %[[T0:.*]] = {{(func\.)?}}call @tanhf(%{{.*}}) : (f32) -> f32
  %0 = math.tanh %a : f32
  // CHECK: %[[T1:.*]] = {{(func\.)?}}call @tanhf(%{{.*}}) : (f32) -> f32
  %1 = math.tanh %a fastmath<fast> : f32
  // CHECK: {{(func\.)?}}call @tanh(%{{.*}}) : (f64) -> f64
  %2 = math.tanh %d : f64
  // CHECK: {{(func\.)?}}call @atan2f(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
  %3 = math.atan2 %a, %a : f32
  // CHECK: {{(func\.)?}}call @fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f64, f64, f64) -> f64
  %4 = math.fma %d, %d, %d : f64
  return %0, %1, %2, %3, %4 : f32, f32, f64, f32, f64
}

// -----

// Every function name, as upstream spells them.
// CHECK-LABEL: func.func @names
func.func @names(%a: f32) {
  // CHECK: @fabsf
  %0 = math.absf %a : f32
  // CHECK: @acosf
  %1 = math.acos %a : f32
  // CHECK: @acoshf
  %2 = math.acosh %a : f32
  // CHECK: @asinf
  %3 = math.asin %a : f32
  // CHECK: @asinhf
  %4 = math.asinh %a : f32
  // CHECK: @atanf
  %5 = math.atan %a : f32
  // CHECK: @atanhf
  %6 = math.atanh %a : f32
  // CHECK: @cbrtf
  %7 = math.cbrt %a : f32
  // CHECK: @ceilf
  %8 = math.ceil %a : f32
  // CHECK: @cosf
  %9 = math.cos %a : f32
  // CHECK: @coshf
  %10 = math.cosh %a : f32
  // CHECK: @erff
  %11 = math.erf %a : f32
  // CHECK: @expf
  %12 = math.exp %a : f32
  // CHECK: @exp2f
  %13 = math.exp2 %a : f32
  // CHECK: @expm1f
  %14 = math.expm1 %a : f32
  // CHECK: @floorf
  %15 = math.floor %a : f32
  // CHECK: @logf
  %16 = math.log %a : f32
  // CHECK: @log10f
  %17 = math.log10 %a : f32
  // CHECK: @log1pf
  %18 = math.log1p %a : f32
  // CHECK: @log2f
  %19 = math.log2 %a : f32
  // CHECK: @powf
  %20 = math.powf %a, %a : f32
  // CHECK: @roundf
  %21 = math.round %a : f32
  // CHECK: @roundevenf
  %22 = math.roundeven %a : f32
  // CHECK: @rsqrtf
  %23 = math.rsqrt %a : f32
  // CHECK: @sinf
  %24 = math.sin %a : f32
  // CHECK: @sinhf
  %25 = math.sinh %a : f32
  // CHECK: @sqrtf
  %26 = math.sqrt %a : f32
  // CHECK: @tanf
  %27 = math.tan %a : f32
  // CHECK: @truncf
  %28 = math.trunc %a : f32
  return
}

// -----

// f16 and bf16 go through f32.
// CHECK-LABEL: func.func @half
func.func @half(%h: f16, %b: bf16) -> (f16, bf16) {
  // CHECK: %[[E:.*]] = arith.extf %{{.*}} : f16 to f32
  // CHECK-NEXT: %[[C:.*]] = {{(func\.)?}}call @erff(%[[E]]) : (f32) -> f32
  // CHECK-NEXT: arith.truncf %[[C]] : f32 to f16
  %0 = math.erf %h : f16
  // CHECK: arith.extf %{{.*}} : bf16 to f32
  // CHECK-NEXT: arith.extf %{{.*}} : bf16 to f32
  // CHECK-NEXT: {{(func\.)?}}call @powf
  // CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
  %1 = math.powf %b, %b : bf16
  return %0, %1 : f16, bf16
}

// -----

// Vectors unroll element by element into a zero constant.
// CHECK-LABEL: func.func @vectors
func.func @vectors(%v: vector<2x2xf64>) -> vector<2x2xf64> {
  // CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<2x2xf64>
  // CHECK-NEXT: %[[E0:.*]] = vector.extract %{{.*}}[0, 0] : f64 from vector<2x2xf64>
  // CHECK-NEXT: %[[C0:.*]] = {{(func\.)?}}call @cbrt(%[[E0]]) : (f64) -> f64
  // CHECK-NEXT: %[[I0:.*]] = vector.insert %[[C0]], %[[Z]] [0, 0] : f64 into vector<2x2xf64>
  // CHECK: vector.extract %{{.*}}[0, 1]
  // CHECK: vector.extract %{{.*}}[1, 0]
  // CHECK: %[[E3:.*]] = vector.extract %{{.*}}[1, 1] : f64 from vector<2x2xf64>
  // CHECK-NEXT: %[[C3:.*]] = {{(func\.)?}}call @cbrt(%[[E3]]) : (f64) -> f64
  // CHECK-NEXT: %[[I3:.*]] = vector.insert %[[C3]], %{{.*}} [1, 1] : f64 into vector<2x2xf64>
  // CHECK-NEXT: return %[[I3]]
  %0 = math.cbrt %v : vector<2x2xf64>
  return %0 : vector<2x2xf64>
}

// -----

// An existing symbol of that name is called as is, not declared again.
// CHECK-NOT: attributes {llvm.readnone}
// CHECK-LABEL: func.func @existing
func.func @existing(%a: f32) -> f32 {
  // CHECK: {{(func\.)?}}call @expm1f
  %0 = math.expm1 %a : f32
  return %0 : f32
}
// CHECK: func.func private @expm1f(f32) -> f32{{$}}
func.func private @expm1f(f32) -> f32

// -----

// Declarations go into the nearest symbol table.
// CHECK-LABEL: {{(builtin\.)?}}module
// CHECK-NEXT: {{(builtin\.)?}}module
// CHECK-NEXT: func.func private @sinf(f32) -> f32 attributes {llvm.readnone}
// CHECK-NEXT: func.func @nested
module {
  module {
    func.func @nested(%a: f32) -> f32 {
      %0 = math.sin %a : f32
      return %0 : f32
    }
  }
}
