// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @matmul_shape(%a: tensor<4x8xf32>, %b: tensor<4x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{inferred input/output operand #1 has shape's dimension #0 to be 8, but found 4}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_rank(%a: tensor<4xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{expected operand #0 rank (1) to match the result rank of indexing_map (2)}}
  %0 = linalg.matmul ins(%a, %b : tensor<4xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_result_type(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expected type of operand #2 ('tensor<4x16xf32>') to match type of corresponding result ('tensor<4x8xf32>')}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @matmul_missing_result(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>)
  return
}

// -----

#bad = affine_map<(d0, d1, d2) -> (d0, d1)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_bad_map(%a: memref<4x16xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{Unexpected dim expression in map result.}}
  linalg.matmul indexing_maps = [#bad, #mB, #mC] ins(%a, %b : memref<4x16xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @fill_type(%s: i32, %t: memref<4x16xf32>) {
  // expected-error @+1 {{expected fill value type ('i32') to match output element type ('f32')}}
  linalg.fill ins(%s : i32) outs(%t : memref<4x16xf32>)
  return
}

// -----

func.func @copy_shape(%a: memref<4x8xf32>, %b: memref<8x8xf32>) {
  // expected-error @+1 {{inferred input/output operand #1 has shape's dimension #0 to be 4, but found 8}}
  linalg.copy ins(%a : memref<4x8xf32>) outs(%b : memref<8x8xf32>)
  return
}

// -----

func.func @add_rank(%a: memref<4x8xf32>, %v: memref<8xf32>) {
  // expected-error @+1 {{expected operand #1 rank (1) to match the result rank of indexing_map (2)}}
  linalg.add ins(%a, %v : memref<4x8xf32>, memref<8xf32>) outs(%a : memref<4x8xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_map_count(%a: memref<4x8xf32>) {
  // expected-error @+1 {{expected the number of indexing_map (1) to be equal to the number of input/output operands (2)}}
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_loops(%a: memref<4x8xf32>) {
  // expected-error @+1 {{expected indexing_map #0 to have 3 dim(s) to match the number of loops}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#m1 = affine_map<(d0) -> (d0)>
func.func @generic_rank(%a: memref<4x8xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{expected operand #0 rank (2) to match the result rank of indexing_map (1)}}
  linalg.generic {indexing_maps = [#m1, #m1], iterator_types = ["parallel"]} ins(%a : memref<4x8xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_bb_arg(%a: memref<4x8xf32>) {
  // expected-error @+1 {{expected type of bb argument #0 ('i32') to match element or self type of the corresponding operand ('f32')}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%x: i32, %y: f32):
    linalg.yield %y : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_yield_type(%a: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %c = arith.constant 0 : i32
    // expected-error @+1 {{type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')}}
    linalg.yield %c : i32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @index_dim(%a: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{expected dim (2) to be lower than the number of loops (2) of the enclosing LinalgOp}}
    %i = linalg.index 2 : index
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @transpose_perm(%a: memref<16x64xf32>, %b: memref<64x16xf32>) {
  // expected-error @+1 {{permutation is not valid}}
  linalg.transpose ins(%a : memref<16x64xf32>) outs(%b : memref<64x16xf32>) permutation = [1, 1]
  return
}

// -----

func.func @transpose_dims(%a: memref<16x64xf32>, %b: memref<64x32xf32>) {
  // expected-error @+1 {{dim(result, 1) = 32 doesn't match dim(input, permutation[1]) = 16}}
  linalg.transpose ins(%a : memref<16x64xf32>) outs(%b : memref<64x32xf32>) permutation = [1, 0]
  return
}

// -----

func.func @broadcast_rank(%a: memref<64xf32>, %b: memref<16x64xf32>) {
  // expected-error @+1 {{input rank plus added dimensions does not match init rank. input rank: 1, dimensions size: 2, init rank: 2}}
  linalg.broadcast ins(%a : memref<64xf32>) outs(%b : memref<16x64xf32>) dimensions = [0, 1]
  return
}

// -----

func.func @broadcast_dims(%a: memref<32xf32>, %b: memref<16x64xf32>) {
  // expected-error @+1 {{input dim 0 should match init dim 1. input: 32, init: 64}}
  linalg.broadcast ins(%a : memref<32xf32>) outs(%b : memref<16x64xf32>) dimensions = [0]
  return
}

// -----

func.func @reduce_dims(%a: memref<16x64xf32>, %b: memref<16xf32>) {
  // expected-error @+1 {{init dimensions [16] doesn't match input dimensions after reduction [64]}}
  linalg.reduce { arith.addf } ins(%a : memref<16x64xf32>) outs(%b : memref<16xf32>) dimensions = [0]
  return
}

// -----

func.func @map_shape(%a: memref<64xf32>, %b: memref<32xf32>) {
  // expected-error @+1 {{expected shape of input (32) to match shape of output (64)}}
  linalg.map { arith.addf } ins(%a, %b : memref<64xf32>, memref<32xf32>) outs(%a : memref<64xf32>)
  return
}

// -----

func.func @conv_strides(%i: memref<1x10x10x3xf32>, %k: memref<3x3x3x5xf32>, %o: memref<1x8x8x5xf32>) {
  // expected-error @+1 {{attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]}}
  linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<3xi64>} ins(%i, %k : memref<1x10x10x3xf32>, memref<3x3x3x5xf32>) outs(%o : memref<1x8x8x5xf32>)
  return
}

// -----

// Vector-typed strides are fine (as JAX/IREE emit them), but they must be i64.
func.func @pool_dilations_i32(%i: tensor<1x8x8x4xf32>, %w: tensor<3x3xf32>, %o: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  // expected-error @+1 {{attribute 'dilations' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]}}
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi32>, strides = dense<2> : vector<2xi64>} ins(%i, %w : tensor<1x8x8x4xf32>, tensor<3x3xf32>) outs(%o : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

// -----

func.func @pool_strides_unsigned(%i: tensor<1x8x8x4xf32>, %w: tensor<3x3xf32>, %o: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  // expected-error @+1 {{attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]}}
  %r = linalg.pooling_nhwc_sum {strides = dense<2> : tensor<2xui64>} ins(%i, %w : tensor<1x8x8x4xf32>, tensor<3x3xf32>) outs(%o : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

// -----

func.func @conv_window(%i: memref<1x10x10x3xf32>, %k: memref<3x3x3x5xf32>, %o: memref<1x8x8x5xf32>) {
  // expected-error @+1 {{inferred input/output operand #0 has shape's dimension #1 to be greater than or equal to 17, but found 10}}
  linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>} ins(%i, %k : memref<1x10x10x3xf32>, memref<3x3x3x5xf32>) outs(%o : memref<1x8x8x5xf32>)
  return
}

// -----

func.func @pack_type(%s: memref<128x256xf32>, %d: memref<8x16x16x16xf32>) {
  // expected-error @+1 {{expected 'memref<16x8x16x16xf32>' for the packed domain value, got 'memref<8x16x16x16xf32>'}}
  linalg.pack %s outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : memref<128x256xf32> -> memref<8x16x16x16xf32>
  return
}

// -----

func.func @softmax_dim(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  // expected-error @+1 {{incorrect dimension specified}}
  %0 = linalg.softmax dimension(2) ins(%x : tensor<2x16xf32>) outs(%x : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----
func.func @elementwise_arity(%a: memref<4x8xf32>) {
  // expected-error @+1 {{[parseNamedStructuredOpRegion] ods-gen generated region expects 3 args, got 2}}
  linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  return
}

// -----

func.func @contraction_body(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{expected add/mul op in the body}}
  "linalg.matmul"(%a, %b, %c) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield %z : f32
  }) : (memref<4x8xf32>, memref<8x16xf32>, memref<4x16xf32>) -> ()
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_iterators(%a: memref<4x8xf32>) {
  // expected-error @+1 {{expected "iterator_types" array attribute}}
  linalg.generic {indexing_maps = [#id, #id]} ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @reduce_block(%a: memref<16x64xf32>, %b: memref<64xf32>) {
  // expected-error @+1 {{mismatching number of operands and block arguments}}
  linalg.reduce ins(%a : memref<16x64xf32>) outs(%b : memref<64xf32>) dimensions = [0]
    (%x: f32) {
      linalg.yield %x : f32
    }
  return
}

// -----

func.func @map_arity(%a: memref<64xf32>) {
  // expected-error @+1 {{expects number of operands to match the arity of mapper, but got: 2 and 3}}
  linalg.map ins(%a : memref<64xf32>) outs(%a : memref<64xf32>)
    (%x: f32, %y: f32, %z: f32) {
      linalg.yield %x : f32
    }
  return
}

// -----

func.func @yield_count(%a: memref<64xf32>) {
  linalg.map ins(%a : memref<64xf32>) outs(%a : memref<64xf32>)
    (%x: f32, %z: f32) {
      // expected-error @+1 {{expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
      linalg.yield %x, %x : f32, f32
    }
  return
}

// -----

func.func @unpack_tiles(%s: memref<8x16x16x16xf32>, %d: memref<128x256xf32>) {
  // expected-error @+1 {{mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type at index 1: got 16 != 8}}
  linalg.unpack %s inner_dims_pos = [0, 1] inner_tiles = [16, 8] into %d : memref<8x16x16x16xf32> -> memref<128x256xf32>
  return
}

// -----

func.func @pack_dims(%s: memref<128x256xf32>, %d: memref<8x16x16x16xf32>) {
  // expected-error @+1 {{invalid inner_dims_pos vector}}
  linalg.pack %s inner_dims_pos = [0, 2] inner_tiles = [16, 16] into %d : memref<128x256xf32> -> memref<8x16x16x16xf32>
  return
}

// -----

func.func @softmax_shape(%x: tensor<2x16xf32>, %y: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{incompatible output shape}}
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%y : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @transpose_rank(%a: memref<16x64xf32>, %b: memref<64xf32>) {
  // expected-error @+1 {{input rank (2) does not match init rank (1)}}
  linalg.transpose ins(%a : memref<16x64xf32>) outs(%b : memref<64xf32>) permutation = [1, 0]
  return
}

// -----

func.func @contract_no_maps(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{expected 'indexing_maps' attribute}}
  %0 = linalg.contract ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @contract_not_permutation(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{provided affine_map is not a projected permutation}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m + k, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @contract_rank(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{ranks of shaped operand and results of corresponding affine_map differ}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @contract_scalar_access(%a: f32, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{affine_map specifies shaped access while operand has non-shaped type}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : f32, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @contract_spaces_differ(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{iteration spaces of provided affine_maps differ}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @contract_unused_dim(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{iteration space dim at index 3 not used to access any operand}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k, x) -> (m, k)>, affine_map<(m, n, k, x) -> (k, n)>, affine_map<(m, n, k, x) -> (m, n)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @contract_input_only_dim(%a: tensor<4x8xf32>, %b: tensor<16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{iteration space dim at index 2 is neither a contracting dim nor of parallel iteration type}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @contract_no_contracting_dim(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  // expected-error @+1 {{'indexing_maps' do not specify a contracting dimension}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n, k)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %0 : tensor<4x16x8xf32>
}

// -----

func.func @contract_shape(%a: tensor<4x9xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{inferred input/output operand #1 has shape's dimension #0 to be 9, but found 8}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<4x9xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @contract_three_inputs(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{ods-gen generated region expects 3 args, got 4}}
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b, %b : tensor<4x8xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
