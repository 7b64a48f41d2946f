// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(convert-vector-to-scf)' | filecheck %s

// A 2-D read splits into 1-D reads of each row, each guarded by the leading
// dimension's bounds; the padding fills the rows out of bounds.
// CHECK-LABEL: func.func @read_2d
// CHECK: %[[INIT:.*]] = vector.broadcast %{{.*}} : f32 to vector<2x4xf32>
// CHECK: %[[DIM:.*]] = memref.dim
// CHECK: %[[OK:.*]] = arith.cmpi sgt, %[[DIM]], %{{.*}} : index
// CHECK: %[[R0:.*]] = scf.if %[[OK]] -> (vector<2x4xf32>) {
// CHECK:   vector.transfer_read %{{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK:   vector.insert %{{.*}}, %[[INIT]] [0] : vector<4xf32> into vector<2x4xf32>
// CHECK: } else {
// CHECK:   scf.yield %[[INIT]]
// CHECK: arith.addi
// CHECK: scf.if
// CHECK-NOT: vector.transfer_read {{.*}} vector<2x4xf32>
func.func @read_2d(%m: memref<?x?xf32>, %i: index) -> vector<2x4xf32> {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %i], %pad : memref<?x?xf32>, vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

// In bounds and masked: no guard, the mask rows go with the row reads.
// CHECK-LABEL: func.func @write_2d_masked
// CHECK-NOT: scf.if
// CHECK: %[[M0:.*]] = vector.extract %{{.*}}[0] : vector<4xi1> from vector<2x4xi1>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}], %[[M0]] {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
// CHECK: vector.extract %{{.*}}[1] : vector<4xi1> from vector<2x4xi1>
func.func @write_2d_masked(%m: memref<8x8xf32>, %i: index, %v: vector<2x4xf32>, %k: vector<2x4xi1>) {
  vector.mask %k { vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32> } : vector<2x4xi1>
  return
}

// -----

// A vector.mask around a masked transfer: the two masks and'ed row by row.
// CHECK-LABEL: func.func @two_masks
// CHECK-COUNT-2: arith.andi %{{.*}}, %{{.*}} : vector<4xi1>
// CHECK-NOT: vector.mask
func.func @two_masks(%m: memref<8x8xf32>, %i: index, %k: vector<2x4xi1>, %j: vector<2x4xi1>) -> vector<2x4xf32> {
  %pad = arith.constant 0.0 : f32
  %0 = vector.mask %k { vector.transfer_read %m[%i, %i], %pad, %j {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32> } : vector<2x4xi1> -> vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

// A 1-D read down a column: a loop over lanes of scalar loads.
// CHECK-LABEL: func.func @read_column
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4xf32>)
// CHECK:   scf.if
// CHECK:     memref.load
// CHECK:     vector.insert %{{.*}}, %[[ACC]] [%[[L]]] : f32 into vector<4xf32>
func.func @read_column(%m: memref<?x?xf32>, %i: index) -> vector<4xf32> {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %i], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// A 1-D broadcast: the same element for every lane, no bounds check.
// CHECK-LABEL: func.func @read_broadcast
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4xf32>)
// CHECK-NOT: scf.if
// CHECK:   %[[E:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32>
// CHECK:   vector.insert %[[E]], %[[ACC]] [%[[L]]] : f32 into vector<4xf32>
func.func @read_broadcast(%m: memref<?x?xf32>, %i: index) -> vector<4xf32> {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : memref<?x?xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// Left alone: 1-D minor-identity transfers (convert-vector-to-llvm's), a
// mask with a pass-through, and tensors without lower-tensors.
// CHECK-LABEL: func.func @left_alone
// CHECK: vector.transfer_read %{{.*}} : memref<?xf32>, vector<4xf32>
// CHECK: vector.mask %{{.*}}, %{{.*}} { vector.transfer_read
// CHECK: vector.transfer_read %{{.*}} : tensor<4x4xf32>, vector<4x4xf32>
func.func @left_alone(%m: memref<?xf32>, %i: index, %k: vector<4xi1>, %v: vector<4xf32>, %t: tensor<4x4xf32>) -> (vector<4xf32>, vector<4xf32>, vector<4x4xf32>) {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i], %pad : memref<?xf32>, vector<4xf32>
  %1 = vector.mask %k, %v { vector.transfer_read %m[%i], %pad : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  %2 = vector.transfer_read %t[%i, %i], %pad : tensor<4x4xf32>, vector<4x4xf32>
  return %0, %1, %2 : vector<4xf32>, vector<4xf32>, vector<4x4xf32>
}

// -----

// With lower-tensors, a tensor write yields the tensor each row wrote.
// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(convert-vector-to-scf{lower-tensors=true})' | filecheck %s --check-prefix=TENSOR
// TENSOR-LABEL: func.func @tensor_write
// TENSOR: %[[T0:.*]] = scf.if %{{.*}} -> (tensor<?x8xf32>) {
// TENSOR:   %[[W:.*]] = vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<4xf32>, tensor<?x8xf32>
// TENSOR:   scf.yield %[[W]] : tensor<?x8xf32>
// TENSOR: } else {
// TENSOR:   scf.yield %{{.*}} : tensor<?x8xf32>
// TENSOR: vector.transfer_write %{{.*}}, %[[T0]]
func.func @tensor_write(%t: tensor<?x8xf32>, %i: index, %v: vector<2x4xf32>) -> tensor<?x8xf32> {
  %0 = vector.transfer_write %v, %t[%i, %i] : vector<2x4xf32>, tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// target-rank=2 keeps 2-D transfers and splits a 3-D one into 2-D rows.
// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(convert-vector-to-scf{target-rank=2})' | filecheck %s --check-prefix=RANK2
// RANK2-LABEL: func.func @rank3
// RANK2-COUNT-2: vector.transfer_read {{.*}} {in_bounds = [true, true]} : memref<2x3x4xf32>, vector<3x4xf32>
// RANK2-NOT: vector<2x3x4xf32>, vector
func.func @rank3(%m: memref<2x3x4xf32>, %i: index) -> vector<2x3x4xf32> {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %i, %i], %pad {in_bounds = [true, true, true]} : memref<2x3x4xf32>, vector<2x3x4xf32>
  return %0 : vector<2x3x4xf32>
}
