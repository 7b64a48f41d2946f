#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x3xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense_resource<torch_tensor_3_torch.float32> : tensor<3xf32>
    %cst_1 = arith.constant dense_resource<torch_tensor_3_8_torch.float32> : tensor<3x8xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_8_torch.float32> : tensor<8xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_8_4_torch.float32> : tensor<8x4xf32>
    %0 = tensor.empty() : tensor<4x8xf32>
    %transposed = linalg.transpose ins(%cst_3 : tensor<8x4xf32>) outs(%0 : tensor<4x8xf32>) permutation = [1, 0] 
    %dim = tensor.dim %arg0, %c0 : tensor<?x4xf32>
    %1 = tensor.empty(%dim) : tensor<?x8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<?x4xf32>, tensor<4x8xf32>) outs(%2 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_2 : tensor<?x8xf32>, tensor<8xf32>) outs(%1 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %11 = arith.addf %in, %in_5 : f32
      linalg.yield %11 : f32
    } -> tensor<?x8xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<?x8xf32>) outs(%1 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.cmpf ugt, %in, %cst : f32
      %12 = arith.select %11, %in, %cst : f32
      linalg.yield %12 : f32
    } -> tensor<?x8xf32>
    %6 = tensor.empty() : tensor<8x3xf32>
    %transposed_4 = linalg.transpose ins(%cst_1 : tensor<3x8xf32>) outs(%6 : tensor<8x3xf32>) permutation = [1, 0] 
    %7 = tensor.empty(%dim) : tensor<?x3xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<?x3xf32>) -> tensor<?x3xf32>
    %9 = linalg.matmul ins(%5, %transposed_4 : tensor<?x8xf32>, tensor<8x3xf32>) outs(%8 : tensor<?x3xf32>) -> tensor<?x3xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %cst_0 : tensor<?x3xf32>, tensor<3xf32>) outs(%7 : tensor<?x3xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %11 = arith.addf %in, %in_5 : f32
      linalg.yield %11 : f32
    } -> tensor<?x3xf32>
    return %10 : tensor<?x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_3_torch.float32: "0x04000000C5BF463E43C836BDCF2B5D3C",
      torch_tensor_3_8_torch.float32: "0x040000004952983C7B9C39BE6E01753D4D04A9BE68CC82BE4CA43ABE876C643E5D45543EF68F20BEF20251BCB38B673E12F5B33ECBAF0F3EA6A2433DF2BD723E522B55BE70ED863D65588CBE8AEC7ABEF2053BBE10D0233EFD98113E5B7456BEB8BFDA3D",
      torch_tensor_8_torch.float32: "0x040000001AEFA5BEC0B06BBE1ADAB2BE76C2EFBE047095BE9E0EDC3EBC76643E0027783E",
      torch_tensor_8_4_torch.float32: "0x04000000005475BB5E54893E16B3D2BE8066BCBEF43245BEEC4B093E404F22BCCEFACA3E70BF35BD4C7B073EACBB1ABE7048C9BDB891F4BE528BA9BEE80E53BE00BB973C60694A3E189B993E8C8DADBEFCF45EBE98F7393E4E94D43E48BDD2BD5C91BF3E400DA5BD10B5583D4ACDE73ECE7BEDBE6629A1BEE09E01BEDC9347BE282FDD3E"
    }
  }
#-}
