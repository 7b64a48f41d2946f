"""arith's shape checks against upstream MLIR: scalable vectors, tensor
encodings and unranked tensors in casts, ``select`` and ``Elementwise``.

The lit files hold the cases; here each one is also run through upstream's
verifier, so a case cannot drift from what upstream does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from upstream_oracle import assert_upstream_reads_same_ir, ir, mlkit_print
from xdsl.dialects.builtin import ArrayAttr, BoolAttr, TensorType, UnrankedTensorType
from xdsl.dialects.builtin import VectorType, f32, i32

from mlkit.dialects.arith.shapes import compatible_shape, compatible_shapes

LIT = Path(__file__).parent.parent / "lit_tests" / "Dialect" / "arith"
CHUNKS = (LIT / "invalid-scalable.mlir").read_text().split("// -----")
EXPECTED = "expected-error @+1 {{"


def _expected(chunk: str) -> str | None:
    start = chunk.find(EXPECTED)
    if start < 0:
        return None
    start += len(EXPECTED)
    return chunk[start : chunk.index("}}", start)]


@pytest.mark.parametrize("index", range(len(CHUNKS)))
def test_chunk_verifies_as_upstream(index: int) -> None:
    """mlkit and upstream both give the chunk's expected error, or both accept it."""
    chunk, expected = CHUNKS[index], _expected(CHUNKS[index])
    with ir.Context():
        if expected is None:
            ir.Module.parse(chunk)
        else:
            with pytest.raises(ir.MLIRError) as upstream:
                ir.Module.parse(chunk)
            assert expected in str(upstream.value)
    if expected is None:
        mlkit_print(chunk)
    else:
        with pytest.raises(Exception) as ours:
            mlkit_print(chunk)
        assert expected in str(ours.value)


def test_valid_forms_read_the_same_in_upstream() -> None:
    assert_upstream_reads_same_ir(LIT / "scalable-ops.mlir")


def _vector(shape: list[int], scalable: list[bool]) -> VectorType:
    return VectorType(f32, shape, ArrayAttr([BoolAttr.from_bool(s) for s in scalable]))


def test_scalable_against_fixed() -> None:
    """Many-type check: scalable and fixed never mix; the one-pair check ignores it."""
    scalable, fixed = _vector([4], [True]), _vector([4], [False])
    assert not compatible_shapes([scalable, fixed])
    assert compatible_shapes([scalable, scalable])
    assert compatible_shape(scalable, fixed)


def test_scalable_position_is_not_compared() -> None:
    """As upstream: only whether a vector is scalable somewhere counts."""
    assert compatible_shapes([_vector([2, 3], [True, False]), _vector([2, 3], [False, True])])


def test_dynamic_and_unranked_sizes() -> None:
    ranked, dynamic = TensorType(i32, [5]), TensorType(i32, [-1])
    assert compatible_shapes([ranked, dynamic, UnrankedTensorType(i32)])
    assert not compatible_shapes([ranked, TensorType(i32, [6])])
    assert not compatible_shapes([ranked, i32])
    assert compatible_shapes([i32, f32])
