// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -transform-interpreter | FileCheck %s

// Loops that divide their range step by the tile size; the rest take
// min(tile, range - iv). Untiled loops (size 0) stay inside the tile.

// CHECK-LABEL: func.func @static_matmul
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<100x70xf32>, %[[B:[a-z0-9_]+]]: tensor<70x50xf32>, %[[C:[a-z0-9_]+]]: tensor<100x50xf32>)
// CHECK-DAG:     %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C100:[a-z0-9_]+]] = arith.constant 100 : index
// CHECK-DAG:     %[[C50:[a-z0-9_]+]] = arith.constant 50 : index
// CHECK-DAG:     %[[C10:[a-z0-9_]+]] = arith.constant 10 : index
// CHECK-DAG:     %[[C20:[a-z0-9_]+]] = arith.constant 20 : index
// CHECK:         %[[R:[a-z0-9_]+]] = scf.for %[[I:[a-z0-9_]+]] = %[[C0]] to %[[C100]] step %[[C10]] iter_args(%[[X:[a-z0-9_]+]] = %[[C]])
// CHECK:           %[[S:[a-z0-9_]+]] = scf.for %[[J:[a-z0-9_]+]] = %[[C0]] to %[[C50]] step %[[C20]] iter_args(%[[Y:[a-z0-9_]+]] = %[[X]])
// CHECK:             %[[N:[a-z0-9_]+]] = affine.min affine_map<(d0) -> (-d0 + 50, 20)>(%[[J]])
// CHECK:             %[[TA:[a-z0-9_]+]] = tensor.extract_slice %[[A]][%[[I]], 0] [10, 70] [1, 1] : tensor<100x70xf32> to tensor<10x70xf32>
// CHECK:             %[[TB:[a-z0-9_]+]] = tensor.extract_slice %[[B]][0, %[[J]]] [70, %[[N]]] [1, 1] : tensor<70x50xf32> to tensor<70x?xf32>
// CHECK:             %[[TC:[a-z0-9_]+]] = tensor.extract_slice %[[Y]][%[[I]], %[[J]]] [10, %[[N]]] [1, 1] : tensor<100x50xf32> to tensor<10x?xf32>
// CHECK:             %[[T:[a-z0-9_]+]] = linalg.matmul ins(%[[TA]], %[[TB]] : tensor<10x70xf32>, tensor<70x?xf32>) outs(%[[TC]] : tensor<10x?xf32>) -> tensor<10x?xf32>
// CHECK:             %[[U:[a-z0-9_]+]] = tensor.insert_slice %[[T]] into %[[Y]][%[[I]], %[[J]]] [10, %[[N]]] [1, 1] : tensor<10x?xf32> into tensor<100x50xf32>
// CHECK:             scf.yield %[[U]] : tensor<100x50xf32>
// CHECK:           scf.yield %[[S]] : tensor<100x50xf32>
// CHECK:         return %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @static_matmul(%a: tensor<100x70xf32>, %b: tensor<70x50xf32>, %c: tensor<100x50xf32>) -> tensor<100x50xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<100x70xf32>, tensor<70x50xf32>) outs(%c : tensor<100x50xf32>) -> tensor<100x50xf32>
    return %0 : tensor<100x50xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loops:2 = transform.structured.tile_using_for %0 tile_sizes [10, 20] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Dynamic ranges are read off the operands; the reduction loop is tiled too,
// and the interchange puts it outermost.

