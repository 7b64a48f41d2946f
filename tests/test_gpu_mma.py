"""``!gpu.mma_matrix`` and the ``gpu.subgroup_mma_*`` ops against upstream MLIR:
mlkit must print what upstream prints for the same program, in custom and in
generic form, and reject what upstream's verifiers reject."""

from __future__ import annotations

import pytest

from upstream_oracle import mlkit_print, upstream_print

# A 16x16x16 tile step: load A and B from shared memory, fill C, multiply-
# accumulate, rescale and store the accumulator.
TILE_STEP = """
func.func @tile_step(%smem: memref<32x32xf16, #gpu.address_space<workgroup>>,
                     %out: memref<32x32xf32>, %i: index, %j: index, %zero: f32) {
  %a = gpu.subgroup_mma_load_matrix %smem[%i, %j] {leadDimension = 32 : index}
      : memref<32x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %b = gpu.subgroup_mma_load_matrix %smem[%j, %i] {leadDimension = 32 : index, transpose}
      : memref<32x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
  %c = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
  %d = gpu.subgroup_mma_compute %a, %b, %c {b_transpose}
      : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
      -> !gpu.mma_matrix<16x16xf32, "COp">
  %e = gpu.subgroup_mma_elementwise mulf %d, %d
      : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">)
      -> !gpu.mma_matrix<16x16xf32, "COp">
  gpu.subgroup_mma_store_matrix %e, %out[%i, %j] {leadDimension = 32 : index}
      : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>
  return
}
"""


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_mma_ops_print_as_upstream(generic: bool) -> None:
    assert mlkit_print(TILE_STEP, generic=generic).strip() == (
        upstream_print(TILE_STEP, generic=generic).strip()
    )


def test_mma_ops_round_trip() -> None:
    once = mlkit_print(TILE_STEP)
    assert mlkit_print(once) == once


SWAPPED = """
func.func @f(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">,
             %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  %d = gpu.subgroup_mma_compute %b, %a, %c : !gpu.mma_matrix<16x16xf16, "BOp">,
      !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}
"""


def test_operand_order_rejected_by_both() -> None:
    with pytest.raises(Exception, match="operands must be in the order AOp, BOp, COp"):
        upstream_print(SWAPPED)
    with pytest.raises(Exception, match="operands must be in the order AOp, BOp, COp"):
        mlkit_print(SWAPPED)
