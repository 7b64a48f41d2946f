// RUN: mlkit-opt --mlir-print-local-scope %s --split-input-file -convert-linalg-to-affine-loops | filecheck %s

// affine.for per loop with constant or symbol bounds; affine.load/affine.store.

// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-SAME: (%[[A:[^:]+]]: memref<?x?xf32>, %[[B:[^:]+]]: memref<?x?xf32>, %[[C:[^:]+]]: memref<?x?xf32>)
// CHECK: %[[M:.+]] = memref.dim %[[A]], %{{.+}}
// CHECK: %[[K:.+]] = memref.dim %[[A]], %{{.+}}
// CHECK: %[[N:.+]] = memref.dim %[[B]], %{{.+}}
// CHECK: affine.for %[[I:.+]] = 0 to %[[M]] {
// CHECK:   affine.for %[[J:.+]] = 0 to %[[N]] {
// CHECK:     affine.for %[[R:.+]] = 0 to %[[K]] {
// CHECK-NEXT:  %[[LA:.+]] = affine.load %[[A]][%[[I]], %[[R]]] : memref<?x?xf32>
// CHECK-NEXT:  %[[LB:.+]] = affine.load %[[B]][%[[R]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:  %[[LC:.+]] = affine.load %[[C]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:  %[[MUL:.+]] = arith.mulf %[[LA]], %[[LB]] : f32
// CHECK-NEXT:  %[[ADD:.+]] = arith.addf %[[LC]], %[[MUL]] : f32
// CHECK-NEXT:  affine.store %[[ADD]], %[[C]][%[[I]], %[[J]]] : memref<?x?xf32>
func.func @matmul_dynamic(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @pooling_strided
// CHECK-NOT: arith.constant
// CHECK: affine.for %[[N:.+]] = 0 to 1 {
// CHECK:   affine.for %[[OH:.+]] = 0 to 2 {
// CHECK:     affine.for %[[OW:.+]] = 0 to 2 {
// CHECK:       affine.for %[[CH:.+]] = 0 to 3 {
// CHECK:         affine.for %[[KH:.+]] = 0 to 3 {
// CHECK:           affine.for %[[KW:.+]] = 0 to 3 {
// CHECK-NEXT:        %[[H:.+]] = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%[[OH]], %[[KH]])
// CHECK-NEXT:        %[[W:.+]] = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%[[OW]], %[[KW]])
// CHECK-NEXT:        %[[X:.+]] = affine.load %{{.+}}[%[[N]], %[[H]], %[[W]], %[[CH]]] : memref<1x6x6x3xf32>
// CHECK-NEXT:        %[[O:.+]] = affine.load %{{.+}}[%[[N]], %[[OH]], %[[OW]], %[[CH]]] : memref<1x2x2x3xf32>
// CHECK-NEXT:        %[[MAX:.+]] = arith.maximumf %[[O]], %[[X]] : f32
// CHECK-NEXT:        affine.store %[[MAX]], %{{.+}}[%[[N]], %[[OH]], %[[OW]], %[[CH]]] : memref<1x2x2x3xf32>
func.func @pooling_strided(%A: memref<1x6x6x3xf32>, %W: memref<3x3xf32>, %C: memref<1x2x2x3xf32>) {
  linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%A, %W : memref<1x6x6x3xf32>, memref<3x3xf32>) outs(%C : memref<1x2x2x3xf32>)
  return
}

// -----

// linalg.index becomes the affine induction variables; a zero-loop op is an
// affine.store with no indices.

// CHECK-LABEL: func.func @index_and_scalar
// CHECK: affine.for %[[I:.+]] = 0 to 4 {
// CHECK:   affine.for %[[J:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: %[[S:.+]] = arith.muli %[[I]], %[[J]] : index
// CHECK-NEXT: affine.store %[[S]], %{{.+}}[%[[I]], %[[J]]] : memref<4x?xindex, strided<[?, 1], offset: ?>>
// CHECK: affine.store %{{.+}}, %{{.+}}[] : memref<index>
// CHECK-NOT: linalg.
func.func @index_and_scalar(%v: memref<4x?xindex, strided<[?, 1], offset: ?>>, %s: memref<index>, %x: index) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%v : memref<4x?xindex, strided<[?, 1], offset: ?>>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %p = arith.muli %i, %j : index
    linalg.yield %p : index
  }
  linalg.fill ins(%x : index) outs(%s : memref<index>)
  return
}

// -----

// CHECK-LABEL: func.func @tensors_left_alone
// CHECK: linalg.generic
// CHECK-NOT: affine.for
func.func @tensors_left_alone(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    %1 = arith.negf %o : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
