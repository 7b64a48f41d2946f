// linalg.depthwise_conv_2d_nhwc_hwc: one filter per channel.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 4 offset = 0 sizes = [1, 2, 2, 2] strides = [8, 4, 2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[[6,     -20],
// CHECK-NEXT{LITERAL}:   [8,     -20]],
// CHECK-NEXT{LITERAL}:  [[12,     -20],
// CHECK-NEXT{LITERAL}:   [14,     -20]]]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %in = arith.constant dense<[[[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]], [[4.0, 40.0], [5.0, 50.0], [6.0, 60.0]], [[7.0, 70.0], [8.0, 80.0], [9.0, 90.0]]]]> : tensor<1x3x3x2xf32>
  %f = arith.constant dense<[[[1.0, 0.5], [0.0, 0.0]], [[0.0, 0.0], [1.0, -0.5]]]> : tensor<2x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2x2x2xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %f : tensor<1x3x3x2xf32>, tensor<2x2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %u = tensor.cast %c : tensor<1x2x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
