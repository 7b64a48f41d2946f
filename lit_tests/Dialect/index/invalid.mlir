// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Each chunk is also rejected by upstream MLIR (tests/test_dialect_index.py).

func.func @casts_index_to_index(%a: index) {
  // expected-error @+1 {{'index.casts' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = index.casts %a : index to index
  return
}

// -----

func.func @casts_int_to_int(%a: i64) {
  // expected-error @+1 {{'index.casts' op operand type 'i64' and result type 'i32' are cast incompatible}}
  %0 = index.casts %a : i64 to i32
  return
}

// -----

func.func @castu_index_to_index(%a: index) {
  // expected-error @+1 {{'index.castu' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = index.castu %a : index to index
  return
}

// -----

func.func @castu_int_to_int(%a: i32) {
  // expected-error @+1 {{'index.castu' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = index.castu %a : i32 to i32
  return
}

// -----

func.func @casts_from_float(%a: f32) {
  // expected-error @+1 {{'index.casts' op operand #0 must be integer or index, but got 'f32'}}
  %0 = index.casts %a : f32 to index
  return
}

// -----

func.func @castu_to_vector(%a: index) {
  // expected-error @+1 {{'index.castu' op result #0 must be integer or index, but got 'vector<2xi32>'}}
  %0 = "index.castu"(%a) : (index) -> vector<2xi32>
  return
}

// -----

func.func @casts_two_operands(%a: index) {
  // expected-error @+1 {{'index.casts' op requires a single operand}}
  %0 = "index.casts"(%a, %a) : (index, index) -> i32
  return
}

// -----

func.func @add_int_operand(%a: i32, %b: index) {
  // expected-error @+1 {{'index.add' op operand #0 must be index, but got 'i32'}}
  %0 = "index.add"(%a, %b) : (i32, index) -> index
  return
}

// -----

func.func @sub_vector_operand(%a: index, %b: vector<4xindex>) {
  // expected-error @+1 {{'index.sub' op operand #1 must be index, but got 'vector<4xindex>'}}
  %0 = "index.sub"(%a, %b) : (index, vector<4xindex>) -> index
  return
}

// -----

func.func @mul_int_result(%a: index, %b: index) {
  // expected-error @+1 {{'index.mul' op result #0 must be index, but got 'i64'}}
  %0 = "index.mul"(%a, %b) : (index, index) -> i64
  return
}

// -----

func.func @xor_one_operand(%a: index) {
  // expected-error @+1 {{'index.xor' op expected 2 operands, but found 1}}
  %0 = "index.xor"(%a) : (index) -> index
  return
}

// -----

func.func @shl_no_result(%a: index, %b: index) {
  // expected-error @+1 {{'index.shl' op requires one result}}
  "index.shl"(%a, %b) : (index, index) -> ()
  return
}

// -----

func.func @cmp_wide_result(%a: index, %b: index) {
  // expected-error @+1 {{'index.cmp' op result #0 must be 1-bit signless integer, but got 'i32'}}
  %0 = "index.cmp"(%a, %b) <{pred = #index<cmp_predicate eq>}> : (index, index) -> i32
  return
}

// -----

func.func @cmp_no_predicate(%a: index, %b: index) {
  // expected-error @+1 {{'index.cmp' op requires attribute 'pred'}}
  %0 = "index.cmp"(%a, %b) : (index, index) -> i1
  return
}

// -----

// Upstream rejects this while converting properties; the wording differs.
func.func @cmp_integer_predicate(%a: index, %b: index) {
  // expected-error @+1 {{'index.cmp' op attribute 'pred' failed to satisfy constraint: index comparison predicate kind}}
  %0 = "index.cmp"(%a, %b) <{pred = 2 : i64}> : (index, index) -> i1
  return
}

// -----

func.func @cmp_integer_predicate_in_attr_dict(%a: index, %b: index) {
  // expected-error @+1 {{'index.cmp' op attribute 'pred' failed to satisfy constraint: index comparison predicate kind}}
  %0 = index.cmp slt(%a, %b) {pred = 1}
  return
}

// -----

func.func @cmp_unknown_predicate(%a: index, %b: index) {
  // expected-error @+1 {{expected ::mlir::index::IndexCmpPredicate to be one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge}}
  %0 = index.cmp lt(%a, %b)
  return
}

// -----

func.func @cmp_unknown_predicate_attr(%a: index, %b: index) {
  // expected-error @+1 {{expected ::mlir::index::IndexCmpPredicate to be one of}}
  %0 = "index.cmp"(%a, %b) <{pred = #index<cmp_predicate foo>}> : (index, index) -> i1
  return
}

// -----

func.func @constant_i64_value() {
  // expected-error @+1 {{'index.constant' op attribute 'value' failed to satisfy constraint: index attribute}}
  %0 = "index.constant"() <{value = 3 : i64}> : () -> index
  return
}

// -----

func.func @constant_no_value() {
  // expected-error @+1 {{'index.constant' op requires attribute 'value'}}
  %0 = "index.constant"() : () -> index
  return
}

// -----

func.func @constant_int_result() {
  // expected-error @+1 {{'index.constant' op result #0 must be index, but got 'i64'}}
  %0 = "index.constant"() <{value = 3 : index}> : () -> i64
  return
}

// -----

func.func @constant_too_wide() {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = index.constant 9223372036854775808
  return
}

// -----

// Upstream rejects this while converting properties; the wording differs.
func.func @bool_constant_integer_value() {
  // expected-error @+1 {{'index.bool.constant' op attribute 'value' failed to satisfy constraint: bool attribute}}
  %0 = "index.bool.constant"() <{value = 1 : i64}> : () -> i1
  return
}

// -----

func.func @bool_constant_wide_result() {
  // expected-error @+1 {{'index.bool.constant' op result #0 must be 1-bit signless integer, but got 'i32'}}
  %0 = "index.bool.constant"() <{value = true}> : () -> i32
  return
}

// -----

func.func @sizeof_int_result() {
  // expected-error @+1 {{'index.sizeof' op result #0 must be index, but got 'i64'}}
  %0 = "index.sizeof"() : () -> i64
  return
}

// -----

func.func @sizeof_operand(%a: index) {
  // expected-error @+1 {{'index.sizeof' op requires zero operands}}
  %0 = "index.sizeof"(%a) : (index) -> index
  return
}
