// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -linalg-block-pack-matmul="block-factors=32,16,64 allow-padding=1" \
// RUN:   | filecheck %s --check-prefix=PAD
// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -linalg-block-pack-matmul="block-factors=32,16,64 allow-padding=0" \
// RUN:   | filecheck %s --check-prefix=NOPAD
// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -linalg-block-pack-matmul="block-factors=32,16,64 mnk-padded-multiples=256,512,384" \
// RUN:   | filecheck %s --check-prefix=MULT
// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -linalg-block-pack-matmul="block-factors=32,16,64 mnk-padded-multiples=0,64,0" \
// RUN:   | filecheck %s --check-prefix=MULTN

// Sizes the block factors do not divide: with padding allowed (the default)
// each operand is padded with zeros up to whole tiles; without, the op is left
// alone. mnk-padded-multiples replaces a block factor by the size rounded up
// to that multiple (0: keep the block factor).

// PAD-LABEL: func.func @odd
// PAD-SAME:  (%[[A:[^:]+]]: tensor<61x130xf32>, %[[B:[^:]+]]: tensor<130x40xf32>, %[[C:[^:]+]]: tensor<61x40xf32>)
// PAD:       %[[AE:.+]] = tensor.empty() : tensor<2x3x32x64xf32>
// PAD:       %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// PAD:       linalg.pack %[[A]] padding_value(%[[Z]] : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %[[AE]] : tensor<61x130xf32> -> tensor<2x3x32x64xf32>
// PAD:       linalg.pack %[[B]] padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 64] into %{{.+}} : tensor<130x40xf32> -> tensor<3x3x16x64xf32>
// PAD:       linalg.pack %[[C]] padding_value(%{{.+}} : f32) inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %{{.+}} : tensor<61x40xf32> -> tensor<2x3x32x16xf32>
// PAD:       %[[R:.+]] = linalg.generic
// PAD:       linalg.unpack %[[R]] inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %[[C]] : tensor<2x3x32x16xf32> -> tensor<61x40xf32>

// NOPAD-LABEL: func.func @odd
// NOPAD-NOT:   linalg.pack
// NOPAD:       linalg.matmul ins(%{{.+}} : tensor<61x130xf32>, tensor<130x40xf32>) outs(%{{.+}} : tensor<61x40xf32>)
// NOPAD-NOT:   linalg.unpack

// MULT-LABEL: func.func @odd
// MULT:       linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [256, 384] into %{{.+}} : tensor<61x130xf32> -> tensor<1x1x256x384xf32>
// MULT:       linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [512, 384] into %{{.+}} : tensor<130x40xf32> -> tensor<1x1x512x384xf32>
// MULT:       linalg.pack %{{.+}} padding_value(%{{.+}} : f32) inner_dims_pos = [0, 1] inner_tiles = [256, 512] into %{{.+}} : tensor<61x40xf32> -> tensor<1x1x256x512xf32>
// MULT:       linalg.unpack %{{.+}} inner_dims_pos = [0, 1] inner_tiles = [256, 512] into %{{.+}} : tensor<1x1x256x512xf32> -> tensor<61x40xf32>

// MULTN-LABEL: func.func @odd
// MULTN:       linalg.pack %{{.+}} inner_tiles = [32, 64] into %{{.+}} : tensor<61x130xf32> -> tensor<2x3x32x64xf32>
// MULTN:       linalg.pack %{{.+}} inner_tiles = [64, 64] into %{{.+}} : tensor<130x40xf32> -> tensor<1x3x64x64xf32>
// MULTN:       linalg.pack %{{.+}} inner_tiles = [32, 64] into %{{.+}} : tensor<61x40xf32> -> tensor<2x1x32x64xf32>
func.func @odd(%a: tensor<61x130xf32>, %b: tensor<130x40xf32>, %c: tensor<61x40xf32>) -> tensor<61x40xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<61x130xf32>, tensor<130x40xf32>) outs(%c : tensor<61x40xf32>) -> tensor<61x40xf32>
  return %0 : tensor<61x40xf32>
}

// -----

// Only the operands that need it are padded: here the init divides.
// PAD-LABEL: func.func @odd_k
// PAD:       linalg.pack %{{.+}} padding_value(%{{.+}} : f32) {{.*}} : tensor<64x100xf32> -> tensor<2x2x32x64xf32>
// PAD:       linalg.pack %{{.+}} padding_value(%{{.+}} : f32) {{.*}} : tensor<100x48xf32> -> tensor<3x2x16x64xf32>
// PAD:       linalg.pack %{{.+}} inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %{{.+}} : tensor<64x48xf32> -> tensor<2x3x32x16xf32>

// NOPAD-LABEL: func.func @odd_k
// NOPAD-NOT:   linalg.pack
// NOPAD:       linalg.matmul

// MULT-LABEL: func.func @odd_k
// MULT:       linalg.pack %{{.+}} : tensor<64x100xf32> -> tensor<1x1x256x384xf32>

// MULTN-LABEL: func.func @odd_k
// MULTN:       linalg.pack %{{.+}} : tensor<100x48xf32> -> tensor<1x2x64x64xf32>
func.func @odd_k(%a: tensor<64x100xf32>, %b: tensor<100x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x100xf32>, tensor<100x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}

// -----

// Whole tiles are packed without padding either way.
// PAD-LABEL: func.func @whole_tiles
// PAD-NOT:   padding_value
// PAD:       linalg.unpack

// NOPAD-LABEL: func.func @whole_tiles
// NOPAD:       linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [32, 64] into %{{.+}} : tensor<64x128xf32> -> tensor<2x2x32x64xf32>
// NOPAD:       linalg.generic
// NOPAD:       linalg.unpack

// MULT-LABEL: func.func @whole_tiles
// MULT:       linalg.pack %{{.+}} padding_value(%{{.+}} : f32) {{.*}} : tensor<64x128xf32> -> tensor<1x1x256x384xf32>
func.func @whole_tiles(%a: tensor<64x128xf32>, %b: tensor<128x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}

// -----

// Dynamic sizes need padding: left alone without it (upstream's pass fails on
// this input instead). Rounded-up sizes of dynamic loops are dynamic tiles.
// dynamic-tiles: the outer sizes they give are arith.ceildivui here, where
// upstream composes a semi-affine affine.apply.
// NOPAD-LABEL: func.func @dynamic
// NOPAD-NOT:   linalg.pack
// NOPAD:       linalg.matmul

// MULT-LABEL: func.func @dynamic
// MULT-SAME:  (%[[A:[^:]+]]: tensor<?x?xf32>
// MULT-DAG:   %[[M:.+]] = tensor.dim %[[A]], %{{.+}}
// MULT-DAG:   %[[K:.+]] = tensor.dim %[[A]], %{{.+}}
// MULT-DAG:   %[[MT:.+]] = affine.apply affine_map<()[s0] -> ((s0 ceildiv 256) * 256)>()[%[[M]]]
// MULT-DAG:   %[[KT:.+]] = affine.apply affine_map<()[s0] -> ((s0 ceildiv 384) * 384)>()[%[[K]]]
// MULT:       linalg.pack %[[A]] padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [%[[MT]], %[[KT]]] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x?x?xf32>
// MULT:       linalg.unpack %{{.+}} inner_dims_pos = [0, 1] inner_tiles = [%[[MT]], %{{.+}}] into %{{.+}} : tensor<?x?x?x?xf32> -> tensor<?x?xf32>
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
