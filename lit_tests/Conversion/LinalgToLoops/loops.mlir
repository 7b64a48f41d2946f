// RUN: mlkit-opt --mlir-print-local-scope %s --split-input-file -convert-linalg-to-loops | filecheck %s
// RUN: mlkit-opt --mlir-print-local-scope %s --split-input-file -p 'builtin.module(func.func(convert-linalg-to-loops))' | filecheck %s

// One scf.for per loop in iteration-domain order (the reduction innermost),
// bounds from memref.dim of the first operand dim that is the loop's index.

// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-SAME: (%[[A:[^:]+]]: memref<?x?xf32>, %[[B:[^:]+]]: memref<?x?xf32>, %[[C:[^:]+]]: memref<?x?xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[M:.+]] = memref.dim %[[A]], %[[C0]]
// CHECK: %[[K:.+]] = memref.dim %[[A]], %[[C1]]
// CHECK: %[[N:.+]] = memref.dim %[[B]], %[[C1]]
// CHECK: scf.for %[[I:.+]] = %[[C0]] to %[[M]] step %[[C1]] {
// CHECK:   scf.for %[[J:.+]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK:     scf.for %[[R:.+]] = %[[C0]] to %[[K]] step %[[C1]] {
// CHECK-NEXT:  %[[LA:.+]] = memref.load %[[A]][%[[I]], %[[R]]] : memref<?x?xf32>
// CHECK-NEXT:  %[[LB:.+]] = memref.load %[[B]][%[[R]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:  %[[LC:.+]] = memref.load %[[C]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:  %[[MUL:.+]] = arith.mulf %[[LA]], %[[LB]] : f32
// CHECK-NEXT:  %[[ADD:.+]] = arith.addf %[[LC]], %[[MUL]] : f32
// CHECK-NEXT:  memref.store %[[ADD]], %[[C]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NOT: linalg.
func.func @matmul_dynamic(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// -----

// A strided window: non-dim indexing results become affine.apply over the
// loops they use; static bounds are constants.

// CHECK-LABEL: func.func @conv_strided
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step
// CHECK:   scf.for %[[OH:.+]] = %{{.+}} to %[[C3]] step
// CHECK:     scf.for %[[OW:.+]] = %{{.+}} to %[[C3]] step
// CHECK:       scf.for %[[F:.+]] = %{{.+}} to %[[C4]] step
// CHECK:         scf.for %[[KH:.+]] = %{{.+}} to %[[C3]] step
// CHECK:           scf.for %[[KW:.+]] = %{{.+}} to %[[C3]] step
// CHECK:             scf.for %[[CI:.+]] = %{{.+}} to %[[C3]] step
// CHECK:               %[[H:.+]] = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%[[OH]], %[[KH]])
// CHECK:               %[[W:.+]] = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%[[OW]], %[[KW]])
// CHECK:               memref.load %{{.+}}[%[[N]], %[[H]], %[[W]], %[[CI]]] : memref<1x8x8x3xf32>
// CHECK:               memref.load %{{.+}}[%[[KH]], %[[KW]], %[[CI]], %[[F]]] : memref<3x3x3x4xf32>
func.func @conv_strided(%A: memref<1x8x8x3xf32>, %B: memref<3x3x3x4xf32>, %C: memref<1x3x3x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%A, %B : memref<1x8x8x3xf32>, memref<3x3x3x4xf32>) outs(%C : memref<1x3x3x4xf32>)
  return
}

// -----

// Pooling: the window operand only gives the loop bounds; it is never loaded.

// CHECK-LABEL: func.func @pooling_max
// CHECK-SAME: %[[W:[^:]+]]: memref<3x3xf32>
// CHECK-NOT: memref.load %[[W]]
// CHECK: arith.maximumf
// CHECK: memref.store
func.func @pooling_max(%A: memref<1x6x6x3xf32>, %W: memref<3x3xf32>, %C: memref<1x4x4x3xf32>) {
  linalg.pooling_nhwc_max ins(%A, %W : memref<1x6x6x3xf32>, memref<3x3xf32>) outs(%C : memref<1x4x4x3xf32>)
  return
}

// -----

// Broadcasting, a scalar operand used as is, a constant index, an unused init.

// CHECK-LABEL: func.func @generic_broadcast
// CHECK-SAME: (%[[ROW:[^:]+]]: memref<8xf32>, %[[K:[^:]+]]: f32, %[[FIRST:[^:]+]]: memref<4x8xf32>, %[[OUT:[^:]+]]: memref<4x8xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: scf.for %[[I:.+]] = %[[C0]] to
// CHECK:   scf.for %[[J:.+]] = %[[C0]] to
// CHECK-NEXT: %[[R:.+]] = memref.load %[[ROW]][%[[J]]] : memref<8xf32>
// CHECK-NEXT: %[[F:.+]] = memref.load %[[FIRST]][%[[C0]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[R]], %[[K]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[M]], %[[F]] : f32
// CHECK-NEXT: memref.store %[[S]], %[[OUT]][%[[I]], %[[J]]] : memref<4x8xf32>
func.func @generic_broadcast(%row: memref<8xf32>, %k: f32, %first: memref<4x8xf32>, %out: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%row, %k, %first : memref<8xf32>, f32, memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%r: f32, %kk: f32, %f: f32, %o: f32):
    %0 = arith.mulf %r, %kk : f32
    %1 = arith.addf %0, %f : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// linalg.index is replaced by the induction variables, on a strided view.

