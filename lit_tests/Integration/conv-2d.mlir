// linalg.conv_2d_nhwc_hwcf with two output channels.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 4 offset = 0 sizes = [1, 3, 3, 2] strides = [18, 6, 2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[[8,     8.5],
// CHECK-NEXT{LITERAL}:   [10,     11],
// CHECK-NEXT{LITERAL}:   [12,     13.5]],
// CHECK-NEXT{LITERAL}:  [[16,     18.5],
// CHECK-NEXT{LITERAL}:   [18,     21],
// CHECK-NEXT{LITERAL}:   [20,     23.5]],
// CHECK-NEXT{LITERAL}:  [[24,     28.5],
// CHECK-NEXT{LITERAL}:   [26,     31],
// CHECK-NEXT{LITERAL}:   [28,     33.5]]]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %in = arith.constant dense<[[[[1.0], [2.0], [3.0], [4.0]], [[5.0], [6.0], [7.0], [8.0]], [[9.0], [10.0], [11.0], [12.0]], [[13.0], [14.0], [15.0], [16.0]]]]> : tensor<1x4x4x1xf32>
  %f = arith.constant dense<[[[[1.0, 0.5]], [[0.0, 1.0]]], [[[-1.0, 0.0]], [[2.0, 1.0]]]]> : tensor<2x2x1x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %f : tensor<1x4x4x1xf32>, tensor<2x2x1x2xf32>) outs(%z : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %u = tensor.cast %c : tensor<1x3x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
