// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @extsi_narrower(%a: i32) {
  // expected-error @+1 {{operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @extui_same(%a: i32) {
  // expected-error @+1 {{operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %a : i32 to i32
  return
}

// -----

func.func @trunci_wider(%a: i32) {
  // expected-error @+1 {{operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %a : i32 to i64
  return
}

// -----

func.func @extf_narrower(%a: f32) {
  // expected-error @+1 {{operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %a : f32 to f16
  return
}

// -----

func.func @truncf_wider(%a: f32) {
  // expected-error @+1 {{operand type 'f32' and result type 'f64' are cast incompatible}}
  %0 = arith.truncf %a : f32 to f64
  return
}

// -----

func.func @cast_shape(%a: vector<4xi32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = arith.extsi %a : vector<4xi32> to vector<3xi64>
  return
}

// -----

func.func @cast_vector_to_scalar(%a: vector<4xi32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = "arith.extsi"(%a) : (vector<4xi32>) -> i64
  return
}

// -----

func.func @index_cast_no_index(%a: i32) {
  // expected-error @+1 {{operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @index_castui_both_index(%a: index) {
  // expected-error @+1 {{operand type 'index' and result type 'index' are cast incompatible}}
  %0 = arith.index_castui %a : index to index
  return
}

// -----

func.func @sitofp_float_operand(%a: f32) {
  // expected-error @+1 {{operand #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %0 = "arith.sitofp"(%a) : (f32) -> f32
  return
}

// -----

func.func @fptosi_int_operand(%a: i32) {
  // expected-error @+1 {{operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.fptosi"(%a) : (i32) -> i32
  return
}

// -----

func.func @convertf_width(%a: f16) {
  // expected-error @+1 {{operand type 'f16' and result type 'f32' are cast incompatible}}
  %0 = arith.convertf %a : f16 to f32
  return
}

// -----

func.func @convertf_same(%a: f16) {
  // expected-error @+1 {{operand type 'f16' and result type 'f16' are cast incompatible}}
  %0 = arith.convertf %a : f16 to f16
  return
}

// -----

func.func @cmpi_result_shape(%a: vector<4xi32>) {
  // expected-error @+1 {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (vector<4xi32>, vector<4xi32>) -> i1
  return
}

// -----

func.func @cmpi_operand_types(%a: i32, %b: i64) {
  // expected-error @+1 {{requires all operands to have the same type}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 0 : i64}> : (i32, i64) -> i1
  return
}

// -----

func.func @select_condition_shape(%c: vector<3xi1>, %a: vector<4xi32>) {
  // expected-error @+1 {{failed to verify that condition is signless i1 or has matching shape}}
  %0 = "arith.select"(%c, %a, %a) : (vector<3xi1>, vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return
}

// -----

func.func @remf_integer(%a: i32) {
  // expected-error @+1 {{operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.remf"(%a, %a) : (i32, i32) -> i32
  return
}

// -----

// The custom form's type breaks a constraint: upstream's verifier words it.
func.func @addf_integer(%a: i32) {
  // expected-error @+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %a, %a : i32
  return
}

// -----

func.func @addi_float(%a: f32) {
  // expected-error @+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.addi %a, %a : f32
  return
}

// -----

func.func @divsi_float(%a: vector<4xf32>) {
  // expected-error @+1 {{'arith.divsi' op operand #0 must be signless-integer-like, but got 'vector<4xf32>'}}
  %0 = arith.divsi %a, %a : vector<4xf32>
  return
}

// -----

func.func @negf_integer(%a: i32) {
  // expected-error @+1 {{'arith.negf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.negf %a : i32
  return
}
