// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Static entries of offset/size/stride/pad/position lists must fit int64_t,
// as upstream's parseInteger<int64_t> demands: 2^63 used to wrap to the
// dynamic marker (-2^63), which stands for an SSA value that is not there.

func.func @pad_low(%t: tensor<4xf32>, %p: f32) -> tensor<?xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = tensor.pad %t low[9223372036854775808] high[0] {
  ^bb0(%i: index):
    tensor.yield %p : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @pad_dynamic_marker(%t: tensor<4xf32>, %p: f32) -> tensor<?xf32> {
  // expected-error @+1 {{'tensor.pad' op expected the number of 'low' to match the number of dynamic entries in 'static_low' (0 vs 1)}}
  %0 = tensor.pad %t low[-9223372036854775808] high[0] {
  ^bb0(%i: index):
    tensor.yield %p : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @extract_slice_offset(%t: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = tensor.extract_slice %t[9223372036854775808] [2] [1] : tensor<8xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @extract_slice_dynamic_marker(%t: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op expected the number of 'offsets' to match the number of dynamic entries in 'static_offsets' (0 vs 1)}}
  %0 = tensor.extract_slice %t[-9223372036854775808] [2] [1] : tensor<8xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @extract_slice_stride(%t: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = tensor.extract_slice %t[0] [2] [-9223372036854775809] : tensor<8xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @insert_slice_size(%s: tensor<2xf32>, %t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = tensor.insert_slice %s into %t[0] [18446744073709551616] [1] : tensor<2xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @subview_offset(%m: memref<8xf32>) {
  // expected-error @+1 {{integer value too large}}
  %0 = memref.subview %m[9223372036854775808] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
  return
}

// -----

func.func @subview_dynamic_marker(%m: memref<8xf32>) {
  // expected-error @+1 {{'memref.subview' op expected the number of 'offsets' to match the number of dynamic entries in 'static_offsets' (0 vs 1)}}
  %0 = memref.subview %m[-9223372036854775808] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
  return
}

// -----

func.func @insert_position(%v: vector<4xf32>, %s: f32) -> vector<4xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = vector.insert %s, %v[9223372036854775808] : f32 into vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @expand_shape(%t: tensor<8xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [9223372036854775808, 4] : tensor<8xf32> into tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
