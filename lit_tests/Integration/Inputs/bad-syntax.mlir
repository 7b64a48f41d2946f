// Input of errors.mlir: does not parse.
llvm.func @main() {
  llvm.return %undefined : i32
}
