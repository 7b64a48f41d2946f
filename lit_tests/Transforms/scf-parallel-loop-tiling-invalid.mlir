// RUN: not mlkit-opt %s -p 'builtin.module(func.func(scf-parallel-loop-tiling{parallel-loop-tile-sizes=4,0}))' -o /dev/null 2>&1 | filecheck %s
// RUN: not mlkit-opt %s -scf-parallel-loop-tiling='parallel-loop-tile-sizes=0' -o /dev/null 2>&1 | filecheck %s

// A tile size of 0 is rejected before anything is tiled, at an unknown
// location as upstream reports it. (Negative sizes are accepted, as upstream
// accepts them.)
// CHECK: loc(unknown): error: tile size cannot be 0

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
  }
  return
}
