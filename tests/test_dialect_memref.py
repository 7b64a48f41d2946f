"""Differential tests of mlkit's ``memref`` dialect against upstream MLIR.

The ops file must print (custom and generic) as IR upstream reads the same way,
every chunk of the invalid file must be rejected by upstream too, and the ops
mlkit subclasses must still be instances of xDSL's classes, which passes match.
"""

from __future__ import annotations

import pytest
from mlkit.dialects import memref
from upstream_oracle import dialect_differential_tests, mlkit_print
from xdsl.dialects import memref as xmemref

from mlkit.dialects import DIALECTS
from mlkit.registry import import_object

test_upstream_reads_same_ir, test_upstream_rejects_invalid_chunk = (
    dialect_differential_tests("memref")
)


def test_registered_dialect_is_mlkits() -> None:
    assert import_object(DIALECTS["memref"]) is memref.MemRef


@pytest.mark.parametrize(
    "ours",
    [
        memref.CastOp,
        memref.CopyOp,
        memref.RankOp,
        memref.GlobalOp,
        memref.GetGlobalOp,
        memref.AtomicRMWOp,
        memref.MemorySpaceCastOp,
        memref.ExtractAlignedPointerAsIndexOp,
        memref.ReinterpretCastOp,
        memref.ExpandShapeOp,
    ],
)
def test_subclasses_keep_xdsl_matching(ours: type) -> None:
    """Passes match xDSL's op classes with isinstance."""
    assert issubclass(ours, getattr(xmemref, ours.__name__))
    assert ours in list(memref.MemRef.operations)
    assert getattr(xmemref, ours.__name__) not in list(memref.MemRef.operations)


def test_global_optional_parts_round_trip() -> None:
    text = 'memref.global "private" @ext : memref<2xf32>\n'
    assert 'memref.global "private" @ext : memref<2xf32>\n' in mlkit_print(text)
    generic = mlkit_print(text, generic=True)
    assert "initial_value" not in generic and 'sym_visibility = "private"' in generic


def test_rank_of_unranked_memref() -> None:
    text = (
        "func.func @f(%u: memref<*xf32>) -> index {\n"
        "  %r = memref.rank %u : memref<*xf32>\n  return %r : index\n}\n"
    )
    assert "memref.rank %arg0 : memref<*xf32>" in mlkit_print(text)
