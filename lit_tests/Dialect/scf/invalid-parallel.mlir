// RUN: mlkit-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// scf.parallel, scf.reduce and scf.reduce.return, checked as upstream does.

func.func @body_ends_in_yield(%n: index) {
  // expected-error @+1 {{'scf.parallel' op expects body to terminate with 'scf.reduce'}}
  scf.parallel (%i) = (%n) to (%n) step (%n) {
    // expected-note @+1 {{terminator here}}
    scf.yield
  }
  return
}

// -----

func.func @generic_body_without_terminator(%n: index) {
  // expected-error @+1 {{'scf.parallel' op expects body to terminate with 'scf.reduce'}}
  "scf.parallel"(%n, %n, %n) ({
  ^bb0(%i: index):
    // expected-note @+1 {{terminator here}}
    "mine.step"() : () -> ()
  }) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (index, index, index) -> ()
  return
}

// -----

func.func @reduce_in_a_function(%v: i64) {
  // expected-error @+1 {{'scf.reduce' op expects parent op 'scf.parallel'}}
  scf.reduce(%v : i64) {
  ^bb0(%a: i64, %b: i64):
    scf.reduce.return %a : i64
  }
  return
}

// -----

func.func @reduction_ends_elsewhere(%n: index, %v: i64) {
  %init = arith.constant 1 : i64
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%init) -> i64 {
    // expected-error @+1 {{'scf.reduce' op reduction bodies must be terminated with an 'scf.reduce.return' op}}
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      "mine.combine"(%a, %b) : (i64, i64) -> ()
    }
  }
  return
}

// -----

func.func @reduction_returns_other_type(%n: index, %v: i64) {
  %init = arith.constant 1 : i64
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%init) -> i64 {
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %t = arith.trunci %a : i64 to i16
      // expected-error @+1 {{'scf.reduce.return' op must have type 'i64' (the type of the reduction inputs)}}
      scf.reduce.return %t : i16
    }
  }
  return
}
