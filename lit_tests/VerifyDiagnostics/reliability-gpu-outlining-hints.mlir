// RUN: mlkit-opt %s --split-input-file -gpu-kernel-outlining | filecheck %s

// Constant launch sizes become the kernel's known_block_size/known_grid_size
// as upstream's maybeConstantDimsAttr makes them: a size past uint32_t gives
// no hint (it used to crash the pass building an i32 array), and the sizes'
// product may exceed 2^32.

// CHECK-LABEL: func.func @too_large
// CHECK: gpu.func @too_large_kernel() kernel attributes {known_grid_size = array<i32: 1, 1, 1>}
func.func @too_large() {
  %c1 = arith.constant 1 : index
  %big = arith.constant 4294967296 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %big, %sy = %big, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

// CHECK-LABEL: func.func @product_past_uint32
// CHECK: known_block_size = array<i32: 65536, 65536, 1>
func.func @product_past_uint32() {
  %c1 = arith.constant 1 : index
  %c65536 = arith.constant 65536 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c65536, %sy = %c65536, %sz = %c1) {
    gpu.terminator
  }
  return
}

