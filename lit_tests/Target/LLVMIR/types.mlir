// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s
// RUN: mlkit-opt %s --emit=llvm | filecheck %s

// Types, identified (also opaque) structs, and the module's
// target triple and data layout.

module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu", llvm.data_layout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"} {

// CHECK: target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
// CHECK: target triple = "x86_64-unknown-linux-gnu"
// CHECK-DAG: %named = type { i32, ptr }
// CHECK-DAG: %list = type { ptr, i32 }
// CHECK-DAG: %opaque_t = type opaque

// CHECK-LABEL: define void @types(
// CHECK-SAME: { ptr, ptr addrspace(1), i64, [4 x i32], { i8 } } %0, %named %1, <{ i8, i32 }> %2, [2 x [3 x float]] %3, <4 x ptr> %4, {} %5, { <4 x float>, ptr addrspace(3) } %6, i1 %7, i128 %8, half %9, bfloat %10, double %11, x86_fp80 %12, fp128 %13, ppc_fp128 %14, <vscale x 4 x i32> %15, ptr %16)
llvm.func @types(%a0: !llvm.struct<(ptr, ptr<1>, i64, array<4 x i32>, struct<(i8)>)>, %a1: !llvm.struct<"named", (i32, ptr)>, %a2: !llvm.struct<packed (i8, i32)>, %a3: !llvm.array<2 x array<3 x f32>>, %a4: vector<4x!llvm.ptr>, %a5: !llvm.struct<()>, %a6: !llvm.struct<(vector<4xf32>, ptr<3>)>, %a7: i1, %a8: i128, %a9: f16, %a10: bf16, %a11: f64, %a12: f80, %a13: f128, %a14: !llvm.ppc_fp128, %a15: vector<[4]xi32>, %a16: !llvm.ptr) {
  llvm.return
}

// CHECK: declare void @list(%list, ptr)
llvm.func @list(!llvm.struct<"list", (ptr, i32)>, !llvm.ptr)

// CHECK: declare void @opaque(ptr)
llvm.func @opaque(!llvm.ptr)

llvm.mlir.global external @og() : !llvm.struct<"opaque_t", opaque>
}
