// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Static positions of vector.extract and vector.insert must lie inside the
// vector (or be the poison index -1), as upstream's verifiers check.

func.func @extract_past_end(%v: vector<4xf32>) -> f32 {
  // expected-error @+1 {{'vector.extract' op expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %v[7] : f32 from vector<4xf32>
  return %0 : f32
}

// -----

func.func @extract_negative(%v: vector<4xf32>) -> f32 {
  // expected-error @+1 {{expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %v[-2] : f32 from vector<4xf32>
  return %0 : f32
}

// -----

func.func @extract_second(%v: vector<4x8xf32>) -> f32 {
  // expected-error @+1 {{expected position attribute #2 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %v[1, 8] : f32 from vector<4x8xf32>
  return %0 : f32
}

// -----

func.func @extract_rank(%v: vector<4x8xf32>) -> f32 {
  // expected-error @+1 {{'vector.extract' op expected position attribute of rank no greater than vector rank}}
  %0 = vector.extract %v[1, 2, 3] : f32 from vector<4x8xf32>
  return %0 : f32
}

// -----

func.func @extract_missing_dynamic(%v: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{'vector.extract' op mismatch between dynamic and static positions (kDynamic marker but no corresponding dynamic position) -- this can only happen due to an incorrect fold/rewrite}}
  %0 = "vector.extract"(%v) <{static_position = array<i64: -9223372036854775808>}> : (vector<4xf32>) -> f32
  return %v : vector<4xf32>
}

// -----

func.func @insert_past_end(%v: vector<4xf32>, %s: f32) -> vector<4xf32> {
  // expected-error @+1 {{'vector.insert' op expected position attribute #1 to be a non-negative integer smaller than the corresponding dest vector dimension}}
  %0 = vector.insert %s, %v[4] : f32 into vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @insert_rank(%v: vector<4xf32>, %s: f32) -> vector<4xf32> {
  // expected-error @+1 {{'vector.insert' op expected position attribute of rank no greater than dest vector rank}}
  %0 = vector.insert %s, %v[1, 2] : f32 into vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// In bounds, dynamic and poison positions verify.
func.func @valid(%v: vector<4x8xf32>, %i: index) -> f32 {
  %0 = vector.extract %v[%i, 7] : f32 from vector<4x8xf32>
  %1 = vector.extract %v[-1, 3] : f32 from vector<4x8xf32>
  %2 = vector.extract %v[3] : vector<8xf32> from vector<4x8xf32>
  %3 = vector.insert %1, %v[%i, -1] : f32 into vector<4x8xf32>
  %4 = vector.insert %2, %v[0] : vector<8xf32> into vector<4x8xf32>
  return %0 : f32
}
