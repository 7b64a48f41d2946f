// RUN: mlkit-translate --mlir-to-llvmir --split-input-file %s | filecheck %s
// RUN: mlkit-opt %s --split-input-file --emit=llvm | filecheck %s

// Direct, indirect and variadic calls, with tail-call kinds, calling
// conventions, fast-math flags, parameter and call-site attributes, operand
// bundles, and calls of intrinsics by name.

llvm.func @callee(i32) -> i32
llvm.func fastcc @fast(f32) -> f32
llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func @sink(!llvm.ptr)

// CHECK-LABEL: define i32 @calls(i32 %0, ptr %1, float %2)
// CHECK-NEXT: %4 = call i32 @callee(i32 %0)
// CHECK-NEXT: %5 = tail call i32 @callee(i32 %4)
// CHECK-NEXT: %6 = call i32 %1(i32 %5)
// CHECK-NEXT: %7 = call i32 (ptr, ...) @printf(ptr %1, i32 %6, float %2)
// CHECK-NEXT: %8 = call i32 (ptr, ...) %1(ptr %1)
// CHECK-NEXT: %9 = call fast fastcc float @fast(float %2)
// CHECK-NEXT: call void @sink(ptr noalias nonnull %1) #[[ATTRS:[0-9]+]]
// CHECK-NEXT: %10 = notail call signext i32 @callee(i32 zeroext %0)
// CHECK-NEXT: call void @sink(ptr %1) [ "align"(ptr %1, i64 16) ]
// CHECK-NEXT: %11 = call i32 @callee(i32 %0), !prof ![[PROF:[0-9]+]]
// CHECK-NEXT: ret i32 %11
llvm.func @calls(%x: i32, %fp: !llvm.ptr, %f: f32) -> i32 {
  %0 = llvm.call @callee(%x) : (i32) -> i32
  %1 = llvm.call tail @callee(%0) : (i32) -> i32
  %3 = llvm.call %fp(%1) : !llvm.ptr, (i32) -> i32
  %4 = llvm.call @printf(%fp, %3, %f) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, f32) -> i32
  %5 = llvm.call %fp(%fp) vararg(!llvm.func<i32 (ptr, ...)>) : !llvm.ptr, (!llvm.ptr) -> i32
  %6 = llvm.call fastcc @fast(%f) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
  llvm.call @sink(%fp) {arg_attrs = [{llvm.noalias, llvm.nonnull}], no_inline, no_unwind} : (!llvm.ptr) -> ()
  %7 = llvm.call notail @callee(%x) {arg_attrs = [{llvm.zeroext}], res_attrs = [{llvm.signext}]} : (i32) -> i32
  %c16 = llvm.mlir.constant(16 : i64) : i64
  "llvm.call"(%fp, %fp, %c16) <{callee = @sink, op_bundle_sizes = array<i32: 2>, op_bundle_tags = ["align"], operandSegmentSizes = array<i32: 1, 2>}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %8 = llvm.call @callee(%x) {branch_weights = array<i32: 5>} : (i32) -> i32
  llvm.return %8 : i32
}

// CHECK-LABEL: define i32 @tail(i32 %0)
// CHECK-NEXT: %2 = musttail call i32 @callee(i32 %0)
// CHECK-NEXT: ret i32 %2
// CHECK: attributes #[[ATTRS]] = { noinline nounwind }
// CHECK: ![[PROF]] = !{!"branch_weights", i32 5}
llvm.func @tail(%x: i32) -> i32 {
  %0 = llvm.call musttail @callee(%x) : (i32) -> i32
  llvm.return %0 : i32
}

// -----

// CHECK-LABEL: define i32 @call_intrinsic(i32 %0, i64 %1, float %2)
// CHECK-NEXT: %4 = call i32 @llvm.smax.i32(i32 %0, i32 %0)
// CHECK-NEXT: %5 = call i64 @llvm.smax.i64(i64 %1, i64 %1)
// CHECK-NEXT: %6 = call nnan float @llvm.maxnum.f32(float %2, float %2)
// CHECK-NEXT: call void @llvm.trap()
// CHECK-DAG: declare i32 @llvm.smax.i32(i32, i32)
// CHECK-DAG: declare i64 @llvm.smax.i64(i64, i64)
// CHECK-DAG: declare void @llvm.trap()
llvm.func @call_intrinsic(%a: i32, %b: i64, %f: f32) -> i32 {
  %0 = llvm.call_intrinsic "llvm.smax"(%a, %a) : (i32, i32) -> i32
  %1 = llvm.call_intrinsic "llvm.smax"(%b, %b) : (i64, i64) -> i64
  %2 = llvm.call_intrinsic "llvm.maxnum.f32"(%f, %f) {fastmathFlags = #llvm.fastmath<nnan>} : (f32, f32) -> f32
  llvm.call_intrinsic "llvm.trap"() : () -> ()
  llvm.return %0 : i32
}
