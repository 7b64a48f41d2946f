// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @dim_0d(%t: tensor<f32>, %i: index) {
  // expected-error @+1 {{'tensor.dim' op operand #0 must be non-0-ranked or unranked tensor, but got 'tensor<f32>'}}
  %0 = tensor.dim %t, %i : tensor<f32>
  return
}

// -----

func.func @rank_not_tensor(%f: f32) {
  // expected-error @+1 {{'tensor.rank' op operand #0 must be tensor of any non-token type values, but got 'f32'}}
  %0 = "tensor.rank"(%f) : (f32) -> index
  return
}

// -----

func.func @cast_static_mismatch(%t: tensor<1xf32>) {
  // expected-error @+1 {{'tensor.cast' op operand type 'tensor<1xf32>' and result type 'tensor<2xf32>' are cast incompatible}}
  %0 = tensor.cast %t : tensor<1xf32> to tensor<2xf32>
  return
}

// -----

func.func @cast_element_mismatch(%t: tensor<*xf32>) {
  // expected-error @+1 {{operand type 'tensor<*xf32>' and result type 'tensor<*xi32>' are cast incompatible}}
  %0 = tensor.cast %t : tensor<*xf32> to tensor<*xi32>
  return
}

// -----

func.func @cast_rank_mismatch(%t: tensor<1xf32>) {
  // expected-error @+1 {{operand type 'tensor<1xf32>' and result type 'tensor<1x1xf32>' are cast incompatible}}
  %0 = tensor.cast %t : tensor<1xf32> to tensor<1x1xf32>
  return
}

// -----

func.func @bitcast_width(%t: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.bitcast' op operand type 'tensor<4xf32>' and result type 'tensor<4xi64>' are cast incompatible}}
  %0 = tensor.bitcast %t : tensor<4xf32> to tensor<4xi64>
  return
}

// -----

