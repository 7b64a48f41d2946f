// Bad input never crashes: each gets FILE:LINE:COL: error and exit code 1.
// RUN: not mlkit-opt %S/Inputs/truncated.mlir 2>&1 | filecheck %s --check-prefix=TRUNC
// RUN: %python -c "import sys; sys.stdout.buffer.write(bytes(range(256)) * 4)" > %t.bin
// RUN: not mlkit-opt %t.bin 2>&1 | filecheck %s --check-prefix=BINARY
// RUN: %python -c "import sys; sys.stdout.buffer.write(b'func.func @f() {\n  return\n}\n// caf\xe9\n')" > %t.latin1
// RUN: not mlkit-opt %t.latin1 2>&1 | filecheck %s --check-prefix=UTF8
// RUN: %python -c "print('func.func @f() {\n' + '\"test.op\"() ({\n' * 3000 + '\"test.end\"() : () -> ()\n' + '}) : () -> ()\n' * 3000 + 'return\n}')" > %t.deep
// RUN: mlkit-opt --allow-unregistered-dialect %t.deep -cse | filecheck %s --check-prefix=DEEP
// RUN: not mlkit-opt %t.deep 2>&1 | filecheck %s --check-prefix=DEEPERR
// RUN: %python -c "print('x' * 10 + '(' * 5000)" > %t.parens
// RUN: not mlkit-opt %t.parens 2>&1 | filecheck %s --check-prefix=PARENS
// RUN: not mlkit-opt %S/Inputs/dense-size.mlir 2>&1 | filecheck %s --check-prefix=DENSE

// TRUNC: truncated.mlir:3:1: error: unexpected end of input
// TRUNC-NOT: Traceback
// BINARY: .bin:{{[0-9]+}}:{{[0-9]+}}: error:
// BINARY-NOT: Traceback
// UTF8: .latin1:4:7: error: invalid UTF-8 byte sequence in input
// DEEP: "test.end"() : () -> ()
// DEEPERR: .deep:2:1: error: operation being parsed with an unregistered dialect
// PARENS: .parens:1:1: error:
// PARENS-NOT: Traceback
// DENSE: dense-size.mlir:2:23: error: inferred shape of elements literal ([3]) does not match type ([2])
