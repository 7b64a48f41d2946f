// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @dealloc_buffer(%m: memref<4xf32>) {
  // expected-error @+1 {{'bufferization.dealloc_tensor' op operand #0 must be tensor of any non-token type values, but got 'memref<4xf32>'}}
  "bufferization.dealloc_tensor"(%m) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @dealloc_with_result(%t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.dealloc_tensor' op requires zero results}}
  %0 = "bufferization.dealloc_tensor"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @dealloc_two(%t: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.dealloc_tensor' op requires a single operand}}
  "bufferization.dealloc_tensor"(%t, %t) : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}
