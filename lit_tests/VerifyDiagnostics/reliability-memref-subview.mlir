// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// memref.subview checks its result type against the type its offsets, sizes
// and strides give (upstream's SubViewOp::verify); the layout was unchecked.

func.func @offset_layout(%m: memref<8x16xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1], offset: 4>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32, strided<[16, 1]>>'}}
  %0 = memref.subview %m[0, 4] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 0>>
  return
}

// -----

func.func @identity_result(%m: memref<8x16xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1], offset: 4>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32>'}}
  %0 = memref.subview %m[0, 4] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32>
  return
}

// -----

func.func @stride_layout(%m: memref<8x16xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 2], offset: 4>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32, strided<[16, 1], offset: 4>>'}}
  %0 = memref.subview %m[0, 4] [4, 4] [1, 2] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 4>>
  return
}

// -----

func.func @dynamic_offset(%m: memref<8x16xf32>, %i: index) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32, strided<[16, 1], offset: 4>>'}}
  %0 = memref.subview %m[%i, 4] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 4>>
  return
}

// -----

func.func @sizes(%m: memref<8x16xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1], offset: 4>>' or a rank-reduced version. (mismatch of result sizes), but got 'memref<4x5xf32, strided<[16, 1], offset: 4>>'}}
  %0 = memref.subview %m[0, 4] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x5xf32, strided<[16, 1], offset: 4>>
  return
}

// -----

func.func @rank(%m: memref<8x16xf32>) {
  // expected-error @+1 {{expected result rank to be smaller or equal to the source rank, but got 'memref<4x4x4xf32, strided<[16, 1, 1], offset: 4>>'}}
  %0 = memref.subview %m[0, 4] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4x4xf32, strided<[16, 1, 1], offset: 4>>
  return
}

// -----

func.func @element(%m: memref<8x16xf32>) {
  // expected-error @+1 {{expected result element type to be 'f32', but got 'memref<4x4xf16, strided<[16, 1], offset: 4>>'}}
  %0 = memref.subview %m[0, 4] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf16, strided<[16, 1], offset: 4>>
  return
}

// -----

func.func @dropped_dim_stride(%m: memref<4x1x1x8xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<4x1x1x8xf32, strided<[8, 8, 8, 1]>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x1x8xf32, strided<[8, 4, 1]>>'}}
  %0 = memref.subview %m[0, 0, 0, 0] [4, 1, 1, 8] [1, 1, 1, 1] : memref<4x1x1x8xf32> to memref<4x1x8xf32, strided<[8, 4, 1]>>
  return
}

// -----

func.func @not_strided(%m: memref<8x16xf32, affine_map<(d0, d1) -> (d1, d0)>>) {
  // expected-error @+1 {{base type 'memref<8x16xf32, affine_map<(d0, d1) -> (d1, d0)>>' is not strided}}
  %0 = memref.subview %m[0, 4] [4, 4] [1, 1] : memref<8x16xf32, affine_map<(d0, d1) -> (d1, d0)>> to memref<4x4xf32, strided<[1, 8], offset: 32>>
  return
}

// -----

func.func @out_of_bounds(%m: memref<8x16xf32>) {
  // expected-error @+1 {{slice along dimension 1 runs out-of-bounds: 17 >= 16}}
  %0 = memref.subview %m[0, 14] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 14>>
  return
}

// -----

func.func @list_ranks(%m: memref<8x16xf32>) {
  // expected-error @+1 {{expected mixed offsets rank to match mixed sizes rank (2 vs 1) so the rank of the result type is well-formed.}}
  %0 = memref.subview %m[0, 4] [4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 4>>
  return
}

// -----

// What upstream accepts still verifies: rank reduction, dynamic entries, and
// zero offsets that keep a static offset of 0 over dynamic strides.
func.func @valid(%m: memref<8x1x16xf32>, %d: memref<?x?xf32>, %i: index, %n: index) {
  %0 = memref.subview %m[0, 0, 4] [1, 1, 4] [1, 1, 1] : memref<8x1x16xf32> to memref<4xf32, strided<[1], offset: 4>>
  %1 = memref.subview %m[0, 0, 4] [1, 1, 4] [1, 1, 1] : memref<8x1x16xf32> to memref<1x4xf32, strided<[16, 1], offset: 4>>
  %2 = memref.subview %d[%i, 4] [%n, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
  %3 = memref.subview %d[0, 0] [%n, %n] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  return
}
