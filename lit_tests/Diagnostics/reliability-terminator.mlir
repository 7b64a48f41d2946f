// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Upstream's OperationVerifier block checks and their messages.

func.func @no_terminator(%a: i32) -> i32 {
  // expected-error @+1 {{block with no terminator, has %0 = "arith.addi"}}
  %0 = arith.addi %a, %a : i32
}

// -----

func.func @no_terminator_in_a_later_block(%a: i32) {
  cf.br ^bb1
^bb1:
  // expected-error @+1 {{block with no terminator, has}}
  %0 = arith.addi %a, %a : i32
}

// -----

// expected-error @+1 {{empty block: expect at least a terminator}}
func.func @empty_block(%a: i32) {
  cf.br ^bb1
^bb1:
}

// -----

func.func @branch_in_the_middle(%a: i32) {
  // expected-error @+1 {{operation with block successors must terminate its parent block}}
  cf.br ^bb1
  %0 = arith.addi %a, %a : i32
  return
^bb1:
  return
}

// -----

func.func @branch_to_entry() {
  // expected-error @+1 {{entry block of region may not have predecessors}}
  "scf.execute_region"() ({
  ^bb0:
    cf.br ^bb0
  }) : () -> ()
  return
}
