// scf.while under one-shot-bufferize: a while that carries no tensor is left
// as it is (its scf.condition once crashed the pass), and one that carries a
// tensor carries a buffer.
// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries})' --split-input-file | filecheck %s

// CHECK-LABEL: func.func @scalar_while(
// CHECK-SAME: %[[N:.*]]: i32, %[[T:.*]]: memref<4xf32, strided<[?], offset: ?>>)
// CHECK: scf.while (%[[X:.*]] = %[[N]]) : (i32) -> i32 {
// CHECK: scf.condition(%{{.*}}) %[[X]] : i32
// CHECK: memref.load %[[T]]
func.func @scalar_while(%n: i32, %t: tensor<4xf32>) -> (i32, f32) {
  %c0 = arith.constant 0 : index
  %r = scf.while (%x = %n) : (i32) -> i32 {
    %one = arith.constant 1 : i32
    %more = arith.cmpi sgt, %x, %one : i32
    scf.condition(%more) %x : i32
  } do {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %y = arith.subi %x, %one : i32
    scf.yield %y : i32
  }
  %e = tensor.extract %t[%c0] : tensor<4xf32>
  return %r, %e : i32, f32
}

// -----

// CHECK-LABEL: func.func @tensor_while(
// CHECK-SAME: %[[T:.*]]: memref<4xf32, strided<[?], offset: ?>>, %[[N:.*]]: index) -> memref<4xf32, strided<[?], offset: ?>>
// CHECK: %[[R:.*]]:2 = scf.while (%[[ACC:.*]] = %[[T]], %{{.*}} = %{{.*}}) : (memref<4xf32, strided<[?], offset: ?>>, index) -> (memref<4xf32, strided<[?], offset: ?>>, index) {
// CHECK: scf.condition(%{{.*}}) %[[ACC]], %{{.*}} : memref<4xf32, strided<[?], offset: ?>>, index
// CHECK: } do {
// CHECK: ^bb0(%[[B:.*]]: memref<4xf32, strided<[?], offset: ?>>, %[[I:.*]]: index):
// CHECK: memref.load %[[B]][%[[I]]]
// CHECK: memref.store
// CHECK: scf.yield %{{.*}}, %{{.*}} : memref<4xf32, strided<[?], offset: ?>>, index
// CHECK: return %[[R]]#0 : memref<4xf32, strided<[?], offset: ?>>
// CHECK-NOT: tensor
func.func @tensor_while(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%acc = %t, %i = %c0) : (tensor<4xf32>, index) -> (tensor<4xf32>, index) {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %acc, %i : tensor<4xf32>, index
  } do {
  ^bb0(%acc: tensor<4xf32>, %i: index):
    %v = tensor.extract %acc[%i] : tensor<4xf32>
    %w = arith.addf %v, %v : f32
    %u = tensor.insert %w into %acc[%i] : tensor<4xf32>
    %j = arith.addi %i, %c1 : index
    scf.yield %u, %j : tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}
