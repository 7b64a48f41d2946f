// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -linalg-block-pack-matmul=block-factors=32,16,64 | filecheck %s
// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -linalg-block-pack-matmul | filecheck %s --check-prefix=NOFACTORS

// Without block factors nothing is packed.
// NOFACTORS-NOT: linalg.pack

// The LHS is laid out in [MB][KB] blocks of [mb][kb], the RHS in [NB][KB]
// blocks of [nb][kb], the init in [MB][NB] blocks of [mb][nb]; block factors
// (32, 16, 64) divide every size, so no padding.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  (%[[A:[^:]+]]: tensor<64x256xf32>, %[[B:[^:]+]]: tensor<256x96xf32>, %[[C:[^:]+]]: tensor<64x96xf32>)
// CHECK:       %[[AE:.+]] = tensor.empty() : tensor<2x4x32x64xf32>
// CHECK:       %[[AP:.+]] = linalg.pack %[[A]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %[[AE]] : tensor<64x256xf32> -> tensor<2x4x32x64xf32>
// CHECK:       %[[BE:.+]] = tensor.empty() : tensor<6x4x16x64xf32>
// CHECK:       %[[BP:.+]] = linalg.pack %[[B]] outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 64] into %[[BE]] : tensor<256x96xf32> -> tensor<6x4x16x64xf32>
// CHECK:       %[[CE:.+]] = tensor.empty() : tensor<2x6x32x16xf32>
// CHECK:       %[[CP:.+]] = linalg.pack %[[C]] inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %[[CE]] : tensor<64x96xf32> -> tensor<2x6x32x16xf32>
// CHECK:       %[[R:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
// CHECK-SAME:  iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]
// CHECK-SAME:  ins(%[[AP]], %[[BP]] : tensor<2x4x32x64xf32>, tensor<6x4x16x64xf32>) outs(%[[CP]] : tensor<2x6x32x16xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       %[[U:.+]] = linalg.unpack %[[R]] inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %[[C]] : tensor<2x6x32x16xf32> -> tensor<64x96xf32>
// CHECK:       return %[[U]]
func.func @matmul(%a: tensor<64x256xf32>, %b: tensor<256x96xf32>, %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}

// -----

// Dynamic sizes: each packed tensor's outer sizes are the sizes divided by the
// tile, rounded up, and every pack pads with zeros.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-SAME:  (%[[A:[^:]+]]: tensor<?x?xf32>, %[[B:[^:]+]]: tensor<?x?xf32>, %[[C:[^:]+]]: tensor<?x?xf32>)
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[AM:.+]] = tensor.dim %[[A]], %[[C0]]
// CHECK-DAG:   %[[AK:.+]] = tensor.dim %[[A]], %[[C1]]
// CHECK-DAG:   %[[AMB:.+]] = affine.apply affine_map<()[s0] -> (s0 ceildiv 32)>()[%[[AM]]]
// CHECK-DAG:   %[[AKB:.+]] = affine.apply affine_map<()[s0] -> (s0 ceildiv 64)>()[%[[AK]]]
// CHECK:       %[[AE:.+]] = tensor.empty(%[[AMB]], %[[AKB]]) : tensor<?x?x32x64xf32>
// CHECK:       %[[Z0:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[AP:.+]] = linalg.pack %[[A]] padding_value(%[[Z0]] : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %[[AE]]
// CHECK-DAG:   %[[BK:.+]] = tensor.dim %[[B]], %[[C0]]
// CHECK-DAG:   %[[BN:.+]] = tensor.dim %[[B]], %[[C1]]
// CHECK-DAG:   %[[BNB:.+]] = affine.apply affine_map<()[s0] -> (s0 ceildiv 16)>()[%[[BN]]]
// CHECK-DAG:   %[[BKB:.+]] = affine.apply affine_map<()[s0] -> (s0 ceildiv 64)>()[%[[BK]]]
// CHECK:       %[[BE:.+]] = tensor.empty(%[[BNB]], %[[BKB]]) : tensor<?x?x16x64xf32>
// CHECK:       %[[BP:.+]] = linalg.pack %[[B]] padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 64] into %[[BE]]
// CHECK:       %[[CP:.+]] = linalg.pack %[[C]] padding_value(%{{.+}} : f32) inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x32x16xf32>
// CHECK:       %[[R:.+]] = linalg.generic
// CHECK-SAME:  ins(%[[AP]], %[[BP]] : tensor<?x?x32x64xf32>, tensor<?x?x16x64xf32>) outs(%[[CP]] : tensor<?x?x32x16xf32>)
// CHECK:       linalg.unpack %[[R]] inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %[[C]] : tensor<?x?x32x16xf32> -> tensor<?x?xf32>
func.func @matmul_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A transposed LHS ([K][M]) is packed into the same [MB][KB] blocks of
// [mb][kb]: its outer dimensions are swapped back.
// CHECK-LABEL: func.func @matmul_transpose_a
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 64] into %{{.+}} : tensor<256x64xf32> -> tensor<2x4x32x64xf32>
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 64] into %{{.+}} : tensor<256x96xf32> -> tensor<6x4x16x64xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
// CHECK:       linalg.unpack
func.func @matmul_transpose_a(%a: tensor<256x64xf32>, %b: tensor<256x96xf32>, %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<256x64xf32>, tensor<256x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}

