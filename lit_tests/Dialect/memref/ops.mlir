// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of memref ops in upstream MLIR's custom syntax; the same file is
// read by upstream MLIR in tests/test_dialect_memref.py.

// CHECK: memref.global "private" constant @cst : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
memref.global "private" constant @cst : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64}
// CHECK: memref.global @uninit : memref<4xi32> = uninitialized
memref.global @uninit : memref<4xi32> = uninitialized
// CHECK: memref.global "private" @external : memref<f32>{{$}}
memref.global "private" @external : memref<f32>
// CHECK: memref.global "nested" @splat : memref<2x2xi8> = dense<7>
memref.global "nested" @splat : memref<2x2xi8> = dense<7>

// CHECK-LABEL: func.func @globals
func.func @globals() -> memref<2xf32> {
  // CHECK-NEXT: %[[G:.*]] = memref.get_global @cst : memref<2xf32>
  %g = memref.get_global @cst : memref<2xf32>
  // CHECK-NEXT: memref.get_global @splat : memref<2x2xi8>
  %s = memref.get_global @splat : memref<2x2xi8>
  return %g : memref<2xf32>
}

// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[U:.*]]: memref<*xf32>, %[[S:.*]]: memref<4xf32, strided<[1], offset: 2>>)
func.func @casts(%a: memref<4xf32>, %u: memref<*xf32>, %s: memref<4xf32, strided<[1], offset: 2>>) {
  // CHECK-NEXT: memref.cast %[[A]] : memref<4xf32> to memref<?xf32>
  %0 = memref.cast %a : memref<4xf32> to memref<?xf32>
  // CHECK-NEXT: memref.cast %[[A]] : memref<4xf32> to memref<*xf32>
  %1 = memref.cast %a : memref<4xf32> to memref<*xf32>
  // CHECK-NEXT: memref.cast %[[U]] : memref<*xf32> to memref<4xf32>
  %2 = memref.cast %u : memref<*xf32> to memref<4xf32>
  // CHECK-NEXT: memref.cast %[[S]] : memref<4xf32, strided<[1], offset: 2>> to memref<?xf32, strided<[?], offset: ?>>
  %3 = memref.cast %s : memref<4xf32, strided<[1], offset: 2>> to memref<?xf32, strided<[?], offset: ?>>
  // (xDSL's builtin printer writes the memory space as `1 : i64`; upstream reads both.)
  // CHECK-NEXT: memref.memory_space_cast %[[A]] : memref<4xf32> to memref<4xf32, 1{{( : i64)?}}>
  %4 = memref.memory_space_cast %a : memref<4xf32> to memref<4xf32, 1>
  return
}

// CHECK-LABEL: func.func @copy_rank
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[U:.*]]: memref<*xf32>, %[[D:.*]]: memref<?xf32>)
func.func @copy_rank(%a: memref<4xf32>, %u: memref<*xf32>, %d: memref<?xf32>) -> (index, index) {
  // CHECK-NEXT: memref.copy %[[A]], %[[D]] : memref<4xf32> to memref<?xf32>
  memref.copy %a, %d : memref<4xf32> to memref<?xf32>
  // CHECK-NEXT: memref.copy %[[U]], %[[A]] : memref<*xf32> to memref<4xf32>
  memref.copy %u, %a : memref<*xf32> to memref<4xf32>
  // CHECK-NEXT: memref.rank %[[A]] : memref<4xf32>
  %r = memref.rank %a : memref<4xf32>
  // CHECK-NEXT: memref.rank %[[U]] : memref<*xf32>
  %ru = memref.rank %u : memref<*xf32>
  return %r, %ru : index, index
}

// CHECK-LABEL: func.func @access
// CHECK-SAME: (%[[M:.*]]: memref<4x4xf32>, %[[I:.*]]: index, %[[V:.*]]: f32, %[[N:.*]]: memref<8xi32>, %[[W:.*]]: i32)
func.func @access(%m: memref<4x4xf32>, %i: index, %v: f32, %n: memref<8xi32>, %w: i32) {
  // CHECK-NEXT: memref.load %[[M]][%[[I]], %[[I]]] : memref<4x4xf32>
  %l = memref.load %m[%i, %i] : memref<4x4xf32>
  // CHECK-NEXT: memref.store %[[V]], %[[M]][%[[I]], %[[I]]] : memref<4x4xf32>
  memref.store %v, %m[%i, %i] : memref<4x4xf32>
  // CHECK-NEXT: memref.atomic_rmw addf %[[V]], %[[M]][%[[I]], %[[I]]] : (f32, memref<4x4xf32>) -> f32
  %0 = memref.atomic_rmw addf %v, %m[%i, %i] : (f32, memref<4x4xf32>) -> f32
  // CHECK-NEXT: memref.atomic_rmw maximumf %[[V]], %[[M]][%[[I]], %[[I]]] : (f32, memref<4x4xf32>) -> f32
  %1 = memref.atomic_rmw maximumf %v, %m[%i, %i] : (f32, memref<4x4xf32>) -> f32
  // CHECK-NEXT: memref.atomic_rmw assign %[[W]], %[[N]][%[[I]]] : (i32, memref<8xi32>) -> i32
  %2 = memref.atomic_rmw assign %w, %n[%i] : (i32, memref<8xi32>) -> i32
  // CHECK-NEXT: memref.atomic_rmw xori %[[W]], %[[N]][%[[I]]] : (i32, memref<8xi32>) -> i32
  %3 = memref.atomic_rmw xori %w, %n[%i] : (i32, memref<8xi32>) -> i32
  // CHECK-NEXT: memref.extract_aligned_pointer_as_index %[[M]] : memref<4x4xf32> -> index
  %p = memref.extract_aligned_pointer_as_index %m : memref<4x4xf32> -> index
  return
}

