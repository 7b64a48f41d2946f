"""The linalg dialect against upstream MLIR.

- ops.mlir reads back in upstream as the same IR from both of mlkit's forms;
- every invalid.mlir chunk is rejected by upstream too;
- every named and structural op generalizes (maps, iterator types, body) to
  the linalg.generic upstream's ``linalg-generalize-named-ops`` builds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from upstream_oracle import assert_upstream_reads_same_ir, ir, upstream_print

DIALECT_TESTS = Path(__file__).parent.parent / "lit_tests" / "Dialect" / "linalg"
OPS = DIALECT_TESTS / "ops.mlir"
INVALID = DIALECT_TESTS / "invalid.mlir"
GENERALIZE = "builtin.module(func.func(linalg-generalize-named-ops))"


def test_upstream_reads_same_ir() -> None:
    assert_upstream_reads_same_ir(OPS)


def _invalid_chunks() -> list[str]:
    return [c for c in INVALID.read_text().split("// -----") if "expected-error" in c]


@pytest.mark.parametrize("index", range(len(_invalid_chunks())))
def test_upstream_rejects_invalid_chunk(index: int) -> None:
    chunk = _invalid_chunks()[index]
    with ir.Context(), pytest.raises(ir.MLIRError):
        ir.Module.parse(chunk)


def test_mlkit_rejects_invalid_chunks() -> None:
    from mlkit.context import make_context
    from mlkit.diagnostics import DiagnosticError
    from mlkit.syntax.parser import parse_module
    from mlkit.diagnostics.verifier import verify_op_tree

    for chunk in _invalid_chunks():
        expected = re.search(r"expected-error[^{]*\{\{(.*)\}\}", chunk)
        assert expected is not None
        with pytest.raises(DiagnosticError) as info:
            verify_op_tree(parse_module(make_context(), chunk, "<chunk>"))
        assert expected.group(1) in str(info.value), chunk


def _mlkit_generalized(text: str) -> str:
    """ops.mlir with every structured op but generic replaced, by mlkit."""
    from mlkit.dialects.linalg import GenericOp, generalize_in_place

    from mlkit.context import make_context
    from mlkit.syntax.parser import parse_module
    from mlkit.syntax.printer import print_op

    module = parse_module(make_context(), text, "<ops>")
    targets = [
        op
        for op in module.walk()
        if op.name.startswith("linalg.")
        and hasattr(op, "get_indexing_maps")
        and not isinstance(op, GenericOp)
    ]
    assert targets
    for op in targets:
        generalize_in_place(op)
    return print_op(module, generic=True)


def _strip_memoized(text: str) -> str:
    return re.sub(r" \{linalg\.memoized_indexing_maps = \[[^\]]*\]\}", "", text)


def test_generalization_matches_upstream() -> None:
    text = OPS.read_text()
    expected = _strip_memoized(upstream_print(text, pipeline=GENERALIZE))
    # Upstream's pass also folds (hoists constants); run it over mlkit's result too.
    got = _strip_memoized(upstream_print(_mlkit_generalized(text), pipeline=GENERALIZE))
    assert got == expected


def test_python_interface() -> None:
    """Maps, iterators and bodies are reachable from Python for later passes."""
    from mlkit.dialects.linalg.attrs import IteratorType
    from mlkit.dialects.linalg.contraction import MatmulOp
    from xdsl.dialects.builtin import TensorType, f32
    from xdsl.ir.affine import AffineMap
    from xdsl.utils.test_value import create_ssa_value

    a = create_ssa_value(TensorType(f32, [4, 8]))
    b = create_ssa_value(TensorType(f32, [8, 16]))
    c = create_ssa_value(TensorType(f32, [4, 16]))
    op = MatmulOp([a, b], [c])
    op.verify()
    maps = [m.data for m in op.get_indexing_maps()]
    assert maps == [
        AffineMap.from_callable(lambda m, n, k: (m, k)),
        AffineMap.from_callable(lambda m, n, k: (k, n)),
        AffineMap.from_callable(lambda m, n, k: (m, n)),
    ]
    assert [t.data for t in op.get_iterator_types()] == [
        IteratorType.PARALLEL,
        IteratorType.PARALLEL,
        IteratorType.REDUCTION,
    ]
    body = [
        o.name for o in MatmulOp.build_region([a.type, b.type, c.type], {}).block.ops
    ]
    assert body == ["arith.mulf", "arith.addf", "linalg.yield"]
    assert [r.type for r in op.results] == [c.type]



def test_copy_like_ops_build_from_python() -> None:
    """``TransposeOp(x, init, perm)`` and ``BroadcastOp(x, init, dims)`` build the
    op a parse would: the hidden body, a result for a tensor init only, and
    upstream's result names."""
    from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType, f32
    from xdsl.dialects.func import FuncOp, ReturnOp
    from xdsl.ir import Block, Region

    from mlkit.diagnostics.verifier import verify_op_tree
    from mlkit.dialects import linalg, tensor
    from mlkit.syntax.printer import print_op

    t23, t32, t3 = TensorType(f32, [2, 3]), TensorType(f32, [3, 2]), TensorType(f32, [3])
    block = Block(arg_types=[t23, t3, MemRefType(f32, [2, 3]), MemRefType(f32, [3, 2])])
    x, v, m, mt = block.args
    e32, e23 = tensor.EmptyOp([], t32), tensor.EmptyOp([], t23)
    tr = linalg.TransposeOp(x, e32.tensor, [1, 0])
    bc = linalg.BroadcastOp(v, e23.tensor, [0])
    on_memref = linalg.TransposeOp(m, mt, [1, 0])
    assert len(on_memref.results) == 0
    block.add_ops([e32, e23, tr, bc, on_memref, ReturnOp(tr.results[0], bc.results[0])])
    module = ModuleOp([FuncOp("f", ([*block.arg_types], [t32, t23]), Region(block))])
    verify_op_tree(module)
    text = print_op(module)
    assert (
        "%transposed = linalg.transpose ins(%arg0 : tensor<2x3xf32>) "
        "outs(%0 : tensor<3x2xf32>) permutation = [1, 0]" in text
    )
    assert (
        "%broadcasted = linalg.broadcast ins(%arg1 : tensor<3xf32>) "
        "outs(%1 : tensor<2x3xf32>) dimensions = [0]" in text
    )
    assert upstream_print(text, generic=False) == text + "\n"


def test_dialect_modules_hand_out_the_registered_op_classes() -> None:
    """``mlkit.dialects.arith.AddfOp`` (xDSL's class) and ``tensor.EmptyOp`` (mlkit's)
    are the classes the dialects register, so a plugin's pass builds ops the rest of
    mlkit knows; a name that is not one of the dialect's ops is an AttributeError."""
    import importlib

    from mlkit.plugins import default_registry

    for name, entry in default_registry().dialects.items():
        try:
            module = importlib.import_module(f"mlkit.dialects.{name}")
        except ModuleNotFoundError:  # builtin, cf, math, ub: xDSL's dialects as they are
            continue
        for op in entry.factory().operations:
            assert getattr(module, op.__name__) is op, f"mlkit.dialects.{name}.{op.__name__}"
    from mlkit.dialects import arith

    with pytest.raises(AttributeError, match="no attribute 'NoSuchOp'"):
        arith.NoSuchOp  # noqa: B018
