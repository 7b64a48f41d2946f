// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries" --verify-diagnostics

// What upstream's verifier of scf.forall.in_parallel rejects, and an op that
// is not bufferizable using a shared output.

func.func @insert_into_other_tensor(%t: tensor<8xf32>, %u: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    %s = tensor.extract_slice %u[%i] [2] [1] : tensor<8xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      // expected-error @+1 {{'tensor.parallel_insert_slice' op may only insert into an output block argument}}
      tensor.parallel_insert_slice %s into %u[%i] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

// -----

func.func @not_combining(%t: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    // expected-error @+1 {{'scf.forall.in_parallel' op expected only ParallelCombiningOpInterface ops}}
    scf.forall.in_parallel {
      %c = arith.constant 0 : index
    }
  }
  return %r : tensor<8xf32>
}

// -----

func.func @unknown_user(%t: tensor<8xi32>) -> tensor<8xi32> {
  %c0 = arith.constant 0 : index
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xi32>) {
    // expected-error @+1 {{op was not bufferized}}
    %b = tensor.bitcast %o : tensor<8xi32> to tensor<8xf32>
    %x = tensor.extract %b[%c0] : tensor<8xf32>
    %s = tensor.extract_slice %o[%i] [2] [1] : tensor<8xi32> to tensor<2xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [2] [1] : tensor<2xi32> into tensor<8xi32>
    }
  }
  return %r : tensor<8xi32>
}
