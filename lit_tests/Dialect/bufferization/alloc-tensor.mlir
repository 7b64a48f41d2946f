// The forms of bufferization.alloc_tensor that verify, round-tripped.
// RUN: mlkit-opt %s | mlkit-opt | filecheck %s

// CHECK-LABEL: func.func @forms
// CHECK: bufferization.alloc_tensor(%arg1) : tensor<?x4xf32>
// CHECK: bufferization.alloc_tensor() copy(%arg0) : tensor<?x4xf32>
// CHECK: bufferization.alloc_tensor() size_hint{{ ?= ?}}%arg1 : tensor<2x4xf32>
func.func @forms(%src: tensor<?x4xf32>, %n: index) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<2x4xf32>) {
  %0 = bufferization.alloc_tensor(%n) : tensor<?x4xf32>
  %1 = bufferization.alloc_tensor() copy(%src) : tensor<?x4xf32>
  %2 = bufferization.alloc_tensor() size_hint = %n : tensor<2x4xf32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<2x4xf32>
}
