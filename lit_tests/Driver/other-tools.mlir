// The runner is installed and runs llvm dialect IR with mlir-runner's flags;
// the translator has mlir-translate's command line.
// RUN: mlkit-run -e answer -entry-point-result=i32 %s | filecheck %s --check-prefix=RUNNER
// RUN: mlkit-translate --help | filecheck %s --check-prefix=HELP
// RUN: not mlkit-translate %s 2>&1 | filecheck %s --check-prefix=NOTRANSLATION
// RUN: not mlkit-translate --mlir-to-llvmir --bogus %s 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s --check-prefix=TRANSLATE
// RUN: mlkit-translate --mlir-to-llvmir < %s | filecheck %s --check-prefix=TRANSLATE
// RUN: mlkit-translate --mlir-to-llvmir %s -o %t.ll && filecheck %s --check-prefix=TRANSLATE < %t.ll
// RUN: not mlkit-translate --mlir-to-llvmir %S/Inputs/not-llvm.mlir -o %t.bad.ll 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not test -e %t.bad.ll

// RUNNER: {{^}}42{{$}}
// HELP: USAGE: mlkit-translate [options] <input file>
// HELP: --mlir-to-llvmir
// NOTRANSLATION: mlkit-translate: error: no translation chosen (expected one of: --mlir-to-llvmir)
// UNKNOWN: mlkit-translate: Unknown command line argument '--bogus'.
// TRANSLATE: ; ModuleID = 'LLVMDialectModule'
// TRANSLATE: define i32 @answer()
// TRANSLATE-NEXT: ret i32 42
// BAD: not-llvm.mlir:3:1: error: cannot translate 'func.func' to LLVM IR: the op is not in the llvm dialect
// BAD-NOT: Traceback

llvm.func @answer() -> i32 {
  %0 = llvm.mlir.constant(42 : i32) : i32
  llvm.return %0 : i32
}
