// RUN: mlkit-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// scf.while without an init list: the types after ':' must then take nothing.
func.func @inputs_without_inits(%c: i1) {
  // expected-error @+1 {{expected as many input types as operands (expected 0 got 2)}}
  scf.while : (i32, i32) -> () {
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}

// -----

func.func @inits_without_inputs(%c: i1, %v: f32) {
  // expected-error @+1 {{expected as many input types as operands (expected 1 got 0)}}
  scf.while (%w = %v) : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}

// -----

func.func @no_before_block() {
  // expected-error @+1 {{'scf.while' op region #0 ('before') failed to verify constraint: region with 1 blocks}}
  scf.while : () -> () {} do {
    scf.yield
  }
  return
}

// -----

func.func @no_after_block(%c: i1) {
  // expected-error @+1 {{'scf.while' op region #1 ('after') failed to verify constraint: region with 1 blocks}}
  scf.while : () -> () {
    scf.condition(%c)
  } do {}
  return
}

// -----

func.func @empty_before_block() {
  // expected-error @+1 {{'scf.while' op expects a non-empty block}}
  scf.while : () -> () {
  ^entry:
  } do {
  ^entry:
    scf.yield
  }
  return
}

// -----

func.func @before_ends_in_yield() {
  // expected-error @+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  scf.while : () -> () {
    // expected-note @+1 {{terminator here}}
    scf.yield
  } do {
    scf.yield
  }
  return
}

// -----

func.func @after_ends_in_other_op(%c: i1) {
  // expected-error @+1 {{'scf.while' op expects the 'after' region to terminate with 'scf.yield'}}
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    // expected-note @+1 {{terminator here}}
    "mine.stop"() : () -> ()
  }
  return
}
