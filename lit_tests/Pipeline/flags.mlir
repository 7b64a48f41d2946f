// Every pass is also a flag, in LLVM style, applied in command-line order.
// RUN: mlkit-opt %s -cse | filecheck %s --check-prefix=CSE
// RUN: mlkit-opt %s --cse --canonicalize | filecheck %s --check-prefix=BOTH
// RUN: mlkit-opt %s -convert-scf-to-cf | filecheck %s --check-prefix=CF
// RUN: mlkit-opt %s -canonicalize -cse --mlir-print-ir-before-all 2>&1 >/dev/null | filecheck %s --check-prefix=ORDER
// RUN: mlkit-opt %s -cse -canonicalize --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: mlkit-opt %s -one-shot-bufferize="bufferize-function-boundaries copy-before-write" --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=OPTS

// CSE-LABEL: func.func @f
// CSE: arith.constant 4 : index
// CSE-NOT: arith.constant 4 : index
// CSE: scf.for

// BOTH-LABEL: func.func @f
// BOTH: arith.constant 4 : index
// BOTH-NOT: arith.constant 4 : index
// BOTH-NOT: arith.muli

// CF-LABEL: func.func @f
// CF-NOT: scf.for
// CF: cf.br
// CF: cf.cond_br

// ORDER: IR Dump Before Canonicalizer (canonicalize)
// ORDER: IR Dump Before CSE (cse)

// DUMP: builtin.module(cse,canonicalize)
// OPTS: builtin.module(one-shot-bufferize{bufferize-function-boundaries=true copy-before-write=true})
func.func @f(%m: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d4 = arith.constant 4 : index
  %dead = arith.muli %c4, %d4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %d4 : index to i32
    memref.store %v, %m[%i] : memref<4xi32>
  }
  return
}
