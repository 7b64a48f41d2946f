// tensor.extract_slice and tensor.insert_slice with strides. (The slice is
// printed after its last other use: upstream's one-shot-bufferize rejects a
// read-only slice passed to a call before another read of it.)

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[6,   8],
// CHECK-NEXT{LITERAL}: [10,   12]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0,   0,   0,   0],
// CHECK-NEXT{LITERAL}: [0,   0,   0,   0],
// CHECK-NEXT{LITERAL}: [6,   0,   8,   0],
// CHECK-NEXT{LITERAL}: [10,   0,   12,   0]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %m = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %s = tensor.extract_slice %m[1, 1] [2, 2] [1, 2] : tensor<3x4xf32> to tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %i = tensor.insert_slice %s into %z[2, 0] [2, 2] [1, 2] : tensor<2x2xf32> into tensor<4x4xf32>
  %u = tensor.cast %s : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %i : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
