// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s
// RUN: mlkit-opt %s --emit=llvm | filecheck %s

// Functions: declarations and definitions with linkage, visibility, calling
// convention, unnamed_addr, variadic signatures, argument and result
// attributes, and function attributes.

// CHECK: declare i32 @printf(ptr, ...)
llvm.func @printf(!llvm.ptr, ...) -> i32

// CHECK: declare void @decl_attrs(ptr sret({ i32, i32 }) dereferenceable(8), ptr noalias align 16 captures(none), i32 zeroext, ptr byval(i32), i32 range(i32 0, 10))
llvm.func @decl_attrs(!llvm.ptr {llvm.sret = !llvm.struct<(i32, i32)>, llvm.dereferenceable = 8 : i64}, !llvm.ptr {llvm.noalias, llvm.nocapture, llvm.align = 16 : i64}, i32 {llvm.zeroext}, !llvm.ptr {llvm.byval = i32}, i32 {llvm.range = #llvm.constant_range<i32, 0, 10>})

// CHECK: declare signext i32 @ret_attrs()
llvm.func @ret_attrs() -> (i32 {llvm.signext})

// CHECK: declare extern_weak ptr @weak_decl()
llvm.func extern_weak @weak_decl() -> !llvm.ptr

// Local linkage implies default visibility in LLVM IR: `hidden` is dropped.
// CHECK-LABEL: define internal fastcc noundef i32 @callee(
// CHECK-SAME: ptr readonly %0, i32 %1) local_unnamed_addr #[[$ATTRS:[0-9]+]] section "text.hot" align 32 {
// CHECK-NEXT: ret i32 %1
llvm.func internal hidden local_unnamed_addr fastcc @callee(%arg0: !llvm.ptr {llvm.readonly}, %arg1: i32) -> (i32 {llvm.noundef}) attributes {target_cpu = "x86-64", no_inline, passthrough = ["nounwind", ["alignstack", "4"], ["foo", "bar"], "baz"], section = "text.hot", alignment = 32 : i64} {
  llvm.return %arg1 : i32
}

// CHECK-LABEL: define weak_odr protected void @odr(
// CHECK-SAME: ) unnamed_addr #[[$ODR:[0-9]+]] {
// unsafe_fp_math names an attribute LLVM no longer has; it is dropped, as upstream does.
llvm.func weak_odr protected unnamed_addr @odr() attributes {always_inline, will_return, unsafe_fp_math = true, no_signed_zeros_fp_math = true, use_sample_profile = true} {
  llvm.return
}

// CHECK-LABEL: define private void @private_fn()
llvm.func private @private_fn() attributes {llvm.emit_c_interface, sym_visibility = "private"} {
  llvm.return
}

// CHECK-LABEL: define linkonce_odr dso_local i32 @variadic(i32 %0, ...)
llvm.func linkonce_odr @variadic(%a: i32, ...) -> i32 attributes {dso_local} {
  llvm.return %a : i32
}

// CHECK: attributes #[[$ATTRS]] = { noinline nounwind alignstack=4 "baz" "foo"="bar" "target-cpu"="x86-64" }
// CHECK: attributes #[[$ODR]] = { alwaysinline willreturn "no-signed-zeros-fp-math"="true" "use-sample-profile" }
