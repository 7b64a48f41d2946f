// linalg.map and the named elementwise linalg.add.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0.5,   -1],
// CHECK-NEXT{LITERAL}: [6,   -8]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[1.5,   -3],
// CHECK-NEXT{LITERAL}: [9,   -12]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[[1.0, -2.0], [3.0, -4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[0.5, 0.5], [2.0, 2.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %m = linalg.map ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %p = arith.mulf %x, %y : f32
      linalg.yield %p : f32
    }
  %s = linalg.add ins(%m, %a : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %u = tensor.cast %m : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %s : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
