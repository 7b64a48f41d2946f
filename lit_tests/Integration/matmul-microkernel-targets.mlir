// linalg-matmul-to-microkernel compiles to each target's FMAs: NEON's fmla
// by element on q registers (AArch64), ymm FMAs for AVX2, zmm FMAs for
// AVX-512, with the vector width and register tile each target implies.

// RUN: mlkit-opt %s --mtriple=aarch64-linux-gnu --mcpu=cortex-a72 --emit=asm --opt-level=O3 \
// RUN:   -p 'builtin.module(linalg-matmul-to-microkernel, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | filecheck %s --check-prefix=NEON
// RUN: mlkit-opt %s --mtriple=x86_64-unknown-linux-gnu --mcpu=x86-64-v3 --emit=asm --opt-level=O3 \
// RUN:   -p 'builtin.module(linalg-matmul-to-microkernel, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | filecheck %s --check-prefix=AVX2
// RUN: mlkit-opt %s --mtriple=x86_64-unknown-linux-gnu --mcpu=skylake-avx512 --emit=asm --opt-level=O3 \
// RUN:   -p 'builtin.module(linalg-matmul-to-microkernel, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | filecheck %s --check-prefix=AVX512

// NEON-LABEL: mm:
// NEON: fmla v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, v{{[0-9]+}}.s[{{[0-3]}}]
// AVX2-LABEL: mm:
// AVX2: vfmadd{{[0-9]+}}ps %ymm{{[0-9]+}}, %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// AVX512-LABEL: mm:
// AVX512: vfmadd{{[0-9]+}}ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}

func.func @mm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
