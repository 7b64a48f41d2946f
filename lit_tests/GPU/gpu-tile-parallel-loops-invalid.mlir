// RUN: not mlkit-opt %s -p 'builtin.module(gpu-tile-parallel-loops{tile-sizes-2d=8})' -o /dev/null 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not mlkit-opt %s -p 'builtin.module(gpu-tile-parallel-loops{tile-sizes-1d=2048})' -o /dev/null 2>&1 | filecheck %s --check-prefix=LIMIT
// RUN: not mlkit-opt %s -p 'builtin.module(gpu-tile-parallel-loops{tile-sizes-3d=1,0,4})' -o /dev/null 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not mlkit-opt %s -p 'builtin.module(lower-to-cuda{tile-sizes-2d=64,32})' -o /dev/null 2>&1 | filecheck %s --check-prefix=PIPELINE

// Sizes that no block can have are rejected before anything is tiled.
// COUNT: error: tile-sizes-2d needs 2 sizes, got 1
// LIMIT: error: tile-sizes-1d: 2048 threads per block, more than the 1024 a GPU runs
// ZERO: error: tile-sizes-3d: tile sizes must be positive
// PIPELINE: error: tile-sizes-2d: 2048 threads per block, more than the 1024 a GPU runs

func.func @f(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}