// CHECK-LABEL: func.func @index
// CHECK-SAME: (%[[V:[^:]+]]: memref<4x?xindex, strided<[?, 1], offset: ?>>)
// CHECK: %[[D:.+]] = memref.dim %[[V]], %{{.+}} : memref<4x?xindex, strided<[?, 1], offset: ?>>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK:   scf.for %[[J:.+]] = %{{.+}} to %[[D]] step
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT: memref.store %[[S]], %[[V]][%[[I]], %[[J]]]
// CHECK-NOT: linalg.index
func.func @index(%v: memref<4x?xindex, strided<[?, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%v : memref<4x?xindex, strided<[?, 1], offset: ?>>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    linalg.yield %s : index
  }
  return
}

// -----

// reduce over dims 0 and 2: loops stay in domain order, so the reduced dims
// are outermost and innermost; transpose loads through the permutation.

// CHECK-LABEL: func.func @reduce_transpose
// CHECK-SAME: (%[[A:[^:]+]]: memref<4x5x6xf32>, %[[R:[^:]+]]: memref<5xf32>, %[[T:[^:]+]]: memref<6x4x5xf32>)
// CHECK: scf.for %[[D0:.+]] = %{{.+}} to %{{.+}} step
// CHECK:   scf.for %[[D1:.+]] = %{{.+}} to %{{.+}} step
// CHECK:     scf.for %[[D2:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:  %[[X:.+]] = memref.load %[[A]][%[[D0]], %[[D1]], %[[D2]]]
// CHECK-NEXT:  %[[ACC:.+]] = memref.load %[[R]][%[[D1]]]
// CHECK-NEXT:  %[[SUM:.+]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:  memref.store %[[SUM]], %[[R]][%[[D1]]]
// CHECK: scf.for %[[P0:.+]] = %{{.+}} to %{{.+}} step
// CHECK:   scf.for %[[P1:.+]] = %{{.+}} to %{{.+}} step
// CHECK:     scf.for %[[P2:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:  %[[E:.+]] = memref.load %[[A]][%[[P1]], %[[P2]], %[[P0]]]
// CHECK-NEXT:  memref.store %[[E]], %[[T]][%[[P0]], %[[P1]], %[[P2]]]
func.func @reduce_transpose(%A: memref<4x5x6xf32>, %R: memref<5xf32>, %T: memref<6x4x5xf32>) {
  linalg.reduce { arith.addf } ins(%A : memref<4x5x6xf32>) outs(%R : memref<5xf32>) dimensions = [0, 2]
  linalg.transpose ins(%A : memref<4x5x6xf32>) outs(%T : memref<6x4x5xf32>) permutation = [2, 0, 1]
  return
}

// -----

// A zero-loop op is its body; memref.dim of an alloc is its size operand.

// CHECK-LABEL: func.func @fill_scalar_and_alloc
// CHECK-SAME: (%[[X:[^:]+]]: f32, %[[Z:[^:]+]]: memref<f32>, %[[N:[^:]+]]: index)
// CHECK-NOT: scf.for
// CHECK: memref.store %[[X]], %[[Z]][] : memref<f32>
// CHECK-NEXT: %[[BUF:.+]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NOT: memref.dim
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[N]] step
// CHECK-NEXT: memref.store %[[X]], %[[BUF]][%[[I]]] : memref<?xf32>
func.func @fill_scalar_and_alloc(%x: f32, %z: memref<f32>, %n: index) {
  linalg.fill ins(%x : f32) outs(%z : memref<f32>)
  %buf = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%x : f32) outs(%buf : memref<?xf32>)
  memref.dealloc %buf : memref<?xf32>
  return
}

// -----

// Ops in nested regions are lowered in place; constants go to the function's
// entry block and reuse an equal one already there.

// CHECK-LABEL: func.func @nested
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NOT: arith.constant 0 : index
// CHECK: scf.for %{{.+}} = %[[C0]]
// CHECK:   memref.subview
// CHECK:   memref.dim %{{.+}}, %[[C0]]
// CHECK:   scf.for %{{.+}} = %[[C0]]
// CHECK:     memref.store
func.func @nested(%a: memref<?x?xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.subview %a[%i, 0] [1, %m] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
    linalg.fill ins(%x : f32) outs(%v : memref<?xf32, strided<[1], offset: ?>>)
  }
  return
}

// -----

// Ops on tensors, and pack, unpack and softmax (not structured ops; upstream
// decomposes them first), are left alone.

// CHECK-LABEL: func.func @left_alone
// CHECK: linalg.matmul
// CHECK: linalg.softmax
// CHECK: linalg.pack
// CHECK: linalg.unpack
// CHECK-NOT: scf.for
func.func @left_alone(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>, %C: tensor<4x16xf32>, %s: tensor<2x16xf32>, %p: tensor<8x8xf32>, %P: tensor<2x2x4x4xf32>) -> (tensor<4x16xf32>, tensor<2x16xf32>, tensor<8x8xf32>) {
  %0 = linalg.matmul ins(%A, %B : tensor<4x8xf32>, tensor<8x16xf32>) outs(%C : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.softmax dimension(1) ins(%s : tensor<2x16xf32>) outs(%s : tensor<2x16xf32>) -> tensor<2x16xf32>
  %2 = linalg.pack %p inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %P : tensor<8x8xf32> -> tensor<2x2x4x4xf32>
  %3 = linalg.unpack %2 inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %p : tensor<2x2x4x4xf32> -> tensor<8x8xf32>
  return %0, %1, %3 : tensor<4x16xf32>, tensor<2x16xf32>, tensor<8x8xf32>
}
