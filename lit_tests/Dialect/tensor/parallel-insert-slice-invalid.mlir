// RUN: mlkit-opt %s -split-input-file -verify-diagnostics

func.func @outside_in_parallel(%t: tensor<8xf32>, %v: tensor<2xf32>) {
  // expected-error @+1 {{expected InParallelOpInterface parent, got:func.func}}
  tensor.parallel_insert_slice %v into %t[0] [2] [1] : tensor<2xf32> into tensor<8xf32>
  return
}

// -----

func.func @out_of_bounds(%t: tensor<8xf32>, %v: tensor<2xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{offset 0 is out-of-bounds: 9 >= 8}}
      tensor.parallel_insert_slice %v into %o[9] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
