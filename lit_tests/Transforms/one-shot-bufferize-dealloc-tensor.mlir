// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize | FileCheck %s
// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=FUNC

// A freed tensor's buffer is freed: the allocation itself.
// CHECK-LABEL: func.func @dealloc_alloc
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK: memref.load %[[A]]
// CHECK: memref.dealloc %[[A]] : memref<?xf32>
// CHECK-NOT: bufferization.dealloc_tensor
func.func @dealloc_alloc(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %t = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %x = tensor.extract %t[%c0] : tensor<?xf32>
  bufferization.dealloc_tensor %t : tensor<?xf32>
  return %x : f32
}

// -----

// An argument's buffer: through to_buffer without function boundaries, the
// argument itself with them.
// CHECK-LABEL: func.func @dealloc_argument
// CHECK: %[[B:.*]] = bufferization.to_buffer %{{.*}} : tensor<4x?xf32> to memref<4x?xf32, strided<[?, ?], offset: ?>>
// CHECK: memref.dealloc %[[B]] : memref<4x?xf32, strided<[?, ?], offset: ?>>
// FUNC-LABEL: func.func @dealloc_argument
// FUNC-SAME: (%[[ARG:.*]]: memref<4x?xf32, strided<[?, ?], offset: ?>>)
// FUNC-NEXT: memref.dealloc %[[ARG]] : memref<4x?xf32, strided<[?, ?], offset: ?>>
func.func @dealloc_argument(%t: tensor<4x?xf32>) {
  bufferization.dealloc_tensor %t : tensor<4x?xf32>
  return
}

// -----

// Freeing is not a read: the write before it goes in place, and the buffer
// freed is the one written.
// FUNC-LABEL: func.func @dealloc_after_write
// FUNC: %[[E:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// FUNC-NOT: memref.alloc
// FUNC: memref.store %{{.*}}, %[[E]]
// FUNC: memref.load %[[E]]
// FUNC: memref.dealloc %[[E]] : memref<4xf32>
func.func @dealloc_after_write(%v: f32, %i: index) -> f32 {
  %e = tensor.empty() : tensor<4xf32>
  %r = tensor.insert %v into %e[%i] : tensor<4xf32>
  %x = tensor.extract %r[%i] : tensor<4xf32>
  bufferization.dealloc_tensor %e : tensor<4xf32>
  return %x : f32
}
