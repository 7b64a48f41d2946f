// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -p 'builtin.module(func.func(linalg-fuse-elementwise-ops))' | filecheck %s

// A collapsed input: the generic runs over the 4x8 source instead, the other
// input is expanded to match, and the result is collapsed back.
// CHECK-LABEL: func.func @collapsed_input
//  CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<32xf32>)
//       CHECK: %[[YE:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
//       CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
//       CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[YE]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
//       CHECK: %[[C:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
//       CHECK: return %[[C]]
func.func @collapsed_input(%x: tensor<4x8xf32>, %y: tensor<32xf32>) -> tensor<32xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e = tensor.empty() : tensor<32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%c, %y : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// -----

// An expanded result between two generics: the producer computes the 4x8
// shape itself, and then the two fuse into one generic.
// CHECK-LABEL: func.func @expanded_result
//       CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
//       CHECK: linalg.generic
//       CHECK:   arith.mulf
//  CHECK-NEXT:   arith.addf
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.expand_shape
func.func @expanded_result(%x: tensor<32xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %c = tensor.expand_shape %r [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r2 : tensor<4x8xf32>
}

// -----

// A transposed operand expands along its own dimension order.
// CHECK-LABEL: func.func @transposed_operand
//       CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
//       CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
//       CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<4x8x2xf32> into tensor<4x16xf32>
func.func @transposed_operand(%x: tensor<4x8x2xf32>, %y: tensor<16x4xf32>) -> tensor<4x16xf32> {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x8x2xf32> into tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %y : tensor<4x16xf32>, tensor<16x4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A reduction over a collapsed dimension becomes a reduction over both of
// its source dimensions; the broadcast init is not expanded.
// CHECK-LABEL: func.func @reduction
//       CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
//   CHECK-NOT: tensor.collapse_shape
func.func @reduction(%x: tensor<3x4x5xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<3x4x5xf32> into tensor<3x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<3x20xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Left alone: the collapsed value has another user.
// CHECK-LABEL: func.func @collapse_used_twice
//       CHECK: %[[C:.*]] = tensor.collapse_shape
//       CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<32xf32>)
//       CHECK: return %{{.*}}, %[[C]]
func.func @collapse_used_twice(%x: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e = tensor.empty() : tensor<32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%c : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r, %c : tensor<32xf32>, tensor<32xf32>
}

// -----

// Left alone: the generic's map for the collapsed input is not a projected
// permutation.
// CHECK-LABEL: func.func @strided_map
//       CHECK: tensor.collapse_shape
//       CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>
func.func @strided_map(%x: tensor<4x8xf32>) -> tensor<16xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%c : tensor<32xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// A reshape undone by its inverse is the original value.
// CHECK-LABEL: func.func @inverse_reshapes
//  CHECK-SAME: (%[[X:.*]]: tensor<32xf32>, %[[Y:.*]]: tensor<4x8xf32>)
//   CHECK-NOT: tensor.
//       CHECK: return %[[X]], %[[Y]]
func.func @inverse_reshapes(%x: tensor<32xf32>, %y: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<4x8xf32>) {
  %e = tensor.expand_shape %x [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %c = tensor.collapse_shape %e [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %c2 = tensor.collapse_shape %y [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e2 = tensor.expand_shape %c2 [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  return %c, %e2 : tensor<32xf32>, tensor<4x8xf32>
}
