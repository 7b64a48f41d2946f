// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops" | FileCheck %s

// Bodies and loops as JAX programs leave them: a tensor.generate or tensor.pad
// body that reads a tensor of the function (an embedding lookup, a padding
// value passed in), and loops that carry more than one tensor (jax.lax.scan,
// fori_loop).

// The body is copied into the loop nest that fills the new buffer; the read
// there is of the argument's buffer, and no tensor is left.
// CHECK-LABEL: func.func @generate_reads_argument
// CHECK-SAME: (%[[T:.*]]: memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: scf.for %[[I:.*]] = 
// CHECK-NEXT: %[[V:.*]] = memref.load %[[T]][%[[I]]]
// CHECK-NEXT: memref.store %[[V]], %[[A]][%[[I]]]
// CHECK-NOT: tensor
// CHECK: return %[[A]]
func.func @generate_reads_argument(%t: tensor<4xf32>) -> tensor<4xf32> {
  %g = tensor.generate {
  ^bb0(%i: index):
    %v = tensor.extract %t[%i] : tensor<4xf32>
    tensor.yield %v : f32
  } : tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @pad_value_from_a_tensor
// CHECK-SAME: (%[[T:.*]]: memref<4xf32, strided<[?], offset: ?>>, %[[P:.*]]: memref<f32, strided<[], offset: ?>>) -> memref<6xf32>
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6xf32>
// CHECK: scf.for %[[I:.*]] = 
// CHECK-NEXT: %[[V:.*]] = memref.load %[[P]][]
// CHECK-NEXT: memref.store %[[V]], %[[A]][%[[I]]]
// CHECK: %[[S:.*]] = memref.subview %[[A]][1] [4] [1]
// CHECK: memref.copy %[[T]], %[[S]] :
// CHECK-NOT: tensor
func.func @pad_value_from_a_tensor(%t: tensor<4xf32>, %p: tensor<f32>) -> tensor<6xf32> {
  %g = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    %v = tensor.extract %p[] : tensor<f32>
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %g : tensor<6xf32>
}

// -----

// Each yielded buffer takes the type of its own loop-carried value (the
// first is a fresh buffer, cast to the carried layout), not its neighbour's.
// CHECK-LABEL: func.func @for_carries_two_tensors
// CHECK: %{{.*}}:2 = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[Y:.*]] = %{{.*}}) -> (memref<8xf32, strided<[?], offset: ?>>, memref<4x8xf32, strided<[?, ?], offset: ?>>)
// CHECK: %[[NEW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK: %[[CAST:.*]] = memref.cast %[[NEW]] : memref<8xf32> to memref<8xf32, strided<[?], offset: ?>>
// CHECK-NEXT: scf.yield %[[CAST]], %[[Y]] : memref<8xf32, strided<[?], offset: ?>>, memref<4x8xf32, strided<[?, ?], offset: ?>>
func.func @for_carries_two_tensors(%a: tensor<8xf32>, %b: tensor<4x8xf32>, %n: index) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<8xf32>, tensor<4x8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = arith.addf %in, %in : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    %row = tensor.expand_shape %s [[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
    %ins = tensor.insert_slice %row into %y[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<4x8xf32>
    scf.yield %s, %ins : tensor<8xf32>, tensor<4x8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @while_swaps_two_tensors
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, memref<8xf32, strided<[?], offset: ?>>, memref<8xf32, strided<[?], offset: ?>>)
// CHECK: ^bb0(%[[I:.*]]: i32, %[[X:.*]]: memref<8xf32, strided<[?], offset: ?>>, %[[Y:.*]]: memref<8xf32, strided<[?], offset: ?>>):
// CHECK: scf.yield %{{.*}}, %[[Y]], %[[X]] : i32, memref<8xf32, strided<[?], offset: ?>>, memref<8xf32, strided<[?], offset: ?>>
func.func @while_swaps_two_tensors(%a: tensor<8xf32>, %b: tensor<8xf32>, %n: i32) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:3 = scf.while (%i = %c0, %x = %a, %y = %b) : (i32, tensor<8xf32>, tensor<8xf32>) -> (i32, tensor<8xf32>, tensor<8xf32>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %x, %y : i32, tensor<8xf32>, tensor<8xf32>
  } do {
  ^bb0(%i: i32, %x: tensor<8xf32>, %y: tensor<8xf32>):
    %next = arith.addi %i, %c1 : i32
    scf.yield %next, %y, %x : i32, tensor<8xf32>, tensor<8xf32>
  }
  return %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>
}
