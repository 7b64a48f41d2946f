// linalg.reduce: row sums and column maxima.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[10,  7.75,  12]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[3,  3,  3,  8]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %m = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 0.25, 8.0], [3.0, 3.0, 3.0, 3.0]]> : tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%m : tensor<3x4xf32>) outs(%z : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<4xf32>
  %ninf = arith.constant -1.0e30 : f32
  %z2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r2 = linalg.reduce ins(%m : tensor<3x4xf32>) outs(%z2 : tensor<4xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  %u = tensor.cast %r : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %r2 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
