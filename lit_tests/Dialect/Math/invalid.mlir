// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @sincos_integer(%a: i32) {
  // expected-error @+1 {{operand #0 must be floating-point-like, but got 'i32'}}
  %s, %c = math.sincos %a : i32
  return
}

// -----

func.func @sincos_memref(%a: memref<2xf32>) {
  // expected-error @+1 {{operand #0 must be floating-point-like, but got 'memref<2xf32>'}}
  %s, %c = "math.sincos"(%a) : (memref<2xf32>) -> (memref<2xf32>, memref<2xf32>)
  return
}

// -----

func.func @sincos_result_kind(%a: f32) {
  // expected-error @+1 {{result #0 must be floating-point-like, but got 'i32'}}
  %s, %c = "math.sincos"(%a) : (f32) -> (i32, f32)
  return
}

// -----

func.func @sincos_cos_width(%a: f32) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %s, %c = "math.sincos"(%a) : (f32) -> (f32, f64)
  return
}

// -----

func.func @sincos_shape(%a: vector<4xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %s, %c = "math.sincos"(%a) : (vector<4xf32>) -> (vector<3xf32>, vector<3xf32>)
  return
}

// -----

func.func @sincos_one_result(%a: f32) {
  // expected-error @+1 {{expected 2 results}}
  %s = "math.sincos"(%a) : (f32) -> f32
  return
}

// -----

func.func @clampf_integer(%a: i32) {
  // expected-error @+1 {{operand #0 must be floating-point-like, but got 'i32'}}
  %0 = math.clampf %a to [%a, %a] : i32
  return
}

// -----

func.func @clampf_bound_width(%a: f32, %b: f64) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "math.clampf"(%a, %b, %a) : (f32, f64, f32) -> f32
  return
}

// -----

func.func @clampf_result_width(%a: f32) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "math.clampf"(%a, %a, %a) : (f32, f32, f32) -> f64
  return
}

// -----

func.func @clampf_two_operands(%a: f32) {
  // expected-error @+1 {{expected 3 operands, but found 2}}
  %0 = "math.clampf"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @clampf_without_to(%a: f32) {
  // expected-error @+1 {{expected 'to'}}
  %0 = math.clampf %a [%a, %a] : f32
  return
}

// -----

func.func @clampf_unknown_flag(%a: f32) {
  // expected-error @+1 {{none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = math.clampf %a to [%a, %a] fastmath<bogus> : f32
  return
}

// -----

func.func @isinf_integer(%a: i32) {
  // expected-error @+1 {{must be floating-point-like, but got 'i32'}}
  %0 = math.isinf %a : i32
  return
}

// -----

func.func @isnan_memref(%a: memref<4xf32>) {
  // expected-error @+1 {{must be floating-point-like, but got 'memref<4xf32>'}}
  %0 = math.isnan %a : memref<4xf32>
  return
}

// -----

func.func @isfinite_float_result(%a: f32) {
  // expected-error @+1 {{result #0 must be bool-like, but got 'f32'}}
  %0 = "math.isfinite"(%a) : (f32) -> f32
  return
}

// -----

func.func @isinf_result_shape(%a: vector<4xf32>) {
  // expected-error @+1 {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isinf"(%a) : (vector<4xf32>) -> vector<3xi1>
  return
}

// -----

func.func @isnormal_scalar_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isnormal"(%a) : (tensor<4xf32>) -> i1
  return
}

// -----

func.func @isnan_container_kind(%a: vector<4xf32>) {
  // expected-error @+1 {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isnan"(%a) : (vector<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @isinf_scalable(%a: vector<[4]xf32>) {
  // expected-error @+1 {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isinf"(%a) : (vector<[4]xf32>) -> vector<4xi1>
  return
}

// -----

func.func @isfinite_no_fastmath_keyword(%a: f32) {
  // expected-error @+1 {{expected ':'}}
  %0 = math.isfinite %a fastmath<fast> : f32
  return
}

// -----

func.func @isnan_fastmath_kind(%a: f32) {
  // expected-error @+1 {{attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "math.isnan"(%a) {fastmath = 3 : i32} : (f32) -> i1
  return
}

// -----

func.func @isnormal_two_operands(%a: f32) {
  // expected-error @+1 {{requires a single operand}}
  %0 = "math.isnormal"(%a, %a) : (f32, f32) -> i1
  return
}

// -----

func.func @isinf_two_results(%a: f32) {
  // expected-error @+1 {{requires one result}}
  %0:2 = "math.isinf"(%a) : (f32) -> (i1, i1)
  return
}

// -----

func.func @erfc_integer(%a: i32) {
  // expected-error @+1 {{operand #0 must be floating-point-like, but got 'i32'}}
  %0 = math.erfc %a : i32
  return
}

// -----

func.func @erfc_fastmath_kind(%a: f32) {
  // expected-error @+1 {{attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = math.erfc %a {fastmath = 1 : i32} : f32
  return
}

// -----

func.func @tanh_integer(%a: i32) {
  // expected-error @+1 {{'math.tanh' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = math.tanh %a : i32
  return
}

// -----

func.func @absi_float(%a: f32) {
  // expected-error @+1 {{'math.absi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = math.absi %a : f32
  return
}

// -----

func.func @fma_rounding_mode_out_of_range(%a: f32) {
  // expected-error @+1 {{Invalid attribute `roundingmode` in property conversion: 7 : i32}}
  %0 = "math.fma"(%a, %a, %a) <{fastmath = #arith.fastmath<none>, roundingmode = 7 : i32}> : (f32, f32, f32) -> f32
  return
}