// -----

// A transposed RHS ([N][K]) already is [NB][KB] blocks of [nb][kb].
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %{{.+}} : tensor<64x256xf32> -> tensor<2x4x32x64xf32>
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 64] into %{{.+}} : tensor<96x256xf32> -> tensor<6x4x16x64xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
// CHECK:       linalg.unpack
func.func @matmul_transpose_b(%a: tensor<64x256xf32>, %b: tensor<96x256xf32>, %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<64x256xf32>, tensor<96x256xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}

// -----

// The batch dimension stays outermost, unpacked.
// CHECK-LABEL: func.func @batch_matmul
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [32, 64] into %{{.+}} : tensor<8x64x128xf32> -> tensor<8x2x2x32x64xf32>
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [0, 2, 1] inner_dims_pos = [2, 1] inner_tiles = [16, 64] into %{{.+}} : tensor<8x128x32xf32> -> tensor<8x2x2x16x64xf32>
// CHECK:       linalg.pack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [32, 16] into %{{.+}} : tensor<8x64x32xf32> -> tensor<8x2x2x32x16xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>]
// CHECK-SAME:  iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]
// CHECK:       linalg.unpack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [32, 16] into %{{.+}} : tensor<8x2x2x32x16xf32> -> tensor<8x64x32xf32>
func.func @batch_matmul(%a: tensor<8x64x128xf32>, %b: tensor<8x128x32xf32>, %c: tensor<8x64x32xf32>) -> tensor<8x64x32xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<8x64x128xf32>, tensor<8x128x32xf32>) outs(%c : tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  return %0 : tensor<8x64x32xf32>
}

// -----

// A generic contraction keeps its body, casts included.
// CHECK-LABEL: func.func @generic_widening
// CHECK:       linalg.pack %{{.+}} : tensor<64x128xi8> -> tensor<2x2x32x64xi8>
// CHECK:       linalg.pack %{{.+}} : tensor<128x32xi8> -> tensor<2x2x16x64xi8>
// CHECK:       linalg.pack %{{.+}} : tensor<64x32xi32> -> tensor<2x2x32x16xi32>
// CHECK:       linalg.generic
// CHECK-NEXT:  ^{{.*}}(%[[X:[^:]+]]: i8, %[[Y:[^:]+]]: i8, %[[ACC:[^:]+]]: i32):
// CHECK-NEXT:    %[[XE:.+]] = arith.extsi %[[X]] : i8 to i32
// CHECK-NEXT:    %[[YE:.+]] = arith.extsi %[[Y]] : i8 to i32
// CHECK-NEXT:    %[[P:.+]] = arith.muli %[[XE]], %[[YE]] : i32
// CHECK-NEXT:    %[[S:.+]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK-NEXT:    linalg.yield %[[S]] : i32
// CHECK:       linalg.unpack %{{.+}} : tensor<2x2x32x16xi32> -> tensor<64x32xi32>
#lhs = affine_map<(i, j, k) -> (i, k)>
#rhs = affine_map<(i, j, k) -> (k, j)>
#out = affine_map<(i, j, k) -> (i, j)>
func.func @generic_widening(%a: tensor<64x128xi8>, %b: tensor<128x32xi8>, %c: tensor<64x32xi32>) -> tensor<64x32xi32> {
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x128xi8>, tensor<128x32xi8>) outs(%c : tensor<64x32xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<64x32xi32>
  return %0 : tensor<64x32xi32>
}

// -----

