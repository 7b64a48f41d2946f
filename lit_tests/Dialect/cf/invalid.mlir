// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// One chunk per cf verifier error; upstream MLIR rejects each too.

func.func @weights_count(%c: i1) {
  // expected-error @+1 {{expects number of branch weights to match number of successors: 3 vs 2}}
  cf.cond_br %c weights([60, 40, 3]), ^bb1, ^bb1
^bb1:
  return
}

// -----

func.func @weights_zero(%c: i1) {
  // expected-error @+1 {{branch weights cannot all be zero}}
  cf.cond_br %c weights([0, 0]), ^bb1, ^bb1
^bb1:
  return
}
