// linalg.batch_matmul over a batch of two.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 3 offset = 0 sizes = [2, 2, 3] strides = [6, 3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[1,    2,    8],
// CHECK-NEXT{LITERAL}:  [3,    4,    18]],
// CHECK-NEXT{LITERAL}: [[4,    0.5,    0.25],
// CHECK-NEXT{LITERAL}:  [12,    -6,    2]]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[0.5, 0.25], [-1.0, 2.0]]]> : tensor<2x2x2xf32>
  %b = arith.constant dense<[[[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]], [[4.0, 2.0, 0.0], [8.0, -2.0, 1.0]]]> : tensor<2x2x3xf32>
  %e = tensor.empty() : tensor<2x2x3xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<2x2x2xf32>, tensor<2x2x3xf32>) outs(%z : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %u = tensor.cast %c : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
