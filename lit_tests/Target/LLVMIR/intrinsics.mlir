// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s
// RUN: mlkit-opt %s --emit=llvm | filecheck %s

// llvm.intr.* ops become calls of the LLVM intrinsics, mangled by type and
// declared once per type; integer properties are trailing immediate arguments.

// CHECK-LABEL: define void @float_intrinsics(float %0, <4 x double> %1)
// CHECK-NEXT: %3 = call float @llvm.sqrt.f32(float %0)
// CHECK-NEXT: %4 = call fast <4 x double> @llvm.sqrt.v4f64(<4 x double> %1)
// CHECK-NEXT: %5 = call float @llvm.exp.f32(float %0)
// CHECK-NEXT: %6 = call float @llvm.exp2.f32(float %0)
// CHECK-NEXT: %7 = call float @llvm.log.f32(float %0)
// CHECK-NEXT: %8 = call float @llvm.log2.f32(float %0)
// CHECK-NEXT: %9 = call float @llvm.log10.f32(float %0)
// CHECK-NEXT: %10 = call float @llvm.fabs.f32(float %0)
// CHECK-NEXT: %11 = call float @llvm.floor.f32(float %0)
// CHECK-NEXT: %12 = call float @llvm.ceil.f32(float %0)
// CHECK-NEXT: %13 = call float @llvm.round.f32(float %0)
// CHECK-NEXT: %14 = call float @llvm.roundeven.f32(float %0)
// CHECK-NEXT: %15 = call float @llvm.trunc.f32(float %0)
// CHECK-NEXT: %16 = call float @llvm.rint.f32(float %0)
// CHECK-NEXT: %17 = call float @llvm.nearbyint.f32(float %0)
// CHECK-NEXT: %18 = call float @llvm.sin.f32(float %0)
// CHECK-NEXT: %19 = call float @llvm.cos.f32(float %0)
// CHECK-NEXT: %20 = call float @llvm.tan.f32(float %0)
// CHECK-NEXT: %21 = call float @llvm.pow.f32(float %0, float %0)
// CHECK-NEXT: %22 = call float @llvm.maxnum.f32(float %0, float %0)
// CHECK-NEXT: %23 = call float @llvm.minnum.f32(float %0, float %0)
// CHECK-NEXT: %24 = call float @llvm.maximum.f32(float %0, float %0)
// CHECK-NEXT: %25 = call float @llvm.minimum.f32(float %0, float %0)
// CHECK-NEXT: %26 = call nnan float @llvm.copysign.f32(float %0, float %0)
// CHECK-NEXT: %27 = call float @llvm.fma.f32(float %0, float %0, float %0)
// CHECK-NEXT: %28 = call <4 x double> @llvm.fmuladd.v4f64(<4 x double> %1, <4 x double> %1, <4 x double> %1)
llvm.func @float_intrinsics(%f: f32, %v: vector<4xf64>) {
  %0 = llvm.intr.sqrt(%f) : (f32) -> f32
  %1 = llvm.intr.sqrt(%v) {fastmathFlags = #llvm.fastmath<fast>} : (vector<4xf64>) -> vector<4xf64>
  %2 = llvm.intr.exp(%f) : (f32) -> f32
  %3 = llvm.intr.exp2(%f) : (f32) -> f32
  %4 = llvm.intr.log(%f) : (f32) -> f32
  %5 = llvm.intr.log2(%f) : (f32) -> f32
  %6 = llvm.intr.log10(%f) : (f32) -> f32
  %7 = llvm.intr.fabs(%f) : (f32) -> f32
  %8 = llvm.intr.floor(%f) : (f32) -> f32
  %9 = llvm.intr.ceil(%f) : (f32) -> f32
  %10 = llvm.intr.round(%f) : (f32) -> f32
  %11 = llvm.intr.roundeven(%f) : (f32) -> f32
  %12 = llvm.intr.trunc(%f) : (f32) -> f32
  %13 = llvm.intr.rint(%f) : (f32) -> f32
  %14 = llvm.intr.nearbyint(%f) : (f32) -> f32
  %15 = llvm.intr.sin(%f) : (f32) -> f32
  %16 = llvm.intr.cos(%f) : (f32) -> f32
  %17 = llvm.intr.tan(%f) : (f32) -> f32
  %18 = llvm.intr.pow(%f, %f) : (f32, f32) -> f32
  %19 = llvm.intr.maxnum(%f, %f) : (f32, f32) -> f32
  %20 = llvm.intr.minnum(%f, %f) : (f32, f32) -> f32
  %21 = llvm.intr.maximum(%f, %f) : (f32, f32) -> f32
  %22 = llvm.intr.minimum(%f, %f) : (f32, f32) -> f32
  %23 = llvm.intr.copysign(%f, %f) {fastmathFlags = #llvm.fastmath<nnan>} : (f32, f32) -> f32
  %24 = llvm.intr.fma(%f, %f, %f) : (f32, f32, f32) -> f32
  %25 = llvm.intr.fmuladd(%v, %v, %v) : (vector<4xf64>, vector<4xf64>, vector<4xf64>) -> vector<4xf64>
  llvm.return
}

// CHECK-LABEL: define void @memory_intrinsics(ptr %0, ptr %1, i64 %2, i8 %3, i32 %4)
// CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %0, ptr %1, i64 %2, i1 false)
// CHECK-NEXT: call void @llvm.memcpy.p0.p0.i32(ptr noalias %0, ptr %1, i32 %4, i1 true)
// CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %0, i8 %3, i64 %2, i1 false)
llvm.func @memory_intrinsics(%d: !llvm.ptr, %s: !llvm.ptr, %n: i64, %b: i8, %m: i32) {
  "llvm.intr.memcpy"(%d, %s, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  "llvm.intr.memcpy"(%d, %s, %m) <{isVolatile = true, arg_attrs = [{llvm.noalias}, {}, {}]}> : (!llvm.ptr, !llvm.ptr, i32) -> ()
  "llvm.intr.memset"(%d, %b, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.return
}

// Integer flags of intrinsic ops are immediate arguments; reductions are
// mangled by their vector operand, powi by both of its types.
// CHECK-LABEL: define i32 @more_intrinsics(i32 %0, <4 x i32> %1, float %2, <4 x float> %3)
// CHECK-NEXT: %5 = call i32 @llvm.ctlz.i32(i32 %0, i1 false)
// CHECK-NEXT: %6 = call i32 @llvm.abs.i32(i32 %0, i1 true)
// CHECK-NEXT: %7 = call i32 @llvm.ctpop.i32(i32 %0)
// CHECK-NEXT: %8 = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %1)
// CHECK-NEXT: %9 = call float @llvm.powi.f32.i32(float %2, i32 %0)
// CHECK-NEXT: %10 = call reassoc float @llvm.vector.reduce.fadd.v4f32(float %2, <4 x float> %3)
llvm.func @more_intrinsics(%a: i32, %v: vector<4xi32>, %x: f32, %fv: vector<4xf32>) -> i32 {
  %0 = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i32) -> i32
  %1 = "llvm.intr.abs"(%a) <{is_int_min_poison = true}> : (i32) -> i32
  %2 = llvm.intr.ctpop(%a) : (i32) -> i32
  %3 = "llvm.intr.vector.reduce.add"(%v) : (vector<4xi32>) -> i32
  %4 = llvm.intr.powi(%x, %a) : (f32, i32) -> f32
  %5 = "llvm.intr.vector.reduce.fadd"(%x, %fv) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<4xf32>) -> f32
  llvm.return %0 : i32
}

// Each intrinsic is declared once per type.
// CHECK-DAG: declare float @llvm.sqrt.f32(float)
// CHECK-DAG: declare <4 x double> @llvm.sqrt.v4f64(<4 x double>)
// CHECK-DAG: declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg)
