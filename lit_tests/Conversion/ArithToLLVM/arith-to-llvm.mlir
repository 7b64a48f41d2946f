// RUN: mlkit-opt %s -split-input-file -convert-arith-to-llvm | FileCheck %s
// RUN: mlkit-opt %s -split-input-file -convert-arith-to-llvm=index-bitwidth=32 | FileCheck %s --check-prefix=CHECK32

// CHECK-LABEL: func.func @int_ops
// CHECK: llvm.add %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: llvm.sdiv %{{.*}}, %{{.*}} : i32
// CHECK: llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
func.func @int_ops(%a: i32, %b: i32) -> (i32, i32, i1, i32) {
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.divsi %a, %b : i32
  %2 = arith.cmpi ult, %a, %b : i32
  %3 = arith.select %2, %a, %b : i32
  return %0, %1, %2, %3 : i32, i32, i1, i32
}

// -----

// CHECK-LABEL: func.func @float_ops
// CHECK: llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK: llvm.fcmp "olt" %{{.*}}, %{{.*}} : f32
// CHECK: llvm.intr.maximum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.fneg %{{.*}} : f32
// CHECK: llvm.fpext %{{.*}} : f32 to f64
func.func @float_ops(%x: f32, %y: f32) -> (f32, i1, f32, f32, f64) {
  %0 = arith.addf %x, %y fastmath<fast> : f32
  %1 = arith.cmpf olt, %x, %y : f32
  %2 = arith.maximumf %x, %y : f32
  %3 = arith.negf %x : f32
  %4 = arith.extf %x : f32 to f64
  return %0, %1, %2, %3, %4 : f32, i1, f32, f32, f64
}

// -----

// Index constants keep their attribute type; the result type follows index-bitwidth.
// CHECK-LABEL: func.func @index_ops
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : index to i64
// CHECK: llvm.mlir.constant(7 : index) : i64
// CHECK: llvm.trunc %[[A]] : i64 to i32
// CHECK32-LABEL: func.func @index_ops
// CHECK32: llvm.mlir.constant(7 : index) : i32
// CHECK32-NOT: llvm.trunc
func.func @index_ops(%i: index) -> (index, i32) {
  %c = arith.constant 7 : index
  %0 = arith.index_cast %i : index to i32
  return %c, %0 : index, i32
}

// -----

// CHECK-LABEL: func.func @expansions
// CHECK32-LABEL: func.func @expansions
// CHECK: %[[Q:.*]] = llvm.sdiv
// CHECK: llvm.mul %[[Q]]
// CHECK: llvm.select
// CHECK: llvm.sext %{{.*}} : i32 to i64
// CHECK: llvm.lshr
func.func @expansions(%a: i32, %b: i32) -> (i32, i32) {
  %0 = arith.ceildivsi %a, %b : i32
  %1:2 = arith.mulsi_extended %a, %b : i32
  return %0, %1#1 : i32, i32
}

// -----

// Vectors of rank 1 convert; tensors are left alone.
// CHECK-LABEL: func.func @shapes
// CHECK: llvm.mlir.constant(dense<2> : vector<4xindex>) : vector<4xi64>
// CHECK: llvm.add %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<4xf32>
func.func @shapes(%v: vector<4xi32>, %t: tensor<4xf32>) -> (vector<4xindex>, vector<4xi32>, tensor<4xf32>) {
  %0 = arith.constant dense<2> : vector<4xindex>
  %1 = arith.addi %v, %v : vector<4xi32>
  %2 = arith.addf %t, %t : tensor<4xf32>
  return %0, %1, %2 : vector<4xindex>, vector<4xi32>, tensor<4xf32>
}

// -----

// The nneg flag of extui, uitofp and index_castui stays on the llvm op; a
// cast without it gets none.
// CHECK-LABEL: func.func @nneg_casts
// CHECK:         llvm.zext nneg %{{.*}} : i32 to i64
// CHECK:         llvm.uitofp nneg %{{.*}} : i32 to f32
// CHECK:         llvm.zext nneg %{{.*}} : i32 to i64
// CHECK:         llvm.zext %{{.*}} : i32 to i64
func.func @nneg_casts(%a: i32) -> (i64, f32, index, i64) {
  %0 = arith.extui %a nneg : i32 to i64
  %1 = arith.uitofp %a nneg : i32 to f32
  %2 = arith.index_castui %a nneg : i32 to index
  %3 = arith.extui %a : i32 to i64
  return %0, %1, %2, %3 : i64, f32, index, i64
}
