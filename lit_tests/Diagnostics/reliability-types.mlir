// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Types upstream's parser refuses (TypeParser.cpp).

// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
func.func @wide(%a: i99999999) {
  return
}

// -----

// expected-error @+1 {{invalid integer width}}
func.func @wider(%a: si99999999999) {
  return
}

// -----

// expected-error @+1 {{invalid dimension}}
func.func @huge_dim(%a: memref<99999999999999999999xf32>) {
  return
}

// -----

// expected-error @+1 {{invalid dimension}}
func.func @past_int64(%a: vector<9223372036854775808xf32>) {
  return
}

// -----

func.func @huge_pad(%t: tensor<4xf32>, %v: f32) -> tensor<?xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = tensor.pad %t low[9223372036854775808] high[0] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @wide_float_bits() -> f80 {
  // expected-error @+1 {{hexadecimal f80 constant 0x3FFF8000000000000001 is not exactly representable}}
  %0 = arith.constant 0x3FFF8000000000000001 : f80
  return %0 : f80
}

// -----

func.func @past_f64() -> f128 {
  // expected-error @+1 {{f128 constant is out of the range mlkit holds (f64)}}
  %0 = arith.constant 1.0e400 : f128
  return %0 : f128
}
