// RUN: mlkit-opt %s -split-input-file -convert-func-to-llvm=use-bare-ptr-memref-call-conv | FileCheck %s
// RUN: mlkit-opt %s -split-input-file -convert-func-to-llvm="use-bare-ptr-memref-call-conv index-bitwidth=32" | FileCheck %s --check-prefix=CHECK32

// CHECK-LABEL: llvm.func @bare(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.mlir.constant(0 : index) : i64
// CHECK: llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK32-LABEL: llvm.func @bare(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// CHECK32: llvm.mlir.constant(0 : index) : i32
func.func @bare(%m: memref<8xf32>) -> memref<8xf32> {
  return %m : memref<8xf32>
}

// -----

// Dynamic shapes have no bare-pointer form: the function stays.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%m: memref<?xf32>) {
  return
}