func.func @bitcast_index(%t: tensor<4xindex>) {
  // expected-error @+1 {{'tensor.bitcast' op operand #0 must be tensor of signless integer or unsigned integer or signed integer or floating-point values, but got 'tensor<4xindex>'}}
  %0 = tensor.bitcast %t : tensor<4xindex> to tensor<4xi64>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'tensor.concat' op requires at least one input}}
  %0 = tensor.concat dim(0) : () -> tensor<1x2x3xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<1xf32>) {
  // expected-error @+1 {{rank of concatenated inputs must match result rank}}
  %0 = tensor.concat dim(0) %a, %a : (tensor<1xf32>, tensor<1xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @concat_dim(%a: tensor<3xf32>) {
  // expected-error @+1 {{concatenation dim must be less than the tensor rank}}
  %0 = tensor.concat dim(1) %a : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @concat_element(%a: tensor<3xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{inputs and result element type must match}}
  %0 = tensor.concat dim(0) %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<6xf32>
  return
}

// -----

func.func @concat_other_dim(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{static concatenation size mismatch along non-concatenated dimension 1}}
  %0 = tensor.concat dim(0) %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<7x5xf32>
  return
}

// -----

func.func @concat_result(%a: tensor<3xf32>) {
  // expected-error @+1 {{result type 'tensor<7xf32>'does not match inferred shape 'tensor<6xf32>' static sizes}}
  %0 = tensor.concat dim(0) %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<7xf32>
  return
}

// -----

func.func @empty_dynamic_sizes(%sz: index) {
  // expected-error @+1 {{'tensor.empty' op incorrect number of dynamic sizes, has 1, expected 2}}
  %0 = tensor.empty(%sz) : tensor<2x?x?x5xf32>
  return
}

// -----

func.func @empty_unranked(%sz: index) {
  // expected-error @+1 {{'tensor.empty' op result #0 must be ranked tensor of any non-token type values, but got 'tensor<*xf32>'}}
  %0 = "tensor.empty"(%sz) : (index) -> tensor<*xf32>
  return
}

// -----

func.func @extract_indices(%t: tensor<?xf32>) {
  // expected-error @+1 {{'tensor.extract' op incorrect number of indices for extract_element}}
  %0 = tensor.extract %t[] : tensor<?xf32>
  return
}

// -----

func.func @extract_result_type(%t: tensor<?xf32>, %i: index) {
  // expected-error @+1 {{'tensor.extract' op failed to verify that result type matches element type of tensor}}
  %0 = "tensor.extract"(%t, %i) : (tensor<?xf32>, index) -> i32
  return
}

// -----

func.func @extract_unranked(%t: tensor<*xf32>, %i: index) {
  // expected-error @+1 {{'tensor.extract' op operand #0 must be ranked tensor of any non-token type values, but got 'tensor<*xf32>'}}
  %0 = "tensor.extract"(%t, %i) : (tensor<*xf32>, index) -> f32
  return
}

// -----

func.func @insert_indices(%v: f32, %t: tensor<?xf32>) {
  // expected-error @+1 {{'tensor.insert' op incorrect number of indices}}
  %0 = tensor.insert %v into %t[] : tensor<?xf32>
  return
}

// -----

func.func @insert_scalar_type(%v: i32, %t: tensor<?xf32>, %i: index) {
  // expected-error @+1 {{failed to verify that scalar type matches element type of dest}}
  %0 = "tensor.insert"(%v, %t, %i) : (i32, tensor<?xf32>, index) -> tensor<?xf32>
  return
}

// -----

func.func @insert_result_type(%v: f32, %t: tensor<?xf32>, %i: index) {
  // expected-error @+1 {{failed to verify that result type matches type of dest}}
  %0 = "tensor.insert"(%v, %t, %i) : (f32, tensor<?xf32>, index) -> tensor<4xf32>
  return
}

// -----

func.func @from_elements_count(%v: index) {
  // expected-error @+1 {{'tensor.from_elements' op failed to verify that operand types match result element type}}
  %0 = "tensor.from_elements"(%v) : (index) -> tensor<2xindex>
  return
}

// -----

func.func @from_elements_dynamic(%v: index) {
  // expected-error @+1 {{'tensor.from_elements' op result #0 must be statically shaped tensor of any non-token type values, but got 'tensor<?xindex>'}}
  %0 = "tensor.from_elements"(%v) : (index) -> tensor<?xindex>
  return
}

// -----

func.func @splat_dynamic_sizes(%v: f32, %m: index) {
  // expected-error @+1 {{'tensor.splat' op incorrect number of dynamic sizes, has 1, expected 2}}
  %0 = tensor.splat %v[%m] : tensor<?x8x?xf32>
  return
}

// -----

func.func @splat_type(%v: i32) {
  // expected-error @+1 {{'tensor.splat' op failed to verify that operand type matches element type of result}}
  %0 = "tensor.splat"(%v) : (i32) -> tensor<8xf32>
  return
}

// -----

func.func @extract_slice_rank(%t: tensor<?xf32>) {
  // expected-error @+1 {{expected rank to be smaller or equal to the other rank.}}
  %0 = tensor.extract_slice %t[0] [4] [1] : tensor<?xf32> to tensor<?x?xf32>
  return
}

// -----

func.func @extract_slice_element(%t: tensor<?xf32>) {
  // expected-error @+1 {{expected element type to be 'f32'}}
  %0 = tensor.extract_slice %t[0] [4] [1] : tensor<?xf32> to tensor<4xi8>
  return
}

// -----

func.func @extract_slice_static_size(%t: tensor<8x16x4xf32>, %i: index) {
  // expected-error @+1 {{expected type to be 'tensor<?x4x4xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.extract_slice %t[0, 0, 0] [%i, 4, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<4x4x4xf32>
  return
}

// -----

func.func @extract_slice_bad_rank_reduction(%t: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected type to be 'tensor<1x16x4xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.extract_slice %t[0, 0, 0] [1, 16, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<4x16xf32>
  return
}

// -----

func.func @extract_slice_offset_count(%t: tensor<?x?x?xf32>, %a: index, %b: index) {
  // expected-error @+1 {{expected 3 offset values, got 2}}
  %0 = tensor.extract_slice %t[0, 0] [%a, %b] [1, 1] : tensor<?x?x?xf32> to tensor<?x?x?xf32>
  return
}

// -----

func.func @extract_slice_out_of_bounds(%t: tensor<8xf32>) {
  // expected-error @+1 {{slice along dimension 0 runs out-of-bounds: 11 >= 8}}
  %0 = tensor.extract_slice %t[4] [8] [1] : tensor<8xf32> to tensor<8xf32>
  return
}

// -----

func.func @extract_slice_offset_out_of_bounds(%t: tensor<8xf32>) {
  // expected-error @+1 {{offset 0 is out-of-bounds: 8 >= 8}}
  %0 = tensor.extract_slice %t[8] [0] [1] : tensor<8xf32> to tensor<0xf32>
  return
}

// -----

func.func @extract_slice_negative_size(%t: tensor<8xf32>) {
  // expected-error @+1 {{expected sizes to be non-negative, but got -4}}
  %0 = tensor.extract_slice %t[0] [-4] [1] : tensor<8xf32> to tensor<4xf32>
  return
}

// -----

func.func @extract_slice_dynamic_entries(%t: tensor<8xf32>, %i: index) {
  // expected-error @+1 {{expected the number of 'offsets' to match the number of dynamic entries in 'static_offsets' (1 vs 0)}}
  %0 = "tensor.extract_slice"(%t, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (tensor<8xf32>, index) -> tensor<4xf32>
  return
}

// -----

func.func @extract_slice_mixed_ranks(%t: tensor<8xf32>) {
  // expected-error @+1 {{expected mixed sizes rank to match mixed strides rank (1 vs 2) so the rank of the result type is well-formed.}}
  %0 = "tensor.extract_slice"(%t) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1, 1>}> : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @insert_slice_rank(%s: tensor<?x?xf32>, %d: tensor<?xf32>) {
  // expected-error @+1 {{expected rank to be smaller or equal to the other rank.}}
  %0 = tensor.insert_slice %s into %d[0] [4] [1] : tensor<?x?xf32> into tensor<?xf32>
  return
}

// -----

func.func @insert_slice_dynamic_size(%s: tensor<?x4x4xf32>, %d: tensor<8x16x4xf32>) {
  // expected-error @+1 {{expected type to be 'tensor<4x4x4xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.insert_slice %s into %d[0, 2, 0] [4, 4, 4] [1, 1, 1] : tensor<?x4x4xf32> into tensor<8x16x4xf32>
  return
}

// -----

func.func @insert_slice_out_of_bounds(%s: tensor<4xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{slice along dimension 0 runs out-of-bounds: 9 >= 8}}
  %0 = tensor.insert_slice %s into %d[6] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return
}

// -----

func.func @insert_slice_result(%s: tensor<4xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'tensor.insert_slice' op failed to verify that expected result type to match dest type}}
  %0 = "tensor.insert_slice"(%s, %d) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (tensor<4xf32>, tensor<8xf32>) -> tensor<9xf32>
  return
}

