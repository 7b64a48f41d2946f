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
