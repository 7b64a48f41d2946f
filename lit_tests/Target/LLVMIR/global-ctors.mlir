// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s
// RUN: mlkit-opt %s --emit=llvm | filecheck %s

// Module constructors and destructors become LLVM's appending arrays; as in
// upstream's translation, the data pointer is null.

// CHECK: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 0, ptr @init, ptr null }, { i32, ptr, ptr } { i32 5, ptr @init2, ptr null }]
// CHECK: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @fini, ptr null }]
llvm.mlir.global internal @counter(0 : i32) : i32
llvm.func @init() {
  llvm.return
}
llvm.func @init2() {
  llvm.return
}
llvm.func @fini() {
  llvm.return
}
llvm.mlir.global_ctors ctors = [@init, @init2], priorities = [0 : i32, 5 : i32], data = [#llvm.zero, @counter]
llvm.mlir.global_dtors dtors = [@fini], priorities = [65535 : i32], data = [#llvm.zero]
