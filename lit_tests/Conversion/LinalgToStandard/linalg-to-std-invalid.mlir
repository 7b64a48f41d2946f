// convert-linalg-to-std is a full conversion: only the affine, arith, func,
// memref and scf dialects may remain, so any other op, or a linalg op it
// cannot turn into a call, fails the pass where it stands.
// RUN: mlkit-opt %s --split-input-file --verify-diagnostics -convert-linalg-to-std -o /dev/null

#id = affine_map<(d0) -> (d0)>
func.func @on_tensors(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{failed to legalize operation 'linalg.generic'}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @other_dialect(%a: memref<4xf32>, %b: memref<4xf32>, %x: f32) {
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  // expected-error @below {{failed to legalize operation 'math.exp'}}
  %e = math.exp %x : f32
  return
}

// -----

func.func @not_structured(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  // expected-error @below {{failed to legalize operation 'linalg.softmax'}}
  linalg.softmax dimension(1) ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  return
}

// -----

// An unsigned element type has no mangled name.
func.func @unsigned(%a: memref<4xui8>, %b: memref<4xui8>) {
  // expected-error @below {{failed to legalize operation 'linalg.copy'}}
  linalg.copy ins(%a : memref<4xui8>) outs(%b : memref<4xui8>)
  return
}

// -----

func.func @branches(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @below {{failed to legalize operation 'cf.br'}}
  cf.br ^bb1
^bb1:
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
