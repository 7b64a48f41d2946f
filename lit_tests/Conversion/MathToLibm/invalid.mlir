// RUN: mlkit-opt %s -split-input-file -convert-math-to-libm -verify-diagnostics

// The whole math dialect is illegal: ops without a libm function fail the pass.
func.func @no_function(%i: i32) -> i32 {
  // expected-error @+1 {{failed to legalize operation 'math.ctlz' that was explicitly marked illegal}}
  %0 = math.ctlz %i : i32
  return %0 : i32
}

// -----

func.func @copysign(%a: f32) -> f32 {
  // expected-error @+1 {{failed to legalize operation 'math.copysign' that was explicitly marked illegal}}
  %0 = math.copysign %a, %a : f32
  return %0 : f32
}

// -----

// libm has no f80 functions.
func.func @f80(%a: f80) -> f80 {
  // expected-error @+1 {{failed to legalize operation 'math.tanh' that was explicitly marked illegal}}
  %0 = math.tanh %a : f80
  return %0 : f80
}

// -----

// A scalable vector cannot be unrolled.
func.func @scalable(%v: vector<[4]xf32>) -> vector<[4]xf32> {
  // expected-error @+1 {{failed to legalize operation 'math.erf' that was explicitly marked illegal}}
  %0 = math.erf %v : vector<[4]xf32>
  return %0 : vector<[4]xf32>
}
