// RUN: not mlkit-opt %s -p 'builtin.module(linalg-matmul-to-microkernel{mr=-1})' -o /dev/null 2>&1 | filecheck %s --check-prefix=MR
// RUN: not mlkit-opt %s -linalg-matmul-to-microkernel='kc=-8' -o /dev/null 2>&1 | filecheck %s --check-prefix=KC
// RUN: not mlkit-opt %s -linalg-matmul-to-microkernel='vector-bits=32' -o /dev/null 2>&1 | filecheck %s --check-prefix=BITS

// Option values that describe no blocking are rejected before anything is
// rewritten, at an unknown location as option errors are reported.
// MR: loc(unknown): error: mr cannot be negative
// KC: loc(unknown): error: kc cannot be negative
// BITS: loc(unknown): error: vector-bits must be at least 64

func.func @f(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  linalg.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  return
}
