// Input of errors.mlir: lowered without reconcile-unrealized-casts.
llvm.func @main() -> i64 {
  %0 = llvm.mlir.constant(1 : i64) : i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to index
  %2 = builtin.unrealized_conversion_cast %1 : index to i64
  llvm.return %2 : i64
}
