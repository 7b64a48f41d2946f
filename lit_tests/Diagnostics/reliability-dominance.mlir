// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Upstream's dominance verification: an operand must be defined by an op that
// properly dominates its use (OperationVerifier::verifyDominanceOfContainedRegions).

func.func @use_before_def(%z: i32) -> i32 {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %a = arith.addi %b, %b : i32
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %b = arith.addi %z, %z : i32
  return %a : i32
}

// -----

func.func @self_reference(%z: i32) -> i32 {
  // expected-error @+2 {{operand #0 does not dominate this use}}
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %a = arith.addi %a, %z : i32
  return %a : i32
}

// -----

// A later region's argument named where it is used first: upstream's parser
// refuses the name before dominance is looked at.
func.func @later_region_argument(%c: i1, %z: index) {
  scf.if %c {
    // expected-note @+1 {{previously referenced here}}
    %a = arith.addi %i, %i : index
  }
  // expected-error @+1 {{region entry argument '%i' is already in use}}
  scf.for %i = %z to %z step %z {
  }
  return
}

// -----

func.func @not_on_every_path(%c: i1, %z: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // expected-note @+1 {{operand defined here (op in the same region)}}
  %x = arith.addi %z, %z : i32
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  return %x : i32
}

// -----

// expected-note @+1 {{operand defined as a block argument (block #1 in the same region)}}
func.func @block_argument_of_a_sibling(%c: i1, %z: i32) -> i32 {
  cf.cond_br %c, ^bb1(%z : i32), ^bb2
^bb1(%p: i32):
  cf.br ^bb2
^bb2:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  return %p : i32
}

// -----

func.func @from_a_parent_region(%c: i1, %z: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %in = arith.addi %late, %z : i32
    scf.yield %in : i32
  } else {
    scf.yield %z : i32
  }
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %late = arith.addi %z, %z : i32
  return %r : i32
}
