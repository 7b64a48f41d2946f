// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(func.func(linalg-decompose-aggregated-ops))' | FileCheck %s

// softmax along the last of three dimensions: the running maximum starts at
// NaN (the identity of maxnumf), exp(x - max) goes into the softmax's init,
// the sum starts at zero, and the quotient goes into the init again.

// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[ROW:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @last_dim(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: tensor<2x16x32xf32>, %[[DST:[a-zA-Z0-9_]+]]: tensor<2x16x32xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x16xf32>
// CHECK:         %[[NAN:.+]] = arith.constant 0xFFC00000 : f32
// CHECK:         %[[F0:.+]] = linalg.fill ins(%[[NAN]] : f32) outs(%[[E]] : tensor<2x16xf32>)
// CHECK:         %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x16x32xf32>) outs(%[[F0]] : tensor<2x16xf32>)
// CHECK:           arith.maxnumf
// CHECK:         %[[EXP:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<2x16x32xf32>, tensor<2x16xf32>) outs(%[[DST]] : tensor<2x16x32xf32>)
// CHECK:           arith.subf
// CHECK-NEXT:      math.exp
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[F1:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<2x16xf32>)
// CHECK:         %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[EXP]] : tensor<2x16x32xf32>) outs(%[[F1]] : tensor<2x16xf32>)
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[EXP]], %[[SUM]] : tensor<2x16x32xf32>, tensor<2x16xf32>) outs(%[[DST]] : tensor<2x16x32xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[R]]
// CHECK-NOT:     linalg.softmax
func.func @last_dim(%x: tensor<2x16x32xf32>, %dst: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %0 = linalg.softmax dimension(2) ins(%x : tensor<2x16x32xf32>) outs(%dst : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %0 : tensor<2x16x32xf32>
}

// -----

// Along the first dimension, with dynamic sizes: the reduced tensor takes
// its size from the source, and the reduction loop comes first. f64 gets its
// own NaN.

// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @first_dim_dynamic(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf64>
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[D1:.+]] = tensor.dim %[[X]], %[[C1]] : tensor<?x?xf64>
// CHECK:         %[[E:.+]] = tensor.empty(%[[D1]]) : tensor<?xf64>
// CHECK:         arith.constant 0xFFF8000000000000 : f64
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[COL]]], iterator_types = ["reduction", "parallel"]}
// CHECK:           arith.maxnumf
func.func @first_dim_dynamic(%x: tensor<?x?xf64>, %dst: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = linalg.softmax dimension(0) ins(%x : tensor<?x?xf64>) outs(%dst : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// -----

// Softmax on buffers is left as it is (upstream decomposes tensors only),
// and so are the structured ops around it.

// CHECK-LABEL: func.func @buffers
// CHECK:         linalg.softmax dimension(1) ins(%{{.*}} : memref<4x8xf32>) outs(%{{.*}} : memref<4x8xf32>)
// CHECK:         linalg.copy
func.func @buffers(%x: memref<4x8xf32>, %dst: memref<4x8xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%dst : memref<4x8xf32>)
  linalg.copy ins(%x : memref<4x8xf32>) outs(%dst : memref<4x8xf32>)
  return
}
