// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of every LLVM dialect op and type, in upstream MLIR's syntax.

!s = !llvm.struct<(i32, array<2 x f32>)>

// CHECK: llvm.mlir.global internal constant @cst(dense<[1, 2]> : tensor<2xi32>) {addr_space = 0 : i32, alignment = 8 : i64} : !llvm.array<2 x i32>
llvm.mlir.global internal constant @cst(dense<[1, 2]> : tensor<2xi32>) {addr_space = 0 : i32, alignment = 8 : i64} : !llvm.array<2 x i32>

// CHECK: llvm.mlir.global external @init() {addr_space = 1 : i32} : !llvm.struct<(i32, f32)> {
// CHECK: %{{[0-9]+}} = llvm.mlir.undef : !llvm.struct<(i32, f32)>
// CHECK: %{{[0-9]+}} = llvm.mlir.constant(1 : i32) : i32
// CHECK: %{{[0-9]+}} = llvm.insertvalue %{{[0-9]+}}, %{{[0-9]+}}[0] : !llvm.struct<(i32, f32)>
// CHECK: llvm.return %{{[0-9]+}} : !llvm.struct<(i32, f32)>
llvm.mlir.global external @init() {addr_space = 1 : i32} : !llvm.struct<(i32, f32)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
  %1 = llvm.mlir.constant(1 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, f32)>
  llvm.return %2 : !llvm.struct<(i32, f32)>
}

// CHECK: llvm.mlir.global private unnamed_addr constant @str("hello\00") {addr_space = 0 : i32, dso_local}
llvm.mlir.global private unnamed_addr constant @str("hello\00") {addr_space = 0 : i32, dso_local}

// CHECK: llvm.mlir.global weak @w(0 : i64) {addr_space = 0 : i32} : i64
llvm.mlir.global weak @w(0 : i64) : i64

// CHECK: llvm.mlir.global internal thread_local @t(1.000000e+00 : f32) {addr_space = 0 : i32} : f32
llvm.mlir.global internal thread_local @t(1.0 : f32) : f32

// CHECK: llvm.mlir.global external hidden @h() {addr_space = 3 : i32} : !llvm.array<4 x f32>
llvm.mlir.global external hidden @h() {addr_space = 3 : i32} : !llvm.array<4 x f32>

// CHECK: llvm.mlir.global internal @ref() {addr_space = 0 : i32} : !llvm.ptr {
// CHECK: %{{[0-9]+}} = llvm.mlir.addressof @t : !llvm.ptr
// CHECK: llvm.return %{{[0-9]+}} : !llvm.ptr
llvm.mlir.global internal @ref() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.mlir.addressof @t : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}


// CHECK-LABEL: llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func @printf(!llvm.ptr, ...) -> i32

// CHECK-LABEL: llvm.func @decl_attrs(!llvm.ptr {llvm.noalias}, i32) -> (i32 {llvm.signext})
llvm.func @decl_attrs(!llvm.ptr {llvm.noalias}, i32) -> (i32 {llvm.signext})

// CHECK-LABEL: llvm.func extern_weak unnamed_addr @weak_decl() -> !llvm.struct<(i32)>
llvm.func extern_weak unnamed_addr @weak_decl() -> !llvm.struct<(i32)>

// CHECK-LABEL: llvm.func @fn_attrs() attributes {llvm.emit_c_interface, no_inline, passthrough = ["noinline", ["alignstack", "4"]]}
llvm.func @fn_attrs() attributes {llvm.emit_c_interface, no_inline, passthrough = ["noinline", ["alignstack", "4"]]}

// CHECK-LABEL: llvm.func internal hidden local_unnamed_addr fastcc @callee(%arg0: !llvm.ptr {llvm.noalias}, %arg1: i32) -> (i32 {llvm.signext}) attributes {target_cpu = "sm_90"} {
// CHECK: llvm.return %arg1 : i32
llvm.func internal hidden local_unnamed_addr fastcc @callee(%arg0: !llvm.ptr {llvm.noalias}, %arg1: i32) -> (i32 {llvm.signext}) attributes {target_cpu = "sm_90"} {
  llvm.return %arg1 : i32
}


