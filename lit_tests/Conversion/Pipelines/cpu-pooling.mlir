// Max pooling (from -inf) and strided sum pooling on NHWC tensors.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK: call float @llvm.maximum.f32
// CHECK-COUNT-2: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %in = arith.constant dense<[[[[1.0], [-2.0], [3.0], [0.5]],
                               [[4.0], [5.0], [-6.0], [2.0]],
                               [[-7.0], [8.0], [9.0], [1.5]],
                               [[0.0], [-1.0], [2.5], [-3.5]]]]> : tensor<1x4x4x1xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x3x3x1xf32>
  %o1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  %max = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %win : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%o1 : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  %u1 = tensor.cast %max : tensor<1x3x3x1xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %e2 = tensor.empty() : tensor<1x2x2x1xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %sum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %win : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%o2 : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %u2 = tensor.cast %sum : tensor<1x2x2x1xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
