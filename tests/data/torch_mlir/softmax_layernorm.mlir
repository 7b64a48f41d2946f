#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @main(%arg0: tensor<3x6xf32>) -> tensor<3x6xf32> {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant dense_resource<torch_tensor_6_torch.float32_1> : tensor<6xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_6_torch.float32> : tensor<6xf32>
    %cst_4 = arith.constant 1.000000e-05 : f64
    %cst_5 = arith.constant 6.000000e+00 : f64
    %cst_6 = arith.constant 6.000000e+00 : f32
    %0 = tensor.empty() : tensor<3x6xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3x6xf32>) outs(%0 : tensor<3x6xf64>) {
    ^bb0(%in: f32, %out: f64):
      %31 = arith.extf %in : f32 to f64
      linalg.yield %31 : f64
    } -> tensor<3x6xf64>
    %2 = tensor.empty() : tensor<3x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<3x1xf64>) -> tensor<3x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<3x6xf64>) outs(%3 : tensor<3x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %31 = arith.addf %in, %out : f64
      linalg.yield %31 : f64
    } -> tensor<3x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<3x1xf64>) outs(%2 : tensor<3x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %31 = arith.divf %in, %cst_5 : f64
      linalg.yield %31 : f64
    } -> tensor<3x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %5 : tensor<3x6xf64>, tensor<3x1xf64>) outs(%0 : tensor<3x6xf64>) {
    ^bb0(%in: f64, %in_7: f64, %out: f64):
      %31 = arith.subf %in, %in_7 : f64
      linalg.yield %31 : f64
    } -> tensor<3x6xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %6 : tensor<3x6xf64>, tensor<3x6xf64>) outs(%0 : tensor<3x6xf64>) {
    ^bb0(%in: f64, %in_7: f64, %out: f64):
      %31 = arith.mulf %in, %in_7 : f64
      linalg.yield %31 : f64
    } -> tensor<3x6xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<3x6xf64>) outs(%3 : tensor<3x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %31 = arith.addf %in, %out : f64
      linalg.yield %31 : f64
    } -> tensor<3x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<3x1xf64>) outs(%2 : tensor<3x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %31 = arith.divf %in, %cst_5 : f64
      linalg.yield %31 : f64
    } -> tensor<3x1xf64>
    %10 = tensor.empty() : tensor<3x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<3x1xf64>) outs(%10 : tensor<3x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %31 = arith.truncf %in : f64 to f32
      linalg.yield %31 : f32
    } -> tensor<3x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<3x1xf32>) -> tensor<3x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<3x6xf32>) outs(%12 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.addf %in, %out : f32
      linalg.yield %31 : f32
    } -> tensor<3x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<3x1xf32>) outs(%10 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.divf %in, %cst_6 : f32
      linalg.yield %31 : f32
    } -> tensor<3x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<3x1xf32>) outs(%10 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.truncf %cst_4 : f64 to f32
      %32 = arith.addf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<3x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<3x1xf32>) outs(%10 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.rsqrt %in : f32
      linalg.yield %31 : f32
    } -> tensor<3x1xf32>
    %17 = tensor.empty() : tensor<3x6xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %14 : tensor<3x6xf32>, tensor<3x1xf32>) outs(%17 : tensor<3x6xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %31 = arith.subf %in, %in_7 : f32
      linalg.yield %31 : f32
    } -> tensor<3x6xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %16 : tensor<3x6xf32>, tensor<3x1xf32>) outs(%17 : tensor<3x6xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %31 = arith.mulf %in, %in_7 : f32
      linalg.yield %31 : f32
    } -> tensor<3x6xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%19, %cst_3 : tensor<3x6xf32>, tensor<6xf32>) outs(%17 : tensor<3x6xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %31 = arith.mulf %in, %in_7 : f32
      linalg.yield %31 : f32
    } -> tensor<3x6xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %cst_2 : tensor<3x6xf32>, tensor<6xf32>) outs(%17 : tensor<3x6xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %31 = arith.addf %in, %in_7 : f32
      linalg.yield %31 : f32
    } -> tensor<3x6xf32>
    %22 = tensor.empty() : tensor<3xi64>
    %23 = linalg.fill ins(%c0_i64 : i64) outs(%22 : tensor<3xi64>) -> tensor<3xi64>
    %24 = tensor.empty() : tensor<3xf32>
    %25 = linalg.fill ins(%cst_1 : f32) outs(%24 : tensor<3xf32>) -> tensor<3xf32>
    %26:2 = linalg.generic {indexing_maps = [#map, #map3, #map3], iterator_types = ["parallel", "reduction"]} ins(%21 : tensor<3x6xf32>) outs(%25, %23 : tensor<3xf32>, tensor<3xi64>) {
    ^bb0(%in: f32, %out: f32, %out_7: i64):
      %31 = linalg.index 1 : index
      %32 = arith.index_cast %31 : index to i64
      %33 = arith.maximumf %in, %out : f32
      %34 = arith.cmpf ogt, %in, %out : f32
      %35 = arith.select %34, %32, %out_7 : i64
      linalg.yield %33, %35 : f32, i64
    } -> (tensor<3xf32>, tensor<3xi64>)
    %expanded = tensor.expand_shape %26#0 [[0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%21, %expanded : tensor<3x6xf32>, tensor<3x1xf32>) outs(%17 : tensor<3x6xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %31 = arith.subf %in, %in_7 : f32
      linalg.yield %31 : f32
    } -> tensor<3x6xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%27 : tensor<3x6xf32>) outs(%17 : tensor<3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.exp %in : f32
      linalg.yield %31 : f32
    } -> tensor<3x6xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%28 : tensor<3x6xf32>) outs(%12 : tensor<3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.addf %in, %out : f32
      linalg.yield %31 : f32
    } -> tensor<3x1xf32>
    %30 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%28, %29 : tensor<3x6xf32>, tensor<3x1xf32>) outs(%17 : tensor<3x6xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %31 = arith.divf %in, %in_7 : f32
      linalg.yield %31 : f32
    } -> tensor<3x6xf32>
    return %30 : tensor<3x6xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_6_torch.float32_1: "0x040000007A83CE3EE588563F442138BF0B83CEBE18BD18BFC6673A3E",
      torch_tensor_6_torch.float32: "0x040000005C3FC53F503C96BE49710BC0B684113FA1D18ABF2D05B3BF"
    }
  }
#-}
