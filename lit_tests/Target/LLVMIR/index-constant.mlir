// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s

// Lowerings emit index-typed values on integer constants, as upstream does.
// CHECK-LABEL: define i64 @two()
// CHECK-NEXT: ret i64 2
llvm.func @two() -> i64 {
  %0 = llvm.mlir.constant(2 : index) : i64
  llvm.return %0 : i64
}
