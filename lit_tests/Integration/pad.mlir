// tensor.pad with a constant padding value.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[-1,   -1,   -1,   -1],
// CHECK-NEXT{LITERAL}: [1,   2,   -1,   -1],
// CHECK-NEXT{LITERAL}: [3,   4,   -1,   -1]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %pv = arith.constant -1.0 : f32
  %p = tensor.pad %m low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f32
  } : tensor<2x2xf32> to tensor<3x4xf32>
  %u = tensor.cast %p : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