// CHECK-LABEL: func.func @generic_transpose_a
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 64] into %{{.+}} : tensor<128x64xf32> -> tensor<2x2x32x64xf32>
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 64] into %{{.+}} : tensor<128x32xf32> -> tensor<2x2x16x64xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
// CHECK:       linalg.unpack
#lhs = affine_map<(i, j, k) -> (k, i)>
#rhs = affine_map<(i, j, k) -> (k, j)>
#out = affine_map<(i, j, k) -> (i, j)>
func.func @generic_transpose_a(%a: tensor<128x64xf32>, %b: tensor<128x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<128x64xf32>, tensor<128x32xf32>) outs(%c : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %y, %x : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// CHECK-LABEL: func.func @generic_transpose_b
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %{{.+}} : tensor<64x128xf32> -> tensor<2x2x32x64xf32>
// CHECK:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 64] into %{{.+}} : tensor<32x128xf32> -> tensor<2x2x16x64xf32>
// CHECK:       linalg.generic
// CHECK:       linalg.unpack
#lhs = affine_map<(i, j, k) -> (i, k)>
#rhs = affine_map<(i, j, k) -> (j, k)>
#out = affine_map<(i, j, k) -> (i, j)>
func.func @generic_transpose_b(%a: tensor<64x128xf32>, %b: tensor<32x128xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x128xf32>, tensor<32x128xf32>) outs(%c : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// The fill producing the init is packed like any init, and the unpacked
// result feeds the consumer.
// CHECK-LABEL: func.func @filled_init_and_consumer
// CHECK-SAME:  (%{{[^:]+}}: tensor<64x64xf32>, %{{[^:]+}}: tensor<64x64xf32>, %[[BIAS:[^:]+]]: tensor<64x64xf32>)
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<64x64xf32>
// CHECK:       %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<64x64xf32>)
// CHECK:       linalg.pack %[[ACC]] inner_dims_pos = [0, 1] inner_tiles = [32, 16]
// CHECK:       %[[R:.+]] = linalg.generic
// CHECK:       %[[U:.+]] = linalg.unpack %[[R]] inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %[[ACC]]
// CHECK:       linalg.add ins(%[[U]], %[[BIAS]] : tensor<64x64xf32>, tensor<64x64xf32>) outs(%[[E]] : tensor<64x64xf32>)
func.func @filled_init_and_consumer(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %bias: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.add ins(%0, %bias : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// -----

// Left alone: buffers.
// CHECK-LABEL: func.func @matmul_on_buffers
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.matmul ins(%{{.+}} : memref<64x64xf32>, memref<64x64xf32>) outs(%{{.+}} : memref<64x64xf32>)
// CHECK-NOT:   linalg.unpack
func.func @matmul_on_buffers(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Left alone: a batch_matmul with its own indexing_maps.
// CHECK-LABEL: func.func @batch_matmul_transpose_b
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.batch_matmul indexing_maps
// CHECK-NOT:   linalg.unpack
func.func @batch_matmul_transpose_b(%a: tensor<8x64x128xf32>, %b: tensor<8x32x128xf32>, %c: tensor<8x64x32xf32>) -> tensor<8x64x32xf32> {
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<8x64x128xf32>, tensor<8x32x128xf32>) outs(%c : tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  return %0 : tensor<8x64x32xf32>
}

// -----

// Left alone: a generic with both operands transposed is not one of the three
// matmul layouts taken.
// CHECK-LABEL: func.func @generic_both_transposed
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-NOT:   linalg.unpack
#lhs = affine_map<(i, j, k) -> (k, i)>
#rhs = affine_map<(i, j, k) -> (j, k)>
#out = affine_map<(i, j, k) -> (i, j)>
func.func @generic_both_transposed(%a: tensor<128x64xf32>, %b: tensor<32x128xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<128x64xf32>, tensor<32x128xf32>) outs(%c : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Left alone: matmul maps, but not a multiply-accumulate.
// CHECK-LABEL: func.func @generic_not_multiply_add
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.unpack
#lhs = affine_map<(i, j, k) -> (i, k)>
#rhs = affine_map<(i, j, k) -> (k, j)>
#out = affine_map<(i, j, k) -> (i, j)>
func.func @generic_not_multiply_add(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%c : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.addf %x, %y : f32
    %s = arith.maximumf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Left alone: not a contraction.
// CHECK-LABEL: func.func @elementwise_generic
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.unpack
#id = affine_map<(i, j) -> (i, j)>
func.func @elementwise_generic(%a: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%a : tensor<64x128xf32>) {
  ^bb0(%x: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// Left alone: contractions other than matmul and batch_matmul.
// CHECK-LABEL: func.func @other_contractions
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.batch_reduce_matmul
// CHECK:       linalg.matvec
func.func @other_contractions(%a: tensor<4x64x128xf32>, %b: tensor<4x128x32xf32>, %c: tensor<64x32xf32>,
                              %m: tensor<64x128xf32>, %v: tensor<128xf32>, %w: tensor<64xf32>)
    -> (tensor<64x32xf32>, tensor<64xf32>) {
  %0 = linalg.batch_reduce_matmul ins(%a, %b : tensor<4x64x128xf32>, tensor<4x128x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  %1 = linalg.matvec ins(%m, %v : tensor<64x128xf32>, tensor<128xf32>) outs(%w : tensor<64xf32>) -> tensor<64xf32>
  return %0, %1 : tensor<64x32xf32>, tensor<64xf32>
}

// -----

// Left alone: already blocked.
// CHECK-LABEL: func.func @mmt4d
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.mmt4d
// CHECK-NOT:   linalg.unpack
func.func @mmt4d(%a: tensor<2x4x32x64xf32>, %b: tensor<6x4x16x64xf32>, %c: tensor<2x6x32x16xf32>) -> tensor<2x6x32x16xf32> {
  %0 = linalg.mmt4d ins(%a, %b : tensor<2x4x32x64xf32>, tensor<6x4x16x64xf32>) outs(%c : tensor<2x6x32x16xf32>) -> tensor<2x6x32x16xf32>
  return %0 : tensor<2x6x32x16xf32>
}

// -----

// Left alone: a broadcast LHS leaves no m loop.
// upstream-crashes: upstream's pass reads the m loop it does not find.
// CHECK-LABEL: func.func @matmul_broadcast_lhs
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.matmul indexing_maps
// CHECK-NOT:   linalg.unpack
func.func @matmul_broadcast_lhs(%a: tensor<256xf32>, %b: tensor<256x96xf32>, %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<256xf32>, tensor<256x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}
