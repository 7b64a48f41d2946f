// RUN: mlkit-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// Parse errors in upstream's words and at upstream's place: a missing token is
// reported where it should have been (the end of what precedes it, across line
// ends and comments); an error of a custom form's own parser names the op.

func.func @missing_colon(%x : i64) {
  %y = arith.muli %x, %x i64  // expected-error {{expected ':'}}
  return
}

// -----

func.func @operand_in_parens(%x : i64) {
  %y = arith.muli(%x, %x) : i64  // expected-error {{expected SSA operand}}
  return
}

// -----

func.func @missing_type(%x : i64) {
  %y = arith.muli %x, %x : // expected-error {{expected non-function type}}
}

// -----

func.func @missing_region() {
  // expected-error @+1 {{expected '{' to begin a region}}
  affine.for %i = 0 to 4   // a comment the error skips
    // and a whole line of comment
  "test.op"() : () -> ()
  return
}

// -----

func.func @keyword_of_custom_form(%n : index) {
  // expected-error @+1 {{custom op 'affine.for' expected 'to' between bounds}}
  affine.for %i = 0 upto %n {
  }
  return
}

// -----

func.func @integer_of_custom_form(%n : index) {
  // expected-error @+1 {{expected attribute value}}
  affine.for %i = 0 to 8 step %n {
  }
  return
}

// -----

func.func @operand_count_of_custom_form(%n : index) {
  // expected-error @+1 {{custom op 'scf.parallel' expected 1 operands}}
  scf.parallel (%i) = (%n, %n) to (%n) step (%n) {
  }
  return
}

// -----

func.func @kind_of_type(%x : f32) {
  // expected-error @+1 {{custom op 'vector.broadcast' invalid kind of type specified: expected builtin.vector, but found 'i32'}}
  %v = vector.broadcast %x : f32 to i32
  return
}

// -----

func.func @kind_of_memref(%t : tensor<8xf32>, %i : index) {
  // expected-error @+1 {{custom op 'memref.load' invalid kind of type specified: expected builtin.memref, but found 'tensor<8xf32>'}}
  %v = memref.load %t[%i] : tensor<8xf32>
  return
}

// -----

func.func @type_token_as_op_name(%x : i64) {
  %c = arith.constant 7 i64  // expected-error {{expected operation name in quotes}}
  return
}

// -----

func.func @name_without_results() {
  // expected-error @+1 {{cannot name an operation with no results}}
  %r = "test.op"() : () -> ()
  return
}

// -----

func.func @too_many_names(%x : i64) {
  // expected-error @+1 {{operation defines 1 results but was provided 3 to bind}}
  %a:3 = arith.addi %x, %x : i64
  return
}

// -----

func.func @redefined(%x : i64) {
  // expected-note @+1 {{previously defined here}}
  %a = arith.addi %x, %x : i64
  // expected-error @+1 {{redefinition of SSA value '%a'}}
  %a = arith.muli %x, %x : i64
  return
}

// -----

func.func @argument_named_as_a_use(%n : index) {
  // expected-error @+2 {{region entry argument '%j' is already in use}}
  // expected-note @+1 {{previously referenced here}}
  affine.for %j = 0 to min affine_map<(d0) -> (d0, 8)>(%j) {
  }
  return
}

// -----

func.func @numbered_argument() {
  affine.for %k#1 = 0 to 4 {  // expected-error {{result number not allowed in argument list}}
  }
  return
}

// -----

func.func @dense_shape() {
  // expected-error @+1 {{inferred shape of elements literal ([3]) does not match type ([1, 3])}}
  %c = arith.constant dense<[1, 2, 3]> : tensor<1x3xi32>
  return
}

// -----

func.func @spaced_shape() -> tensor<2 x 3 x f32> {
  // a space around the `x` of a shape is fine
  %c = arith.constant dense<0.0> : tensor<2 x 3 x f32>
  return %c : tensor<2 x 3 x f32>
}

// -----

// expected-error @+1 {{expected '->' or ':'}}
#bad_map = affine_map<(d0) (d0 + 1)>

// -----

// expected-error @+1 {{missing right operand of binary operator}}
#bad_map = affine_map<(d0) -> (d0 *)>

// -----

// expected-error @+1 {{use of undeclared identifier}}
#bad_map = affine_map<(d0) -> (d1)>

// -----

// expected-error @+1 {{expected '(' in integer set constraint list}}
#bad_set = affine_set<(d0) : d0 >= 0>

// -----

// expected-error @+1 {{expected '== affine-expr' or '>= affine-expr' at end of affine constraint}}
#bad_set = affine_set<(d0) : (d0 < 4)>
