// tensor.collapse_shape and tensor.expand_shape.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[1,  2,  3,  4,  5,  6]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 3 offset = 0 sizes = [3, 1, 2] strides = [2, 2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[1,    2]],
// CHECK-NEXT{LITERAL}: [[3,    4]],
// CHECK-NEXT{LITERAL}: [[5,    6]]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %c = tensor.collapse_shape %m [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %u = tensor.cast %c : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %x = tensor.expand_shape %c [[0, 1, 2]] output_shape [3, 1, 2] : tensor<6xf32> into tensor<3x1x2xf32>
  %v = tensor.cast %x : tensor<3x1x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
