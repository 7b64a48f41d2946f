// A module constructor runs before the entry point, as under mlir-runner.

// RUN: mlkit-run -e main -entry-point-result=i32 %s | filecheck %s
// CHECK: 42

llvm.mlir.global internal @g(0 : i32) : i32
llvm.func @ctor() {
  %p = llvm.mlir.addressof @g : !llvm.ptr
  %c = llvm.mlir.constant(42 : i32) : i32
  llvm.store %c, %p : i32, !llvm.ptr
  llvm.return
}
llvm.mlir.global_ctors ctors = [@ctor], priorities = [0 : i32], data = [#llvm.zero]
llvm.func @main() -> i32 {
  %p = llvm.mlir.addressof @g : !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.return %v : i32
}
