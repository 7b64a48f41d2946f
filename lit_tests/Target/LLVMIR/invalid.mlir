// RUN: not mlkit-translate --mlir-to-llvmir --split-input-file %s 2>&1 | filecheck %s
// RUN: not mlkit-opt --emit=llvm --split-input-file %s 2>&1 | filecheck %s
// RUN: mlkit-translate --mlir-to-llvmir --split-input-file --verify-diagnostics %s

// Ops outside the llvm dialect, properties and types with no LLVM IR form,
// and modules LLVM itself rejects are located errors.

// CHECK: invalid.mlir:[[# @LINE + 2]]:3: error: cannot translate 'arith.addi' to LLVM IR: the op is not in the llvm dialect
llvm.func @not_llvm(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32  // expected-error {{cannot translate 'arith.addi' to LLVM IR: the op is not in the llvm dialect}}
  llvm.return %0 : i32
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: cannot translate 'func.func' to LLVM IR: the op is not in the llvm dialect
func.func @f() {  // expected-error {{cannot translate 'func.func' to LLVM IR: the op is not in the llvm dialect}}
  return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: cannot translate 'llvm.func' to LLVM IR: type 'index' has no LLVM IR equivalent
llvm.func @index_arg(index)  // expected-error {{type 'index' has no LLVM IR equivalent}}

// -----

llvm.func @bad_constant() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: cannot translate 'llvm.mlir.constant' to LLVM IR: type 'vector<2x2xf32>' is not a 1-D vector
  %0 = llvm.mlir.constant(dense<1.0> : vector<2x2xf32>) : vector<2x2xf32>  // expected-error {{is not a 1-D vector}}
  llvm.return
}

// -----

llvm.func @unsupported_property(%p: !llvm.ptr) -> i32 {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: cannot translate 'llvm.load' to LLVM IR: property 'tbaa' is not supported by the translation
  %0 = llvm.load %p {tbaa = [], alignment = 4 : i64} : !llvm.ptr -> i32  // expected-error {{property 'tbaa' is not supported}}
  llvm.return %0 : i32
}

// -----

llvm.mlir.global internal @folded() : i32 {
  %0 = llvm.mlir.constant(6 : i32) : i32
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: cannot translate 'llvm.mul' to LLVM IR: the op cannot be folded into a global's initializer
  %1 = llvm.mul %0, %0 : i32  // expected-error {{cannot be folded into a global's initializer}}
  llvm.return %1 : i32
}

// -----

// LLVM's own verifier: a musttail call must be followed by a return.
llvm.func @callee(i32) -> i32
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: LLVM rejected the translated module: musttail call must precede a ret
llvm.func @musttail(%a: i32) -> i32 {  // expected-error {{LLVM rejected the translated module: musttail call must precede a ret}}
  %0 = llvm.call musttail @callee(%a) : (i32) -> i32
  %1 = llvm.add %0, %a : i32
  llvm.return %1 : i32
}

// CHECK-NOT: Traceback