// CHECK-LABEL: llvm.func @types(%arg0: !llvm.struct<(ptr, ptr<1>, i64, array<4 x i32>, struct<(i8)>)>, %arg1: !llvm.struct<"named", (i32, ptr)>, %arg2: !llvm.struct<packed (i8, i32)>, %arg3: !llvm.array<2 x array<3 x f32>>, %arg4: vector<4x!llvm.ptr>, %arg5: !llvm.struct<()>, %arg6: !llvm.struct<(vector<4xf32>, ptr<3>)>) {
// CHECK: llvm.return
llvm.func @types(%arg0: !llvm.struct<(ptr, ptr<1>, i64, array<4 x i32>, struct<(i8)>)>, %arg1: !llvm.struct<"named", (i32, ptr)>, %arg2: !llvm.struct<packed (i8, i32)>, %arg4: !llvm.array<2 x array<3 x f32>>, %arg5: vector<4x!llvm.ptr>, %arg6: !llvm.struct<()>, %arg7: !llvm.struct<(vector<4xf32>, ptr<3>)>) {
  llvm.return
}


// CHECK-LABEL: func.func private @opaque_type(!llvm.struct<"opaque_t", opaque>, !llvm.struct<"rec", (ptr, struct<"rec">)>, !llvm.func<void (...)>, !llvm.label, !llvm.metadata){{$}}
func.func private @opaque_type(!llvm.struct<"opaque_t", opaque>, !llvm.struct<"rec", (ptr, struct<"rec">)>, !llvm.func<void (...)>, !llvm.label, !llvm.metadata)


// CHECK-LABEL: llvm.func @int_arith(%arg0: i32, %arg1: vector<4xi32>) {
// CHECK: %{{[0-9]+}} = llvm.add %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.add %arg0, %arg0 overflow<nsw, nuw> : i32
// CHECK: %{{[0-9]+}} = llvm.sub %arg0, %arg0 overflow<nsw> : i32
// CHECK: %{{[0-9]+}} = llvm.mul %arg0, %arg0 overflow<nuw> : i32
// CHECK: %{{[0-9]+}} = llvm.udiv %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.sdiv exact %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.urem %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.srem %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.and %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.or disjoint %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.xor %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.shl %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.lshr exact %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.ashr %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.add %arg1, %arg1 : vector<4xi32>
// CHECK: %{{[0-9]+}} = llvm.icmp "slt" %arg0, %arg0 : i32
// CHECK: %{{[0-9]+}} = llvm.icmp "uge" %arg1, %arg1 : vector<4xi32>
// CHECK: llvm.return
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


// CHECK-LABEL: llvm.func @float_arith(%arg0: f32, %arg1: vector<4xf32>, %arg2: i1) {
// CHECK: %{{[0-9]+}} = llvm.fadd %arg0, %arg0 : f32
// CHECK: %{{[0-9]+}} = llvm.fsub %arg0, %arg0 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK: %{{[0-9]+}} = llvm.fmul %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nnan, ninf, reassoc>} : f32
// CHECK: %{{[0-9]+}} = llvm.fdiv %arg1, %arg1 : vector<4xf32>
// CHECK: %{{[0-9]+}} = llvm.frem %arg0, %arg0 : f32
// CHECK: %{{[0-9]+}} = llvm.fneg %arg0 : f32
// CHECK: %{{[0-9]+}} = llvm.fcmp "olt" %arg0, %arg0 : f32
// CHECK: %{{[0-9]+}} = llvm.fcmp "ueq" %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nnan>} : f32
// CHECK: %{{[0-9]+}} = llvm.fcmp "_true" %arg1, %arg1 : vector<4xf32>
// CHECK: %{{[0-9]+}} = llvm.select %arg2, %arg0, %arg0 : i1, f32
// CHECK: %{{[0-9]+}} = llvm.select %arg2, %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nsz>} : i1, f32
// CHECK: llvm.return
llvm.func @float_arith(%arg0: f32, %arg1: vector<4xf32>, %arg2: i1) {
  %0 = llvm.fadd %arg0, %arg0 : f32
  %1 = llvm.fsub %arg0, %arg0 {fastmathFlags = #llvm.fastmath<fast>} : f32
  %2 = llvm.fmul %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nnan, ninf, reassoc>} : f32
  %3 = llvm.fdiv %arg1, %arg1 : vector<4xf32>
  %4 = llvm.frem %arg0, %arg0 : f32
  %5 = llvm.fneg %arg0 : f32
  %6 = llvm.fcmp "olt" %arg0, %arg0 : f32
  %7 = llvm.fcmp "ueq" %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nnan>} : f32
  %8 = llvm.fcmp "_true" %arg1, %arg1 : vector<4xf32>
  %9 = llvm.select %arg2, %arg0, %arg0 : i1, f32
  %10 = llvm.select %arg2, %arg0, %arg0 {fastmathFlags = #llvm.fastmath<nsz>} : i1, f32
  llvm.return
}


