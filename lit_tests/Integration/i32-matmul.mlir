// linalg.matmul on i32, printed with printMemrefI32.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[58,   -8],
// CHECK-NEXT{LITERAL}: [139,   10]]

func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %a = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %b = arith.constant dense<[[7, 8], [9, 10], [11, -12]]> : tensor<3x2xi32>
  %z = arith.constant dense<0> : tensor<2x2xi32>
  %c = linalg.matmul ins(%a, %b : tensor<2x3xi32>, tensor<3x2xi32>) outs(%z : tensor<2x2xi32>) -> tensor<2x2xi32>
  %u = tensor.cast %c : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}
