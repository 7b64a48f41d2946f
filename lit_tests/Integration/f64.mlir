// f64 matmul, printed with printMemrefF64.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[2,   0.3],
// CHECK-NEXT{LITERAL}: [2e-07,   4.5e+10]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[1,   0.1],
// CHECK-NEXT{LITERAL}: [1e-07,   1.5e+10]]

func.func private @printMemrefF64(tensor<*xf64>)

func.func @main() {
  %a = arith.constant dense<[[1.0, 0.1], [1.0e-7, 1.5e10]]> : tensor<2x2xf64>
  %b = arith.constant dense<[[2.0, 0.0], [0.0, 3.0]]> : tensor<2x2xf64>
  %z = arith.constant dense<0.0> : tensor<2x2xf64>
  %c = linalg.matmul ins(%a, %b : tensor<2x2xf64>, tensor<2x2xf64>) outs(%z : tensor<2x2xf64>) -> tensor<2x2xf64>
  %u = tensor.cast %c : tensor<2x2xf64> to tensor<*xf64>
  call @printMemrefF64(%u) : (tensor<*xf64>) -> ()
  %v = tensor.cast %a : tensor<2x2xf64> to tensor<*xf64>
  call @printMemrefF64(%v) : (tensor<*xf64>) -> ()
  return
}
