#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
#map3 = affine_map<(d0, d1) -> ()>
module @jit_mlp {
  func.func public @main(%arg0: tensor<?x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16x3xf32>, %arg4: tensor<3xf32>) -> tensor<?x3xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<f32>
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8xf32>
    %0 = arith.index_cast %dim : index to i32
    %1 = tensor.empty(%dim) : tensor<?x16xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<?x16xf32>) -> tensor<?x16xf32>
    %3 = linalg.matmul ins(%arg0, %arg1 : tensor<?x8xf32>, tensor<8x16xf32>) outs(%2 : tensor<?x16xf32>) -> tensor<?x16xf32>
    %4 = tensor.empty() : tensor<1x16xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<16xf32>) outs(%4 : tensor<1x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16xf32>
    %6 = arith.index_cast %0 : i32 to index
    %7 = tensor.empty(%6) : tensor<?x16xf32>
    %8 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<1x16xf32>) outs(%7 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x16xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%3, %8 : tensor<?x16xf32>, tensor<?x16xf32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %21 = arith.addf %in, %in_1 : f32
      linalg.yield %21 : f32
    } -> tensor<?x16xf32>
    %10 = linalg.generic {indexing_maps = [#map3, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_0 : tensor<f32>) outs(%7 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x16xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%9, %10 : tensor<?x16xf32>, tensor<?x16xf32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %21 = arith.maximumf %in, %in_1 : f32
      linalg.yield %21 : f32
    } -> tensor<?x16xf32>
    %12 = tensor.empty(%dim) : tensor<?x3xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<?x3xf32>) -> tensor<?x3xf32>
    %14 = linalg.matmul ins(%11, %arg3 : tensor<?x16xf32>, tensor<16x3xf32>) outs(%13 : tensor<?x3xf32>) -> tensor<?x3xf32>
    %15 = tensor.empty() : tensor<1x3xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg4 : tensor<3xf32>) outs(%15 : tensor<1x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x3xf32>
    %17 = tensor.empty(%6) : tensor<?x3xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<1x3xf32>) outs(%17 : tensor<?x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x3xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%14, %18 : tensor<?x3xf32>, tensor<?x3xf32>) outs(%12 : tensor<?x3xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %21 = arith.addf %in, %in_1 : f32
      linalg.yield %21 : f32
    } -> tensor<?x3xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<?x3xf32>) outs(%12 : tensor<?x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %21 = math.tanh %in : f32
      linalg.yield %21 : f32
    } -> tensor<?x3xf32>
    return %20 : tensor<?x3xf32>
  }
}
