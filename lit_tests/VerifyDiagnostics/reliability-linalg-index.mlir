// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// linalg.index names a loop of its enclosing op by a dim in [0, loops):
// negative (a loop counted from the end in Python) or too large is an error.

func.func @negative(%a: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%a : memref<4xf32>) {
  ^bb0(%x: f32):
    // expected-error @+1 {{'linalg.index' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
    %i = linalg.index -1 : index
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @past_the_loops(%a: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%a : memref<4xf32>) {
  ^bb0(%x: f32):
    // expected-error @+1 {{'linalg.index' op expected dim (1) to be lower than the number of loops (1) of the enclosing LinalgOp}}
    %i = linalg.index 1 : index
    linalg.yield %x : f32
  }
  return
}
