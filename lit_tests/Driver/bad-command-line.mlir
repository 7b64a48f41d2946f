// RUN: not mlkit-opt %s --no-such-flag 2>&1 | filecheck %s --check-prefix=FLAG
// RUN: not mlkit-opt %s -cs 2>&1 | filecheck %s --check-prefix=CLOSE
// RUN: not mlkit-opt %s --emit=bogus 2>&1 | filecheck %s --check-prefix=EMIT
// RUN: not mlkit-opt %s -cse --pass-pipeline='builtin.module(cse)' 2>&1 | filecheck %s --check-prefix=BOTH
// RUN: not mlkit-opt %s %s 2>&1 | filecheck %s --check-prefix=TWO
// RUN: not mlkit-opt %s -o 2>&1 | filecheck %s --check-prefix=NOVALUE
// RUN: not mlkit-opt %t.does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING

// FLAG: mlkit-opt: Unknown command line argument '--no-such-flag'.  Try: 'mlkit-opt --help'
// CLOSE: Did you mean '--cse'?
// EMIT: error: unknown --emit value 'bogus'
// BOTH: error: '--pass-pipeline' option can't be used with individual pass options
// TWO: Too many positional arguments
// NOVALUE: option '-o' requires a value
// MISSING: does-not-exist.mlir: error: could not open input file '{{.*}}does-not-exist.mlir': No such file or directory
func.func @f() {
  return
}
