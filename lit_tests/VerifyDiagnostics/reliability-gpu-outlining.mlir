// RUN: mlkit-opt %s -gpu-kernel-outlining --verify-diagnostics

// A constant block size in [2^31, 2^32) is kept in known_block_size as its
// int32_t bits (upstream's maybeConstantDimsAttr), which gpu.func's verifier
// then rejects at the launch, as upstream's does after the pass. (Larger sizes
// give no hint: reliability-gpu-outlining-hints.mlir.)

func.func @wraps_negative() {
  %c1 = arith.constant 1 : index
  %big = arith.constant 3000000000 : index
  // expected-error @+1 {{'gpu.func' op attribute 'known_block_size' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present) and all elements >= 1}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %big, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
