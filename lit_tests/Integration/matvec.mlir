// linalg.matvec.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[5,  11,  1]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [-1.0, 0.0, 1.0]]> : tensor<3x3xf32>
  %x = arith.constant dense<[1.0, -1.0, 2.0]> : tensor<3xf32>
  %z = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %x : tensor<3x3xf32>, tensor<3xf32>) outs(%z : tensor<3xf32>) -> tensor<3xf32>
  %u = tensor.cast %y : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
