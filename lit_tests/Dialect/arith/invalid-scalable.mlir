// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Shape checks that tell scalable vectors from fixed ones, tensor encodings
// in casts and select, and the order of the scaled casts' checks. Each case
// was checked against upstream MLIR's verifier.

func.func @extf_fixed_into_scalable(%v: vector<8xf16>) {
  // expected-error @+1 {{'arith.extf' op requires the same shape for all operands and results}}
  %0 = arith.extf %v : vector<8xf16> to vector<[8]xf32>
  return
}

// -----

func.func @fptosi_scalable_into_fixed(%v: vector<2x[2]xf64>) {
  // expected-error @+1 {{'arith.fptosi' op requires the same shape for all operands and results}}
  %0 = arith.fptosi %v : vector<2x[2]xf64> to vector<2x2xi64>
  return
}

// -----

func.func @index_cast_scalable_into_fixed(%v: vector<[2]xindex>) {
  // expected-error @+1 {{'arith.index_cast' op requires the same shape for all operands and results}}
  %0 = arith.index_cast %v : vector<[2]xindex> to vector<2xi32>
  return
}

// -----

func.func @convertf_fixed_into_scalable(%v: vector<16xbf16>) {
  // expected-error @+1 {{'arith.convertf' op requires the same shape for all operands and results}}
  %0 = arith.convertf %v : vector<16xbf16> to vector<[16]xf16>
  return
}

// -----

// A scalable size must still match in value.
func.func @trunci_scalable_sizes_differ(%v: vector<[8]xi64>) {
  // expected-error @+1 {{'arith.trunci' op requires the same shape for all operands and results}}
  %0 = arith.trunci %v : vector<[8]xi64> to vector<[4]xi16>
  return
}

// -----

// Upstream asks only whether each vector is scalable somewhere, not where:
// moving the scalable dimension passes the shape check.
func.func @uitofp_scalable_dim_moved(%v: vector<[2]x3xi16>) -> vector<2x[3]xf32> {
  %0 = arith.uitofp %v : vector<[2]x3xi16> to vector<2x[3]xf32>
  return %0 : vector<2x[3]xf32>
}

// -----

func.func @extui_encoding_dropped(%t: tensor<3xi8, #arith.fastmath<fast>>) {
  // expected-error @+1 {{'arith.extui' op operand type 'tensor<3xi8, #arith.fastmath<fast>>' and result type 'tensor<3xi32>' are cast incompatible}}
  %0 = arith.extui %t : tensor<3xi8, #arith.fastmath<fast>> to tensor<3xi32>
  return
}

// -----

func.func @bitcast_encoding_changed(%t: tensor<5xi16, 1 : i64>) {
  // expected-error @+1 {{'arith.bitcast' op operand type 'tensor<5xi16, 1 : i64>' and result type 'tensor<5xf16, 2 : i64>' are cast incompatible}}
  %0 = arith.bitcast %t : tensor<5xi16, 1 : i64> to tensor<5xf16, 2 : i64>
  return
}

// -----

// An unranked tensor is int-like; the cast then fails the tensor-dims check.
func.func @sitofp_unranked(%t: tensor<*xi32>) {
  // expected-error @+1 {{'arith.sitofp' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.sitofp %t : tensor<*xi32> to tensor<*xf32>
  return
}

// -----

func.func @select_condition_missing_encoding(%c: tensor<6xi1>, %x: tensor<6xf32, "enc">) {
  // expected-error @+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected 'tensor<6xi1, "enc">', but got 'tensor<6xi1>'}}
  %0 = arith.select %c, %x, %x : tensor<6xi1>, tensor<6xf32, "enc">
  return
}

// -----

func.func @select_scalable_condition_fixed_values(%c: vector<[2]xi1>, %x: vector<2xi8>) {
  // expected-error @+1 {{'arith.select' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.select %c, %x, %x : vector<[2]xi1>, vector<2xi8>
  return
}

// -----

func.func @select_scalable_dim_moved(%c: vector<2x[2]xi1>, %x: vector<[2]x2xi8>) {
  // expected-error @+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected 'vector<[2]x2xi1>', but got 'vector<2x[2]xi1>'}}
  %0 = arith.select %c, %x, %x : vector<2x[2]xi1>, vector<[2]x2xi8>
  return
}

// -----

// The condition's shape must equal the result's exactly: no dynamic sizes.
func.func @select_dynamic_condition(%c: tensor<?xi1>, %x: tensor<7xi32>) {
  // expected-error @+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %x, %x : tensor<?xi1>, tensor<7xi32>
  return
}

// -----

func.func @select_tensor_condition_vector_values(%c: tensor<3xi1>, %x: vector<3xi32>) {
  // expected-error @+1 {{'arith.select' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.select %c, %x, %x : tensor<3xi1>, vector<3xi32>
  return
}

// -----

func.func @addui_extended_scalable_sum_fixed_overflow(%a: vector<[8]xi16>) {
  // expected-error @+1 {{'arith.addui_extended' op all non-scalar operands/results must have the same shape and base type}}
  %s, %o = arith.addui_extended %a, %a : vector<[8]xi16>, vector<8xi1>
  return
}

// -----

// Scaled casts: the cast interface (one pair of shapes, blind to scalability)
// comes first, then the Elementwise check over all three types.
func.func @scaling_extf_result_shorter(%a: vector<8xf4E2M1FN>, %s: vector<8xf8E8M0FNU>) {
  // expected-error @+1 {{'arith.scaling_extf' op operand types 'vector<8xf4E2M1FN>', 'vector<8xf8E8M0FNU>' and result type 'vector<4xf32>' are cast incompatible}}
  %0 = arith.scaling_extf %a, %s : vector<8xf4E2M1FN>, vector<8xf8E8M0FNU> to vector<4xf32>
  return
}

// -----

func.func @scaling_truncf_scale_fixed(%a: vector<[8]xf32>, %s: vector<8xf8E8M0FNU>) {
  // expected-error @+1 {{'arith.scaling_truncf' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.scaling_truncf %a, %s : vector<[8]xf32>, vector<8xf8E8M0FNU> to vector<[8]xf4E2M1FN>
  return
}

// -----

// A scalar scale with a vector input is allowed.
func.func @scaling_extf_scalar_scale(%a: vector<8xf8E5M2>, %s: f8E8M0FNU) -> vector<8xf32> {
  %0 = arith.scaling_extf %a, %s : vector<8xf8E5M2>, f8E8M0FNU to vector<8xf32>
  return %0 : vector<8xf32>
}
