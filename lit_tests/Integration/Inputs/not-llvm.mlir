// Input of errors.mlir: a module that still holds an arith op inside llvm.func.
llvm.func @main() -> i32 {
  %0 = arith.constant 1 : i32
  llvm.return %0 : i32
}