// CHECK-LABEL: func.func @dynamic_interchanged
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<?x?xf32>, %[[B:[a-z0-9_]+]]: tensor<?x?xf32>, %[[C:[a-z0-9_]+]]: tensor<?x?xf32>)
// CHECK-DAG:     %[[M:[a-z0-9_]+]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK-DAG:     %[[K:[a-z0-9_]+]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:         scf.for %[[KK:[a-z0-9_]+]] = %{{.*}} to %[[K]] step %{{.*}} iter_args
// CHECK:           scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %[[M]] step %{{.*}} iter_args
// CHECK-NOT:         scf.for
// CHECK:             %[[SK:[a-z0-9_]+]] = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 8)>(%[[KK]])[%[[K]]]
// CHECK:             %[[SI:[a-z0-9_]+]] = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 4)>(%[[I]])[%[[M]]]
// CHECK:             tensor.extract_slice %[[A]][%[[I]], %[[KK]]] [%[[SI]], %[[SK]]] [1, 1]
// CHECK:             tensor.extract_slice %[[B]][%[[KK]], 0] [%[[SK]], %{{.*}}] [1, 1]
// CHECK:             linalg.matmul
module attributes {transform.with_named_sequence} {
  func.func @dynamic_interchanged(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %0 : tensor<?x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loops:2 = transform.structured.tile_using_for %0 tile_sizes [4, 0, 8] interchange = [2, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// On memrefs the tiles are subviews and the loops carry nothing.

// CHECK-LABEL: func.func @memref_fill
// CHECK:         scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[V:[a-z0-9_]+]] = memref.subview %{{.*}}[%[[I]], 0] [16, 24] [1, 1] : memref<64x24xf32> to memref<16x24xf32, strided<[24, 1], offset: ?>>
// CHECK:           linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<16x24xf32, strided<[24, 1], offset: ?>>)
// CHECK-NOT:       scf.yield %
module attributes {transform.with_named_sequence} {
  func.func @memref_fill(%m: memref<64x24xf32>, %v: f32) {
    linalg.fill ins(%v : f32) outs(%m : memref<64x24xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loop = transform.structured.tile_using_for %0 tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A window's input slice covers the outputs' rows times the stride plus the
// filter; the filter, which no tiled loop indexes, is not sliced.

// CHECK-LABEL: func.func @conv
// CHECK-SAME:    (%[[IN:[a-z0-9_]+]]: tensor<1x18x18x3xf32>, %[[F:[a-z0-9_]+]]: tensor<3x3x3x8xf32>, %{{.*}}: tensor<1x8x8x8xf32>)
// CHECK:         scf.for %[[H:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           scf.for %[[W:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:             %[[SH:[a-z0-9_]+]] = affine.min affine_map<(d0) -> (-d0 + 8, 3)>(%[[H]])
// CHECK:             %[[OH:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[H]])
// CHECK:             %[[IH:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%[[SH]])
// CHECK:             %[[OW:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[W]])
// CHECK:             %[[X:[a-z0-9_]+]] = tensor.extract_slice %[[IN]][0, %[[OH]], %[[OW]], 0] [1, %[[IH]], 9, 3] [1, 1, 1, 1]
// CHECK:             linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X]], %[[F]] : tensor<1x?x9x3xf32>, tensor<3x3x3x8xf32>)
module attributes {transform.with_named_sequence} {
  func.func @conv(%in: tensor<1x18x18x3xf32>, %f: tensor<3x3x3x8xf32>, %out: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
    %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x18x18x3xf32>, tensor<3x3x3x8xf32>) outs(%out : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    return %0 : tensor<1x8x8x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loops:2 = transform.structured.tile_using_for %0 tile_sizes [0, 3, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// linalg.index reads its position in the whole iteration: the tile's offset
// is added back.

// CHECK-LABEL: func.func @iota
// CHECK:         scf.for %[[I:[a-z0-9_]+]] =
// CHECK:           linalg.generic
// CHECK:             %[[IDX:[a-z0-9_]+]] = linalg.index 0 : index
// CHECK:             %[[POS:[a-z0-9_]+]] = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%[[IDX]], %[[I]])
// CHECK:             arith.index_cast %[[POS]] : index to i32
module attributes {transform.with_named_sequence} {
  func.func @iota(%out: tensor<64xi32>) -> tensor<64xi32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%out : tensor<64xi32>) {
    ^bb0(%o: i32):
      %i = linalg.index 0 : index
      %c = arith.index_cast %i : index to i32
      linalg.yield %c : i32
    } -> tensor<64xi32>
    return %0 : tensor<64xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loop = transform.structured.tile_using_for %0 tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Left alone: all sizes zero (no loops), and ops the match does not name.

// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     scf.for
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT:    linalg.add ins(%{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8x8xf32>)
module attributes {transform.with_named_sequence} {
  func.func @untouched(%a: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = linalg.add ins(%0, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.tile_using_for %0 tile_sizes [0, 0, 0] : (!transform.any_op) -> (!transform.any_op)
    transform.yield
  }
}
