"""Differential tests of mlkit's tensor dialect against upstream MLIR, and the
Python-level helpers later passes use."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType, f32

from upstream_oracle import assert_upstream_reads_same_ir, ir, mlkit_print

from mlkit.dialects import tensor
from mlkit.dialects.tensor.common import compute_rank_reduction_mask
from mlkit.dialects.tensor.region import infer_pad_shape
from mlkit.dialects.tensor.reshape import infer_collapsed_shape

ROOT = Path(__file__).resolve().parent.parent
LIT = ROOT / "lit_tests" / "Dialect" / "tensor"
EXPECTED = re.compile(r"expected-error\s*@[+-]?\w*\s*\{\{(.*)\}\}")


def test_upstream_reads_same_ir() -> None:
    assert_upstream_reads_same_ir(LIT / "ops.mlir")


def test_custom_form_matches_upstream_text() -> None:
    """Beyond reading the same IR: mlkit prints the tensor ops' custom syntax
    with upstream's spelling (SSA names aside)."""
    from upstream_oracle import upstream_print

    text = (LIT / "ops.mlir").read_text()
    ours = mlkit_print(text)
    theirs = upstream_print(text, generic=False)

    def ops(printed: str) -> list[str]:
        lines = [line.strip() for line in printed.splitlines() if "tensor." in line]
        # Names differ (upstream prints %extracted_slice, ...); compare the rest.
        return [re.sub(r"%[\w#]+", "%v", re.sub(r"^%[\w#]+ = ", "", line)) for line in lines]

    assert ops(ours) == ops(theirs)


def _chunks() -> list[tuple[str, str]]:
    text = (LIT / "invalid.mlir").read_text()
    chunks = []
    for chunk in text.split("// -----"):
        match = EXPECTED.search(chunk)
        assert match is not None, f"chunk without expected-error:\n{chunk}"
        chunks.append((match.group(1), chunk))
    return chunks


@pytest.mark.parametrize(("message", "chunk"), _chunks(), ids=lambda v: v[:60])
def test_upstream_rejects_invalid_chunk(message: str, chunk: str) -> None:
    """Each invalid chunk is rejected by upstream too, with the same message."""
    with ir.Context():
        with pytest.raises(Exception) as info:
            ir.Module.parse(chunk)
    diagnostics = [d.message for d in getattr(info.value, "error_diagnostics", [])]
    assert any(message in d for d in diagnostics), diagnostics


def test_ops_subclass_xdsl_classes() -> None:
    """xDSL's rewrites match on its classes; mlkit's ops still are instances."""
    for ours, theirs in [
        (tensor.ExtractSliceOp, xtensor.ExtractSliceOp),
        (tensor.InsertSliceOp, xtensor.InsertSliceOp),
        (tensor.EmptyOp, xtensor.EmptyOp),
        (tensor.CollapseShapeOp, xtensor.CollapseShapeOp),
        (tensor.ExpandShapeOp, xtensor.ExpandShapeOp),
    ]:
        assert issubclass(ours, theirs)


def test_rank_reduction_mask() -> None:
    assert compute_rank_reduction_mask([1, 6, 1], [6, 1]) == {0}
    assert compute_rank_reduction_mask([1, 6, 1], [1, 6]) == {2}
    assert compute_rank_reduction_mask([1, 1, 2, 1, 1, 4, 1], [1, 2, 1, 4]) == {1, 4, 6}
    assert compute_rank_reduction_mask([8, 16, 4], [4, 16]) is None
    assert compute_rank_reduction_mask([4], [4, 1]) is None


def test_slice_accessors() -> None:
    text = """
    func.func @f(%t: tensor<8x16x4xf32>, %i: index) -> tensor<?xf32> {
      %0 = tensor.extract_slice %t[%i, 4, 0] [1, %i, 1] [1, 1, 1] : tensor<8x16x4xf32> to tensor<?xf32>
      return %0 : tensor<?xf32>
    }
    """
    from mlkit.context import make_context
    from mlkit.syntax.parser import parse_module

    module = parse_module(make_context(), text, "<test>")
    op = next(o for o in module.walk() if isinstance(o, tensor.ExtractSliceOp))
    index_arg = op.offsets[0]
    assert op.mixed_offsets() == [index_arg, 4, 0]
    assert op.mixed_sizes() == [1, index_arg, 1]
    assert op.mixed_strides() == [1, 1, 1]
    assert op.dropped_dims() == {0, 2}


def test_shape_inference_helpers() -> None:
    dyn = DYNAMIC_INDEX
    assert infer_pad_shape([1, 2, 2, dyn], [2, dyn, 3, 3], [3, 3, dyn, 2]) == [6, dyn, dyn, dyn]
    assert infer_pad_shape([4], [1, 1], [1]) is None
    assert infer_collapsed_shape([2, 3, dyn, 4], [[0, 1], [2, 3]]) == [6, dyn]


def test_builders_verify() -> None:
    """The Python constructors later passes call build ops that verify."""
    from xdsl.ir import Block, Region

    block = Block(arg_types=[TensorType(f32, [2, 3]), f32])
    source, value = block.args
    body = Block(arg_types=[IndexType(), IndexType()])
    body.add_op(tensor.YieldOp(value))
    pad = tensor.PadOp(source, [], [], [1, 0], [1, 2], Region(body), TensorType(f32, [4, 5]))
    block.add_op(pad)
    pad.verify()
    rank = tensor.RankOp(source)
    block.add_op(rank)
    rank.verify()
