// RUN: mlkit-opt %s -split-input-file -linalg-fuse-elementwise-ops | filecheck %s --check-prefix=FUSE
// RUN: mlkit-opt %s -split-input-file '-linalg-fuse-elementwise-ops=fuse-into-contractions=false' | filecheck %s --check-prefix=KEEP

// By default (upstream) an elementwise producer fuses into a matmul-shaped
// generic; with fuse-into-contractions=false the contraction keeps plain
// operands and the producer stays a loop nest of its own.

// FUSE-LABEL: func.func @scale_then_matmul
// FUSE:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// FUSE:         arith.divf
// FUSE:         arith.mulf
// FUSE:         arith.addf
// FUSE-NOT:   linalg.generic

// KEEP-LABEL: func.func @scale_then_matmul
// KEEP:       %[[S:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// KEEP:         arith.divf
// KEEP:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// KEEP-SAME:    ins(%[[S]], %{{.+}} : tensor<4x8xf32>, tensor<8x16xf32>)
// KEEP-NEXT:  ^{{.*}}(%{{.+}}: f32, %{{.+}}: f32, %{{.+}}: f32):
// KEEP-NEXT:    arith.mulf
// KEEP-NEXT:    arith.addf
// KEEP-NEXT:    linalg.yield

#id = affine_map<(i, j) -> (i, j)>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @scale_then_matmul(%x: tensor<4x8xf32>, %d: tensor<4x8xf32>, %w: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %d : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %den: f32, %out: f32):
    %q = arith.divf %in, %den : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %m = arith.mulf %l, %r : f32
    %p = arith.addf %o, %m : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// The option leaves fusion into other reductions alone: a row sum of an
// exponential is one loop nest either way.

// FUSE-LABEL: func.func @exp_then_sum
// FUSE:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// FUSE:         math.exp
// FUSE:         arith.addf
// FUSE-NOT:   linalg.generic

// KEEP-LABEL: func.func @exp_then_sum
// KEEP:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// KEEP:         math.exp
// KEEP:         arith.addf
// KEEP-NOT:   linalg.generic

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @exp_then_sum(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x2 : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %p = arith.addf %o, %in : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
