// RUN: mlkit-opt --mlir-print-local-scope %s --split-input-file -linalg-generalize-named-ops | filecheck %s

// CHECK-LABEL: func.func @matmul_buffers
// CHECK-SAME: (%[[A:[^:]+]]: memref<16x8xf32>, %[[B:[^:]+]]: memref<8x32xf32>, %[[C:[^:]+]]: memref<16x32xf32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : memref<16x8xf32>, memref<8x32xf32>) outs(%[[C]] : memref<16x32xf32>) attrs = {tag = 1 : i32} {
// CHECK: ^{{.*}}(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[Z:.+]]: f32):
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[Z]], %[[M]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NOT: linalg.matmul
func.func @matmul_buffers(%A: memref<16x8xf32>, %B: memref<8x32xf32>, %C: memref<16x32xf32>) {
  linalg.matmul {tag = 1 : i32} ins(%A, %B : memref<16x8xf32>, memref<8x32xf32>) outs(%C : memref<16x32xf32>)
  return
}

// -----

// A convolution keeps the maps upstream memoizes as a discardable attribute.

// CHECK-LABEL: func.func @conv_tensors
// CHECK: %{{.+}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: attrs = {linalg.memoized_indexing_maps = [
// CHECK: } -> tensor<1x3x3x4xf32>
func.func @conv_tensors(%A: tensor<1x8x8x3xf32>, %B: tensor<3x3x3x4xf32>, %C: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%A, %B : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%C : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

// map gains the init block argument; reduce, transpose, broadcast, fill and
// elementwise ops become generics with their own maps and iterators.

// CHECK-LABEL: func.func @structural
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK: ^{{.*}}(%[[IN0:.+]]: f32, %[[IN1:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: arith.subf %[[IN0]], %[[IN1]] : f32
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-NEXT: ^{{.*}}(%[[E:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: math.exp %[[E]] : f32
// CHECK-NOT: linalg.map
// CHECK-NOT: linalg.reduce
func.func @structural(%x: memref<4xf32>, %y: memref<4xf32>, %m: memref<4x5xf32>, %t: memref<5x4xf32>, %k: f32) {
  linalg.map { arith.subf } ins(%x, %y : memref<4xf32>, memref<4xf32>) outs(%x : memref<4xf32>)
  linalg.reduce { arith.addf } ins(%m : memref<4x5xf32>) outs(%x : memref<4xf32>) dimensions = [1]
  linalg.transpose ins(%m : memref<4x5xf32>) outs(%t : memref<5x4xf32>) permutation = [1, 0]
  linalg.broadcast ins(%x : memref<4xf32>) outs(%m : memref<4x5xf32>) dimensions = [1]
  linalg.fill ins(%k : f32) outs(%y : memref<4xf32>)
  linalg.exp ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  return
}

// -----

// Generics are left as they are; pack, unpack and softmax are not structured
// ops and stay.

// CHECK-LABEL: func.func @left_alone
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs
// CHECK: linalg.softmax
// CHECK: linalg.pack
// CHECK: linalg.unpack
func.func @left_alone(%v: memref<4xf32>, %s: tensor<2x16xf32>, %p: tensor<8x8xf32>, %P: tensor<2x2x4x4xf32>) -> (tensor<2x16xf32>, tensor<8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%v : memref<4xf32>) {
  ^bb0(%o: f32):
    %n = arith.negf %o : f32
    linalg.yield %n : f32
  }
  %0 = linalg.softmax dimension(1) ins(%s : tensor<2x16xf32>) outs(%s : tensor<2x16xf32>) -> tensor<2x16xf32>
  %1 = linalg.pack %p inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %P : tensor<8x8xf32> -> tensor<2x2x4x4xf32>
  %2 = linalg.unpack %1 inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %p : tensor<2x2x4x4xf32> -> tensor<8x8xf32>
  return %0, %2 : tensor<2x16xf32>, tensor<8x8xf32>
}
