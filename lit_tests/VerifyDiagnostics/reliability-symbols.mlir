// RUN: mlkit-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// A symbol's parent must be a symbol table (upstream's SymbolOpInterface
// verifier); an unregistered parent is not checked.

func.func @outer() {
  // expected-error @+1 {{'func.func' op symbol's parent must have the SymbolTable trait}}
  func.func @inner() {
    return
  }
  return
}

// -----

func.func @global_in_func() {
  // expected-error @+1 {{'llvm.mlir.global' op symbol's parent must have the SymbolTable trait}}
  llvm.mlir.global internal @bar(42) : i32
  return
}

// -----

func.func @memref_global_in_func() {
  // expected-error @+1 {{'memref.global' op symbol's parent must have the SymbolTable trait}}
  memref.global "private" @g : memref<2xf32>
  return
}

// -----

llvm.func @llvm_func_in_llvm_func() {
  // expected-error @+1 {{'llvm.func' op symbol's parent must have the SymbolTable trait}}
  llvm.func @inner() {
    llvm.return
  }
  llvm.return
}

// -----

func.func @unregistered_parent() {
  "test.region"() ({
    func.func @inner() {
      return
    }
  }) : () -> ()
  return
}

module @nested {
  func.func private @declared()
}