// -----

func.func @reshape_element(%t: tensor<*xf32>, %s: tensor<1xi32>) {
  // expected-error @+1 {{'tensor.reshape' op element types of source and destination tensor types should be the same}}
  %0 = tensor.reshape %t(%s) : (tensor<*xf32>, tensor<1xi32>) -> tensor<?xi32>
  return
}

// -----

func.func @reshape_dynamic_shape(%t: tensor<*xf32>, %s: tensor<?xi32>) {
  // expected-error @+1 {{cannot use shape operand with dynamic length to reshape to statically-ranked tensor type}}
  %0 = tensor.reshape %t(%s) : (tensor<*xf32>, tensor<?xi32>) -> tensor<?xf32>
  return
}

// -----

func.func @reshape_shape_length(%t: tensor<*xf32>, %s: tensor<1xi32>) {
  // expected-error @+1 {{length of shape operand differs from the result's tensor rank}}
  %0 = tensor.reshape %t(%s) : (tensor<*xf32>, tensor<1xi32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_elements(%t: tensor<1xf32>, %s: tensor<1xi32>) {
  // expected-error @+1 {{source and destination tensor should have the same number of elements}}
  %0 = tensor.reshape %t(%s) : (tensor<1xf32>, tensor<1xi32>) -> tensor<10xf32>
  return
}

// -----

func.func @reshape_shape_operand(%t: tensor<1xf32>, %s: tensor<1x1xi32>) {
  // expected-error @+1 {{'tensor.reshape' op operand #1 must be 1D tensor of signless integer or index values, but got 'tensor<1x1xi32>'}}
  %0 = tensor.reshape %t(%s) : (tensor<1xf32>, tensor<1x1xi32>) -> tensor<1xf32>
  return
}

// -----

func.func @expand_static(%t: tensor<2x3x20xf32>) {
  // expected-error @+1 {{'tensor.expand_shape' op expected dimension 2 of collapsed type to be static value of 40}}
  %0 = tensor.expand_shape %t [[0], [1], [2, 3, 4]] output_shape [2, 3, 2, 4, 5] : tensor<2x3x20xf32> into tensor<2x3x2x4x5xf32>
  return
}

// -----

func.func @expand_output_shape_rank(%t: tensor<2xf32>) {
  // expected-error @+1 {{expected number of static shape dims to be equal to the output rank (3) but found 2 inputs instead}}
  %0 = tensor.expand_shape %t [[0, 1, 2]] output_shape [1, 2] : tensor<2xf32> into tensor<1x1x2xf32>
  return
}

// -----

func.func @expand_output_shape_value(%t: tensor<6x4xf32>) {
  // expected-error @+1 {{'tensor.expand_shape' op invalid output shape provided at pos 2}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 5] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return
}

// -----

func.func @expand_dynamic_count(%t: tensor<6x4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.expand_shape' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, %i, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return
}

// -----

func.func @expand_static_dynamic_mismatch(%t: tensor<6x4xf32>) {
  // expected-error @+1 {{mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 1 dynamic dims while output_shape has 0 values}}
  %0 = "tensor.expand_shape"(%t) <{reassociation = [[0, 1], [2]], static_output_shape = array<i64: -9223372036854775808, 3, 4>}> : (tensor<6x4xf32>) -> tensor<?x3x4xf32>
  return
}

// -----

func.func @expand_dynamic_group(%t: tensor<6x4xf32>, %i: index) {
  // expected-error @+1 {{expected dimension 0 of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [%i, 3, 4] : tensor<6x4xf32> into tensor<?x3x4xf32>
  return
}

// -----

func.func @expand_map_size(%t: tensor<6x4xf32>) {
  // expected-error @+1 {{expected reassociation map #0 to have size equal to the expanded rank (2), but it is  3.}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3] : tensor<6x4xf32> into tensor<2x3xf32>
  return
}

// -----

func.func @expand_element(%t: tensor<6x4xf32>) {
  // expected-error @+1 {{expected collapsed type to be 'tensor<6x4xi32>', but got 'tensor<6x4xf32>'}}
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xi32>
  return
}

// -----

func.func @collapse_static(%t: tensor<?x4x5xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expected dimension 1 of collapsed type to be static value of 20}}
  %0 = tensor.collapse_shape %t [[0], [1, 2]] : tensor<?x4x5xf32> into tensor<?x?xf32>
  return
}

