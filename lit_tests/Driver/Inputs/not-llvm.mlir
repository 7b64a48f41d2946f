// Input of emit-asm.mlir: an op outside the llvm dialect cannot be translated.

func.func @f() {
  return
}
