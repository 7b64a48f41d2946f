// linalg.matmul on static tensors, printed with printMemrefF32.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void -O3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[-4,   12],
// CHECK-NEXT{LITERAL}: [-5.5,   24]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[0.5, -1.0], [1.5, 2.0], [-2.5, 3.0]]> : tensor<3x2xf32>
  %z = arith.constant dense<0.0> : tensor<2x2xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %u = tensor.cast %c : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
