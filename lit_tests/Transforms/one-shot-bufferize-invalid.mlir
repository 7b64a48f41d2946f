// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries" --verify-diagnostics

func.func @not_equivalent(%n: index, %t: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<?xf32>) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %b = tensor.insert %z into %e[%i] : tensor<?xf32>
    // expected-error @+1 {{Yield operand #0 is not equivalent to the corresponding iter bbArg}}
    scf.yield %b : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

func.func @unknown(%t: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{op was not bufferized}}
  %b = tensor.bitcast %t : tensor<4xi32> to tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// A dense_resource whose data the file does not hold (elided, or cut off).
func.func @elided_weights() -> tensor<4xf32> {
  // expected-error @+1 {{cannot bufferize a constant whose data is not known}}
  %0 = arith.constant dense_resource<__elided__> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
