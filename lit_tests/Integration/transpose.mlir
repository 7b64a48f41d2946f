// linalg.transpose of a rank-3 tensor.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 3 offset = 0 sizes = [2, 2, 3] strides = [6, 3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[1,    3,    5],
// CHECK-NEXT{LITERAL}:  [7,    9,    11]],
// CHECK-NEXT{LITERAL}: [[2,    4,    6],
// CHECK-NEXT{LITERAL}:  [8,    10,    12]]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %m = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>
  %e = tensor.empty() : tensor<2x2x3xf32>
  %t = linalg.transpose ins(%m : tensor<2x3x2xf32>) outs(%e : tensor<2x2x3xf32>) permutation = [2, 0, 1]
  %u = tensor.cast %t : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
