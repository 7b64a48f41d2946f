// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @for_yield_type(%lb: index, %ub: index, %st: index, %x: f32) {
  // expected-error @+1 {{along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %0 = scf.for %i = %lb to %ub step %st iter_args(%a = %x) -> (f32) {
    %c = arith.constant 0 : i32
    scf.yield %c : i32
  }
  return
}

// -----

func.func @for_iter_arg_type(%lb: index, %ub: index, %st: index, %x: f32) {
  // expected-error @+1 {{along control flow edge from parent to Region #0: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %0 = "scf.for"(%lb, %ub, %st, %x) ({
  ^bb0(%i: index, %a: i32):
    %c = arith.constant 0 : i32
    scf.yield %c : i32
  }) : (index, index, index, f32) -> i32
  return
}

// -----

func.func @for_result_type(%lb: index, %ub: index, %st: index, %x: f32) {
  // expected-error @+1 {{along control flow edge from parent to Operation scf.for: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %0 = "scf.for"(%lb, %ub, %st, %x) ({
  ^bb0(%i: index, %a: f32):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> i32
  return
}

// -----

func.func @for_yield_count(%lb: index, %ub: index, %st: index, %x: f32) {
  // expected-error @+1 {{along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = scf.for %i = %lb to %ub step %st iter_args(%a = %x) -> (f32) {
    scf.yield
  }
  return
}

// -----

func.func @for_iter_arg_count(%lb: index, %ub: index, %st: index, %x: f32) {
  // expected-error @+1 {{different number of inits and region iter_args: 1 != 0}}
  %0 = "scf.for"(%lb, %ub, %st, %x) ({
  ^bb0(%i: index):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @for_bound_types(%lb: index, %ub: index, %st: i32) {
  // expected-error @+1 {{failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, index, i32) -> ()
  return
}

// -----

func.func @for_iv_type(%lb: index, %ub: index, %st: index) {
  // expected-error @+1 {{expected induction variable to be same type as bounds and step}}
  "scf.for"(%lb, %ub, %st) ({
  ^bb0(%i: i32):
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @if_no_else(%c: i1, %x: f32) {
  // expected-error @+1 {{must have an else block if defining values}}
  %0 = scf.if %c -> f32 {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @if_yield_type(%c: i1, %x: f32) {
  // expected-error @+1 {{along control flow edge from Operation scf.yield to Operation scf.if: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %0 = scf.if %c -> i32 {
    scf.yield %x : f32
  } else {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @if_yield_count(%c: i1, %x: f32) {
  // expected-error @+1 {{along control flow edge from Operation scf.yield to Operation scf.if: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = scf.if %c -> f32 {
    scf.yield
  } else {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @execute_region_type() {
  // expected-error @+1 {{along control flow edge from Operation scf.yield to Operation scf.execute_region: successor operand type #0 'i64' should match successor input type #0 'i32'}}
  %0 = scf.execute_region -> i32 {
    %c = arith.constant 0 : i64
    scf.yield %c : i64
  }
  return
}

// -----

func.func @parallel_reductions(%lb: index, %ub: index, %st: index, %x: f32) {
  // expected-error @+1 {{expects number of results: 1 to be the same as number of reductions: 0}}
  %0 = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x) -> f32 {
    scf.reduce
  }
  return
}

// -----

func.func @parallel_ivs(%lb: index, %ub: index, %st: index) {
  // expected-error @+1 {{expects the same number of induction variables: 1 as bound and step values: 2}}
  "scf.parallel"(%lb, %ub, %st, %st) <{operandSegmentSizes = array<i32: 1, 1, 2, 0>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) : (index, index, index, index) -> ()
  return
}

// -----

func.func @reduce_block_args(%lb: index, %ub: index, %st: index, %x: f32) {
  %0 = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x) -> f32 {
    // expected-error @+1 {{expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// -----

func.func @switch_duplicate(%a: index) {
  // expected-error @+1 {{has duplicate case value: 1}}
  %0 = scf.index_switch %a -> index
  case 1 {
    scf.yield %a : index
  }
  case 1 {
    scf.yield %a : index
  }
  default {
    scf.yield %a : index
  }
  return
}

// -----

func.func @switch_result_type(%a: index, %x: i32) {
  // expected-error @+1 {{expected result #0 of each region to be 'index'}}
  %0 = scf.index_switch %a -> index
  case 1 {
    // expected-note @+1 {{case region #0 returns 'i32' here}}
    scf.yield %x : i32
  }
  default {
    scf.yield %a : index
  }
  return
}

// -----

func.func @while_condition_type(%c: i1, %x: f32) {
  // expected-error @+1 {{along control flow edge from Operation scf.condition to Operation scf.while: successor operand type #0 'i1' should match successor input type #0 'f32'}}
  %0 = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %c : i1
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return
}

// -----

func.func @while_init_type(%c: i1, %x: f32) {
  // expected-error @+1 {{along control flow edge from parent to Region #0: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %0 = "scf.while"(%x) ({
  ^bb0(%a: i32):
    scf.condition(%c) %x : f32
  }, {
  ^bb0(%b: f32):
    scf.yield %x : f32
  }) : (f32) -> f32
  return
}

// -----

func.func @forall_result_type(%n: index, %t: tensor<?xf32>) {
  // expected-error @+1 {{expected type of operand #1 ('tensor<?xf32>') to match type of corresponding result ('tensor<4xf32>')}}
  %0 = "scf.forall"(%n, %t) <{operandSegmentSizes = array<i32: 0, 1, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: index, %o: tensor<?xf32>):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index, tensor<?xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @forall_region_args(%n: index) {
  // expected-error @+1 {{region expects 2 arguments}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0, 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @if_block_argument(%c: i1) {
  // expected-error @+1 {{region #0 should have no arguments}}
  "scf.if"(%c) ({
    ^bb0(%0 : index):
      scf.yield
  }, {}) : (i1) -> ()
  return
}

// -----

func.func @parallel_step_not_positive(%lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{constant step operand must be positive}}
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%c1, %c0) {
  }
  return
}
