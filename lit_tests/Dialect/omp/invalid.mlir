// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @bounds_mismatch(%lb: index, %ub: index, %st: index) {
  omp.parallel {
    omp.wsloop {
      // expected-error @+1 {{number of range arguments and IVs do not match}}
      omp.loop_nest (%i, %j) : index = (%lb) to (%ub) step (%st) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

func.func @two_nests(%lb: index, %ub: index, %st: index) {
  omp.parallel {
    // expected-error @+1 {{loop wrapper does not contain exactly one nested op}}
    omp.wsloop {
      omp.loop_nest (%i) : index = (%lb) to (%ub) step (%st) {
        omp.yield
      }
      omp.loop_nest (%j) : index = (%lb) to (%ub) step (%st) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

func.func @nest_outside_wrapper(%lb: index, %ub: index, %st: index) {
  // expected-error @+1 {{expects parent op 'omp.wsloop'}}
  omp.loop_nest (%i) : index = (%lb) to (%ub) step (%st) {
    omp.yield
  }
  return
}

// -----

func.func @collapse_too_deep(%lb: index, %ub: index, %st: index) {
  omp.parallel {
    omp.wsloop {
      // expected-error @+1 {{collapse value must be between 1 and the number of loops in the nest}}
      omp.loop_nest (%i) : index = (%lb) to (%ub) step (%st) collapse(3) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

func.func @private_clause(%x: memref<f32>) {
  // expected-error @+1 {{'omp.parallel' clause 'private' is not supported by mlkit}}
  omp.parallel private(@p %x -> %y : memref<f32>) {
    omp.terminator
  }
  return
}
