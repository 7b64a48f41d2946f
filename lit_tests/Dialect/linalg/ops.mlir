// RUN: mlkit-opt %s | mlkit-opt --mlir-print-local-scope | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt --mlir-print-local-scope | filecheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr2 = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d1)>
#mA = affine_map<(d0, d1, d2) -> (d2, d0)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#trait = {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}

// CHECK-LABEL: func.func @generic
func.func @generic(%a: tensor<4x8xf32>, %m: memref<4x8xf32>, %mt: memref<8x4xf32>) -> tensor<4x8xf32> {
  // CHECK: linalg.generic {doc = "scale", indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], library_call = "scale_fn"} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) attrs =  {tag = 1 : i32} {
  // CHECK: linalg.index 1 : index
  // CHECK: linalg.yield %{{.*}} : f32
  // CHECK: } -> tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"], doc = "scale", library_call = "scale_fn"} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) attrs = {tag = 1 : i32} {
  ^bb0(%x: f32, %y: f32):
    %i = linalg.index 1 : index
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : memref<4x8xf32>) outs(%{{.*}} : memref<8x4xf32>) {
  linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : memref<4x8xf32>) outs(%mt : memref<8x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @map_reduce
func.func @map_reduce(%a: tensor<64xf32>, %b: tensor<64xf32>, %t: tensor<16x64xf32>, %m: memref<64xf32>, %mm: memref<16x64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  // CHECK: %mapped = linalg.map { arith.addf } ins(%{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xf32>) outs(%{{.*}} : tensor<64xf32>)
  %0 = linalg.map { arith.addf } ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%a : tensor<64xf32>)
  // CHECK: %mapped_0 = linalg.map ins(%{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xf32>) outs(%{{.*}} : tensor<64xf32>)
  // CHECK-NEXT: (%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32) {
  // CHECK: arith.subf
  %1 = linalg.map ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%a : tensor<64xf32>)
    (%x: f32, %y: f32, %z: f32) {
      %s = arith.subf %y, %x : f32
      linalg.yield %s : f32
    }
  // CHECK: linalg.map { math.absf } ins(%{{.*}} : memref<64xf32>) outs(%{{.*}} : memref<64xf32>)
  linalg.map { math.absf } ins(%m : memref<64xf32>) outs(%m : memref<64xf32>)
  // CHECK: %reduced = linalg.reduce { arith.addf } ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<64xf32>) dimensions = [0]
  %2 = linalg.reduce { arith.addf } ins(%t : tensor<16x64xf32>) outs(%a : tensor<64xf32>) dimensions = [0]
  // CHECK: linalg.reduce ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<64xf32>) dimensions = [0]
  // CHECK: arith.maximumf
  %3 = linalg.reduce ins(%t : tensor<16x64xf32>) outs(%a : tensor<64xf32>) dimensions = [0]
    (%x: f32, %y: f32) {
      %s = arith.maximumf %x, %y : f32
      linalg.yield %s : f32
    }
  // CHECK: linalg.reduce { arith.mulf } ins(%{{.*}} : memref<16x64xf32>) outs(%{{.*}} : memref<64xf32>) dimensions = [0]
  linalg.reduce { arith.mulf } ins(%mm : memref<16x64xf32>) outs(%m : memref<64xf32>) dimensions = [0]
  return %0, %1, %2, %3 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// CHECK-LABEL: func.func @transpose_broadcast
func.func @transpose_broadcast(%a: tensor<64xf32>, %t: tensor<16x64xf32>, %tt: tensor<64x16xf32>, %m: memref<16x64xf32>, %mt: memref<64x16xf32>, %mv: memref<64xf32>) -> (tensor<64x16xf32>, tensor<16x64xf32>) {
  // CHECK: %transposed = linalg.transpose ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<64x16xf32>) permutation = [1, 0]
  %0 = linalg.transpose ins(%t : tensor<16x64xf32>) outs(%tt : tensor<64x16xf32>) permutation = [1, 0]
  // CHECK: linalg.transpose ins(%{{.*}} : memref<16x64xf32>) outs(%{{.*}} : memref<64x16xf32>) permutation = [1, 0]
  linalg.transpose ins(%m : memref<16x64xf32>) outs(%mt : memref<64x16xf32>) permutation = [1, 0]
  // CHECK: %broadcasted = linalg.broadcast ins(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) dimensions = [0]
  %1 = linalg.broadcast ins(%a : tensor<64xf32>) outs(%t : tensor<16x64xf32>) dimensions = [0]
  // CHECK: linalg.broadcast ins(%{{.*}} : memref<64xf32>) outs(%{{.*}} : memref<16x64xf32>) dimensions = [0]
  linalg.broadcast ins(%mv : memref<64xf32>) outs(%m : memref<16x64xf32>) dimensions = [0]
  return %0, %1 : tensor<64x16xf32>, tensor<16x64xf32>
}

