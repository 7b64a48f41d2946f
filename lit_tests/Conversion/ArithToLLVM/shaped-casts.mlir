// RUN: mlkit-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s

// Casts of tensors and memrefs are not arith on scalars or vectors: the
// conversion leaves them, as upstream's does, rather than failing (the
// function keeps its tensor argument, so it stays a func.func).
// CHECK-LABEL: func.func @shaped
// CHECK: arith.index_castui %{{.*}} : tensor<?xindex> to tensor<?xi32>
// CHECK: arith.index_cast %{{.*}} : memref<4xi32> to memref<4xindex>
// CHECK: llvm.sext %{{.*}} : vector<4xi32> to vector<4xi64>
func.func @shaped(%t: tensor<?xindex>, %m: memref<4xi32>, %v: vector<4xi32>) {
  %0 = arith.index_castui %t : tensor<?xindex> to tensor<?xi32>
  %1 = arith.index_cast %m : memref<4xi32> to memref<4xindex>
  %2 = arith.index_cast %v : vector<4xi32> to vector<4xindex>
  return
}
