// A memref whose layout is written as an affine map: the identity map is the
// row-major layout and converts to a descriptor; a shifted map is left
// unconverted (mlkit reads strided layouts only), without crashing.
// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(convert-to-llvm)' | filecheck %s

// CHECK-LABEL: llvm.func @identity
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
func.func @identity(%m: memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>) {
  return
}

// -----

// CHECK: func.func @shifted(%{{.*}}: memref<4xf32, #map>)
func.func @shifted(%m: memref<4xf32, affine_map<(d0) -> (d0 + 2)>>) {
  return
}
