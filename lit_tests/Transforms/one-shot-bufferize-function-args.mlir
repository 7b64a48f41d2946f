// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s

// bufferization.buffer_layout on an argument gives its buffer that layout;
// bufferization.writable and buffer_layout are dropped once the arguments
// are buffers (other argument attributes stay).

// CHECK-LABEL: func.func @layouts
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32, strided<[?], offset: ?>> {foo.bar = 1 : i64})
// CHECK-NOT: bufferization.
func.func @layouts(%a: tensor<4xf32> {bufferization.buffer_layout = affine_map<(d0) -> (d0)>, bufferization.writable = true},
                   %b: tensor<4xf32> {bufferization.writable = false, foo.bar = 1}) -> f32 {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %y = tensor.extract %b[%c0] : tensor<4xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// materialize_in_destination writes its source into the destination's
// buffer, here the argument's.
// CHECK-LABEL: func.func @materialize
// CHECK-SAME: (%[[T:.*]]: memref<4xf32, strided<[?], offset: ?>>, %{{.*}}: f32) -> memref<4xf32, strided<[?], offset: ?>>
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<4xf32>)
// CHECK: memref.copy %[[A]], %[[T]]
// CHECK: return %[[T]]
func.func @materialize(%t: tensor<4xf32>, %f: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = bufferization.materialize_in_destination %a in %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
