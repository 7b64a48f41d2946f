#map = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map4 = affine_map<() -> ()>
#map5 = affine_map<(d0, d1, d2) -> ()>
#map6 = affine_map<(d0, d1, d2) -> (d2)>
module @jit_block {
  func.func public @main(%arg0: tensor<2x5x8xf32>) -> tensor<2x5x8xf32> {
    %cst = arith.constant 9.99999974E-6 : f32
    %cst_0 = arith.constant 0x7FC00000 : f32
    %cst_1 = arith.constant 8.000000e+00 : f32
    %cst_2 = arith.constant 0xFF800000 : f32
    %cst_3 = arith.constant 2.82842708 : f32
    %cst_4 = arith.constant 0.000000e+00 : f32
    %cst_5 = arith.constant dense<[0.125730217, -0.132104859, 0.640422642, 0.104900114, -0.535669386, 0.361595064, 1.304000e+00, 0.947080969]> : tensor<8xf32>
    %cst_6 = arith.constant dense<[-0.703735232, -1.26542151, -0.623274446, 0.0413259789, -2.3250308, -0.218791664, -1.245911, -0.73226738]> : tensor<8xf32>
    %0 = tensor.empty() : tensor<2x8x5xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x5x8xf32>) outs(%0 : tensor<2x8x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x8x5xf32>
    %2 = tensor.empty() : tensor<2x5x5xf32>
    %3 = linalg.fill ins(%cst_4 : f32) outs(%2 : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %4 = linalg.batch_matmul ins(%arg0, %1 : tensor<2x5x8xf32>, tensor<2x8x5xf32>) outs(%3 : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<2x5x5xf32>) outs(%2 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.divf %in, %cst_3 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x5xf32>
    %6 = tensor.empty() : tensor<2x5xf32>
    %7 = linalg.fill ins(%cst_2 : f32) outs(%6 : tensor<2x5xf32>) -> tensor<2x5xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%5 : tensor<2x5x5xf32>) outs(%7 : tensor<2x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.maximumf %out, %in : f32
      linalg.yield %43 : f32
    } -> tensor<2x5xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<2x5xf32>) outs(%2 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x5x5xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %9 : tensor<2x5x5xf32>, tensor<2x5x5xf32>) outs(%2 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %43 = arith.subf %in, %in_8 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x5xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%10 : tensor<2x5x5xf32>) outs(%2 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = math.exp %in : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x5xf32>
    %12 = linalg.fill ins(%cst_4 : f32) outs(%6 : tensor<2x5xf32>) -> tensor<2x5xf32>
    %13 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%11 : tensor<2x5x5xf32>) outs(%12 : tensor<2x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.addf %out, %in : f32
      linalg.yield %43 : f32
    } -> tensor<2x5xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<2x5xf32>) outs(%2 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x5x5xf32>
    %15 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11, %14 : tensor<2x5x5xf32>, tensor<2x5x5xf32>) outs(%2 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %43 = arith.divf %in, %in_8 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x5xf32>
    %16 = tensor.empty() : tensor<2x5x8xf32>
    %17 = linalg.fill ins(%cst_4 : f32) outs(%16 : tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
    %18 = linalg.batch_matmul ins(%15, %arg0 : tensor<2x5x5xf32>, tensor<2x5x8xf32>) outs(%17 : tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %18 : tensor<2x5x8xf32>, tensor<2x5x8xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %43 = arith.addf %in, %in_8 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x8xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%19 : tensor<2x5x8xf32>) outs(%12 : tensor<2x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.addf %out, %in : f32
      linalg.yield %43 : f32
    } -> tensor<2x5xf32>
    %expanded = tensor.expand_shape %20 [[0], [1, 2]] output_shape [2, 5, 1] : tensor<2x5xf32> into tensor<2x5x1xf32>
    %21 = tensor.empty() : tensor<2x5x1xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x5x1xf32>) outs(%21 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.divf %in, %cst_1 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x1xf32>
    %23 = linalg.generic {indexing_maps = [#map3, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<2x5x1xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x5x8xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %23 : tensor<2x5x8xf32>, tensor<2x5x8xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %43 = arith.subf %in, %in_8 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x8xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24 : tensor<2x5x8xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.mulf %in, %in : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x8xf32>
    %26 = tensor.empty() : tensor<f32>
    %27 = linalg.generic {indexing_maps = [#map4], iterator_types = []} outs(%26 : tensor<f32>) {
    ^bb0(%out: f32):
      linalg.yield %cst_4 : f32
    } -> tensor<f32>
    %28 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = []} ins(%27 : tensor<f32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.subf %cst_1, %in : f32
      linalg.yield %43 : f32
    } -> tensor<f32>
    %29 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%25 : tensor<2x5x8xf32>) outs(%12 : tensor<2x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.addf %out, %in : f32
      linalg.yield %43 : f32
    } -> tensor<2x5xf32>
    %expanded_7 = tensor.expand_shape %29 [[0], [1, 2]] output_shape [2, 5, 1] : tensor<2x5xf32> into tensor<2x5x1xf32>
    %30 = linalg.generic {indexing_maps = [#map5, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%28 : tensor<f32>) outs(%21 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x5x1xf32>
    %31 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_7, %30 : tensor<2x5x1xf32>, tensor<2x5x1xf32>) outs(%21 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %43 = arith.divf %in, %in_8 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x1xf32>
    %32 = tensor.empty() : tensor<i1>
    %33 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = []} ins(%28 : tensor<f32>) outs(%32 : tensor<i1>) {
    ^bb0(%in: f32, %out: i1):
      %43 = arith.cmpf ogt, %in, %cst_4 : f32
      linalg.yield %43 : i1
    } -> tensor<i1>
    %extracted = tensor.extract %33[] : tensor<i1>
    %34 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%31 : tensor<2x5x1xf32>) outs(%21 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.select %extracted, %in, %cst_0 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x1xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%34 : tensor<2x5x1xf32>) outs(%21 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.addf %in, %cst : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x1xf32>
    %36 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%35 : tensor<2x5x1xf32>) outs(%21 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = math.rsqrt %in : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x1xf32>
    %37 = linalg.generic {indexing_maps = [#map3, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%36 : tensor<2x5x1xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x5x8xf32>
    %38 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24, %37 : tensor<2x5x8xf32>, tensor<2x5x8xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %43 = arith.mulf %in, %in_8 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x8xf32>
    %39 = linalg.generic {indexing_maps = [#map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_5 : tensor<8xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x5x8xf32>
    %40 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%38, %39 : tensor<2x5x8xf32>, tensor<2x5x8xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %43 = arith.mulf %in, %in_8 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x8xf32>
    %41 = linalg.generic {indexing_maps = [#map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_6 : tensor<8xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x5x8xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%40, %41 : tensor<2x5x8xf32>, tensor<2x5x8xf32>) outs(%16 : tensor<2x5x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %43 = arith.addf %in, %in_8 : f32
      linalg.yield %43 : f32
    } -> tensor<2x5x8xf32>
    return %42 : tensor<2x5x8xf32>
  }
}
