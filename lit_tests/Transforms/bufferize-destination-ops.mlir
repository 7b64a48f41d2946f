// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})' | filecheck %s

// Ops whose one destination is not their last operand (linalg.pack, with
// its tile sizes after it) or is named `output` (linalg.softmax) write it.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : memref<2x8xf32>) outs(%[[OUT]] : memref<2x8xf32>)
// CHECK: return %[[OUT]]
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<2x8xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @pack
// CHECK: %[[DEST:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x1x8x8xf32>
// CHECK: linalg.pack %{{.*}} inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %[[DEST]]
// CHECK: return %[[DEST]]
func.func @pack(%x: tensor<16x8xf32>) -> tensor<2x1x8x8xf32> {
  %e = tensor.empty() : tensor<2x1x8x8xf32>
  %r = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<16x8xf32> -> tensor<2x1x8x8xf32>
  return %r : tensor<2x1x8x8xf32>
}