// -----

func.func @collapse_map_count(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{expected collapsed rank (2) to equal the number of reassociation maps (1).}}
  %0 = tensor.collapse_shape %t [[0, 1]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return
}

// -----

func.func @collapse_not_contiguous(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{expected reassociation map #0 to be valid and contiguous.}}
  %0 = tensor.collapse_shape %t [[0, 2], [1]] : tensor<2x3x4xf32> into tensor<8x3xf32>
  return
}

// -----

func.func @collapse_higher_rank(%t: tensor<6x4xf32>) {
  // expected-error @+1 {{expected the expanded type, 'tensor<6x4xf32>' to have a higher (or same) rank than the collapsed type, 'tensor<6x4x1xf32>'.}}
  %0 = tensor.collapse_shape %t [[0], [1]] : tensor<6x4xf32> into tensor<6x4x1xf32>
  return
}

// -----

func.func @collapse_empty_group(%t: tensor<6x4xf32>) {
  // expected-error @+1 {{reassociation indices must not be empty}}
  %0 = tensor.collapse_shape %t [[0, 1], []] : tensor<6x4xf32> into tensor<24x1xf32>
  return
}

// -----

func.func @collapse_to_scalar(%t: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op number of elements must be preserved: 6 != 1}}
  %0 = tensor.collapse_shape %t [] : tensor<2x3xf32> into tensor<f32>
  return
}

// -----

func.func @generate_dynamic_count(%m: index) {
  // expected-error @+1 {{'tensor.generate' op incorrect number of dynamic sizes, has 1, expected 2}}
  %0 = tensor.generate %m {
  ^bb0(%i: index, %j: index, %k: index):
    %e = arith.constant 8.0 : f32
    tensor.yield %e : f32
  } : tensor<?x3x?xf32>
  return
}

// -----

func.func @generate_arg_count(%m: index, %n: index) {
  // expected-error @+1 {{must have one body argument per input dimension}}
  %0 = tensor.generate %m, %n {
  ^bb0(%i: index, %j: index):
    %e = arith.constant 8.0 : f32
    tensor.yield %e : f32
  } : tensor<?x3x?xf32>
  return
}

// -----

func.func @generate_arg_type(%m: index, %n: index) {
  // expected-error @+1 {{all body arguments must be index}}
  %0 = tensor.generate %m, %n {
  ^bb0(%i: index, %j: index, %k: i64):
    %e = arith.constant 8.0 : f32
    tensor.yield %e : f32
  } : tensor<?x3x?xf32>
  return
}

// -----

