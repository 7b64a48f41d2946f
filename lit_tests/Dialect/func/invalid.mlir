// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @return_count(%a: i32) -> i32 {
  // expected-error @+1 {{has 0 operands, but enclosing function (@return_count) returns 1}}
  return
}

// -----

func.func @return_type(%a: i64) -> i32 {
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @return_type}}
  return %a : i64
}

// -----

func.func private @g(i32) -> i32

func.func @call_operand_type(%a: i64) {
  // expected-error @+1 {{operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %0 = call @g(%a) : (i64) -> i32
  return
}

// -----

func.func private @g(i32) -> i32

func.func @call_result_type(%a: i32) {
  // expected-error @+3 {{result type mismatch at index 0}}
  // expected-note @+2 {{op result types: 'i64'}}
  // expected-note @+1 {{function result types: 'i32'}}
  %0 = call @g(%a) : (i32) -> i64
  return
}

// -----

func.func private @g(i32) -> i32

func.func @call_result_count(%a: i32) {
  // expected-error @+1 {{incorrect number of results for callee}}
  call @g(%a) : (i32) -> ()
  return
}

// -----

func.func private @g(i32) -> i32

func.func @call_operand_count() {
  // expected-error @+1 {{incorrect number of operands for callee}}
  %0 = call @g() : () -> i32
  return
}

// -----

func.func @call_missing() {
  // expected-error @+1 {{'nope' does not reference a valid function}}
  %0 = call @nope() : () -> i32
  return
}

// -----

func.func @constant_missing() {
  // expected-error @+1 {{reference to undefined function 'nope'}}
  %0 = func.constant @nope : () -> i32
  return
}

// -----

func.func private @g(i32) -> i32

func.func @constant_type() {
  // expected-error @+1 {{reference to function with mismatched type}}
  %0 = func.constant @g : () -> i32
  return
}

// -----

func.func @indirect_results(%a: i32, %fn: (i32) -> i32) {
  // expected-error @+1 {{failed to verify that callee result types match result types}}
  %0 = "func.call_indirect"(%fn, %a) : ((i32) -> i32, i32) -> i64
  return
}

// -----

func.func @indirect_inputs(%a: i64, %fn: (i32) -> i32) {
  // expected-error @+1 {{failed to verify that callee input types match argument types}}
  %0 = "func.call_indirect"(%fn, %a) : ((i32) -> i32, i64) -> i32
  return
}

// -----

// expected-error @+1 {{type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_type"}> ({
^bb0(%x: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_count"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{symbol declaration cannot have public visibility}}
func.func @public_decl(i32)

// -----

// expected-error @+1 {{expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() <{function_type = (i32) -> (), sym_name = "arg_attrs", arg_attrs = [{}, {}]}> ({
^bb0(%x: i32):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{expects result attribute array to have the same number of elements as the number of function results, got 2, but expected 1}}
"func.func"() <{function_type = () -> i32, sym_name = "res_attrs", res_attrs = [{}, {}], sym_visibility = "private"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{expected non-empty function body}}
func.func @empty_body() {
}

// -----

// expected-error @+1 {{arguments may only have dialect attributes}}
func.func private @arg_attr(i1 {non_dialect_attr = 10})

// -----

// expected-error @+1 {{results may only have dialect attributes}}
func.func private @result_attr() -> (i1 {non_dialect_attr = 10})
