// RUN: mlkit-opt %s -split-input-file -convert-func-to-llvm | FileCheck %s

// Memref arguments expand into descriptor fields; the entry block rebuilds them.
// CHECK-LABEL: llvm.func @args
// CHECK-SAME: (%[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr, %[[O:.*]]: i64, %[[S0:.*]]: i64, %[[S1:.*]]: i64, %[[T0:.*]]: i64, %[[T1:.*]]: i64, %[[R:.*]]: i64, %[[P:.*]]: !llvm.ptr, %[[I:.*]]: i64)
// CHECK-SAME: -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: llvm.insertvalue %[[S0]], %{{.*}}[3, 0]
// CHECK: llvm.insertvalue %[[T0]], %{{.*}}[4, 0]
// CHECK: llvm.return %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
func.func @args(%m: memref<?x4xf32>, %u: memref<*xf32>, %i: index) -> memref<?x4xf32> {
  return %m : memref<?x4xf32>
}

// -----

// Several results are packed in a struct, and unpacked after a call.
// CHECK-LABEL: llvm.func @two() -> !llvm.struct<(i64, f32)>
// CHECK: %[[S:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(i64, f32)>
// CHECK: llvm.return %[[S]]
// CHECK-LABEL: llvm.func @use()
// CHECK: %[[R:.*]] = llvm.call @two() : () -> !llvm.struct<(i64, f32)>
// CHECK: llvm.extractvalue %[[R]][0] : !llvm.struct<(i64, f32)>
// CHECK: llvm.extractvalue %[[R]][1] : !llvm.struct<(i64, f32)>
func.func @two() -> (index, f32) {
  %i = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  return %i, %f : index, f32
}
func.func @use() {
  %a, %b = call @two() : () -> (index, f32)
  return
}

// -----

// A definition with the C interface gets a wrapper taking descriptors by pointer.
// CHECK-LABEL: llvm.func @ciface(
// CHECK-LABEL: llvm.func @_mlir_ciface_ciface(
// CHECK-SAME: %{{.*}}: !llvm.ptr) attributes {llvm.emit_c_interface}
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: llvm.call @ciface(
func.func @ciface(%m: memref<4xf32>) attributes {llvm.emit_c_interface} {
  return
}

// -----

// An external declaration with the C interface calls `_mlir_ciface_` through the stack.
// CHECK-LABEL: llvm.func private @printMemrefF32(%{{.*}}: i64, %{{.*}}: !llvm.ptr)
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr)>
// CHECK: llvm.call @_mlir_ciface_printMemrefF32(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK: llvm.func @_mlir_ciface_printMemrefF32(!llvm.ptr)
// CHECK-LABEL: llvm.func @ext(!llvm.ptr, !llvm.ptr, i64, i64, i64) -> f32 attributes {sym_visibility = "private"}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @ext(memref<2xf32>) -> f32

// -----

// Functions over types with no LLVM form are left alone.
// CHECK-LABEL: func.func @tensor
func.func @tensor(%t: tensor<4xf32>) -> tensor<4xf32> {
  return %t : tensor<4xf32>
}
