// RUN: mlkit-opt --mlir-print-local-scope %s -linalg-block-pack-matmul="block-factors=32,16,64" | filecheck %s --check-prefix=DEFAULT
// RUN: mlkit-opt --mlir-print-local-scope %s -linalg-block-pack-matmul="block-factors=32,16,64 \
// RUN:   lhs-transpose-outer-blocks=false lhs-transpose-inner-blocks=false \
// RUN:   rhs-transpose-outer-blocks=false rhs-transpose-inner-blocks=false" | filecheck %s --check-prefix=PLAIN
// RUN: mlkit-opt --mlir-print-local-scope %s -linalg-block-pack-matmul="block-factors=32,16,64 \
// RUN:   lhs-transpose-outer-blocks=true lhs-transpose-inner-blocks=true \
// RUN:   rhs-transpose-outer-blocks=false rhs-transpose-inner-blocks=false" | filecheck %s --check-prefix=LHST
// RUN: mlkit-opt --mlir-print-local-scope %s -linalg-block-pack-matmul="block-factors=32,16,64 \
// RUN:   lhs-transpose-inner-blocks=true rhs-transpose-outer-blocks=false" | filecheck %s --check-prefix=MIXED
// RUN: mlkit-opt --mlir-print-local-scope %s -linalg-block-pack-matmul="block-factors=32,16,64 mnk-order=2,0,1" \
// RUN:   | filecheck %s --check-prefix=ORDER

// The layout options of the packed operands, on one matmul C[64x48] +=
// A[64x128] * B[128x48].

// By default the LHS is [MB][KB][mb][kb] and the RHS [NB][KB][nb][kb]: the
// loop nest of linalg.mmt4d.
// DEFAULT-LABEL: func.func @matmul
// DEFAULT:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %{{.+}} : tensor<64x128xf32> -> tensor<2x2x32x64xf32>
// DEFAULT:       linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 64] into %{{.+}} : tensor<128x48xf32> -> tensor<3x2x16x64xf32>
// DEFAULT:       linalg.pack %{{.+}} inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %{{.+}} : tensor<64x48xf32> -> tensor<2x3x32x16xf32>
// DEFAULT:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
// DEFAULT-SAME:  iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]
// DEFAULT:       linalg.unpack %{{.+}} inner_dims_pos = [0, 1] inner_tiles = [32, 16]

// Nothing transposed: the RHS keeps its [KB][NB][kb][nb] layout.
// PLAIN-LABEL: func.func @matmul
// PLAIN:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %{{.+}} : tensor<64x128xf32> -> tensor<2x2x32x64xf32>
// PLAIN:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [64, 16] into %{{.+}} : tensor<128x48xf32> -> tensor<2x3x64x16xf32>
// PLAIN:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]

// Both LHS levels transposed: [KB][MB][kb][mb].
// LHST-LABEL: func.func @matmul
// LHST:       linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [64, 32] into %{{.+}} : tensor<64x128xf32> -> tensor<2x2x64x32xf32>
// LHST:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [64, 16] into %{{.+}} : tensor<128x48xf32> -> tensor<2x3x64x16xf32>
// LHST:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d0, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]

// One level each: LHS [MB][KB][kb][mb], RHS [KB][NB][nb][kb].
// MIXED-LABEL: func.func @matmul
// MIXED:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [1, 0] inner_tiles = [64, 32] into %{{.+}} : tensor<64x128xf32> -> tensor<2x2x64x32xf32>
// MIXED:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [1, 0] inner_tiles = [16, 64] into %{{.+}} : tensor<128x48xf32> -> tensor<2x3x16x64xf32>
// MIXED:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]

// mnk-order=2,0,1 puts the loops in (n, k, m) order before packing: the
// init's tiles follow (n before m), the operand layouts do not change.
// ORDER-LABEL: func.func @matmul
// ORDER:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %{{.+}} : tensor<64x128xf32> -> tensor<2x2x32x64xf32>
// ORDER:       linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 64] into %{{.+}} : tensor<128x48xf32> -> tensor<3x2x16x64xf32>
// ORDER:       linalg.pack %{{.+}} inner_dims_pos = [1, 0] inner_tiles = [16, 32] into %{{.+}} : tensor<64x48xf32> -> tensor<2x3x16x32xf32>
// ORDER:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d0, d3, d5)>]
// ORDER-SAME:  iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction", "parallel"]
// ORDER:       linalg.unpack %{{.+}} inner_dims_pos = [1, 0] inner_tiles = [16, 32]

func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}
