#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @main(%arg0: tensor<1x2x6x6xf32>) -> tensor<1x4x3x3xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_4_2_3_3_torch.float32> : tensor<4x2x3x3xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
    %0 = tensor.empty() : tensor<1x4x6x6xf32>
    %broadcasted = linalg.broadcast ins(%cst_2 : tensor<4xf32>) outs(%0 : tensor<1x4x6x6xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_1 : tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) outs(%broadcasted : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x4x6x6xf32>) outs(%0 : tensor<1x4x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %7 = arith.cmpf ugt, %in, %cst : f32
      %8 = arith.select %7, %in, %cst : f32
      linalg.yield %8 : f32
    } -> tensor<1x4x6x6xf32>
    %3 = tensor.empty() : tensor<1x4x3x3xf32>
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    %5 = tensor.empty() : tensor<2x2xf32>
    %6 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%2, %5 : tensor<1x4x6x6xf32>, tensor<2x2xf32>) outs(%4 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    return %6 : tensor<1x4x3x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_2_3_3_torch.float32: "0x040000002E4CE7BABE79013E42A646BE27A031BEC9EBB9BDC771813DE50699BB015F3F3E7D5AABBC74777F3D3EE291BD7AC53DBD029566BE0BD91FBED4FCC6BD880D0F3CE4D5BE3D2BD2103E94A023BEB234D2BDDF54AF3DF56B483EDFAF46BDA39C343EBF9C1BBD4750CC3C818B5A3ED6E65FBED9F117BE3B6A74BDDE29BCBDD388503EAE711CBE0936DEBD8D9F28BE2B0C62BE1EE40CBEC9784F3ED265D73DD5F5E93D62184B3C4F7BF7BD4A56233D115B61BEE0652EBE11DBF8BD5A48183E94830D3E4915D6BD4C570BBC225D1A3E6EF16F3E0F95BF3D6F6C023DF7D3213EE11C0EBE40E7333D86203BBE5C4827BE435DF9BDC06ADA3D5221C23D3DF80EBE25D5913DD97F043EAEB5F3BC8A72133C39B25F3DCABB153E69C0673E3DFF39BED1E6B0BD",
      torch_tensor_4_torch.float32: "0x040000008AB6BD3D5BFA473E5008523E00F7543E"
    }
  }
#-}
