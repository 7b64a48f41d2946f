// A failed run leaves no output file behind, not even a partial one.
// RUN: rm -f %t.mlir
// RUN: not mlkit-opt %s -o %t.mlir --pass-pipeline='builtin.module(nonexistent-pass)' 2>/dev/null
// RUN: not test -e %t.mlir
// RUN: not mlkit-opt %S/Inputs/bad.mlir -o %t.mlir 2>/dev/null
// RUN: not test -e %t.mlir
// An existing output file is left untouched by a failed run.
// RUN: echo keep > %t.keep
// RUN: not mlkit-opt %S/Inputs/bad.mlir -o %t.keep 2>/dev/null
// RUN: filecheck %s --check-prefix=KEEP --input-file=%t.keep
// RUN: mlkit-opt %s -o %t.mlir
// RUN: filecheck %s --input-file=%t.mlir

// KEEP: keep
// CHECK: func.func @ok
func.func @ok() {
  return
}
