// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Each bad input gets a located error; --verify-diagnostics checks them all.

func.func @type_mismatch(%a: i32, %b: i64) {
  // expected-error @+1 {{operand is used with type i32, but has been previously used or defined with type i64}}
  %0 = arith.addi %a, %b : i32
  return
}

// -----

func.func @redefined() {
  %0 = arith.constant 1 : i32
  // expected-error @below {{SSA value %0 is already defined}}
  %0 = arith.constant 2 : i32
  return
}

// -----

func.func @unknown_op() {
  // expected-error @+1 {{Operation arith.frobnicate is not registered}}
  %0 = arith.frobnicate
  return
}

// -----

// expected-error @+1 {{Operation nodialect.op is not registered}}
"nodialect.op"() : () -> ()

// -----

func.func @undefined_block() {
  // expected-note @+2 {{reference to block "^bb7" without implementation}}
  // expected-error @+1 {{region ends with missing block declarations for block(s) bb7}}
  cf.br ^bb7
}

// -----

func.func @undefined_value() {
  // expected-error @+1 {{values used but not defined: [%x]}}
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
