// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Each bad input gets a located error; --verify-diagnostics checks them all.

// expected-note @+1 {{prior use here}}
func.func @type_mismatch(%a: i32, %b: i64) {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses: 'i32' vs 'i64'}}
  %0 = arith.addi %a, %b : i32
  return
}

// -----

func.func @redefined() {
  // expected-note @below {{previously defined here}}
  %0 = arith.constant 1 : i32
  // expected-error @below {{redefinition of SSA value '%0'}}
  %0 = arith.constant 2 : i32
  return
}

// -----

func.func @unknown_op() {
  // expected-error @+1 {{custom op 'arith.frobnicate' is unknown}}
  %0 = arith.frobnicate
  return
}

// -----

// expected-error @+1 {{operation being parsed with an unregistered dialect}}
"nodialect.op"() : () -> ()

// -----

func.func @undefined_block() {
  // expected-note @+2 {{reference to block "^bb7" without implementation}}
  // expected-error @+1 {{region ends with missing block declarations for block(s) bb7}}
  cf.br ^bb7
}

// -----

func.func @undefined_value() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = arith.addi %x, %x : i32
  return
}

// -----

func.func @out_of_range() {
  // expected-error @+1 {{Integer value 300 is out of range for type i8}}
  %0 = arith.constant 300 : i8
  return
}

// -----

func.func @verifier() -> i32 {
  %0 = arith.constant 1 : i64
  // expected-error @+1 {{'func.return' op type of return operand 0 ('i64') doesn't match function result type ('i32') in function @verifier}}
  return %0 : i64
}

// -----

builtin.module {
  // expected-note @+1 {{see existing symbol definition here}}
  func.func @dup() {
    return
  }
  // expected-error @+1 {{redefinition of symbol named 'dup'}}
  func.func @dup() {
    return
  }
}

// -----

func.func @no_dialect_prefix() {
  // expected-error @+1 {{custom op 'frobnicate' is unknown (tried 'func.frobnicate' as well)}}
  frobnicate
  return
}

// -----

func.func @unknown_dialect_custom() {
  // expected-error @+1 {{Dialect `nodialect' not found for custom op 'nodialect.op'}}
  nodialect.op
  return
}

// -----

func.func @unknown_op_generic() {
  // expected-error @+1 {{unregistered operation 'arith.frobnicate' found in dialect ('arith') that does not allow unknown operations}}
  "arith.frobnicate"() : () -> ()
  return
}

// -----

func.func @forward_use_mismatch() {
  // expected-note @+1 {{prior use here}}
  %0 = arith.addi %later, %later : i32
  // expected-error @+1 {{use of value '%later' expects different type than prior uses: 'i64' vs 'i32'}}
  %1 = arith.addi %later, %later : i64
  %later = arith.constant 1 : i32
  return
}