func.func @generate_yield_type(%m: index, %n: index) {
  // expected-error @+1 {{'tensor.generate' op body must be terminated with a `yield` operation of the tensor element type}}
  %0 = tensor.generate %m, %n {
  ^bb0(%i: index, %j: index, %k: index):
    %e = arith.constant 8 : i32
    tensor.yield %e : i32
  } : tensor<?x3x?xf32>
  return
}

// -----

// A body ending in another dialect's terminator: that terminator's own check
// reports it, before generate looks for its yield.
func.func @generate_foreign_terminator(%m: index, %n: index) {
  %0 = tensor.generate %m, %n {
  ^bb0(%i: index, %j: index, %k: index):
    %e = arith.constant 8.0 : f32
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return %e : f32
  } : tensor<?x3x?xf32>
  return
}

// -----

func.func @yield_parent(%f: f32) {
  // expected-error @+1 {{'tensor.yield' op expects parent op to be one of 'tensor.generate, tensor.pad'}}
  tensor.yield %f : f32
}

// -----

func.func @pad_result_type(%t: tensor<?x4xi32>, %v: i32) {
  // expected-error @+1 {{specified type 'tensor<?x8xi32>' does not match the inferred type 'tensor<?x9xi32>'}}
  %0 = tensor.pad %t low[1, 2] high[2, 3] {
  ^bb0(%a: index, %b: index):
    tensor.yield %v : i32
  } : tensor<?x4xi32> to tensor<?x8xi32>
  return
}

// -----

func.func @pad_result_dynamic(%t: tensor<?x4xi32>, %v: i32) {
  // expected-error @+1 {{specified type 'tensor<?x?xi32>' does not match the inferred type 'tensor<?x9xi32>'}}
  %0 = tensor.pad %t low[1, 2] high[2, 3] {
  ^bb0(%a: index, %b: index):
    tensor.yield %v : i32
  } : tensor<?x4xi32> to tensor<?x?xi32>
  return
}

// -----

func.func @pad_low_count(%t: tensor<?x4xi32>, %v: i32) {
  // expected-error @+1 {{failed to infer expectedType from sourceType 'tensor<?x4xi32>', specified resultType is 'tensor<?x9xi32>'}}
  %0 = tensor.pad %t low[1] high[2, 3] {
  ^bb0(%a: index, %b: index):
    tensor.yield %v : i32
  } : tensor<?x4xi32> to tensor<?x9xi32>
  return
}

// -----

func.func @pad_block_args(%t: tensor<?x4xi32>, %v: i32) {
  // expected-error @+1 {{expected the block to have 2 arguments}}
  %0 = tensor.pad %t low[1, 2] high[2, 3] {
  ^bb0(%a: index, %b: index, %c: index):
    tensor.yield %v : i32
  } : tensor<?x4xi32> to tensor<?x9xi32>
  return
}

// -----

func.func @pad_block_arg_type(%t: tensor<?x4xi32>, %v: i32) {
  // expected-error @+1 {{'tensor.pad' op expected block argument 1 to be an index}}
  %0 = tensor.pad %t low[1, 2] high[2, 3] {
  ^bb0(%a: i32, %b: i32):
    tensor.yield %v : i32
  } : tensor<?x4xi32> to tensor<?x9xi32>
  return
}

// -----

func.func @pad_yield_type(%t: tensor<?x4xi32>, %v: i8) {
  // expected-error @+1 {{'tensor.pad' op expected yield type to match shape element type}}
  %0 = tensor.pad %t low[1, 2] high[2, 3] {
  ^bb0(%a: index, %b: index):
    tensor.yield %v : i8
  } : tensor<?x4xi32> to tensor<?x9xi32>
  return
}

// -----

func.func @gather_no_dims(%s: tensor<4x5xf32>, %i: tensor<3x0xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims must be non-empty}}
  %0 = tensor.gather %s[%i] gather_dims([]) : (tensor<4x5xf32>, tensor<3x0xindex>) -> tensor<3x4x5xf32>
  return
}

// -----

func.func @gather_too_many_dims(%s: tensor<4x5xf32>, %i: tensor<3x3xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims overflow source rank}}
  %0 = tensor.gather %s[%i] gather_dims([0, 1, 2]) : (tensor<4x5xf32>, tensor<3x3xindex>) -> tensor<3x1x1xf32>
  return
}

// -----

