// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s
// RUN: mlkit-opt %s --emit=llvm | filecheck %s

// Globals: linkage, visibility, thread_local, unnamed_addr, address spaces,
// constants, sections and alignment; initializers from values and from
// initializer regions; declarations.

// CHECK: @cst = internal constant [2 x i32] [i32 1, i32 2], align 8
llvm.mlir.global internal constant @cst(dense<[1, 2]> : tensor<2xi32>) {addr_space = 0 : i32, alignment = 8 : i64} : !llvm.array<2 x i32>

// CHECK: @str = private unnamed_addr constant [6 x i8] c"hello\00"
llvm.mlir.global private unnamed_addr constant @str("hello\00") {addr_space = 0 : i32, dso_local}

// CHECK: @w = weak global i64 0
llvm.mlir.global weak @w(0 : i64) : i64

// CHECK: @t = internal thread_local global float 1.500000e+00, section "data.t"
llvm.mlir.global internal thread_local @t(1.5 : f32) {section = "data.t"} : f32

// CHECK: @h = external hidden addrspace(3) global [4 x float]
llvm.mlir.global external hidden @h() {addr_space = 3 : i32} : !llvm.array<4 x f32>

// CHECK: @undef_init = internal global [4 x float] undef
llvm.mlir.global internal @undef_init() : !llvm.array<4 x f32>

// CHECK: @local_unnamed = local_unnamed_addr global i32 7
llvm.mlir.global external local_unnamed_addr @local_unnamed(7 : i32) : i32

// CHECK: @ext_init = externally_initialized global i32 0
llvm.mlir.global external @ext_init(0 : i32) {externally_initialized} : i32

// CHECK: @vec = global <2 x double> <double 1.000000e+00, double 2.000000e+00>
llvm.mlir.global external @vec(dense<[1.0, 2.0]> : vector<2xf64>) : vector<2xf64>

// CHECK: @init = internal global { i32, float, ptr, [2 x i8] } { i32 1, float undef, ptr getelementptr ([6 x i8], ptr @str, i32 0, i32 2), [2 x i8] c"\00\05" }
llvm.mlir.global internal @init() {addr_space = 0 : i32} : !llvm.struct<(i32, f32, ptr, array<2 x i8>)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i32, f32, ptr, array<2 x i8>)>
  %1 = llvm.mlir.constant(1 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, f32, ptr, array<2 x i8>)>
  %3 = llvm.mlir.addressof @str : !llvm.ptr
  %4 = llvm.getelementptr %3[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<6 x i8>
  %5 = llvm.insertvalue %4, %2[2] : !llvm.struct<(i32, f32, ptr, array<2 x i8>)>
  %z = llvm.mlir.zero : !llvm.array<2 x i8>
  %6 = llvm.insertvalue %z, %5[3] : !llvm.struct<(i32, f32, ptr, array<2 x i8>)>
  %c5 = llvm.mlir.constant(5 : i8) : i8
  %7 = llvm.insertvalue %c5, %6[3, 1] : !llvm.struct<(i32, f32, ptr, array<2 x i8>)>
  llvm.return %7 : !llvm.struct<(i32, f32, ptr, array<2 x i8>)>
}

// CHECK: @ref = internal global ptr @t
llvm.mlir.global internal @ref() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.mlir.addressof @t : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// CHECK: @fn_ptr = internal constant i64 ptrtoint (ptr @f to i64)
llvm.mlir.global internal constant @fn_ptr() : i64 {
  %0 = llvm.mlir.addressof @f : !llvm.ptr
  %1 = llvm.ptrtoint %0 : !llvm.ptr to i64
  llvm.return %1 : i64
}

llvm.func @f()
