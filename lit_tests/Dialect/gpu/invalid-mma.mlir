// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// One chunk per !gpu.mma_matrix or gpu.subgroup_mma_* error; upstream MLIR
// rejects each with the same message.

// expected-error @+1 {{operand expected to be one of AOp, BOp or COp}}
func.func @f(%m: !gpu.mma_matrix<8x8xf16, "DOp">) {
  return
}

// -----

// expected-error @+1 {{MMAMatrixType must have exactly two dimensions}}
func.func @f(%m: !gpu.mma_matrix<8xf16, "AOp">) {
  return
}

// -----

func.func @f(%src: memref<64x64xf16, strided<[1, 64]>>, %i: index) {
  // expected-error @+1 {{expected source memref most minor dim must have unit stride}}
  %a = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 64 : index} : memref<64x64xf16, strided<[1, 64]>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}

// -----

func.func @f(%m: !gpu.mma_matrix<16x16xf32, "COp">, %dst: memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>, %i: index) {
  // expected-error @+1 {{expected destination memref most minor dim must have unit stride}}
  gpu.subgroup_mma_store_matrix %m, %dst[%i, %i] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>
  return
}

// -----

func.func @f(%m: !gpu.mma_matrix<16x16xf16, "BOp">, %dst: memref<64x64xf16>, %i: index) {
  // expected-error @+1 {{expected the operand matrix being stored to have 'COp' operand type}}
  gpu.subgroup_mma_store_matrix %m, %dst[%i, %i] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf16, "BOp">, memref<64x64xf16>
  return
}

// -----

func.func @f(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // expected-error @+1 {{operands must be in the order AOp, BOp, COp}}
  %d = gpu.subgroup_mma_compute %a, %a, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @f(%a: !gpu.mma_matrix<16x8xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // expected-error @+1 {{operand shapes do not satisfy matmul constraints}}
  %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @f(%v: f16) {
  // expected-error @+1 {{value type matches element type of mma_matrix}}
  %m = "gpu.subgroup_mma_constant_matrix"(%v) : (f16) -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}