func.func @gather_coordinate_count(%s: tensor<4x5xf32>, %i: tensor<3x2xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims length must match the size of last dimension of indices}}
  %0 = tensor.gather %s[%i] gather_dims([1]) : (tensor<4x5xf32>, tensor<3x2xindex>) -> tensor<3x4x1xf32>
  return
}

// -----

func.func @gather_negative_dim(%s: tensor<4x5xf32>, %i: tensor<3x1xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims value must be non-negative}}
  %0 = tensor.gather %s[%i] gather_dims([-1]) : (tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<3x4x1xf32>
  return
}

// -----

func.func @gather_dim_out_of_range(%s: tensor<4x5xf32>, %i: tensor<3x1xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims value must be smaller than source rank}}
  %0 = tensor.gather %s[%i] gather_dims([2]) : (tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<3x4x1xf32>
  return
}

// -----

func.func @gather_dims_unsorted(%s: tensor<4x5x6xf32>, %i: tensor<3x2xindex>) {
  // expected-error @+1 {{'tensor.gather' op gather_dims values must be strictly increasing}}
  %0 = tensor.gather %s[%i] gather_dims([2, 0]) : (tensor<4x5x6xf32>, tensor<3x2xindex>) -> tensor<3x1x5x1xf32>
  return
}

// -----

func.func @gather_result_type(%s: tensor<4x5x6xf32>, %i: tensor<3x1xindex>) {
  // expected-error @+1 {{'tensor.gather' op result type mismatch: expected 'tensor<3x4x1x6xf32>' or its rank-reduced variant 'tensor<3x4x6xf32>' (got: 'tensor<3x4x1xf32>')}}
  %0 = tensor.gather %s[%i] gather_dims([1]) : (tensor<4x5x6xf32>, tensor<3x1xindex>) -> tensor<3x4x1xf32>
  return
}

// -----

func.func @gather_float_indices(%s: tensor<4x5xf32>, %i: tensor<3x1xf32>) {
  // expected-error @+1 {{'tensor.gather' op operand #1 must be ranked tensor of signless integer or index values, but got 'tensor<3x1xf32>'}}
  %0 = tensor.gather %s[%i] gather_dims([1]) : (tensor<4x5xf32>, tensor<3x1xf32>) -> tensor<3x4x1xf32>
  return
}

// -----

func.func @gather_unranked_source(%s: tensor<*xf32>, %i: tensor<3x1xindex>) {
  // expected-error @+1 {{'tensor.gather' op operand #0 must be ranked tensor of any non-token type values, but got 'tensor<*xf32>'}}
  %0 = tensor.gather %s[%i] gather_dims([1]) : (tensor<*xf32>, tensor<3x1xindex>) -> tensor<3x4x1xf32>
  return
}

// -----

func.func @gather_missing_dims(%s: tensor<4x5xf32>, %i: tensor<3x1xindex>) {
  // expected-error @+1 {{'tensor.gather' op requires attribute 'gather_dims'}}
  %0 = "tensor.gather"(%s, %i) : (tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<3x4x1xf32>
  return
}

// -----

func.func @scatter_not_unique(%s: tensor<3x4x1xf32>, %d: tensor<4x5xf32>, %i: tensor<3x1xindex>) {
  // expected-error @+1 {{'tensor.scatter' op requires 'unique' attribute to be set}}
  %0 = tensor.scatter %s into %d[%i] scatter_dims([1]) : (tensor<3x4x1xf32>, tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_dim_out_of_range(%s: tensor<3x4x1xf32>, %d: tensor<4x5xf32>, %i: tensor<3x1xindex>) {
  // expected-error @+1 {{'tensor.scatter' op scatter_dims value must be smaller than dest rank}}
  %0 = tensor.scatter %s into %d[%i] scatter_dims([5]) unique : (tensor<3x4x1xf32>, tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_source_type(%s: tensor<3x5x1xf32>, %d: tensor<4x5xf32>, %i: tensor<3x1xindex>) {
  // expected-error @+1 {{'tensor.scatter' op source type mismatch: expected 'tensor<3x4x1xf32>' or its rank-reduced variant 'tensor<3x4xf32>' (got: 'tensor<3x5x1xf32>')}}
  %0 = tensor.scatter %s into %d[%i] scatter_dims([1]) unique : (tensor<3x5x1xf32>, tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<4x5xf32>
  return
}

// -----

func.func @gather_without_indices(%s: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.gather' op expected 2 operands, but found 1}}
  %0 = "tensor.gather"(%s) <{gather_dims = array<i64: 0>}> : (tensor<4xf32>) -> tensor<1xf32>
  return
}