// CHECK-LABEL: llvm.func @casts(%arg0: i32, %arg1: f32, %arg2: !llvm.ptr, %arg3: i64) {
// CHECK: %{{[0-9]+}} = llvm.trunc %arg3 : i64 to i32
// CHECK: %{{[0-9]+}} = llvm.trunc %arg3 overflow<nsw> : i64 to i32
// CHECK: %{{[0-9]+}} = llvm.zext %arg0 : i32 to i64
// CHECK: %{{[0-9]+}} = llvm.zext nneg %arg0 : i32 to i64
// CHECK: %{{[0-9]+}} = llvm.sext %arg0 : i32 to i64
// CHECK: %{{[0-9]+}} = llvm.sitofp %arg0 : i32 to f32
// CHECK: %{{[0-9]+}} = llvm.uitofp %arg0 : i32 to f32
// CHECK: %{{[0-9]+}} = llvm.uitofp nneg %arg0 : i32 to f64
// CHECK: %{{[0-9]+}} = llvm.fptosi %arg1 : f32 to i32
// CHECK: %{{[0-9]+}} = llvm.fptoui %arg1 : f32 to i64
// CHECK: %{{[0-9]+}} = llvm.fpext %arg1 : f32 to f64
// CHECK: %{{[0-9]+}} = llvm.fptrunc %{{[0-9]+}} fastmath<contract> : f64 to f32
// CHECK: %{{[0-9]+}} = llvm.bitcast %arg1 : f32 to i32
// CHECK: %{{[0-9]+}} = llvm.ptrtoint %arg2 : !llvm.ptr to i64
// CHECK: %{{[0-9]+}} = llvm.inttoptr %{{[0-9]+}} : i64 to !llvm.ptr
// CHECK: %{{[0-9]+}} = llvm.addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
// CHECK: llvm.return
llvm.func @casts(%arg0: i32, %arg1: f32, %arg2: !llvm.ptr, %arg3: i64) {
  %0 = llvm.trunc %arg3 : i64 to i32
  %1 = llvm.trunc %arg3 overflow<nsw> : i64 to i32
  %2 = llvm.zext %arg0 : i32 to i64
  %3 = llvm.zext nneg %arg0 : i32 to i64
  %4 = llvm.sext %arg0 : i32 to i64
  %5 = llvm.sitofp %arg0 : i32 to f32
  %6 = llvm.uitofp %arg0 : i32 to f32
  %7 = llvm.uitofp nneg %arg0 : i32 to f64
  %8 = llvm.fptosi %arg1 : f32 to i32
  %9 = llvm.fptoui %arg1 : f32 to i64
  %10 = llvm.fpext %arg1 : f32 to f64
  %11 = llvm.fptrunc %10 fastmath<contract> : f64 to f32
  %12 = llvm.bitcast %arg1 : f32 to i32
  %13 = llvm.ptrtoint %arg2 : !llvm.ptr to i64
  %14 = llvm.inttoptr %13 : i64 to !llvm.ptr
  %15 = llvm.addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
  llvm.return
}


