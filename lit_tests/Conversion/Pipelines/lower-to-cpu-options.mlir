// lower-to-cpu's options, seen in the IR after the passes they select.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --mlir-print-ir-after=one-shot-bufferize,convert-linalg-to-loops -o /dev/null 2>&1 | filecheck %s --check-prefix=DEFAULT
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{affine-loops function-boundary-type-conversion=infer-layout-map})' --mlir-print-ir-after=one-shot-bufferize,convert-linalg-to-affine-loops -o /dev/null 2>&1 | filecheck %s --check-prefix=OPTIONS
// RUN: not mlkit-opt %s -p 'builtin.module(lower-to-cpu{no-such-option})' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' | filecheck %s --check-prefix=LLVM

// DEFAULT: IR Dump After OneShotBufferizePass (one-shot-bufferize)
// DEFAULT: func.func @scale(%{{.*}}: memref<4xf32>, %{{.*}}: f32) -> memref<4xf32>
// DEFAULT: IR Dump After ConvertLinalgToLoopsPass (convert-linalg-to-loops)
// DEFAULT: scf.for
// DEFAULT-NOT: affine.for

// OPTIONS: IR Dump After OneShotBufferizePass (one-shot-bufferize)
// OPTIONS: func.func @scale(%{{.*}}: memref<4xf32, strided<[?], offset: ?>>, %{{.*}}: f32) -> memref<4xf32>
// OPTIONS: IR Dump After ConvertLinalgToAffineLoopsPass (convert-linalg-to-affine-loops)
// OPTIONS: affine.for %{{.*}} = 0 to 4

// BAD: error: pass 'lower-to-cpu' has no option 'no-such-option'

// LLVM-LABEL: llvm.func @scale(
// LLVM: llvm.fmul
// LLVM-NOT: memref.
// LLVM-NOT: linalg.

#id = affine_map<(i) -> (i)>
func.func @scale(%t: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
