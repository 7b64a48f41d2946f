// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(linalg-matmul-to-microkernel{vector-bits=512 mr=4 kc=32 mc=32 nc=64})' | filecheck %s
// RUN: mlkit-opt %s --split-input-file --mcpu=x86-64-v3 -p 'builtin.module(linalg-matmul-to-microkernel)' | filecheck %s --check-prefix=AVX2

// NHWC x HWCF: the output pixels (n, oh, ow) are the rows of the matmul, the
// filter [kh*kw*c][f] its B, packed row by row with whole vectors. The A
// panel is gathered from the image itself (implicit im2col): a row's
// element at k = (kh, kw, c) is x[n, oh + kh, ow + kw, c], and since the
// channels are innermost and a multiple of 16, 4 rows of 16 channels are
// loaded and transposed with shuffles. The tile is added to the output,
// whose rows are its pixels.

// CHECK-LABEL: func.func @nhwc
// CHECK-SAME: (%[[X:[^:]+]]: memref<2x10x10x16xf32>, %[[W:[^:]+]]: memref<3x3x16x32xf32>, %[[Y:[^:]+]]: memref<2x8x8x32xf32>)
// CHECK-DAG: %[[AP:.+]] = memref.alloc() {alignment = 64 : i64} : memref<8x128xf32>
// CHECK-DAG: %[[BP:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x1024xf32>
// CHECK: vector.load %[[W]][{{.+}}] : memref<3x3x16x32xf32>, vector<16xf32>
// CHECK: vector.store {{.+}}, %[[BP]]
// CHECK-COUNT-4: vector.load %[[X]][{{.+}}] : memref<2x10x10x16xf32>, vector<16xf32>
// CHECK-COUNT-8: vector.shuffle
// CHECK: vector.store {{.+}}, %[[AP]]
// CHECK: scf.for {{.+}} iter_args
// CHECK-COUNT-8: vector.fma {{.+}} : vector<16xf32>
// CHECK: vector.load %[[Y]][{{.+}}] : memref<2x8x8x32xf32>, vector<16xf32>
// CHECK: vector.store {{.+}}, %[[Y]][{{.+}}] : memref<2x8x8x32xf32>, vector<16xf32>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf

// AVX2 (16 ymm registers): the 6 x 16 tile of the matmuls, on the same im2col.
// AVX2-LABEL: func.func @nhwc
// AVX2: scf.for {{.+}} iter_args
// AVX2-COUNT-12: vector.fma {{.+}} : vector<8xf32>
// AVX2-NEXT: scf.yield
func.func @nhwc(%x: memref<2x10x10x16xf32>, %w: memref<3x3x16x32xf32>, %y: memref<2x8x8x32xf32>) {
  linalg.conv_2d_nhwc_hwcf ins(%x, %w : memref<2x10x10x16xf32>, memref<3x3x16x32xf32>)
    outs(%y : memref<2x8x8x32xf32>)
  return
}

// -----

// NCHW x FCHW with strides 2 and a dynamic batch: the filter [f][c*kh*kw] is
// A, packed with vector loads along its rows; the batch is a loop around the
// nest (its extent from memref.dim) and the output pixels (oh, ow) of one
// image are the columns, gathered from x[n, c, 2*oh + kh, 2*ow + kw] one
// element at a time.

// CHECK-LABEL: func.func @nchw
// CHECK-SAME: (%[[X:[^:]+]]: memref<?x16x9x9xf32>, %[[W:[^:]+]]: memref<32x16x3x3xf32>, %[[Y:[^:]+]]: memref<?x32x4x4xf32>)
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[N:.+]] = memref.dim %[[Y]], %{{.+}} : memref<?x32x4x4xf32>
// CHECK: scf.for %[[B:.+]] = %{{.+}} to %[[N]] step
// CHECK: arith.muli %{{.+}}, %[[TWO]] : index
// CHECK: memref.load %[[X]][%[[B]], {{.+}}] : memref<?x16x9x9xf32>
// CHECK: vector.load %[[W]][{{.+}}] : memref<32x16x3x3xf32>, vector<16xf32>
// CHECK: scf.for {{.+}} iter_args
// CHECK-COUNT-8: vector.fma
// CHECK: vector.store {{.+}}, %[[Y]][%[[B]], {{.+}}] : memref<?x32x4x4xf32>, vector<16xf32>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @nchw(%x: memref<?x16x9x9xf32>, %w: memref<32x16x3x3xf32>, %y: memref<?x32x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<?x16x9x9xf32>, memref<32x16x3x3xf32>) outs(%y : memref<?x32x4x4xf32>)
  return
}

// -----

// The generic a dilated convolution generalizes to is the same convolution:
// the image index d1 + d4 * 2 is computed where the panel is packed.

// CHECK-LABEL: func.func @dilated_generic
// CHECK-NOT: linalg.generic
// CHECK: arith.muli %{{.+}}, %{{.+}} : index
// CHECK: vector.load %{{.+}} : memref<1x12x12x16xf32>, vector<16xf32>
// CHECK: vector.fma
func.func @dilated_generic(%x: memref<1x12x12x16xf32>, %w: memref<3x3x16x16xf32>, %y: memref<1x8x8x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4 * 2, d2 + d5 * 2, d6)>,
                                   affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>,
                                   affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x12x12x16xf32>, memref<3x3x16x16xf32>) outs(%y : memref<1x8x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: a depthwise convolution (its channel indexes all three
// operands), an integer one, and one whose filter is not laid out densely
// (its k cannot be flattened into rows of a matrix).

// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-NOT: vector.fma
func.func @depthwise(%x: memref<1x8x8x4xf32>, %w: memref<3x3x4xf32>, %y: memref<1x6x6x4xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc ins(%x, %w : memref<1x8x8x4xf32>, memref<3x3x4xf32>)
    outs(%y : memref<1x6x6x4xf32>)
  return
}

// CHECK-LABEL: func.func @integer
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @integer(%x: memref<1x5x5x2xi32>, %w: memref<3x3x2x2xi32>, %y: memref<1x3x3x2xi32>) {
  linalg.conv_2d_nhwc_hwcf ins(%x, %w : memref<1x5x5x2xi32>, memref<3x3x2x2xi32>) outs(%y : memref<1x3x3x2xi32>)
  return
}

// CHECK-LABEL: func.func @strided_filter
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: vector.fma
func.func @strided_filter(%x: memref<1x5x5x2xf32>, %w: memref<3x3x2x2xf32, strided<[24, 8, 4, 2]>>, %y: memref<1x3x3x2xf32>) {
  linalg.conv_2d_nhwc_hwcf ins(%x, %w : memref<1x5x5x2xf32>, memref<3x3x2x2xf32, strided<[24, 8, 4, 2]>>)
    outs(%y : memref<1x3x3x2xf32>)
  return
}
