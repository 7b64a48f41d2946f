// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of the bufferization ops in upstream MLIR's custom syntax; the
// same file is read by upstream MLIR in tests/test_dialect_bufferization.py.

// CHECK-LABEL: func.func @dealloc_tensor
func.func @dealloc_tensor(%t: tensor<4x?xf32>, %u: tensor<*xi8>, %z: tensor<f64>) {
  // CHECK: bufferization.dealloc_tensor %{{.*}} : tensor<4x?xf32>
  bufferization.dealloc_tensor %t : tensor<4x?xf32>
  // CHECK: bufferization.dealloc_tensor %{{.*}} : tensor<*xi8>
  bufferization.dealloc_tensor %u : tensor<*xi8>
  // CHECK: bufferization.dealloc_tensor %{{.*}} {note = "kept"} : tensor<f64>
  bufferization.dealloc_tensor %z {note = "kept"} : tensor<f64>
  return
}

// CHECK-LABEL: func.func @boundaries
func.func @boundaries(%m: memref<4xf32, strided<[?], offset: ?>>, %n: index) -> tensor<?xf32> {
  // CHECK: bufferization.to_tensor %{{.*}} restrict writable : memref<4xf32, strided<[?], offset: ?>> to tensor<4xf32>
  %t = bufferization.to_tensor %m restrict writable : memref<4xf32, strided<[?], offset: ?>> to tensor<4xf32>
  // CHECK: bufferization.to_buffer %{{.*}} read_only : tensor<4xf32> to memref<4xf32>
  %b = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  // CHECK: bufferization.alloc_tensor(%{{.*}}) : tensor<?xf32>
  %a = bufferization.alloc_tensor(%n) : tensor<?xf32>
  // CHECK: bufferization.dealloc_tensor %{{.*}} : tensor<4xf32>
  bufferization.dealloc_tensor %t : tensor<4xf32>
  return %a : tensor<?xf32>
}
