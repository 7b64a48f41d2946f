// RUN: mlkit-opt %s --split-input-file -convert-linalg-to-parallel-loops | filecheck %s

// Each run of consecutive parallel loops is one scf.parallel; each reduction
// loop an scf.for, in iteration-domain order. (mlkit prints scf.parallel in the
// generic form, which upstream reads; the checks match either form.)

// CHECK-LABEL: func.func @matmul
// CHECK: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: scf.reduce
func.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// -----

// parallel, reduction, parallel: parallel { for { parallel } }.

// CHECK-LABEL: func.func @par_red_par
// CHECK-SAME: (%[[A:[^:]+]]: memref<?x?x?xf32>, %[[O:[^:]+]]: memref<?x?xf32>)
// CHECK: scf.parallel
// CHECK:   scf.for
// CHECK:     scf.parallel
// CHECK:       memref.load %[[A]]
// CHECK-NEXT:  memref.load %[[O]]
// CHECK-NEXT:  arith.addf
// CHECK-NEXT:  memref.store %{{.+}}, %[[O]]
// CHECK-NEXT:  scf.reduce
// CHECK:     scf.reduce
// CHECK-NOT: scf.reduce
func.func @par_red_par(%a: memref<?x?x?xf32>, %o: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a : memref<?x?x?xf32>) outs(%o : memref<?x?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %0 = arith.addf %acc, %x : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// All-reduction ops have no scf.parallel; linalg.index is replaced.

// CHECK-LABEL: func.func @dot_index
// CHECK-NOT: scf.parallel
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %{{.+}}, %{{.+}}[] : memref<f32>
// CHECK: scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT: %[[L:.+]] = memref.load %{{.+}}[] : memref<index>
// CHECK-NEXT: arith.addi %[[L]], %[[R]] : index
// CHECK-NOT: linalg.
func.func @dot_index(%x: memref<8xf32>, %s: memref<f32>, %t: memref<index>, %shape: memref<8xindex>) {
  linalg.dot ins(%x, %x : memref<8xf32>, memref<8xf32>) outs(%s : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%shape : memref<8xindex>) outs(%t : memref<index>) {
  ^bb0(%unused: index, %o: index):
    %i = linalg.index 0 : index
    %r = arith.addi %o, %i : index
    linalg.yield %r : index
  }
  return
}

// -----

// CHECK-LABEL: func.func @tensors_left_alone
// CHECK: linalg.fill
// CHECK-NOT: scf.parallel
func.func @tensors_left_alone(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %0 = linalg.fill ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