// CHECK-LABEL: func.func @fill_copy
func.func @fill_copy(%s: f32, %t: tensor<4x16xf32>, %h: tensor<4x16xf16>, %i: tensor<4x16xi8>, %m: memref<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %0 = linalg.fill ins(%s : f32) outs(%t : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<4x16xf32>)
  linalg.fill ins(%s : f32) outs(%m : memref<4x16xf32>)
  // CHECK: linalg.copy ins(%{{.*}} : tensor<4x16xf16>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.copy ins(%h : tensor<4x16xf16>) outs(%t : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: linalg.copy {cast = #linalg.type_fn<cast_unsigned>} ins(%{{.*}} : tensor<4x16xi8>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.copy {cast = #linalg.type_fn<cast_unsigned>} ins(%i : tensor<4x16xi8>) outs(%t : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: linalg.copy ins(%{{.*}} : memref<4x16xf32>) outs(%{{.*}} : memref<4x16xf32>)
  linalg.copy ins(%m : memref<4x16xf32>) outs(%m : memref<4x16xf32>)
  return %0, %1, %2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %at: tensor<8x4xi8>, %bi: tensor<8x16xi8>, %ci: tensor<4x16xi32>,
    %v8: tensor<8xf32>, %v4: tensor<4xf32>, %s0: tensor<f32>,
    %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x16xf32>, %bc: tensor<2x4x16xf32>,
    %ml: tensor<2x4x8x2xf32>, %mr: tensor<3x4x16x2xf32>, %mo: tensor<2x3x8x16xf32>,
    %ma: memref<4x8xf32>, %mb: memref<8x16xf32>, %mc: memref<4x16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<8xf32>, tensor<f32>, tensor<2x3x8x16xf32>) {
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%{{.*}}, %{{.*}} : tensor<8x4xi8>, tensor<8x16xi8>) outs(%{{.*}} : tensor<4x16xi32>) -> tensor<4x16xi32>
  %1 = linalg.matmul indexing_maps = [#mA, #mB, #mC] ins(%at, %bi : tensor<8x4xi8>, tensor<8x16xi8>) outs(%ci : tensor<4x16xi32>) -> tensor<4x16xi32>
  // CHECK: linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {cast = #linalg.type_fn<cast_unsigned>} ins(
  %2 = linalg.matmul indexing_maps = [#mA, #mB, #mC] {cast = #linalg.type_fn<cast_unsigned>} ins(%at, %bi : tensor<8x4xi8>, tensor<8x16xi8>) outs(%ci : tensor<4x16xi32>) -> tensor<4x16xi32>
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x16xf32>) outs(%{{.*}} : memref<4x16xf32>)
  linalg.matmul ins(%ma, %mb : memref<4x8xf32>, memref<8x16xf32>) outs(%mc : memref<4x16xf32>)
  // CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%{{.*}} : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %3 = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%bc : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  // CHECK: linalg.batch_reduce_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %4 = linalg.batch_reduce_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
  %5 = linalg.matvec ins(%a, %v8 : tensor<4x8xf32>, tensor<8xf32>) outs(%v4 : tensor<4xf32>) -> tensor<4xf32>
  // CHECK: linalg.vecmat ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<8xf32>) -> tensor<8xf32>
  %6 = linalg.vecmat ins(%v4, %a : tensor<4xf32>, tensor<4x8xf32>) outs(%v8 : tensor<8xf32>) -> tensor<8xf32>
  // CHECK: linalg.dot ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<f32>) -> tensor<f32>
  %7 = linalg.dot ins(%v8, %v8 : tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<f32>) -> tensor<f32>
  // CHECK: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<2x4x8x2xf32>, tensor<3x4x16x2xf32>) outs(%{{.*}} : tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32>
  %8 = linalg.mmt4d ins(%ml, %mr : tensor<2x4x8x2xf32>, tensor<3x4x16x2xf32>) outs(%mo : tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<8xf32>, tensor<f32>, tensor<2x3x8x16xf32>
}

// linalg.contract: the maps are required and say the loops; a trailing
// attribute dictionary after outs(...) is read as upstream reads it.
// CHECK-LABEL: func.func @contract
func.func @contract(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %c: tensor<4x16xf32>,
    %ai: tensor<4x8xi8>, %bi: tensor<8x16xi8>, %ci: tensor<4x16xi32>,
    %v8: tensor<8xf32>, %s0: tensor<f32>,
    %ma: memref<2x4x8xf32>, %mb: memref<2x8x16xf32>, %mc: memref<2x4x16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>) {
  // CHECK: linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {cast = #linalg.type_fn<cast_unsigned>, tag} ins(
  %1 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, #mB, #mC] ins(%ai, %bi : tensor<4x8xi8>, tensor<8x16xi8>) outs(%ci : tensor<4x16xi32>) {cast = #linalg.type_fn<cast_unsigned>, tag} -> tensor<4x16xi32>
  // CHECK: linalg.contract indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>] ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<f32>) -> tensor<f32>
  %2 = linalg.contract indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>] ins(%v8, %v8 : tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<f32>) -> tensor<f32>
  // CHECK: linalg.contract indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%{{.*}}, %{{.*}} : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%{{.*}} : memref<2x4x16xf32>)
  linalg.contract indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%ma, %mb : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%mc : memref<2x4x16xf32>)
  return %0, %1, %2 : tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>
}