// CHECK-LABEL: func.func @alloc
func.func @alloc(%i: index) {
  // CHECK-NEXT: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  %a = memref.alloc() {alignment = 64} : memref<4xf32>
  // CHECK-NEXT: memref.alloca(%{{.*}}) : memref<?xf32>
  %b = memref.alloca(%i) : memref<?xf32>
  // CHECK-NEXT: memref.dealloc %[[A]] : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// CHECK-LABEL: func.func @prefetch
// CHECK-SAME: (%[[M:.*]]: memref<400x400xi32>, %[[I:.*]]: index, %[[S:.*]]: memref<f32>)
func.func @prefetch(%m: memref<400x400xi32>, %i: index, %s: memref<f32>) {
  // CHECK-NEXT: memref.prefetch %[[M]][%[[I]], %[[I]]], read, locality<3>, data : memref<400x400xi32>
  memref.prefetch %m[%i, %i], read, locality<3>, data : memref<400x400xi32>
  // CHECK-NEXT: memref.prefetch %[[M]][%[[I]], %[[I]]], write, locality<0>, instr : memref<400x400xi32>
  memref.prefetch %m[%i, %i], write, locality<0>, instr : memref<400x400xi32>
  // CHECK-NEXT: memref.prefetch %[[S]][], read, locality<1>, data : memref<f32>
  memref.prefetch %s[], read, locality<1>, data : memref<f32>
  return
}

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[V:.*]]: memref<?x?xf32>, %[[W:.*]]: memref<2x3x4xf32, strided<[12, 4, 1], offset: ?>>)
func.func @transpose(%v: memref<?x?xf32>, %w: memref<2x3x4xf32, strided<[12, 4, 1], offset: ?>>) {
  // CHECK-NEXT: memref.transpose %[[V]] (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>
  %0 = memref.transpose %v (i, j) -> (j, i) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>
  // CHECK-NEXT: memref.transpose %[[W]] (d0, d1, d2) -> (d2, d0, d1) : memref<2x3x4xf32, strided<[12, 4, 1], offset: ?>> to memref<4x2x3xf32, strided<[1, 12, 4], offset: ?>>
  %1 = memref.transpose %w (i, j, k) -> (k, i, j) : memref<2x3x4xf32, strided<[12, 4, 1], offset: ?>> to memref<4x2x3xf32, strided<[1, 12, 4], offset: ?>>
  // An identity permutation still gives a strided result type.
  // CHECK-NEXT: memref.transpose %[[V]] (d0, d1) -> (d0, d1) : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %2 = memref.transpose %v (i, j) -> (i, j) : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  return
}

// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[S:.*]]: memref<4x1xf32>, %[[SH:.*]]: memref<1xi32>, %[[U:.*]]: memref<*xf32>, %[[D:.*]]: memref<?xindex>, %[[T:.*]]: memref<2xindex>)
func.func @reshape(%s: memref<4x1xf32>, %sh: memref<1xi32>, %u: memref<*xf32>, %d: memref<?xindex>, %t: memref<2xindex>) {
  // CHECK-NEXT: memref.reshape %[[S]](%[[SH]]) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32>
  %0 = memref.reshape %s(%sh) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32>
  // CHECK-NEXT: memref.reshape %[[U]](%[[D]]) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>
  %1 = memref.reshape %u(%d) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>
  // CHECK-NEXT: memref.reshape %[[S]](%[[T]]) : (memref<4x1xf32>, memref<2xindex>) -> memref<2x?xf32>
  %2 = memref.reshape %s(%t) : (memref<4x1xf32>, memref<2xindex>) -> memref<2x?xf32>
  // A rank-1 strided layout of stride 1 and offset 0 is the identity map.
  // CHECK-NEXT: memref.reshape %[[S]](%[[SH]]) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32, strided<[1]>>
  %3 = memref.reshape %s(%sh) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32, strided<[1]>>
  return
}

// CHECK-LABEL: func @views
// CHECK-SAME: (%[[U:.*]]: memref<*xf32>, %[[S:.*]]: memref<6xf32, strided<[2], offset: ?>>, %[[N:.*]]: index)
func.func @views(%u: memref<*xf32>, %s: memref<6xf32, strided<[2], offset: ?>>, %n: index) {
  // CHECK-NEXT: memref.reinterpret_cast %[[U]] to offset: [%[[N]]], sizes: [10, 2], strides: [2, 1] : memref<*xf32> to memref<10x2xf32, strided<[2, 1], offset: ?>>
  %0 = memref.reinterpret_cast %u to offset: [%n], sizes: [10, 2], strides: [2, 1] : memref<*xf32> to memref<10x2xf32, strided<[2, 1], offset: ?>>
  // CHECK-NEXT: memref.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [2, 3] : memref<6xf32, strided<[2], offset: ?>> into memref<2x3xf32, strided<[6, 2], offset: ?>>
  %1 = memref.expand_shape %s [[0, 1]] output_shape [2, 3] : memref<6xf32, strided<[2], offset: ?>> into memref<2x3xf32, strided<[6, 2], offset: ?>>
  return
}
