// linalg.dot into a rank-0 tensor: the rank-0 print layout.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 0 offset = 0 sizes = [] strides = [] data = {{$}}
// CHECK-NEXT{LITERAL}:[33.25]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %v = arith.constant dense<[1.0, 2.0, 3.5, 4.0]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%v, %v : tensor<4xf32>, tensor<4xf32>) outs(%z : tensor<f32>) -> tensor<f32>
  %u = tensor.cast %d : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
