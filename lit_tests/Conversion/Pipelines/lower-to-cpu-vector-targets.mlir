// linalg-vectorize-loops takes its default vector width from the target code
// is generated for (--mtriple/--mcpu): NEON on AArch64, AVX-512 on
// skylake-avx512, AVX2 on haswell, SSE2 on a generic x86-64; each compiles.

// RUN: mlkit-opt %s -p 'builtin.module(linalg-vectorize-loops, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-math-to-llvm, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN:   --emit=asm --mtriple=aarch64-linux-gnu --mcpu=cortex-a72 --opt-level=O2 | filecheck %s --check-prefix=NEON
// RUN: mlkit-opt %s -p 'builtin.module(linalg-vectorize-loops, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-math-to-llvm, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN:   --emit=asm --mtriple=x86_64-unknown-linux-gnu --mcpu=skylake-avx512 --opt-level=O2 | filecheck %s --check-prefix=AVX512
// RUN: mlkit-opt %s -p 'builtin.module(linalg-vectorize-loops, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-math-to-llvm, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN:   --emit=asm --mtriple=x86_64-unknown-linux-gnu --mcpu=haswell --opt-level=O2 | filecheck %s --check-prefix=AVX2
// RUN: mlkit-opt %s -p 'builtin.module(linalg-vectorize-loops, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-math-to-llvm, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN:   --emit=asm --mtriple=x86_64-unknown-linux-gnu --opt-level=O2 | filecheck %s --check-prefix=SSE
// RUN: mlkit-opt %s --mtriple=aarch64-linux-gnu --mcpu=cortex-a72 -linalg-vectorize-loops | filecheck %s --check-prefix=NEON-IR

// NEON-LABEL: chain:
// NEON: fmul {{v[0-9]+}}.4s
// NEON: fmax {{v[0-9]+}}.4s
// NEON-LABEL: rowsum:
// NEON: fadd {{v[0-9]+}}.4s

// AVX512-LABEL: chain:
// AVX512: vmulps {{.*}}%zmm
// AVX512: vmaxps {{.*}}%zmm
// AVX512-LABEL: rowsum:
// AVX512: vaddps {{.*}}%zmm

// AVX2-LABEL: chain:
// AVX2: vmulps {{.*}}%ymm
// AVX2-LABEL: rowsum:
// AVX2: vaddps {{.*}}%ymm

// SSE-LABEL: chain:
// SSE: mulps {{.*}}%xmm
// SSE-LABEL: rowsum:
// SSE: addps {{.*}}%xmm

// NEON-IR-LABEL: func.func @chain
// NEON-IR: arith.mulf %{{.+}}, %{{.+}} : vector<4xf32>
// NEON-IR-LABEL: func.func @rowsum
// NEON-IR: vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<4xf32> into f32

func.func @chain(%x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.5 : f32
    %z = arith.constant 0.0 : f32
    %m = arith.mulf %a, %c : f32
    %r = arith.maximumf %m, %z : f32
    linalg.yield %r : f32
  }
  return
}

func.func @rowsum(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}
