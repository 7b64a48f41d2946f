// RUN: mlkit-opt %s | FileCheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | FileCheck %s

// An identity layout map is no layout, as upstream's MemRefType::get drops
// it; a permutation and a strided layout stay, and so does a memory space.

// CHECK: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @layouts(
// CHECK-SAME:      memref<4x8xf32, 1>
// CHECK-SAME:      memref<4xf32>
// CHECK-SAME:      memref<f32>
// CHECK-SAME:      memref<4x8xf32, #[[T]]>
// CHECK-SAME:      memref<4x8xf32, strided<[8, 1]>>
func.func @layouts(%a: memref<4x8xf32, affine_map<(d0, d1) -> (d0, d1)>, 1>,
                   %b: memref<4xf32, affine_map<(d0) -> (d0)>>,
                   %c: memref<f32, affine_map<() -> ()>>,
                   %d: memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>,
                   %e: memref<4x8xf32, strided<[8, 1]>>) {
  return
}
