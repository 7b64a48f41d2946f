// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s
// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=IDENT
// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries copy-before-write" | FileCheck %s --check-prefix=COPY

// A write into an argument nobody reads later goes in place.
// CHECK-LABEL: func.func @insert_in_place
// CHECK-SAME: (%{{.*}}: memref<4xf32, strided<[?], offset: ?>>, %{{.*}}: index) -> memref<4xf32, strided<[?], offset: ?>>
// CHECK-NOT: memref.alloc
// CHECK: memref.store
// IDENT-LABEL: func.func @insert_in_place
// IDENT-SAME: memref<4xf32>
// COPY-LABEL: func.func @insert_in_place
// COPY: memref.alloc
// COPY: memref.copy
func.func @insert_in_place(%t: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  %f = arith.constant 5.0 : f32
  %r = tensor.insert %f into %t[%i] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// %t is read after the write: the write goes into a copy.
// CHECK-LABEL: func.func @read_after_write
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: memref.copy %{{.*}}, %[[A]] :
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.load %{{.*}}[
func.func @read_after_write(%t: tensor<4xf32>, %i: index) -> (tensor<4xf32>, f32) {
  %f = arith.constant 5.0 : f32
  %r = tensor.insert %f into %t[%i] : tensor<4xf32>
  %x = tensor.extract %t[%i] : tensor<4xf32>
  return %r, %x : tensor<4xf32>, f32
}

// -----

// Dense constants become private constant globals named as upstream names them.
// CHECK: memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// CHECK-LABEL: func.func @constant
// CHECK: memref.get_global @__constant_2xf32 : memref<2xf32>
func.func @constant(%i: index) -> f32 {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %x = tensor.extract %c[%i] : tensor<2xf32>
  return %x : f32
}

// -----

// CHECK-LABEL: func.func @slices
// CHECK: memref.subview %{{.*}}[1, 1] [2, 2] [1, 1] : memref<4x4xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
// CHECK: memref.subview %{{.*}}[0, 0] [2, 2] [1, 1]
// CHECK: memref.copy
func.func @slices(%t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = tensor.extract_slice %t[1, 1] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %r = tensor.insert_slice %s into %t[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func.func @matmul
// CHECK: %[[E:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x5xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : memref<4x5xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x3xf32, strided<[?, ?], offset: ?>>, memref<3x5xf32, strided<[?, ?], offset: ?>>) outs(%[[E]] : memref<4x5xf32>)
// CHECK: return %[[E]] : memref<4x5xf32>
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%f : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %m : tensor<4x5xf32>
}

// -----

// CHECK-LABEL: func.func @loop
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK: scf.for {{.*}} iter_args(%[[I:.*]] = %[[A]]) -> (memref<?xf32>)
// CHECK: memref.store %{{.*}}, %[[I]]
// CHECK: scf.yield %[[I]] : memref<?xf32>
func.func @loop(%n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %e) -> (tensor<?xf32>) {
    %b = tensor.insert %z into %a[%i] : tensor<?xf32>
    scf.yield %b : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// External declarations take buffers; unranked tensors become unranked memrefs.
// An external callee may write its arguments (as upstream assumes): the
// constant is copied first.
// CHECK-LABEL: func.func private @printMemrefF32(memref<*xf32>)
// CHECK-LABEL: func.func @print
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK: memref.copy
// CHECK: %[[C:.*]] = memref.cast %{{.*}} : memref<2xf32> to memref<*xf32>
// CHECK: call @printMemrefF32(%[[C]]) : (memref<*xf32>) -> ()
func.func private @printMemrefF32(tensor<*xf32>)
func.func @print() {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %u = tensor.cast %c : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// -----

// Ops without tensors are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT: %{{.*}} = memref.load
// CHECK-NEXT: return
func.func @untouched(%m: memref<4xf32>, %i: index) -> f32 {
  %x = memref.load %m[%i] : memref<4xf32>
  return %x : f32
}

// -----

// A generic with no outputs, kept for the checks in its body (torch-mlir's
// batch norm): its input becomes a buffer and the body stays.
// CHECK-LABEL: func.func @checks_only
// CHECK-SAME:    (%[[T:.*]]: memref<4xf32, strided<[?], offset: ?>>)
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : memref<4xf32, strided<[?], offset: ?>>) {
// CHECK:           cf.assert
// CHECK-NEXT:      linalg.yield
func.func @checks_only(%t: tensor<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) {
  ^bb0(%in: f32):
    %zero = arith.constant 0.0 : f32
    %ok = arith.cmpf oge, %in, %zero : f32
    cf.assert %ok, "negative"
    linalg.yield
  }
  return
}
