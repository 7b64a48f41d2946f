// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of !gpu.mma_matrix and the subgroup matrix ops, in upstream
// MLIR's custom syntax.

// CHECK-LABEL: func.func @tile_mac
// CHECK-SAME: (%[[SMEM:.*]]: memref<64x64xf16, #gpu.address_space<workgroup>>, %[[OUT:.*]]: memref<64x64xf32>, %[[ROW:.*]]: index, %[[COL:.*]]: index, %[[ZERO:.*]]: f32)
func.func @tile_mac(%smem: memref<64x64xf16, #gpu.address_space<workgroup>>, %out: memref<64x64xf32>,
                    %row: index, %col: index, %zero: f32) {
  // CHECK: %[[LHS:.*]] = gpu.subgroup_mma_load_matrix %[[SMEM]][%[[ROW]], %[[COL]]] {leadDimension = 64 : index} : memref<64x64xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x8xf16, "AOp">
  %lhs = gpu.subgroup_mma_load_matrix %smem[%row, %col] {leadDimension = 64 : index}
      : memref<64x64xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x8xf16, "AOp">
  // CHECK: %[[RHS:.*]] = gpu.subgroup_mma_load_matrix %[[SMEM]][%[[COL]], %[[ROW]]] {leadDimension = 64 : index, transpose} : memref<64x64xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<8x32xf16, "BOp">
  %rhs = gpu.subgroup_mma_load_matrix %smem[%col, %row] {transpose, leadDimension = 64 : index}
      : memref<64x64xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<8x32xf16, "BOp">
  // CHECK: %[[ACC:.*]] = gpu.subgroup_mma_constant_matrix %[[ZERO]] : !gpu.mma_matrix<16x32xf32, "COp">
  %acc = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x32xf32, "COp">
  // CHECK: %[[SUM:.*]] = gpu.subgroup_mma_compute %[[LHS]], %[[RHS]], %[[ACC]] {b_transpose} : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x32xf16, "BOp"> -> !gpu.mma_matrix<16x32xf32, "COp">
  %sum = gpu.subgroup_mma_compute %lhs, %rhs, %acc {b_transpose}
      : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x32xf16, "BOp"> -> !gpu.mma_matrix<16x32xf32, "COp">
  // CHECK: %[[MAX:.*]] = gpu.subgroup_mma_elementwise maxf %[[SUM]], %[[ACC]] : (!gpu.mma_matrix<16x32xf32, "COp">, !gpu.mma_matrix<16x32xf32, "COp">) -> !gpu.mma_matrix<16x32xf32, "COp">
  %max = gpu.subgroup_mma_elementwise maxf %sum, %acc
      : (!gpu.mma_matrix<16x32xf32, "COp">, !gpu.mma_matrix<16x32xf32, "COp">) -> !gpu.mma_matrix<16x32xf32, "COp">
  // CHECK: gpu.subgroup_mma_store_matrix %[[MAX]], %[[OUT]][%[[ROW]], %[[COL]]] {leadDimension = 64 : index} : !gpu.mma_matrix<16x32xf32, "COp">, memref<64x64xf32>
  gpu.subgroup_mma_store_matrix %max, %out[%row, %col] {leadDimension = 64 : index}
      : !gpu.mma_matrix<16x32xf32, "COp">, memref<64x64xf32>
  return
}

// CHECK-LABEL: func.func @integer_fragments
// CHECK: gpu.subgroup_mma_constant_matrix %{{.*}} : !gpu.mma_matrix<16x16xi32, "COp">
// CHECK: gpu.subgroup_mma_elementwise negates %{{.*}} : (!gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
// CHECK: gpu.subgroup_mma_load_matrix %{{.*}}[%{{.*}}] {leadDimension = 16 : index} : memref<256xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
func.func @integer_fragments(%seed: i32, %bytes: memref<256xi8>, %i: index) -> !gpu.mma_matrix<16x16xi32, "COp"> {
  %c = gpu.subgroup_mma_constant_matrix %seed : !gpu.mma_matrix<16x16xi32, "COp">
  %n = gpu.subgroup_mma_elementwise negates %c : (!gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  %a = gpu.subgroup_mma_load_matrix %bytes[%i] {leadDimension = 16 : index} : memref<256xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
  return %n : !gpu.mma_matrix<16x16xi32, "COp">
}
