// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -one-shot-bufferize="test-analysis-only" | FileCheck %s
// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -one-shot-bufferize="test-analysis-only print-conflicts" | FileCheck %s --check-prefix=CONFL

// test-analysis-only marks each op with a tensor operand with one entry per
// operand: "true" (in place), "false" (into a copy), "none" (not a tensor),
// and changes nothing else.

// The write cannot reuse %a: %a is read after it.
// CHECK-LABEL: func.func @read_after_write
// CHECK-NOT: memref
// CHECK: linalg.fill {__inplace_operands_attr__ = ["none", "true"]}
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "false", "none"]}
// CHECK: tensor.extract {{.*}} {__inplace_operands_attr__ = ["true", "none"]}
// CHECK: return {__inplace_operands_attr__ = ["true", "none"]}
// CONFL-LABEL: func.func @read_after_write
// CONFL: linalg.fill {"C_0[DEF: result 0]"
// CONFL: tensor.insert {{.*}} {"C_0[CONFL-WRITE: 1]"
// CONFL: tensor.extract {{.*}} {"C_0[READ: 0]"
func.func @read_after_write(%f: f32, %i: index) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = tensor.insert %f into %a[%i] : tensor<4xf32>
  %x = tensor.extract %a[%i] : tensor<4xf32>
  return %b, %x : tensor<4xf32>, f32
}

// -----

// Without bufferize-function-boundaries a function argument is not writable.
// CHECK-LABEL: func.func @argument_is_read_only
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "false", "none"]}
// CONFL-LABEL: func.func @argument_is_read_only
// CONFL-SAME: attributes {"W_0[NOT-WRITABLE: bbArg 0]"}
func.func @argument_is_read_only(%t: tensor<4xf32>, %f: f32, %i: index) -> tensor<4xf32> {
  %b = tensor.insert %f into %t[%i] : tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// A read of a tensor.empty reads nothing that the write could change.
// CHECK-LABEL: func.func @empty_is_not_read
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "true", "none"]}
func.func @empty_is_not_read(%f: f32, %i: index) -> f32 {
  %e = tensor.empty() : tensor<8xf32>
  %b = tensor.insert %f into %e[%i] : tensor<8xf32>
  %x = tensor.extract %e[%i] : tensor<8xf32>
  return %x : f32
}

// -----

// A slice written and inserted back where it came from stays in place.
// CHECK-LABEL: func.func @matching_slices
// CHECK: tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["true", "none", "none"]}
// CHECK: linalg.fill {__inplace_operands_attr__ = ["none", "true"]}
// CHECK: tensor.insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true", "none", "none"]}
func.func @matching_slices(%f: f32, %n: index, %o: index, %s: index) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s0 = tensor.extract_slice %a[%o][%s][1] : tensor<?xf32> to tensor<?xf32>
  %s1 = linalg.fill ins(%f : f32) outs(%s0 : tensor<?xf32>) -> tensor<?xf32>
  %r = tensor.insert_slice %s1 into %a[%o][%s][1] : tensor<?xf32> into tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Inserted elsewhere, the slice is read after the insertion overwrote it:
// the slice is copied.
// CHECK-LABEL: func.func @overlapping_slices
// CHECK: tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["false"]}
// CHECK: tensor.insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true"]}
func.func @overlapping_slices(%f: f32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s0 = tensor.extract_slice %a[0][4][1] : tensor<8xf32> to tensor<4xf32>
  %r = tensor.insert_slice %s0 into %a[2][4][1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A write in one branch does not conflict with a read in the other.
// CHECK-LABEL: func.func @branches
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "true", "none"]}
// CHECK: scf.yield {__inplace_operands_attr__ = ["true", "none"]}
// CHECK: tensor.extract {{.*}} {__inplace_operands_attr__ = ["true", "none"]}
// CHECK: scf.yield {__inplace_operands_attr__ = ["true", "none"]}
func.func @branches(%c: i1, %f: f32, %i: index) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r, %x = scf.if %c -> (tensor<4xf32>, f32) {
    %b = tensor.insert %f into %a[%i] : tensor<4xf32>
    scf.yield %b, %f : tensor<4xf32>, f32
  } else {
    %y = tensor.extract %a[%i] : tensor<4xf32>
    scf.yield %a, %y : tensor<4xf32>, f32
  }
  return %r, %x : tensor<4xf32>, f32
}

// -----

// A loop body that writes a tensor defined outside the loop would see its
// own write on the next iteration: the write goes into a copy. The loop's
// own carried tensor is updated in place.
// CHECK-LABEL: func.func @write_in_loop_to_outer_value
// CHECK: scf.for
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "false", "none"]}
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "true", "none"]}
// CHECK: scf.yield {__inplace_operands_attr__ = ["true"]}
// CHECK: } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}
func.func @write_in_loop_to_outer_value(%f: f32, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %init = tensor.empty() : tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<4xf32>) {
    %b = tensor.insert %f into %a[%c0] : tensor<4xf32>
    %v = tensor.extract %b[%c0] : tensor<4xf32>
    %w = tensor.insert %v into %acc[%i] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An elementwise op may overwrite an input it reads at the same element.
// CHECK-LABEL: func.func @elementwise_in_place
// CHECK: linalg.add {__inplace_operands_attr__ = ["true", "true", "true"]}
func.func @elementwise_in_place(%f: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A to_buffer may be written through, unless it is read_only.
// CHECK-LABEL: func.func @to_buffer
// CHECK: bufferization.to_buffer {{.*}} {__inplace_operands_attr__ = ["false"]}
// CHECK: bufferization.to_buffer {{.*}} read_only {__inplace_operands_attr__ = ["true"]}
func.func @to_buffer(%f: f32, %i: index) -> (memref<4xf32>, memref<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = bufferization.to_buffer %a : tensor<4xf32> to memref<4xf32>
  %r = bufferization.to_buffer %a read_only : tensor<4xf32> to memref<4xf32>
  %x = tensor.extract %a[%i] : tensor<4xf32>
  return %m, %r, %x : memref<4xf32>, memref<4xf32>, f32
}

// -----

// An op that is not bufferizable may write its operand and alias its
// result, which is not writable.
// CHECK-LABEL: func.func @unknown_op
// CHECK: "test.unknown"(%{{.*}}) {__inplace_operands_attr__ = ["false"]}
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "false", "none"]}
// CONFL-LABEL: func.func @unknown_op
// CONFL: "test.unknown"(%{{.*}}) {"W_0[NOT-WRITABLE: result 0]", "W_1[NOT-WRITABLE: result 0]"
func.func @unknown_op(%f: f32, %i: index) -> f32 {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %u = "test.unknown"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %b = tensor.insert %f into %u[%i] : tensor<4xf32>
  %x = tensor.extract %b[%i] : tensor<4xf32>
  return %x : f32
}

// -----

// Ops without tensor operands get no marks.
// CHECK-LABEL: func.func @no_tensors
// CHECK-NOT: __inplace_operands_attr__
// CHECK: return
func.func @no_tensors(%m: memref<4xf32>, %f: f32, %i: index) {
  memref.store %f, %m[%i] : memref<4xf32>
  return
}
