// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// vector.transfer_read/transfer_write and arith.select on tensors become the
// same ops on buffers.

// CHECK-LABEL: func.func @transfers
// CHECK-SAME: (%[[T:.*]]: memref<8xf32>, %[[V:.*]]: vector<4xf32>, %[[I:.*]]: index)
// CHECK: %[[R:.*]] = vector.transfer_read %[[T]][%[[I]]], %{{.*}} : memref<8xf32>, vector<4xf32>
// CHECK: vector.transfer_write %[[V]], %[[T]][%[[I]]] : vector<4xf32>, memref<8xf32>
// CHECK: return %[[T]], %[[R]]
func.func @transfers(%t: tensor<8xf32>, %v: vector<4xf32>, %i: index) -> (tensor<8xf32>, vector<4xf32>) {
  %cst = arith.constant 0.0 : f32
  %r = vector.transfer_read %t[%i], %cst : tensor<8xf32>, vector<4xf32>
  %w = vector.transfer_write %v, %t[%i] : vector<4xf32>, tensor<8xf32>
  return %w, %r : tensor<8xf32>, vector<4xf32>
}

// -----

// %t is read after the write: the write goes into a copy.
// CHECK-LABEL: func.func @transfer_write_into_copy
// CHECK-SAME: (%[[T:.*]]: memref<8xf32>,
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK: memref.copy %[[T]], %[[A]]
// CHECK: vector.transfer_write %{{.*}}, %[[A]]
// CHECK: memref.load %[[T]]
// CHECK: return %[[A]]
func.func @transfer_write_into_copy(%t: tensor<8xf32>, %v: vector<4xf32>, %i: index) -> (tensor<8xf32>, f32) {
  %w = vector.transfer_write %v, %t[%i] : vector<4xf32>, tensor<8xf32>
  %x = tensor.extract %t[%i] : tensor<8xf32>
  return %w, %x : tensor<8xf32>, f32
}

// -----

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>,
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[A]], %[[B]] : memref<4xf32>
// CHECK: memref.load %[[S]]
func.func @select(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %i: index) -> f32 {
  %s = arith.select %c, %a, %b : tensor<4xf32>
  %x = tensor.extract %s[%i] : tensor<4xf32>
  return %x : f32
}

// -----

// The write through the select may hit %a, which is read afterwards: %a is
// copied before the select.
// CHECK-LABEL: func.func @select_then_write
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>,
// CHECK: %[[X:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: memref.copy %[[A]], %[[X]]
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[X]], %[[B]] : memref<4xf32>
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK: memref.load %[[A]]
func.func @select_then_write(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %f: f32, %i: index) -> (tensor<4xf32>, f32) {
  %s = arith.select %c, %a, %b : tensor<4xf32>
  %w = tensor.insert %f into %s[%i] : tensor<4xf32>
  %x = tensor.extract %a[%i] : tensor<4xf32>
  return %w, %x : tensor<4xf32>, f32
}
