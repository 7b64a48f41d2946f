// mlkit-run's errors: one located diagnostic (or one line), exit code 1, no traceback.

// RUN: not mlkit-run -e missing -entry-point-result=void %s 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: errors.mlir:1:1: error: entry point 'missing' not found
// MISSING-NOT: Traceback

// RUN: not mlkit-run -e declared -entry-point-result=void %s 2>&1 | filecheck %s --check-prefix=DECLARED
// DECLARED: errors.mlir:53:1: error: entry point 'declared' not found: it is only declared here, not defined

// RUN: not mlkit-run -e takes_arg -entry-point-result=i32 %s 2>&1 | filecheck %s --check-prefix=ARGS
// ARGS: errors.mlir:55:1: error: entry point 'takes_arg' takes 1 argument; mlkit-run calls it with none (function inputs not supported)

// RUN: not mlkit-run -e answer -entry-point-result=i64 %s 2>&1 | filecheck %s --check-prefix=RESULT
// RESULT: errors.mlir:48:1: error: entry point 'answer' returns 'i32', but -entry-point-result=i64 expects a single i64 result

// RUN: not mlkit-run -e answer %s 2>&1 | filecheck %s --check-prefix=DEFAULTF32
// DEFAULTF32: error: entry point 'answer' returns 'i32', but -entry-point-result=f32 expects a single f32 result

// RUN: not mlkit-run -e answer -entry-point-result=f16 %s 2>&1 | filecheck %s --check-prefix=BADRESULT
// BADRESULT: mlkit-run: error: invalid -entry-point-result 'f16' (expected one of: void, i32, i64, f32, f64)

// RUN: not mlkit-run -e main -entry-point-result=void %S/Inputs/unresolved.mlir 2>&1 | filecheck %s --check-prefix=UNRESOLVED
// UNRESOLVED: unresolved.mlir:3:1: error: unresolved symbol 'no_such_function': not defined in the module, not part of mlkit's runtime, and not found in the process or any -shared-libs library
// UNRESOLVED-NEXT: llvm.func @no_such_function(i64)
// UNRESOLVED-NOT: Traceback

// RUN: not mlkit-run -e main -entry-point-result=i32 %S/Inputs/not-llvm.mlir 2>&1 | filecheck %s --check-prefix=NOTLLVM
// NOTLLVM: not-llvm.mlir:3:3: error: cannot JIT 'arith.constant': it is not in the llvm dialect

// RUN: not mlkit-run -e main -entry-point-result=i64 %S/Inputs/unrealized-cast.mlir 2>&1 | filecheck %s --check-prefix=CAST
// CAST: unrealized-cast.mlir:4:3: error: cannot JIT 'builtin.unrealized_conversion_cast': it is not in the llvm dialect

// RUN: not mlkit-run %S/Inputs/bad-syntax.mlir 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX: bad-syntax.mlir:3:15: error:

// RUN: not mlkit-run -e answer -entry-point-result=i32 -shared-libs=%t.no-such-lib.so %s 2>&1 | filecheck %s --check-prefix=LIB
// LIB: mlkit-run: error: cannot load shared library '{{.*}}no-such-lib.so': no such file

// RUN: not mlkit-run -e answer -entry-point-result=i32 --march=no-such-arch %s 2>&1 | filecheck %s --check-prefix=MARCH
// MARCH: mlkit-run: error: --march=no-such-arch: cannot run code for 'no-such-arch' in this process

// RUN: not mlkit-run --no-such-flag %s 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: mlkit-run: Unknown command line argument '--no-such-flag'.

// RUN: not mlkit-run %t.missing-input.mlir 2>&1 | filecheck %s --check-prefix=NOFILE
// NOFILE: error: could not open input file

llvm.func @answer() -> i32 {
  %0 = llvm.mlir.constant(42 : i32) : i32
  llvm.return %0 : i32
}

llvm.func @declared()

llvm.func @takes_arg(%arg0: i32) -> i32 {
  llvm.return %arg0 : i32
}