// CHECK-LABEL: func.func @convolutions
func.func @convolutions(%i1: tensor<1x10x3xf32>, %k1: tensor<3x3x5xf32>, %o1: tensor<1x8x5xf32>,
    %i2: tensor<1x10x10x3xf32>, %k2: tensor<3x3x3x5xf32>, %o2: tensor<1x4x4x5xf32>,
    %i2c: tensor<1x3x10x10xf32>, %k2c: tensor<5x3x3x3xf32>, %o2c: tensor<1x5x8x8xf32>,
    %i3: tensor<1x6x6x6x3xf32>, %k3: tensor<3x3x3x3x5xf32>, %o3: tensor<1x4x4x4x5xf32>,
    %kd: tensor<3x3x3xf32>, %od: tensor<1x8x8x3xf32>,
    %mi: memref<1x10x10x3xi8>, %mk: memref<3x3x3x5xi8>, %mo: memref<1x8x8x5xi32>)
    -> (tensor<1x8x5xf32>, tensor<1x4x4x5xf32>, tensor<1x5x8x8xf32>, tensor<1x4x4x4x5xf32>, tensor<1x8x8x3xf32>) {
  // CHECK: linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x10x3xf32>, tensor<3x3x5xf32>) outs(%{{.*}} : tensor<1x8x5xf32>) -> tensor<1x8x5xf32>
  %0 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%i1, %k1 : tensor<1x10x3xf32>, tensor<3x3x5xf32>) outs(%o1 : tensor<1x8x5xf32>) -> tensor<1x8x5xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x10x10x3xf32>, tensor<3x3x3x5xf32>) outs(%{{.*}} : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i2, %k2 : tensor<1x10x10x3xf32>, tensor<3x3x3x5xf32>) outs(%o2 : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  // CHECK: linalg.conv_2d_nchw_fchw ins(%{{.*}}, %{{.*}} : tensor<1x3x10x10xf32>, tensor<5x3x3x3xf32>) outs(%{{.*}} : tensor<1x5x8x8xf32>) -> tensor<1x5x8x8xf32>
  %2 = linalg.conv_2d_nchw_fchw ins(%i2c, %k2c : tensor<1x3x10x10xf32>, tensor<5x3x3x3xf32>) outs(%o2c : tensor<1x5x8x8xf32>) -> tensor<1x5x8x8xf32>
  // CHECK: linalg.conv_3d_ndhwc_dhwcf ins(%{{.*}}, %{{.*}} : tensor<1x6x6x6x3xf32>, tensor<3x3x3x3x5xf32>) outs(%{{.*}} : tensor<1x4x4x4x5xf32>) -> tensor<1x4x4x4x5xf32>
  %3 = linalg.conv_3d_ndhwc_dhwcf ins(%i3, %k3 : tensor<1x6x6x6x3xf32>, tensor<3x3x3x3x5xf32>) outs(%o3 : tensor<1x4x4x4x5xf32>) -> tensor<1x4x4x4x5xf32>
  // CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x10x10x3xf32>, tensor<3x3x3xf32>) outs(%{{.*}} : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %4 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i2, %kd : tensor<1x10x10x3xf32>, tensor<3x3x3xf32>) outs(%od : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf ins(%{{.*}}, %{{.*}} : memref<1x10x10x3xi8>, memref<3x3x3x5xi8>) outs(%{{.*}} : memref<1x8x8x5xi32>)
  linalg.conv_2d_nhwc_hwcf ins(%mi, %mk : memref<1x10x10x3xi8>, memref<3x3x3x5xi8>) outs(%mo : memref<1x8x8x5xi32>)
  return %0, %1, %2, %3, %4 : tensor<1x8x5xf32>, tensor<1x4x4x5xf32>, tensor<1x5x8x8xf32>, tensor<1x4x4x4x5xf32>, tensor<1x8x8x3xf32>
}

