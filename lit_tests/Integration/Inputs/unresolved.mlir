// Input of errors.mlir: calls a function that nothing defines.
llvm.func @printMemrefF32(i64, !llvm.ptr)
llvm.func @no_such_function(i64)
llvm.func @main() {
  %0 = llvm.mlir.constant(1 : i64) : i64
  llvm.call @no_such_function(%0) : (i64) -> ()
  llvm.return
}
