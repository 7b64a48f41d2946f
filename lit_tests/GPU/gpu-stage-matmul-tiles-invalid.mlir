// Tile sizes the kernel cannot use are errors.
// RUN: not mlkit-opt %s -p 'builtin.module(gpu-stage-matmul-tiles{block-x=64 block-y=32})' 2>&1 | filecheck %s --check-prefix=THREADS
// RUN: not mlkit-opt %s -p 'builtin.module(gpu-stage-matmul-tiles{tile-m=60})' 2>&1 | filecheck %s --check-prefix=DIVIDE
// RUN: not mlkit-opt %s -p 'builtin.module(gpu-stage-matmul-tiles{tile-k=3})' 2>&1 | filecheck %s --check-prefix=LOADS
// THREADS: error: gpu-stage-matmul-tiles: 2048 threads per block, a GPU runs 1 to 1024
// DIVIDE: error: gpu-stage-matmul-tiles: tile-m and tile-n must be multiples of block-y and block-x
// LOADS: error: gpu-stage-matmul-tiles: each tile of A and B must have a multiple of block-x * block-y elements
func.func @matmul(%A: memref<8x8xf32>, %C: memref<8x8xf32>) {
  linalg.matmul ins(%A, %A : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}