// CHECK-LABEL: llvm.func @memory(%arg0: !llvm.ptr, %arg1: i64, %arg2: i32, %arg3: f32) {
// CHECK: %{{[0-9]+}} = llvm.alloca %arg1 x i32 : (i64) -> !llvm.ptr
// CHECK: %{{[0-9]+}} = llvm.alloca %arg1 x !llvm.struct<(i32, array<2 x f32>)> {alignment = 16 : i64} : (i64) -> !llvm.ptr<5>
// CHECK: %{{[0-9]+}} = llvm.load %arg0 : !llvm.ptr -> i32
// CHECK: %{{[0-9]+}} = llvm.load %arg0 {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %{{[0-9]+}} = llvm.load volatile %arg0 : !llvm.ptr -> f32
// CHECK: %{{[0-9]+}} = llvm.load %arg0 atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %{{[0-9]+}} = llvm.load %arg0 invariant {nontemporal} : !llvm.ptr -> vector<4xf32>
// CHECK: llvm.store %arg2, %arg0 : i32, !llvm.ptr
// CHECK: llvm.store volatile %arg2, %arg0 {alignment = 8 : i64} : i32, !llvm.ptr
// CHECK: llvm.store %arg2, %arg0 atomic syncscope("singlethread") release {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %{{[0-9]+}} = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %{{[0-9]+}} = llvm.getelementptr inbounds %arg0[0, 1, %arg2] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, array<2 x f32>)>
// CHECK: %{{[0-9]+}} = llvm.getelementptr %arg0[1] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %{{[0-9]+}} = llvm.getelementptr inbounds|nuw %arg0[-1] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %{{[0-9]+}} = llvm.getelementptr nusw %arg0[%arg1, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x i32>
// CHECK: llvm.return
llvm.func @memory(%arg0: !llvm.ptr, %arg1: i64, %arg2: i32, %arg3: f32) {
  %0 = llvm.alloca %arg1 x i32 : (i64) -> !llvm.ptr
  %1 = llvm.alloca %arg1 x !s {alignment = 16 : i64} : (i64) -> !llvm.ptr<5>
  %2 = llvm.load %arg0 : !llvm.ptr -> i32
  %3 = llvm.load %arg0 {alignment = 4 : i64} : !llvm.ptr -> i32
  %4 = llvm.load volatile %arg0 : !llvm.ptr -> f32
  %5 = llvm.load %arg0 atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
  %6 = llvm.load %arg0 invariant {nontemporal} : !llvm.ptr -> vector<4xf32>
  llvm.store %arg2, %arg0 : i32, !llvm.ptr
  llvm.store volatile %arg2, %arg0 {alignment = 8 : i64} : i32, !llvm.ptr
  llvm.store %arg2, %arg0 atomic syncscope("singlethread") release {alignment = 4 : i64} : i32, !llvm.ptr
  %7 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %8 = llvm.getelementptr inbounds %arg0[0, 1, %arg2] : (!llvm.ptr, i32) -> !llvm.ptr, !s
  %9 = llvm.getelementptr %arg0[1] : (!llvm.ptr) -> !llvm.ptr, i8
  %10 = llvm.getelementptr inbounds|nuw %arg0[-1] : (!llvm.ptr) -> !llvm.ptr, i8
  %11 = llvm.getelementptr nusw %arg0[%arg1, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.return
}


// CHECK-LABEL: llvm.func @atomics(%arg0: !llvm.ptr, %arg1: i32, %arg2: f32) {
// CHECK: %{{[0-9]+}} = llvm.atomicrmw add %arg0, %arg1 monotonic : !llvm.ptr, i32
// CHECK: %{{[0-9]+}} = llvm.atomicrmw _and %arg0, %arg1 seq_cst : !llvm.ptr, i32
// CHECK: %{{[0-9]+}} = llvm.atomicrmw volatile fadd %arg0, %arg2 syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr, f32
// CHECK: %{{[0-9]+}} = llvm.atomicrmw umax %arg0, %arg1 release : !llvm.ptr, i32
// CHECK: %{{[0-9]+}} = llvm.cmpxchg %arg0, %arg1, %arg1 acq_rel monotonic : !llvm.ptr, i32
// CHECK: %{{[0-9]+}} = llvm.cmpxchg weak volatile %arg0, %arg1, %arg1 syncscope("agent") seq_cst seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: llvm.fence acquire
// CHECK: llvm.fence syncscope("agent") seq_cst
// CHECK: llvm.return
llvm.func @atomics(%arg0: !llvm.ptr, %arg1: i32, %arg2: f32) {
  %0 = llvm.atomicrmw add %arg0, %arg1 monotonic : !llvm.ptr, i32
  %1 = llvm.atomicrmw _and %arg0, %arg1 seq_cst : !llvm.ptr, i32
  %2 = llvm.atomicrmw volatile fadd %arg0, %arg2 syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr, f32
  %3 = llvm.atomicrmw umax %arg0, %arg1 release : !llvm.ptr, i32
  %4 = llvm.cmpxchg %arg0, %arg1, %arg1 acq_rel monotonic : !llvm.ptr, i32
  %5 = llvm.cmpxchg weak volatile %arg0, %arg1, %arg1 syncscope("agent") seq_cst seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
  llvm.fence acquire
  llvm.fence syncscope("agent") seq_cst
  llvm.return
}


// CHECK-LABEL: llvm.func @aggregates(%arg0: !llvm.struct<(i32, array<2 x f32>)>, %arg1: f32, %arg2: vector<4xf32>, %arg3: i32) {
// CHECK: %{{[0-9]+}} = llvm.extractvalue %arg0[1, 0] : !llvm.struct<(i32, array<2 x f32>)>
// CHECK: %{{[0-9]+}} = llvm.insertvalue %arg1, %arg0[1, 1] : !llvm.struct<(i32, array<2 x f32>)>
// CHECK: %{{[0-9]+}} = llvm.extractvalue %arg0[0] : !llvm.struct<(i32, array<2 x f32>)>
// CHECK: %{{[0-9]+}} = llvm.extractelement %arg2[%arg3 : i32] : vector<4xf32>
// CHECK: %{{[0-9]+}} = llvm.insertelement %arg1, %arg2[%arg3 : i32] : vector<4xf32>
// CHECK: %{{[0-9]+}} = llvm.shufflevector %arg2, %arg2 [0, 1, -1, 3, 7] : vector<4xf32>
// CHECK: llvm.return
llvm.func @aggregates(%arg0: !s, %arg1: f32, %arg2: vector<4xf32>, %arg3: i32) {
  %0 = llvm.extractvalue %arg0[1, 0] : !s
  %1 = llvm.insertvalue %arg1, %arg0[1, 1] : !s
  %2 = llvm.extractvalue %arg0[0] : !s
  %3 = llvm.extractelement %arg2[%arg3 : i32] : vector<4xf32>
  %4 = llvm.insertelement %arg1, %arg2[%arg3 : i32] : vector<4xf32>
  %5 = llvm.shufflevector %arg2, %arg2 [0, 1, -1, 3, 7] : vector<4xf32>
  llvm.return
}


// CHECK-LABEL: llvm.func @constants() {
// CHECK: %{{[0-9]+}} = llvm.mlir.constant(42 : i64) : i64
// CHECK: %{{[0-9]+}} = llvm.mlir.constant(1.500000e+00 : f32) : f32
// CHECK: %{{[0-9]+}} = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK: %{{[0-9]+}} = llvm.mlir.constant(true) : i1
// CHECK: %{{[0-9]+}} = llvm.mlir.constant(-7 : i32) : i32
// CHECK: %{{[0-9]+}} = llvm.mlir.undef : i32
// CHECK: %{{[0-9]+}} = llvm.mlir.poison : !llvm.struct<(i32, f32)>
// CHECK: %{{[0-9]+}} = llvm.mlir.zero : !llvm.ptr
// CHECK: %{{[0-9]+}} = llvm.mlir.addressof @cst : !llvm.ptr
// CHECK: %{{[0-9]+}} = llvm.mlir.addressof @printf : !llvm.ptr
// CHECK: %{{[0-9]+}} = llvm.mlir.addressof @h : !llvm.ptr<3>
// CHECK: llvm.return
llvm.func @constants() {
  %0 = llvm.mlir.constant(42 : i64) : i64
  %1 = llvm.mlir.constant(1.5 : f32) : f32
  %2 = llvm.mlir.constant(dense<1.0> : vector<4xf32>) : vector<4xf32>
  %3 = llvm.mlir.constant(true) : i1
  %4 = llvm.mlir.constant(-7 : i32) : i32
  %5 = llvm.mlir.undef : i32
  %6 = llvm.mlir.poison : !llvm.struct<(i32, f32)>
  %7 = llvm.mlir.zero : !llvm.ptr
  %8 = llvm.mlir.addressof @cst : !llvm.ptr
  %9 = llvm.mlir.addressof @printf : !llvm.ptr
  %10 = llvm.mlir.addressof @h : !llvm.ptr<3>
  llvm.return
}


// CHECK-LABEL: llvm.func @calls(%arg0: !llvm.ptr, %arg1: i32) -> i32 {
// CHECK: %{{[0-9]+}} = llvm.call @callee(%arg0, %arg1) : (!llvm.ptr, i32) -> i32
// CHECK: %{{[0-9]+}} = llvm.call %arg0(%arg0, %arg1) : !llvm.ptr, (!llvm.ptr, i32) -> i32
// CHECK: %{{[0-9]+}} = llvm.call @printf(%arg0, %arg1) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
// CHECK: llvm.call @fn_attrs() : () -> ()
// CHECK: %{{[0-9]+}} = llvm.call fastcc @callee(%arg0, %arg1) : (!llvm.ptr, i32) -> i32
// CHECK: %{{[0-9]+}} = llvm.call tail @callee(%arg0, %arg1) {fastmathFlags = #llvm.fastmath<fast>} : (!llvm.ptr, i32) -> i32
// CHECK: %{{[0-9]+}} = llvm.call_intrinsic "llvm.smax"(%arg1, %arg1) : (i32, i32) -> i32
// CHECK: llvm.return %{{[0-9]+}} : i32
llvm.func @calls(%arg0: !llvm.ptr, %arg1: i32) -> i32 {
  %0 = llvm.call @callee(%arg0, %arg1) : (!llvm.ptr, i32) -> i32
  %1 = llvm.call %arg0(%arg0, %arg1) : !llvm.ptr, (!llvm.ptr, i32) -> i32
  %2 = llvm.call @printf(%arg0, %arg1) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  llvm.call @fn_attrs() : () -> ()
  %3 = llvm.call fastcc @callee(%arg0, %arg1) : (!llvm.ptr, i32) -> i32
  %4 = llvm.call tail @callee(%arg0, %arg1) {fastmathFlags = #llvm.fastmath<fast>} : (!llvm.ptr, i32) -> i32
  %5 = llvm.call_intrinsic "llvm.smax"(%arg1, %arg1) : (i32, i32) -> i32
  llvm.return %5 : i32
}


// CHECK-LABEL: llvm.func @control(%arg0: i1, %arg1: i32) -> i32 {
// CHECK: llvm.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
// CHECK: ^bb1(%{{[0-9]+}}: i32):
// CHECK: llvm.br ^bb3(%{{[0-9]+}} : i32)
// CHECK: ^bb2:
// CHECK: llvm.cond_br %arg0 weights([3, 5]), ^bb3(%arg1 : i32), ^bb4
// CHECK: ^bb3(%{{[0-9]+}}: i32):
// CHECK: llvm.switch %{{[0-9]+}} : i32, ^bb5 [
// CHECK: -1: ^bb4,
// CHECK: 2: ^bb5
// CHECK: ]
// CHECK: ^bb4:
// CHECK: llvm.switch %arg1 : i32, ^bb5 [
// CHECK: ]
// CHECK: ^bb5:
// CHECK: llvm.return %arg1 : i32
llvm.func @control(%arg0: i1, %arg1: i32) -> i32 {
  llvm.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
^bb1(%0: i32):
  llvm.br ^bb3(%0 : i32)
^bb2:
  llvm.cond_br %arg0 weights([3, 5]), ^bb3(%arg1 : i32), ^bb4
^bb3(%1: i32):
  llvm.switch %1 : i32, ^bb5 [
    -1: ^bb4,
    2: ^bb5
  ]
^bb4:
  llvm.switch %arg1 : i32, ^bb5 [
  ]
^bb5:
  llvm.return %arg1 : i32
}


// CHECK-LABEL: llvm.func @no_return() {
// CHECK: llvm.unreachable
llvm.func @no_return() {
  llvm.unreachable
}


// CHECK-LABEL: llvm.func @intrinsics(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: !llvm.ptr, %arg4: i64, %arg5: i8, %arg6: vector<4xf64>) {
// CHECK: %{{[0-9]+}} = llvm.intr.sqrt(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.exp(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.exp2(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.log(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.log2(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.pow(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.fabs(%arg6) : (vector<4xf64>) -> vector<4xf64>
// CHECK: %{{[0-9]+}} = llvm.intr.fma(%arg0, %arg1, %arg2) : (f32, f32, f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.maxnum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.minnum(%arg0, %arg1) {fastmathFlags = #llvm.fastmath<nnan>} : (f32, f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.maximum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.minimum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.floor(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.ceil(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.round(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.copysign(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.sin(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.cos(%arg0) : (f32) -> f32
// CHECK: %{{[0-9]+}} = llvm.intr.smax(%arg4, %arg4) : (i64, i64) -> i64
// CHECK: %{{[0-9]+}} = llvm.intr.smin(%arg4, %arg4) : (i64, i64) -> i64
// CHECK: %{{[0-9]+}} = llvm.intr.umax(%arg5, %arg5) : (i8, i8) -> i8
// CHECK: %{{[0-9]+}} = llvm.intr.umin(%arg4, %arg4) : (i64, i64) -> i64
// CHECK: "llvm.intr.memcpy"(%arg3, %arg3, %arg4) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: "llvm.intr.memset"(%arg3, %arg5, %arg4) <{isVolatile = true}> : (!llvm.ptr, i8, i64) -> ()
// CHECK: llvm.return
llvm.func @intrinsics(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: !llvm.ptr, %arg4: i64, %arg5: i8, %arg6: vector<4xf64>) {
  %0 = llvm.intr.sqrt(%arg0) : (f32) -> f32
  %1 = llvm.intr.exp(%arg0) : (f32) -> f32
  %2 = llvm.intr.exp2(%arg0) : (f32) -> f32
  %3 = llvm.intr.log(%arg0) : (f32) -> f32
  %4 = llvm.intr.log2(%arg0) : (f32) -> f32
  %5 = llvm.intr.pow(%arg0, %arg1) : (f32, f32) -> f32
  %6 = llvm.intr.fabs(%arg6) : (vector<4xf64>) -> vector<4xf64>
  %7 = llvm.intr.fma(%arg0, %arg1, %arg2) : (f32, f32, f32) -> f32
  %8 = llvm.intr.maxnum(%arg0, %arg1) : (f32, f32) -> f32
  %9 = llvm.intr.minnum(%arg0, %arg1) {fastmathFlags = #llvm.fastmath<nnan>} : (f32, f32) -> f32
  %10 = llvm.intr.maximum(%arg0, %arg1) : (f32, f32) -> f32
  %11 = llvm.intr.minimum(%arg0, %arg1) : (f32, f32) -> f32
  %12 = llvm.intr.floor(%arg0) : (f32) -> f32
  %13 = llvm.intr.ceil(%arg0) : (f32) -> f32
  %14 = llvm.intr.round(%arg0) : (f32) -> f32
  %15 = llvm.intr.copysign(%arg0, %arg1) : (f32, f32) -> f32
  %16 = llvm.intr.sin(%arg0) : (f32) -> f32
  %17 = llvm.intr.cos(%arg0) : (f32) -> f32
  %18 = llvm.intr.smax(%arg4, %arg4) : (i64, i64) -> i64
  %19 = llvm.intr.smin(%arg4, %arg4) : (i64, i64) -> i64
  %20 = llvm.intr.umax(%arg5, %arg5) : (i8, i8) -> i8
  %21 = llvm.intr.umin(%arg4, %arg4) : (i64, i64) -> i64
  "llvm.intr.memcpy"(%arg3, %arg3, %arg4) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  "llvm.intr.memset"(%arg3, %arg5, %arg4) <{isVolatile = true}> : (!llvm.ptr, i8, i64) -> ()
  llvm.return
}

// CHECK-LABEL: llvm.func @ctor()
llvm.func @ctor() {
  llvm.return
}
// CHECK: llvm.mlir.global_ctors ctors = [@ctor], priorities = [0 : i32], data = [#llvm.zero]
llvm.mlir.global_ctors ctors = [@ctor], priorities = [0 : i32], data = [#llvm.zero]
// CHECK: llvm.mlir.global_dtors dtors = [@ctor], priorities = [65535 : i32], data = [@ctor]
llvm.mlir.global_dtors dtors = [@ctor], priorities = [65535 : i32], data = [@ctor]

// CHECK-LABEL: llvm.func @branch_weights
llvm.func @branch_weights(%c: i1) {
  // CHECK: llvm.cond_br %{{.*}} weights([3, 5]), ^bb1, ^bb1
  llvm.cond_br %c weights([3, 5]), ^bb1, ^bb1
^bb1:
  llvm.return
}
