// RUN: mlkit-opt %s -p 'builtin.module(generate-runtime-verification)' | filecheck %s

// CHECK-LABEL: func.func @accesses
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D0:.*]] = memref.dim %[[M:.*]], %{{.*}} : memref<?x4xf32>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[I:.*]], %[[C0]] : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[D0]] : index
// CHECK: arith.andi %[[GE]], %[[LT]] : i1
// CHECK: memref.dim %[[M]], %{{.*}} : memref<?x4xf32>
// CHECK: cf.assert %{{.*}}, "ERROR: Runtime op verification failed\0A%0 = memref.load %1[%2, %3] : memref<?x4xf32>\0A^ out-of-bounds access\0ALocation: loc(\22{{.*}}generate-runtime-verification.mlir\22:22:3)"
// CHECK-NEXT: memref.load
// CHECK: cf.assert %{{.*}}, "ERROR: Runtime op verification failed\0Amemref.store {{.*}}^ out-of-bounds access
// CHECK-NEXT: memref.store
// CHECK: cf.assert %{{.*}}, "{{.*}}^ index is out of bounds
// CHECK-NEXT: memref.dim
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x4xf32>
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK: arith.cmpi eq, %[[N]], %[[EIGHT]] : index
// CHECK: cf.assert %{{.*}}, "{{.*}}^ size mismatch of dim 0
// CHECK-NEXT: memref.cast
func.func @accesses(%m: memref<?x4xf32>, %i: index, %j: index, %v: f32) -> memref<8x4xf32> {
  %x = memref.load %m[%i, %j] : memref<?x4xf32>
  memref.store %v, %m[%j, %i] : memref<?x4xf32>
  %d = memref.dim %m, %i : memref<?x4xf32>
  %c = memref.cast %m : memref<?x4xf32> to memref<8x4xf32>
  return %c : memref<8x4xf32>
}

// Nothing to check: a rank-0 access, a cast that only forgets sizes.
// CHECK-LABEL: func.func @unchecked
// CHECK-NOT: cf.assert
// CHECK: return
func.func @unchecked(%s: memref<f32>, %m: memref<4xf32>) -> memref<?xf32> {
  %x = memref.load %s[] : memref<f32>
  %c = memref.cast %m : memref<4xf32> to memref<?xf32>
  return %c : memref<?xf32>
}
