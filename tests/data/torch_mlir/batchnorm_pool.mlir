#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
module {
  func.func @main(%arg0: tensor<2x3x4x4xf32>) -> tensor<2x3xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_3_torch.float32_3> : tensor<3xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_3_torch.float32_2> : tensor<3xf32>
    %cst_3 = arith.constant 1.000000e-05 : f64
    %cst_4 = arith.constant dense_resource<torch_tensor_3_torch.float32_1> : tensor<3xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_3_torch.float32> : tensor<3xf32>
    %cst_6 = arith.constant 1.600000e+01 : f32
    %0 = tensor.empty() : tensor<3xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_4 : tensor<3xf32>) outs(%0 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.truncf %cst_3 : f64 to f32
      %14 = arith.addf %in, %13 : f32
      linalg.yield %14 : f32
    } -> tensor<3xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%1 : tensor<3xf32>) outs(%0 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.sqrt %in : f32
      linalg.yield %13 : f32
    } -> tensor<3xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%2 : tensor<3xf32>) outs(%0 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.cmpf one, %in, %cst : f32
      cf.assert %13, "unimplemented: tensor with zero element"
      %14 = arith.divf %cst_0, %in : f32
      linalg.yield %14 : f32
    } -> tensor<3xf32>
    %expanded = tensor.expand_shape %cst_5 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %expanded_7 = tensor.expand_shape %3 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %4 = tensor.empty() : tensor<2x3x4x4xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %expanded : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%4 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %13 = arith.subf %in, %in_10 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3x4x4xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %expanded_7 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%4 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %13 = arith.mulf %in, %in_10 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_8 = tensor.expand_shape %cst_2 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %expanded_8 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%4 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %13 = arith.mulf %in, %in_10 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_9 = tensor.expand_shape %cst_1 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_9 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%4 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %13 = arith.addf %in, %in_10 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3x4x4xf32>
    %9 = tensor.empty() : tensor<2x3x1x1xf32>
    %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%8 : tensor<2x3x4x4xf32>) outs(%10 : tensor<2x3x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.addf %in, %out : f32
      linalg.yield %13 : f32
    } -> tensor<2x3x1x1xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<2x3x1x1xf32>) outs(%9 : tensor<2x3x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.divf %in, %cst_6 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3x1x1xf32>
    %collapsed = tensor.collapse_shape %12 [[0], [1, 2, 3]] : tensor<2x3x1x1xf32> into tensor<2x3xf32>
    return %collapsed : tensor<2x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_3_torch.float32_3: "0x04000000CC811A3F829C4F3F63A738BD",
      torch_tensor_3_torch.float32_2: "0x04000000B684113F3D05573E1DD7673F",
      torch_tensor_3_torch.float32_1: "0x04000000077B973F1E67B93FD0FC823F",
      torch_tensor_3_torch.float32: "0x040000005C3FC53F503C96BE49710BC0"
    }
  }
#-}
