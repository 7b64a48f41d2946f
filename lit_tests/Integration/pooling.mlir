// linalg.pooling_nhwc_max and linalg.pooling_nhwc_sum with stride 2 (the sum's
// strides written as a vector attribute, as JAX/IREE output has them).

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 4 offset = 0 sizes = [1, 2, 2, 1] strides = [4, 2, 1, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[[6],
// CHECK-NEXT{LITERAL}:   [8]],
// CHECK-NEXT{LITERAL}:  [[13],
// CHECK-NEXT{LITERAL}:   [16]]]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 4 offset = 0 sizes = [1, 2, 2, 1] strides = [4, 2, 1, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[[10],
// CHECK-NEXT{LITERAL}:   [8]],
// CHECK-NEXT{LITERAL}:  [[18],
// CHECK-NEXT{LITERAL}:   [30]]]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %in = arith.constant dense<[[[[1.0], [-2.0], [3.0], [4.0]], [[5.0], [6.0], [-7.0], [8.0]], [[9.0], [10.0], [11.0], [-12.0]], [[13.0], [-14.0], [15.0], [16.0]]]]> : tensor<1x4x4x1xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %ninf = arith.constant -1.0e30 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x1xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %max = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %win : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%m0 : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %sum = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%in, %win : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%s0 : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %u = tensor.cast %max : tensor<1x2x2x1xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %sum : tensor<1x2x2x1xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