// CHECK-LABEL: func.func @poolings
func.func @poolings(%i: tensor<1x10x10x3xf32>, %k: tensor<3x3xf32>, %o: tensor<1x4x4x3xf32>, %ic: tensor<1x3x10x10xf32>, %oc: tensor<1x3x8x8xf32>,
    %mi: memref<1x10x10x3xi32>, %mo: memref<1x8x8x3xi32>, %mk: memref<3x3xi32>)
    -> (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x3x8x8xf32>) {
  // CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  // Vector-typed strides, as JAX's StableHLO lowered by IREE writes them.
  // CHECK: linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(
  %1 = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  // CHECK: linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(
  %2 = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  // CHECK: linalg.pooling_nchw_max ins(%{{.*}}, %{{.*}} : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %3 = linalg.pooling_nchw_max ins(%ic, %k : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%oc : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: linalg.pooling_nhwc_max ins(%{{.*}}, %{{.*}} : memref<1x10x10x3xi32>, memref<3x3xi32>) outs(%{{.*}} : memref<1x8x8x3xi32>)
  linalg.pooling_nhwc_max ins(%mi, %mk : memref<1x10x10x3xi32>, memref<3x3xi32>) outs(%mo : memref<1x8x8x3xi32>)
  return %0, %1, %2, %3 : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x3x8x8xf32>
}

