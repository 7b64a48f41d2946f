// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="test-analysis-only bufferize-function-boundaries" | FileCheck %s

// Across function boundaries test-analysis-only also writes each function's
// summary: how it uses each tensor argument (bufferization.access) and, on
// each return, which argument each result is equivalent to (-1: none).

// CHECK-LABEL: func.func @summary
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.access = "read-write"}
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.access = "read"}
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.access = "none"}
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.access = "write"}
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "true", "none"]}
// CHECK: linalg.fill {__inplace_operands_attr__ = ["none", "true"]}
// CHECK: return {__equivalent_func_args__ = [0, -1, 3], __inplace_operands_attr__ = ["true", "none", "true"]}
func.func @summary(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>, %d: tensor<4xf32>,
                   %f: f32, %i: index) -> (tensor<4xf32>, f32, tensor<4xf32>) {
  %x = tensor.insert %f into %a[%i] : tensor<4xf32>
  %y = tensor.extract %b[%i] : tensor<4xf32>
  %z = linalg.fill ins(%f : f32) outs(%d : tensor<4xf32>) -> tensor<4xf32>
  return %x, %y, %z : tensor<4xf32>, f32, tensor<4xf32>
}

// -----

// bufferization.writable = false keeps an argument read-only.
// CHECK-LABEL: func.func @not_writable
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "false", "none"]}
// CHECK: return {__inplace_operands_attr__ = ["true"]}
func.func @not_writable(%a: tensor<4xf32> {bufferization.writable = false}, %f: f32, %i: index) -> tensor<4xf32> {
  %x = tensor.insert %f into %a[%i] : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// A call uses its callee's summary: @reads_only does not write its argument,
// so the caller may read %t after the call and still write it in place
// afterwards; @writes writes, so its argument is copied when read later.
// CHECK-LABEL: func.func private @external(tensor<4xf32> {bufferization.access = "read-write"})
// CHECK-LABEL: func.func @reads_only
// CHECK-SAME: {bufferization.access = "read"}
// CHECK-LABEL: func.func @writes
// CHECK-SAME: {bufferization.access = "read-write"}
// CHECK: return {__equivalent_func_args__ = [0]
// CHECK-LABEL: func.func @caller
// CHECK: call @reads_only(%{{.*}}, %{{.*}}) {__inplace_operands_attr__ = ["true", "none"]}
// CHECK: call @writes(%{{.*}}, %{{.*}}, %{{.*}}) {__inplace_operands_attr__ = ["false", "none", "none"]}
// CHECK: call @external(%{{.*}}) {__inplace_operands_attr__ = ["false"]}
// CHECK: tensor.extract {{.*}} {__inplace_operands_attr__ = ["true", "none"]}
func.func private @external(tensor<4xf32>)

func.func @reads_only(%t: tensor<4xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<4xf32>
  return %x : f32
}

func.func @writes(%t: tensor<4xf32>, %f: f32, %i: index) -> tensor<4xf32> {
  %x = tensor.insert %f into %t[%i] : tensor<4xf32>
  return %x : tensor<4xf32>
}

func.func @caller(%t: tensor<4xf32>, %f: f32, %i: index) -> (f32, tensor<4xf32>, f32) {
  %a = func.call @reads_only(%t, %i) : (tensor<4xf32>, index) -> f32
  %b = func.call @writes(%t, %f, %i) : (tensor<4xf32>, f32, index) -> tensor<4xf32>
  func.call @external(%t) : (tensor<4xf32>) -> ()
  %c = tensor.extract %t[%i] : tensor<4xf32>
  return %a, %b, %c : f32, tensor<4xf32>, f32
}

// -----

// A loop that yields what an in-place call made of its region argument
// yields an equivalent value, which the loop needs.
// CHECK-LABEL: func.func @callee_in_loop
// CHECK: return {__equivalent_func_args__ = [0]
// CHECK-LABEL: func.func @loop_over_calls
// CHECK: call @callee_in_loop(%{{.*}}, %{{.*}}, %{{.*}}) {__inplace_operands_attr__ = ["true", "none", "none"]}
// CHECK: } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}
// CHECK: return {__equivalent_func_args__ = [0]
func.func @callee_in_loop(%t: tensor<?xf32>, %f: f32, %i: index) -> tensor<?xf32> {
  %x = tensor.insert %f into %t[%i] : tensor<?xf32>
  return %x : tensor<?xf32>
}

func.func @loop_over_calls(%t: tensor<?xf32>, %f: f32, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<?xf32>) {
    %b = func.call @callee_in_loop(%a, %f, %i) : (tensor<?xf32>, f32, index) -> tensor<?xf32>
    scf.yield %b : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Calls within a cycle of functions are treated as reading, writing and
// aliasing everything (here: %t is read after the call, so the call gets a
// copy); such functions get no summary.
// CHECK-LABEL: func.func @recursive
// CHECK-NOT: bufferization.access
// CHECK: call @recursive(%{{.*}}, %{{.*}}) {__inplace_operands_attr__ = ["false", "none"]}
// CHECK-NOT: __equivalent_func_args__
// CHECK: return
func.func @recursive(%t: tensor<4xf32>, %i: index) -> (tensor<4xf32>, f32) {
  %r:2 = func.call @recursive(%t, %i) : (tensor<4xf32>, index) -> (tensor<4xf32>, f32)
  %x = tensor.extract %t[%i] : tensor<4xf32>
  return %r#0, %x : tensor<4xf32>, f32
}
