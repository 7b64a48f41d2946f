// RUN: not mlkit-opt %s -p 'builtin.module(linalg-vectorize-loops{vector-bits=-128})' -o /dev/null 2>&1 | filecheck %s --check-prefix=BITS
// RUN: not mlkit-opt %s -linalg-vectorize-loops='unroll=0' -o /dev/null 2>&1 | filecheck %s --check-prefix=UNROLL

// Option values that name no vector shape are rejected before anything is
// rewritten, at an unknown location as option errors are reported.
// BITS: loc(unknown): error: vector-bits cannot be negative
// UNROLL: loc(unknown): error: unroll must be at least 1

func.func @f(%x: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%x : memref<?xf32>) {
  ^bb0(%o: f32):
    %s = arith.negf %o : f32
    linalg.yield %s : f32
  }
  return
}
