// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -transform-interpreter | FileCheck %s

// The consumer is tiled and each producer it slices (matmul, then the fill of
// the matmul's accumulator) is computed over just that tile.

// CHECK-LABEL: func.func @fill_matmul_relu
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<100x70xf32>, %[[B:[a-z0-9_]+]]: tensor<70x50xf32>)
// CHECK:         %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<100x50xf32>
// CHECK:         scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[X:[a-z0-9_]+]] = %[[E]])
// CHECK:           scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[Y:[a-z0-9_]+]] = %[[X]])
// CHECK:             %[[SJ:[a-z0-9_]+]] = affine.min affine_map<(d0) -> (-d0 + 50, 16)>(%[[J]])
// CHECK:             %[[SI:[a-z0-9_]+]] = affine.min affine_map<(d0) -> (-d0 + 100, 32)>(%[[I]])
// CHECK:             %[[TA:[a-z0-9_]+]] = tensor.extract_slice %[[A]][%[[I]], 0] [%[[SI]], 70] [1, 1]
// CHECK:             %[[TB:[a-z0-9_]+]] = tensor.extract_slice %[[B]][0, %[[J]]] [70, %[[SJ]]] [1, 1]
// CHECK:             %[[TE:[a-z0-9_]+]] = tensor.extract_slice %[[E]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK:             %[[F:[a-z0-9_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[TE]] : tensor<?x?xf32>)
// CHECK:             %[[MM:[a-z0-9_]+]] = linalg.matmul ins(%[[TA]], %[[TB]] : tensor<?x70xf32>, tensor<70x?xf32>) outs(%[[F]] : tensor<?x?xf32>)
// CHECK:             %[[TO:[a-z0-9_]+]] = tensor.extract_slice %[[Y]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK:             %[[R:[a-z0-9_]+]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<?x?xf32>) outs(%[[TO]] : tensor<?x?xf32>)
// CHECK:             tensor.insert_slice %[[R]] into %[[Y]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @fill_matmul_relu(%a: tensor<100x70xf32>, %b: tensor<70x50xf32>) -> tensor<100x50xf32> {
    %e = tensor.empty() : tensor<100x50xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x50xf32>) -> tensor<100x50xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<100x70xf32>, tensor<70x50xf32>) outs(%f : tensor<100x50xf32>) -> tensor<100x50xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<100x50xf32>) outs(%e : tensor<100x50xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.maximumf %x, %zero : f32
      linalg.yield %m : f32
    } -> tensor<100x50xf32>
    return %r : tensor<100x50xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loops:2 = transform.structured.fuse %0 tile_sizes [32, 16] interchange [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// With only parallel loops tiled, the fill of the accumulator, reached through
// the loops' iter_args, fuses into each tile and the loops start from its
// destination.

// CHECK-LABEL: func.func @fill_through_iter_args
// CHECK:         %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<64x64xf32>
// CHECK:         scf.for %{{.*}} iter_args(%[[X:[a-z0-9_]+]] = %[[E]])
// CHECK:           %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[X]]
// CHECK:           %[[F:[a-z0-9_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<16x64xf32>)
// CHECK:           linalg.matmul {{.*}} outs(%[[F]] : tensor<16x64xf32>)
module attributes {transform.with_named_sequence} {
  func.func @fill_through_iter_args(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
    %e = tensor.empty() : tensor<64x64xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loop = transform.structured.fuse %0 tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Left alone: with the reduction loop tiled, fusing the fill would zero the
// accumulator again in every reduction tile (upstream fuses it and computes
// the wrong sum); the fill stays outside and the loops carry its result.

// CHECK-LABEL: func.func @reduction_tiled
// CHECK:         %[[F:[a-z0-9_]+]] = linalg.fill
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %[[F]])
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.matmul
module attributes {transform.with_named_sequence} {
  func.func @reduction_tiled(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
    %e = tensor.empty() : tensor<64x64xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loops:3 = transform.structured.fuse %0 tile_sizes [16, 16, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// After fusion the producers outside the loops are dead; canonicalize erases
// linalg ops on tensors whose results are unused, as upstream's does.

// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -transform-interpreter -canonicalize | FileCheck %s --check-prefix=CLEAN
// CLEAN-LABEL: func.func @dead_producers
// CLEAN-NOT:     linalg.fill
// CLEAN:         scf.for
// CLEAN:           linalg.fill
// CLEAN:           linalg.matmul
// CLEAN:         return
module attributes {transform.with_named_sequence} {
  func.func @dead_producers(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
    %e = tensor.empty() : tensor<64x64xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loop = transform.structured.fuse %0 tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
