// bufferization.alloc_tensor's verifier: one size per dynamic dimension, and
// none with a copy, whose sizes the copy already gives.
// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @too_few_sizes(%n: index) {
  // expected-error @+1 {{expected 2 dynamic sizes}}
  %0 = bufferization.alloc_tensor(%n) : tensor<?x3x?xf32>
  return
}

// -----

func.func @sizes_for_a_static_shape(%n: index) {
  // expected-error @+1 {{expected 0 dynamic sizes}}
  %0 = bufferization.alloc_tensor(%n) : tensor<8xf32>
  return
}

// -----

func.func @copy_with_sizes(%src: tensor<?x?xf32>, %n: index, %m: index) {
  // expected-error @+1 {{dynamic sizes not needed when copying a tensor}}
  %0 = bufferization.alloc_tensor(%n, %m) copy(%src) : tensor<?x?xf32>
  return
}
