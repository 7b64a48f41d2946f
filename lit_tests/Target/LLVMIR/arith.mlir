// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s
// RUN: mlkit-opt %s --emit=llvm | filecheck %s

// Integer and float arithmetic, comparisons, select and casts, with their flags.

// CHECK-LABEL: define void @int_arith(i32 %0, <4 x i32> %1)
// CHECK-NEXT: %3 = add i32 %0, %0
// CHECK-NEXT: %4 = add nuw nsw i32 %0, %0
// CHECK-NEXT: %5 = sub nsw i32 %0, %0
// CHECK-NEXT: %6 = mul nuw i32 %0, %0
// CHECK-NEXT: %7 = udiv i32 %0, %0
// CHECK-NEXT: %8 = sdiv exact i32 %0, %0
// CHECK-NEXT: %9 = urem i32 %0, %0
// CHECK-NEXT: %10 = srem i32 %0, %0
// CHECK-NEXT: %11 = and i32 %0, %0
// CHECK-NEXT: %12 = or disjoint i32 %0, %0
// CHECK-NEXT: %13 = xor i32 %0, %0
// CHECK-NEXT: %14 = shl i32 %0, %0
// CHECK-NEXT: %15 = lshr exact i32 %0, %0
// CHECK-NEXT: %16 = ashr i32 %0, %0
// CHECK-NEXT: %17 = add <4 x i32> %1, %1
// CHECK-NEXT: %18 = icmp slt i32 %0, %0
// CHECK-NEXT: %19 = icmp uge <4 x i32> %1, %1
// CHECK-NEXT: ret void
llvm.func @int_arith(%arg0: i32, %arg1: vector<4xi32>) {
  %0 = llvm.add %arg0, %arg0 : i32
  %1 = llvm.add %arg0, %arg0 overflow<nsw, nuw> : i32
  %2 = llvm.sub %arg0, %arg0 overflow<nsw> : i32
  %3 = llvm.mul %arg0, %arg0 overflow<nuw> : i32
  %4 = llvm.udiv %arg0, %arg0 : i32
  %5 = llvm.sdiv exact %arg0, %arg0 : i32
  %6 = llvm.urem %arg0, %arg0 : i32
  %7 = llvm.srem %arg0, %arg0 : i32
  %8 = llvm.and %arg0, %arg0 : i32
  %9 = llvm.or disjoint %arg0, %arg0 : i32
  %10 = llvm.xor %arg0, %arg0 : i32
  %11 = llvm.shl %arg0, %arg0 : i32
  %12 = llvm.lshr exact %arg0, %arg0 : i32
  %13 = llvm.ashr %arg0, %arg0 : i32
  %14 = llvm.add %arg1, %arg1 : vector<4xi32>
  %15 = llvm.icmp "slt" %arg0, %arg0 : i32
  %16 = llvm.icmp "uge" %arg1, %arg1 : vector<4xi32>
  llvm.return
}

