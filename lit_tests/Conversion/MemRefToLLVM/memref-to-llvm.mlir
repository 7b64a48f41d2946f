// RUN: mlkit-opt %s -split-input-file -finalize-memref-to-llvm | FileCheck %s
// RUN: mlkit-opt %s -split-input-file -finalize-memref-to-llvm=use-generic-functions | FileCheck %s --check-prefix=GENERIC

// CHECK: llvm.func @free(!llvm.ptr)
// CHECK: llvm.func @malloc(i64) -> !llvm.ptr
// GENERIC: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// GENERIC: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK-LABEL: func.func @alloc
// CHECK: %[[N:.*]] = builtin.unrealized_conversion_cast %{{.*}} : index to i64
// CHECK: %[[SIZE:.*]] = llvm.mul %{{.*}}, %[[N]] : i64
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[END:.*]] = llvm.getelementptr %[[NULL]][%[[SIZE]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[BYTES:.*]] = llvm.ptrtoint %[[END]] : !llvm.ptr to i64
// CHECK: llvm.call @malloc(%[[BYTES]]) : (i64) -> !llvm.ptr
// CHECK: llvm.insertvalue %[[N]], %{{.*}}[3, 0]
// CHECK: llvm.extractvalue %{{.*}}[0]
// CHECK: llvm.call @free
// GENERIC: llvm.call @_mlir_memref_to_llvm_alloc
// GENERIC: llvm.call @_mlir_memref_to_llvm_free
func.func @alloc(%n: index) {
  %a = memref.alloc(%n) : memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  return
}

// -----

// Aligned allocations over-allocate and round the pointer up.
// CHECK-LABEL: func.func @aligned
// CHECK: %[[ALIGN:.*]] = llvm.mlir.constant(32 : index) : i64
// CHECK: llvm.add %{{.*}}, %[[ALIGN]] : i64
// CHECK: llvm.urem %{{.*}}, %[[ALIGN]] : i64
// CHECK: llvm.inttoptr
// CHECK: llvm.alloca %{{.*}} x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
func.func @aligned() {
  %a = memref.alloc() {alignment = 32} : memref<8xf32>
  %b = memref.alloca() {alignment = 16} : memref<8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @access
// CHECK: %[[P:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK: %[[ROW:.*]] = llvm.mul %{{.*}}, %{{.*}} overflow<nsw, nuw> : i64
// CHECK: %[[IDX:.*]] = llvm.add %[[ROW]], %{{.*}} overflow<nsw, nuw> : i64
// CHECK: %[[ADDR:.*]] = llvm.getelementptr inbounds|nuw %[[P]][%[[IDX]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.load %[[ADDR]] : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr
func.func @access(%m: memref<?x4xf32>, %i: index, %v: f32) -> f32 {
  %x = memref.load %m[%i, %i] : memref<?x4xf32>
  memref.store %v, %m[%i, %i] : memref<?x4xf32>
  return %x : f32
}

// -----

// CHECK-LABEL: func.func @dims
// CHECK: llvm.extractvalue %{{.*}}[3, 0]
// CHECK: llvm.alloca %{{.*}} x !llvm.array<2 x i64>
// CHECK: llvm.getelementptr %{{.*}}[0, %{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<2 x i64>
func.func @dims(%m: memref<?x4xf32>, %i: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %d0 = memref.dim %m, %c0 : memref<?x4xf32>
  %di = memref.dim %m, %i : memref<?x4xf32>
  return %d0, %di : index, index
}

// -----

// CHECK: llvm.mlir.global private constant @g(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
// CHECK-LABEL: func.func @globals
// CHECK: %[[G:.*]] = llvm.mlir.addressof @g : !llvm.ptr
// CHECK: llvm.getelementptr %[[G]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x f32>
// CHECK: llvm.mlir.constant(3735928559 : index) : i64
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<2xf32>, initial_value = dense<[1.0, 2.0]> : tensor<2xf32>, constant}> : () -> ()
func.func @globals() -> memref<2xf32> {
  %g = memref.get_global @g : memref<2xf32>
  return %g : memref<2xf32>
}

// -----

// Copies between identity layouts are one memcpy; others call memrefCopy.
// CHECK: llvm.func @memrefCopy(i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @copies
// CHECK: "llvm.intr.memcpy"
// CHECK: llvm.call @memrefCopy
func.func @copies(%a: memref<4xf32>, %b: memref<4xf32>, %s: memref<4xf32, strided<[2]>>) {
  "memref.copy"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  "memref.copy"(%s, %b) : (memref<4xf32, strided<[2]>>, memref<4xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[0] : !llvm.struct<(i64, ptr)>
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
func.func @casts(%a: memref<4xf32>) -> memref<?xf32> {
  %u = "memref.cast"(%a) : (memref<4xf32>) -> memref<*xf32>
  %r = "memref.cast"(%u) : (memref<*xf32>) -> memref<?xf32>
  return %r : memref<?xf32>
}

// -----

// CHECK-LABEL: func.func @reinterpret
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
func.func @reinterpret(%b: memref<8xf32>, %o: index) -> memref<2x2xf32, strided<[2, 1], offset: ?>> {
  %r = memref.reinterpret_cast %b to offset: [%o], sizes: [2, 2], strides: [2, 1] : memref<8xf32> to memref<2x2xf32, strided<[2, 1], offset: ?>>
  return %r : memref<2x2xf32, strided<[2, 1], offset: ?>>
}

// -----

// Views are left for expand-strided-metadata, as upstream leaves them.
// CHECK-LABEL: func.func @subview
// CHECK: memref.subview
func.func @subview(%m: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 2>> {
  %v = memref.subview %m[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  return %v : memref<4xf32, strided<[1], offset: 2>>
}
