// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -transform-interpreter | FileCheck %s

// split_handle, generalize, interchange, merge_handles, get_parent_op and the
// cleanups, in one script: the first matmul becomes a generic with its loops
// permuted (k, i, j), the second is tiled, then the function is canonicalized.

// CHECK-LABEL: func.func @script
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK:         scf.for
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x6xf32>)
module attributes {transform.with_named_sequence} {
  func.func @script(%a: tensor<8x4xf32>, %b: tensor<4x6xf32>, %c: tensor<8x6xf32>) -> tensor<8x6xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x6xf32>) outs(%c : tensor<8x6xf32>) -> tensor<8x6xf32>
    %1 = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x6xf32>) outs(%0 : tensor<8x6xf32>) -> tensor<8x6xf32>
    return %1 : tensor<8x6xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %first, %second = transform.split_handle %0 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %g = transform.structured.generalize %first : (!transform.any_op) -> !transform.any_op
    %i = transform.structured.interchange %g iterator_interchange = [2, 0, 1] : (!transform.any_op) -> !transform.any_op
    %both = transform.merge_handles %i, %second : !transform.any_op
    %f = transform.get_parent_op %both {op_name = "func.func", deduplicate} : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %second tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } {apply_cse} : !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    %p = transform.apply_registered_pass "canonicalize" to %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Interchange renumbers linalg.index with the loops it reads.

// CHECK-LABEL: func.func @interchange_index
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
// CHECK:           %[[I:[a-z0-9_]+]] = linalg.index 1 : index
// CHECK:           %[[J:[a-z0-9_]+]] = linalg.index 0 : index
// CHECK:           arith.subi %[[I]], %[[J]]
module attributes {transform.with_named_sequence} {
  func.func @interchange_index(%out: tensor<3x5xi32>) -> tensor<3x5xi32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%out : tensor<3x5xi32>) {
    ^bb0(%o: i32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %d = arith.subi %i, %j : index
      %v = arith.index_cast %d : index to i32
      linalg.yield %v : i32
    } -> tensor<3x5xi32>
    return %0 : tensor<3x5xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.interchange %0 iterator_interchange = [1, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
