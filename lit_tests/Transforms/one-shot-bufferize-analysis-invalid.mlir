// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -one-shot-bufferize="test-analysis-only" --verify-diagnostics

// The analysis rejects these already, so test-analysis-only reports them too.

func.func @to_tensor_without_restrict(%m: memref<4xf32>, %i: index) -> f32 {
  // expected-error @+1 {{'bufferization.to_tensor' op to_tensor ops without `restrict` are not supported by One-Shot Analysis}}
  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  %x = tensor.extract %t[%i] : tensor<4xf32>
  return %x : f32
}

// -----

// An unknown op in the body may return any buffer: the yield is not
// equivalent to the loop's region argument.
func.func @loop_yields_other_buffer(%f: f32, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %e) -> (tensor<4xf32>) {
    %x = tensor.insert %f into %a[%i] : tensor<4xf32>
    %y = "test.update"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error @+1 {{Yield operand #0 is not equivalent to the corresponding iter bbArg}}
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @while_swaps(%a: tensor<4xf32>, %b: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r:3 = scf.while (%x = %a, %y = %b, %i = %c0) : (tensor<4xf32>, tensor<4xf32>, index) -> (tensor<4xf32>, tensor<4xf32>, index) {
    %more = arith.cmpi slt, %i, %n : index
    // expected-error @+1 {{Condition arg #0 is not equivalent to the corresponding iter bbArg}}
    scf.condition(%more) %y, %x, %i : tensor<4xf32>, tensor<4xf32>, index
  } do {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: index):
    scf.yield %x, %y, %i : tensor<4xf32>, tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}

// -----

func.func @while_yield_swaps(%a: tensor<4xf32>, %b: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r:3 = scf.while (%x = %a, %y = %b, %i = %c0) : (tensor<4xf32>, tensor<4xf32>, index) -> (tensor<4xf32>, tensor<4xf32>, index) {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %x, %y, %i : tensor<4xf32>, tensor<4xf32>, index
  } do {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: index):
    // expected-error @+1 {{Yield operand #0 is not equivalent to the corresponding iter bbArg}}
    scf.yield %y, %x, %i : tensor<4xf32>, tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}
