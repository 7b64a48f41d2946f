// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -one-shot-bufferize="allow-unknown-ops" | FileCheck %s
// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -one-shot-bufferize="allow-unknown-ops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=FUNC

// With allow-unknown-ops an op that is not bufferizable keeps its tensors:
// a tensor it produces gets a bufferization.to_buffer for each bufferized
// user, and a buffer it uses gets a bufferization.to_tensor right after the
// op that made it.

// CHECK-LABEL: func.func @result_of_unknown_op
// CHECK: %[[U:.*]] = "test.produce"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[M:.*]] = bufferization.to_buffer %[[U]] : tensor<4xf32> to memref<4xf32, strided<[?], offset: ?>>
// CHECK: memref.load %[[M]]
// FUNC-LABEL: func.func @result_of_unknown_op
// FUNC-SAME: (%[[A:.*]]: memref<4xf32>,
// FUNC: %[[T:.*]] = bufferization.to_tensor %[[A]] : memref<4xf32> to tensor<4xf32>
// FUNC: "test.produce"(%[[T]])
func.func @result_of_unknown_op(%t: tensor<4xf32>, %i: index) -> f32 {
  %u = "test.produce"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %u[%i] : tensor<4xf32>
  return %x : f32
}

// -----

// CHECK-LABEL: func.func @operand_of_unknown_op
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: %[[T:.*]] = bufferization.to_tensor %[[A]] : memref<4xf32> to tensor<4xf32>
// CHECK-NEXT: %[[U:.*]] = "test.consume"(%[[T]])
// CHECK-NEXT: return %[[U]] : tensor<4xf32>
// FUNC-LABEL: func.func @operand_of_unknown_op
// FUNC: %[[U:.*]] = "test.consume"
// FUNC-NEXT: %[[M:.*]] = bufferization.to_buffer %[[U]] : tensor<4xf32> to memref<4xf32>
// FUNC-NEXT: return %[[M]] : memref<4xf32>
func.func @operand_of_unknown_op(%f: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %u = "test.consume"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %u : tensor<4xf32>
}

// -----

// The result of an unknown op is not writable: the write goes into a copy.
// CHECK-LABEL: func.func @write_into_unknown_result
// CHECK: %[[M:.*]] = bufferization.to_buffer
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: memref.copy %[[M]], %[[A]]
// CHECK: memref.store %{{.*}}, %[[A]]
func.func @write_into_unknown_result(%t: tensor<4xf32>, %f: f32, %i: index) -> tensor<4xf32> {
  %u = "test.produce"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %w = tensor.insert %f into %u[%i] : tensor<4xf32>
  return %w : tensor<4xf32>
}

// -----

// The unknown op may write its operand, and the slice is also returned: the
// slice is copied, and both users get the copy.
// CHECK-LABEL: func.func @view_used_by_unknown_op
// CHECK: %[[V:.*]] = memref.subview
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK: memref.copy %[[V]], %[[A]]
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[A]]
// CHECK: %[[U:.*]] = "test.consume"(%[[T]])
// CHECK: return %[[T]], %[[U]]
func.func @view_used_by_unknown_op(%t: tensor<?xf32>, %o: index, %s: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %v = tensor.extract_slice %t[%o][%s][1] : tensor<?xf32> to tensor<?xf32>
  %u = "test.consume"(%v) : (tensor<?xf32>) -> tensor<?xf32>
  return %v, %u : tensor<?xf32>, tensor<?xf32>
}

// -----

// Ops inside an unknown op's region are bufferized.
// CHECK-LABEL: func.func @unknown_op_with_region
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: "test.region"() ({
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: memref.store %{{.*}}, %[[A]]
// CHECK-NEXT: %[[T:.*]] = bufferization.to_tensor %[[A]]
// CHECK-NEXT: "test.terminator"(%[[T]])
func.func @unknown_op_with_region(%f: f32, %i: index) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = "test.region"() ({
    %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %b = tensor.insert %f into %a[%i] : tensor<4xf32>
    "test.terminator"(%b) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Unknown ops without tensors are left alone.
// CHECK-LABEL: func.func @no_tensors_left_alone
// CHECK-NEXT: %[[X:.*]] = "test.load"(%arg0, %arg1) : (memref<4xf32>, index) -> f32
// CHECK-NEXT: return %[[X]] : f32
func.func @no_tensors_left_alone(%m: memref<4xf32>, %i: index) -> f32 {
  %x = "test.load"(%m, %i) : (memref<4xf32>, index) -> f32
  return %x : f32
}
