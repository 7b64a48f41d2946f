// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -transform-interpreter | FileCheck %s

// Tile sizes: one forall over ceil(range / size) tiles per loop, tiles that do
// not fit take what is left; each tile goes back with parallel_insert_slice.

// CHECK-LABEL: func.func @tile_sizes
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<100x70xf32>, %[[B:[a-z0-9_]+]]: tensor<70x50xf32>, %[[C:[a-z0-9_]+]]: tensor<100x50xf32>)
// CHECK:         %[[R:[a-z0-9_]+]] = scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) in (4, 5) shared_outs(%[[O:[a-z0-9_]+]] = %[[C]]) -> (tensor<100x50xf32>) {
// CHECK:           %[[OI:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 * 32)>(%[[I]])
// CHECK:           %[[SI:[a-z0-9_]+]] = affine.min affine_map<(d0) -> (d0 * -32 + 100, 32)>(%[[I]])
// CHECK:           %[[OJ:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 * 10)>(%[[J]])
// CHECK:           %[[TA:[a-z0-9_]+]] = tensor.extract_slice %[[A]][%[[OI]], 0] [%[[SI]], 70] [1, 1]
// CHECK:           %[[TB:[a-z0-9_]+]] = tensor.extract_slice %[[B]][0, %[[OJ]]] [70, 10] [1, 1]
// CHECK:           %[[TC:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[OI]], %[[OJ]]] [%[[SI]], 10] [1, 1]
// CHECK:           %[[T:[a-z0-9_]+]] = linalg.matmul ins(%[[TA]], %[[TB]] : tensor<?x70xf32>, tensor<70x10xf32>) outs(%[[TC]] : tensor<?x10xf32>)
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[T]] into %[[O]][%[[OI]], %[[OJ]]] [%[[SI]], 10] [1, 1] : tensor<?x10xf32> into tensor<100x50xf32>
// CHECK-NEXT:      }
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK:         return %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @tile_sizes(%a: tensor<100x70xf32>, %b: tensor<70x50xf32>, %c: tensor<100x50xf32>) -> tensor<100x50xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<100x70xf32>, tensor<70x50xf32>) outs(%c : tensor<100x50xf32>) -> tensor<100x50xf32>
    return %0 : tensor<100x50xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %2 = transform.structured.tile_using_forall %0 tile_sizes [32, 10] (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A count of threads: each takes ceil(range / count); where the last one may
// start past the end (5 over 4 threads: 2, 2, 1, 0) its size is clamped at 0.

// CHECK-LABEL: func.func @num_threads
// CHECK:         scf.forall (%[[I:[a-z0-9_]+]]) in (4) shared_outs
// CHECK:           %[[OI:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[I]])
// CHECK:           %[[LEFT:[a-z0-9_]+]] = affine.min affine_map<(d0) -> (d0 * -2 + 5, 2)>(%[[I]])
// CHECK:           %[[SI:[a-z0-9_]+]] = affine.max affine_map<(d0) -> (0, d0)>(%[[LEFT]])
// CHECK:           tensor.extract_slice %{{.*}}[%[[OI]]] [%[[SI]]] [1]
module attributes {transform.with_named_sequence} {
  func.func @num_threads(%a: tensor<5xf32>, %c: tensor<5xf32>) -> tensor<5xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<5xf32>) outs(%c : tensor<5xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.negf %x : f32
      linalg.yield %y : f32
    } -> tensor<5xf32>
    return %0 : tensor<5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %2 = transform.structured.tile_using_forall %0 num_threads [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fuse {use_forall}: the producers fuse into the forall's tiles, the fill
// through the shared output.

// CHECK-LABEL: func.func @fuse_forall
// CHECK:         %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<64x64xf32>
// CHECK:         scf.forall (%{{.*}}) = (0) to (64) step (16) shared_outs(%[[O:[a-z0-9_]+]] = %[[E]])
// CHECK:           %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]]
// CHECK:           %[[F:[a-z0-9_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<16x64xf32>)
// CHECK:           %[[M:[a-z0-9_]+]] = linalg.matmul {{.*}} outs(%[[F]] : tensor<16x64xf32>)
// CHECK:           tensor.parallel_insert_slice %[[M]] into %[[O]]
module attributes {transform.with_named_sequence} {
  func.func @fuse_forall(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
    %e = tensor.empty() : tensor<64x64xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loop = transform.structured.fuse %0 tile_sizes [16] {use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
