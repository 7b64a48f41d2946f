// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -one-shot-bufferize --verify-diagnostics

// Without allow-unknown-ops an op that is not bufferizable is an error where
// it has tensors, unless nothing uses it and it has no side effects.

func.func @unknown_with_operand(%t: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{op was not bufferized}}
  %u = "test.unknown"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %u[%c0] : tensor<4xf32>
  return %x : f32
}

// -----

func.func @unknown_producer(%i: index) -> f32 {
  // expected-error @+1 {{op was not bufferized}}
  %u = "test.make"() : () -> tensor<4xf32>
  %x = tensor.extract %u[%i] : tensor<4xf32>
  return %x : f32
}

// -----

func.func @used_pure_op(%t: tensor<4xi32>, %i: index) -> f32 {
  // expected-error @+1 {{op was not bufferized}}
  %b = tensor.bitcast %t : tensor<4xi32> to tensor<4xf32>
  %x = tensor.extract %b[%i] : tensor<4xf32>
  return %x : f32
}

// -----

// Unused and pure: no error.
func.func @unused_pure_op(%t: tensor<4xi32>) -> tensor<4xi32> {
  %b = tensor.bitcast %t : tensor<4xi32> to tensor<4xf32>
  return %t : tensor<4xi32>
}

// -----

// An unknown op without tensors is not an error.
func.func @unknown_without_tensors(%m: memref<4xf32>) {
  "test.touch"(%m) : (memref<4xf32>) -> ()
  return
}
