// RUN: mlkit-opt %s -split-input-file -lower-affine --verify-diagnostics

func.func @neg_floordiv(%a: index) -> index {
  // expected-error @+1 {{division by non-positive value is not supported}}
  %0 = affine.apply affine_map<(d0) -> (d0 floordiv -2)>(%a)
  return %0 : index
}

// -----

func.func @neg_mod(%a: index) -> index {
  // expected-error @+1 {{modulo by non-positive value is not supported}}
  %0 = affine.min affine_map<(d0) -> (d0 mod -3, d0)>(%a)
  return %0 : index
}
