// RUN: mlkit-opt %s -split-input-file -finalize-memref-to-llvm | FileCheck %s

// The address is computed without no-wrap flags (load and store get them).
// CHECK-LABEL: func.func @prefetch
// CHECK: %[[P:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK: %[[S:.*]] = llvm.extractvalue %{{.*}}[4, 0]
// CHECK: %[[ROW:.*]] = llvm.mul %{{.*}}, %[[S]] : i64
// CHECK: %[[IDX:.*]] = llvm.add %[[ROW]], %{{.*}} : i64
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[P]][%[[IDX]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: "llvm.intr.prefetch"(%[[ADDR]]) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}> : (!llvm.ptr) -> ()
// CHECK: "llvm.intr.prefetch"(%[[ADDR2:.*]]) <{cache = 0 : i32, hint = 0 : i32, rw = 1 : i32}> : (!llvm.ptr) -> ()
// CHECK-NOT: memref.prefetch
func.func @prefetch(%m: memref<4x?xf32>, %i: index, %j: index) {
  memref.prefetch %m[%i, %j], read, locality<3>, data : memref<4x?xf32>
  memref.prefetch %m[%i, %j], write, locality<0>, instr : memref<4x?xf32>
  return
}

// -----

// Result dimension 0 takes source dimension 1's size and stride, and the
// other way round; pointers and offset are kept.
// CHECK-LABEL: func.func @transpose
// CHECK-DAG: %[[A:.*]] = llvm.extractvalue %[[D:.*]][0]
// CHECK-DAG: %[[B:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-DAG: %[[O:.*]] = llvm.extractvalue %[[D]][2]
// CHECK-DAG: %[[SZ0:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK-DAG: %[[SZ1:.*]] = llvm.extractvalue %[[D]][3, 1]
// CHECK-DAG: %[[ST0:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK-DAG: %[[ST1:.*]] = llvm.extractvalue %[[D]][4, 1]
// CHECK: llvm.insertvalue %[[A]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[B]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[O]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[SZ1]], %{{.*}}[3, 0]
// CHECK: llvm.insertvalue %[[ST1]], %{{.*}}[4, 0]
// CHECK: llvm.insertvalue %[[SZ0]], %{{.*}}[3, 1]
// CHECK: llvm.insertvalue %[[ST0]], %{{.*}}[4, 1]
func.func @transpose(%v: memref<?x?xf32>) -> memref<?x?xf32, strided<[1, ?]>> {
  %t = memref.transpose %v (i, j) -> (j, i) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>
  return %t : memref<?x?xf32, strided<[1, ?]>>
}

// -----

// The identity permutation forwards the descriptor.
// CHECK-LABEL: func.func @transpose_identity
// CHECK-NOT: llvm.insertvalue
// CHECK: return
func.func @transpose_identity(%v: memref<2x3xf32>) -> memref<2x3xf32, strided<[3, 1]>> {
  %t = memref.transpose %v (i, j) -> (i, j) : memref<2x3xf32> to memref<2x3xf32, strided<[3, 1]>>
  return %t : memref<2x3xf32, strided<[3, 1]>>
}

// -----

// A static shape operand: the dynamic size is loaded from it, the strides
// are built from the innermost dimension out.
// CHECK-LABEL: func.func @reshape
// CHECK-DAG: %[[SHAPE:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<2xindex> to !llvm.struct
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK: %[[IDX:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK: %[[SP:.*]] = llvm.extractvalue %[[SHAPE]][1]
// CHECK: %[[ADDR:.*]] = llvm.getelementptr inbounds|nuw %[[SP]][%[[IDX]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK: %[[SIZE:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> i64
// CHECK: %[[STRIDE:.*]] = llvm.mul %[[ONE]], %[[SIZE]] : i64
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : index) : i64
// CHECK: llvm.insertvalue %[[ZERO]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[TWO]], %{{.*}}[3, 0]
// CHECK: llvm.insertvalue %[[STRIDE]], %{{.*}}[4, 0]
// CHECK: llvm.insertvalue %[[SIZE]], %{{.*}}[3, 1]
// CHECK: llvm.insertvalue %[[ONE]], %{{.*}}[4, 1]
func.func @reshape(%s: memref<4x1xf32>, %shape: memref<2xindex>) -> memref<2x?xf32> {
  %r = memref.reshape %s(%shape) : (memref<4x1xf32>, memref<2xindex>) -> memref<2x?xf32>
  return %r : memref<2x?xf32>
}

// -----

// An unranked source: the pointers are read from its ranked descriptor.
// CHECK-LABEL: func.func @reshape_unranked_source
// CHECK: %[[P:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i64, ptr)>
// CHECK: llvm.load %[[P]] : !llvm.ptr -> !llvm.struct<(ptr, ptr)>
// CHECK: llvm.insertvalue %{{.*}}[3, 0]
// CHECK-NOT: memref.reshape
func.func @reshape_unranked_source(%s: memref<*xf32>, %shape: memref<1xi32>) -> memref<4xf32> {
  %r = memref.reshape %s(%shape) : (memref<*xf32>, memref<1xi32>) -> memref<4xf32>
  return %r : memref<4xf32>
}

// -----

// A narrower shape element is sign-extended to index.
// CHECK-LABEL: func.func @reshape_i32_size
// CHECK: %[[SIZE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[EXT:.*]] = llvm.sext %[[SIZE]] : i32 to i64
// CHECK: llvm.insertvalue %[[EXT]], %{{.*}}[3, 0]
func.func @reshape_i32_size(%s: memref<4xf32>, %shape: memref<1xi32>) -> memref<?xf32> {
  %r = memref.reshape %s(%shape) : (memref<4xf32>, memref<1xi32>) -> memref<?xf32>
  return %r : memref<?xf32>
}

// -----

// A shape of dynamic length (unranked result) is left alone.
// CHECK-LABEL: func.func @reshape_dynamic_length
// CHECK: memref.reshape
func.func @reshape_dynamic_length(%s: memref<4xf32>, %shape: memref<?xindex>) -> memref<*xf32> {
  %r = memref.reshape %s(%shape) : (memref<4xf32>, memref<?xindex>) -> memref<*xf32>
  return %r : memref<*xf32>
}