// CHECK-LABEL: define void @float_arith(float %0, <4 x float> %1, i1 %2)
// CHECK-NEXT: %4 = fadd float %0, %0
// CHECK-NEXT: %5 = fsub fast float %0, %0
// CHECK-NEXT: %6 = fmul reassoc nnan ninf float %0, %0
// CHECK-NEXT: %7 = fdiv <4 x float> %1, %1
// CHECK-NEXT: %8 = frem float %0, %0
// CHECK-NEXT: %9 = fneg float %0
// CHECK-NEXT: %10 = fneg nsz float %0
// CHECK-NEXT: %11 = fcmp olt float %0, %0
// CHECK-NEXT: %12 = fcmp nnan ueq float %0, %0
// CHECK-NEXT: %13 = fcmp true <4 x float> %1, %1
// CHECK-NEXT: %14 = fcmp false float %0, %0
// CHECK-NEXT: %15 = select i1 %2, float %0, float %0
// CHECK-NEXT: %16 = select nsz i1 %2, float %0, float %0
// CHECK-NEXT: ret void
llvm.func @float_arith(%arg0: f32, %arg1: vector<4xf32>, %arg2: i1) {
  %0 = llvm.fadd %arg0, %arg0 : f32
  %1 = llvm.fsub %arg0, %arg0 {fastmathFlags = #llvm.fastmath<fast>} : f32
  %2 = llvm.fmul %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nnan, ninf, reassoc>} : f32
  %3 = llvm.fdiv %arg1, %arg1 : vector<4xf32>
  %4 = llvm.frem %arg0, %arg0 : f32
  %5 = llvm.fneg %arg0 : f32
  %6 = llvm.fneg %arg0 {fastmathFlags = #llvm.fastmath<nsz>} : f32
  %7 = llvm.fcmp "olt" %arg0, %arg0 : f32
  %8 = llvm.fcmp "ueq" %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nnan>} : f32
  %9 = llvm.fcmp "_true" %arg1, %arg1 : vector<4xf32>
  %10 = llvm.fcmp "_false" %arg0, %arg0 : f32
  %11 = llvm.select %arg2, %arg0, %arg0 : i1, f32
  %12 = llvm.select %arg2, %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nsz>} : i1, f32
  llvm.return
}

// CHECK-LABEL: define void @casts(i32 %0, float %1, ptr %2, i64 %3, ptr addrspace(1) %4)
// CHECK-NEXT: %6 = trunc i64 %3 to i32
// CHECK-NEXT: %7 = trunc nuw nsw i64 %3 to i32
// CHECK-NEXT: %8 = zext i32 %0 to i64
// CHECK-NEXT: %9 = zext nneg i32 %0 to i64
// CHECK-NEXT: %10 = sext i32 %0 to i64
// CHECK-NEXT: %11 = sitofp i32 %0 to float
// CHECK-NEXT: %12 = uitofp nneg i32 %0 to double
// CHECK-NEXT: %13 = fptosi float %1 to i32
// CHECK-NEXT: %14 = fptoui float %1 to i16
// CHECK-NEXT: %15 = fpext float %1 to double
// CHECK-NEXT: %16 = fptrunc contract double %15 to half
// CHECK-NEXT: %17 = bitcast float %1 to i32
// CHECK-NEXT: %18 = ptrtoint ptr %2 to i64
// CHECK-NEXT: %19 = inttoptr i64 %3 to ptr
// CHECK-NEXT: %20 = addrspacecast ptr addrspace(1) %4 to ptr
// CHECK-NEXT: br label %21
// CHECK: 21:
// CHECK-NEXT: %22 = fptrunc float %1 to bfloat
llvm.func @casts(%arg0: i32, %arg1: f32, %arg2: !llvm.ptr, %arg3: i64, %arg4: !llvm.ptr<1>) {
  %0 = llvm.trunc %arg3 : i64 to i32
  %1 = llvm.trunc %arg3 overflow<nsw, nuw> : i64 to i32
  %2 = llvm.zext %arg0 : i32 to i64
  %3 = llvm.zext nneg %arg0 : i32 to i64
  %4 = llvm.sext %arg0 : i32 to i64
  %5 = llvm.sitofp %arg0 : i32 to f32
  %6 = llvm.uitofp nneg %arg0 : i32 to f64
  %7 = llvm.fptosi %arg1 : f32 to i32
  %8 = llvm.fptoui %arg1 : f32 to i16
  %9 = llvm.fpext %arg1 : f32 to f64
  %10 = llvm.fptrunc %9 fastmath<contract> : f64 to f16
  %11 = llvm.bitcast %arg1 : f32 to i32
  %12 = llvm.ptrtoint %arg2 : !llvm.ptr to i64
  %13 = llvm.inttoptr %arg3 : i64 to !llvm.ptr
  %14 = llvm.addrspacecast %arg4 : !llvm.ptr<1> to !llvm.ptr
  llvm.br ^bb1
^bb1:
  %15 = llvm.fptrunc %arg1 : f32 to bf16
  llvm.return
}
