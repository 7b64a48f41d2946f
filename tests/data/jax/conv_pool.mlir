#map = affine_map<(d0, d1, d2, d3) -> (d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module @jit__lambda {
  func.func public @main(%arg0: tensor<2x8x8x3xf32>) -> tensor<2x4x4x4xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant dense<"0x6CBF003E7F4607BEBDF2233FDFD5D63DA12109BFFD22B93E79E9A63FE673723FFE2734BF55F9A1BFEA8E1FBF6E45293D4ECD14C0EC0A60BE037A9FBFE0753BBF8F540BBF18F2A1BE3DC1D23E1471853F979E03BE46E8AE3F334A2ABF21F9B33ED249673F8589C03DF8553EBF32F66BBF0A5BEABED57A613E2B3B81BF1F3256BEE20B23BEDB740A3F9ACF5B3E69F3B53E506127BF70B904BE9EB2483FC028BF3F0F29A1BF41C8C13FA545AC3F0604483FBA66873E7EBAA0BE6CA0BA3FBFE9FA3FF99BE63F5255A83F91FAB63E2FAA9ABFFAF391BBBE0E283F07E9A4BF704DCA3E1817DC3EDB2F323F2D9197BF576529BF7174DFBE12BC95BF9BA3DE3F03E8FDBEB56EA83E9F6384BE3DAFCA3F9701A93F6623223F4E060DC0551C553D0F062F3FD081803F282F1EBFAB37E93FE203A9BFE75929BF705F6F3F7EED483D332700402D0B413E021922BF0150C1BEADAA8BBF068BA3BFA662213F48C7143F1AB4A53FD82D41BFAC34D83F7B2493BE3686C93F1B96DDBEA2483CBFBDC77F3EA806843FB2DF243E38E515BF16ADABBF0465B3BFD3AF003FD55D7D3FD73C28BECA8489BFB17F5F3FF3E3A3BFA18B36BF07FB1E3F"> : tensor<3x3x3x4xf32>
    %cst_2 = arith.constant dense<[-2.25014114, 0.386369586, -0.58164084, 0.1092797]> : tensor<4xf32>
    %0 = tensor.empty() : tensor<2x8x8x4xf32>
    %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
    %padded = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst_0 : f32
    } : tensor<2x8x8x3xf32> to tensor<2x10x10x3xf32>
    %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %cst_1 : tensor<2x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%1 : tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_2 : tensor<4xf32>) outs(%0 : tensor<2x8x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x8x8x4xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %3 : tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>) outs(%0 : tensor<2x8x8x4xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %10 = arith.addf %in, %in_3 : f32
      linalg.yield %10 : f32
    } -> tensor<2x8x8x4xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<2x8x8x4xf32>) outs(%0 : tensor<2x8x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.maximumf %in, %cst_0 : f32
      linalg.yield %10 : f32
    } -> tensor<2x8x8x4xf32>
    %6 = tensor.empty() : tensor<2x2xf32>
    %7 = tensor.empty() : tensor<2x4x4x4xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
    %9 = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%5, %6 : tensor<2x8x8x4xf32>, tensor<2x2xf32>) outs(%8 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
    return %9 : tensor<2x4x4x4xf32>
  }
}