// CHECK-LABEL: func.func @elementwise_named
func.func @elementwise_named(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %cond: tensor<4x8xi1>, %m: memref<4x8xf32>, %ia: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>) {
  // CHECK: linalg.exp ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.exp ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.log ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.log ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.abs ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.abs ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.ceil ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.ceil ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.floor ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.floor ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.negf ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = linalg.negf ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.sqrt ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = linalg.sqrt ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.rsqrt ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = linalg.rsqrt ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.tanh ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %8 = linalg.tanh ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.square ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %9 = linalg.square ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.reciprocal ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %10 = linalg.reciprocal ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.erf ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %11 = linalg.erf ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.round ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %12 = linalg.round ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.add ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %13 = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.sub ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %14 = linalg.sub ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.mul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %15 = linalg.mul ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.div ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %16 = linalg.div ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.max ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %17 = linalg.max ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.min ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %18 = linalg.min ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.powf ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %19 = linalg.powf ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.select ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %20 = linalg.select ins(%cond, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.max ins(%{{.*}}, %{{.*}} : tensor<4x8xi32>, tensor<4x8xi32>) outs(%{{.*}} : tensor<4x8xi32>) -> tensor<4x8xi32>
  %21 = linalg.max ins(%ia, %ia : tensor<4x8xi32>, tensor<4x8xi32>) outs(%ia : tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK: linalg.exp ins(%{{.*}} : memref<4x8xf32>) outs(%{{.*}} : memref<4x8xf32>)
  linalg.exp ins(%m : memref<4x8xf32>) outs(%m : memref<4x8xf32>)
  // CHECK: linalg.add ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<4x8xf32>) outs(%{{.*}} : memref<4x8xf32>)
  linalg.add ins(%m, %m : memref<4x8xf32>, memref<4x8xf32>) outs(%m : memref<4x8xf32>)
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>
}

// CHECK-LABEL: func.func @elementwise_op
func.func @elementwise_op(%a: tensor<4x8xf32>, %v: tensor<8xf32>, %m: memref<4x8xf32>, %c: memref<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [#id2, #row, #id2] ins(%a, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<4x8xi1>, memref<4x8xf32>, memref<4x8xf32>) outs(%{{.*}} : memref<4x8xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%c, %m, %m : memref<4x8xi1>, memref<4x8xf32>, memref<4x8xf32>) outs(%m : memref<4x8xf32>)
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @relayout
func.func @relayout(%src: tensor<128x256xf32>, %dst: tensor<16x8x8x32xf32>, %d: tensor<?x?x?x16xf32>, %t: index, %pad: f32,
    %ms: memref<128x256xf32>, %md: memref<16x8x16x16xf32>, %x: tensor<2x16x32xf32>, %mx: memref<2x16x32xf32>)
    -> (tensor<16x8x8x32xf32>, tensor<?x?x?x16xf32>, tensor<128x256xf32>, tensor<2x16x32xf32>) {
  // CHECK: %pack = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %{{.*}} : tensor<128x256xf32> -> tensor<16x8x8x32xf32>
  %0 = linalg.pack %src padding_value(%pad : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %dst : tensor<128x256xf32> -> tensor<16x8x8x32xf32>
  // CHECK: linalg.pack %{{.*}} inner_dims_pos = [1, 0] inner_tiles = [%{{.*}}, 16] into %{{.*}} : tensor<128x256xf32> -> tensor<?x?x?x16xf32>
  %1 = linalg.pack %src inner_dims_pos = [1, 0] inner_tiles = [%t, 16] into %d : tensor<128x256xf32> -> tensor<?x?x?x16xf32>
  // CHECK: %unpack = linalg.unpack %{{.*}} inner_dims_pos = [1, 0] inner_tiles = [%{{.*}}, 16] into %{{.*}} : tensor<?x?x?x16xf32> -> tensor<128x256xf32>
  %2 = linalg.unpack %d inner_dims_pos = [1, 0] inner_tiles = [%t, 16] into %src : tensor<?x?x?x16xf32> -> tensor<128x256xf32>
  // CHECK: linalg.pack %{{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %{{.*}} : memref<128x256xf32> -> memref<16x8x16x16xf32>
  linalg.pack %ms outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %md : memref<128x256xf32> -> memref<16x8x16x16xf32>
  // CHECK: linalg.unpack %{{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %{{.*}} : memref<16x8x16x16xf32> -> memref<128x256xf32>
  linalg.unpack %md outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %ms : memref<16x8x16x16xf32> -> memref<128x256xf32>
  // CHECK: linalg.softmax dimension(2) ins(%{{.*}} : tensor<2x16x32xf32>) outs(%{{.*}} : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %3 = linalg.softmax dimension(2) ins(%x : tensor<2x16x32xf32>) outs(%x : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  // CHECK: linalg.softmax dimension(1) ins(%{{.*}} : memref<2x16x32xf32>) outs(%{{.*}} : memref<2x16x32xf32>)
  linalg.softmax dimension(1) ins(%mx : memref<2x16x32xf32>) outs(%mx : memref<2x16x32xf32>)
  return %0, %1, %2, %3 : tensor<16x8x8x32xf32>, tensor<?x?x?x16xf32>, tensor<128x256xf32>, tensor<2x16x32xf32>
}

// The trait dictionary may be given by an alias.
// CHECK-LABEL: func.func @generic_trait_alias
// CHECK: linalg.generic {indexing_maps = [{{.*}}], iterator_types = ["parallel", "parallel"]} ins(
func.func @generic_trait_alias(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.generic #trait ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
