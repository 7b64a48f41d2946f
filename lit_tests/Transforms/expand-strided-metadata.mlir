// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -expand-strided-metadata | filecheck %s

// subview: metadata of the source, offset folded into one affine.apply,
// static strides taken from the types.
// CHECK-LABEL: func.func @subview
// CHECK-SAME:  (%[[M:.*]]: memref<8x16xf32>, %[[O:.*]]: index, %[[S:.*]]: index)
// CHECK:       %[[BASE:[^ ,]+]], %{{.*}}, %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[M]]
// CHECK-NEXT:  %[[OFF:.*]] = affine.apply affine_map<()[s0] -> (s0 * 16 + 2)>()[%[[O]]]
// CHECK-NEXT:  %[[R:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [4, %[[S]]], strides: [32, %[[S]]]
// CHECK-NEXT:  return %[[R]]
func.func @subview(%m: memref<8x16xf32>, %o: index, %s: index) -> memref<4x?xf32, strided<[32, ?], offset: ?>> {
  %v = memref.subview %m[%o, 2][4, %s][2, %s] : memref<8x16xf32> to memref<4x?xf32, strided<[32, ?], offset: ?>>
  return %v : memref<4x?xf32, strided<[32, ?], offset: ?>>
}

// -----

// A rank-reducing subview drops the unit dimension's size and stride.
// CHECK-LABEL: func.func @rank_reducing
// CHECK:       %[[BASE:[^ ,]+]], %[[OFF0:[^ ,]+]], %{{[^ ,]+}}:2, %[[ST:[^ ,]+]]:2 = memref.extract_strided_metadata
// CHECK-NEXT:  %[[OFF:.*]] = affine.apply affine_map<()[s0, s1, s2, s3] -> (s0 + s1 * s2 + s3 * 2)>()[%[[OFF0]], %{{.*}}, %[[ST]]#0, %[[ST]]#1]
// CHECK-NEXT:  memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [4], strides: [%[[ST]]#1]
func.func @rank_reducing(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %o: index) -> memref<4xf32, strided<[?], offset: ?>> {
  %v = memref.subview %m[%o, 2][1, 4][1, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
  return %v : memref<4xf32, strided<[?], offset: ?>>
}

// -----

// collapse_shape: group sizes multiply; the stride is the innermost one.
// CHECK-LABEL: func.func @collapse
// CHECK:       %[[BASE:[^ ,]+]], %[[OFF:[^ ,]+]], %[[SZ:[^ ,]+]]:2, %[[ST:[^ ,]+]]:2 = memref.extract_strided_metadata
// CHECK-NEXT:  %[[N:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%[[SZ]]#0, %[[SZ]]#1]
// CHECK-NEXT:  memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[N]]], strides: [%[[ST]]#1]
func.func @collapse(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>) -> memref<?xf32, strided<[?], offset: ?>> {
  %v = memref.collapse_shape %m [[0, 1]] : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?xf32, strided<[?], offset: ?>>
  return %v : memref<?xf32, strided<[?], offset: ?>>
}

// -----

// expand_shape: the inner stride of a group is the source's, outer ones
// multiply in the inner sizes.
// CHECK-LABEL: func.func @expand
// CHECK-SAME:  (%{{.*}}, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK:       %[[BASE:[^ ,]+]], %[[OFF:[^ ,]+]], %{{[^ ,]+}}:2, %[[ST:[^ ,]+]]:2 = memref.extract_strided_metadata
// CHECK-NEXT:  %[[MID:.*]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[ST]]#1]
// CHECK-NEXT:  memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[A]], %[[B]], 4], strides: [%[[ST]]#0, %[[MID]], %[[ST]]#1]
func.func @expand(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %a: index, %b: index) -> memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>> {
  %v = memref.expand_shape %m [[0], [1, 2]] output_shape [%a, %b, 4] : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>>
  return %v : memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>>
}

// -----

// Metadata of an alloc: a rank-0 view of it and the sizes and strides of its type.
// CHECK-LABEL: func.func @alloc_metadata
// CHECK-SAME:  (%[[N:.*]]: index)
// CHECK:       %[[A:.*]] = memref.alloc(%[[N]]) : memref<?x4xf32>
// CHECK-NEXT:  %[[B:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [], strides: [] : memref<?x4xf32> to memref<f32>
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK:       return %[[B]], %[[C0]], %[[N]], %{{.*}}, %{{.*}}, %[[C1]]
func.func @alloc_metadata(%n: index) -> (memref<f32>, index, index, index, index, index) {
  %a = memref.alloc(%n) : memref<?x4xf32>
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %a : memref<?x4xf32> -> memref<f32>, index, index, index, index, index
  return %b, %o, %s#0, %s#1, %t#0, %t#1 : memref<f32>, index, index, index, index, index
}

// -----

// Metadata of a reinterpret_cast: its operands, over its source's base buffer.
// CHECK-LABEL: func.func @reinterpret_metadata
// CHECK-SAME:  (%[[M:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK:       %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[M]]
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK:       return %[[BASE]], %[[C3]], %[[N]], %[[N]]
func.func @reinterpret_metadata(%m: memref<?xf32>, %n: index) -> (memref<f32>, index, index, index) {
  %v = memref.reinterpret_cast %m to offset: [3], sizes: [%n, 4], strides: [%n, 1] : memref<?xf32> to memref<?x4xf32, strided<[?, 1], offset: 3>>
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %v : memref<?x4xf32, strided<[?, 1], offset: 3>> -> memref<f32>, index, index, index, index, index
  return %b, %o, %s#0, %t#0 : memref<f32>, index, index, index
}

// -----

// A reinterpret_cast nobody takes metadata of, and loads, are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:  memref.reinterpret_cast
// CHECK-NEXT:  memref.load
// CHECK-NEXT:  return
func.func @untouched(%m: memref<?xf32>, %n: index) -> f32 {
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32>
  %x = memref.load %v[%n] : memref<?xf32>
  return %x : f32
}

// -----

// What the source's type fixes becomes a constant at the start of the
// function, one per value; dynamic sizes stay with the op.
// CHECK-LABEL: func.func @static_metadata
// CHECK-SAME: (%[[M:.*]]: memref<?x4xf32, strided<[4, 1], offset: 3>>)
// CHECK-NEXT:   %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:   %{{.*}}, %{{.*}}, %[[SIZES:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[M]]
// CHECK-NEXT:   return %[[C3]], %[[SIZES]]#0, %[[C4]], %[[C4]] :
func.func @static_metadata(%m: memref<?x4xf32, strided<[4, 1], offset: 3>>) -> (index, index, index, index) {
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<?x4xf32, strided<[4, 1], offset: 3>> -> memref<f32>, index, index, index, index, index
  return %off, %sizes#0, %strides#0, %sizes#1 : index, index, index, index
}
