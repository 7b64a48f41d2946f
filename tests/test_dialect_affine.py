"""Differential tests of the affine dialect against upstream MLIR."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from upstream_oracle import assert_upstream_reads_same_ir, ir, mlkit_print, upstream_print

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "lit_tests" / "Dialect" / "affine"


def test_upstream_reads_same_ir() -> None:
    assert_upstream_reads_same_ir(TESTS / "ops.mlir")


def test_custom_only_forms() -> None:
    """Maps only the custom form round-trips (see the file)."""
    text = (TESTS / "custom-only.mlir").read_text()
    assert upstream_print(mlkit_print(text)) == upstream_print(text)


def _invalid_chunks() -> list[str]:
    return (TESTS / "invalid.mlir").read_text().split("// -----")


@pytest.mark.parametrize("index", range(len(_invalid_chunks())))
def test_upstream_rejects_invalid_chunk(index: int) -> None:
    chunk = _invalid_chunks()[index]
    expected = re.findall(r"expected-error[^{]*\{\{(.*)\}\}", chunk)
    assert expected, "each chunk states the error it expects"
    with ir.Context(), pytest.raises(Exception) as info:
        ir.Module.parse(chunk)
    for message in expected:
        assert message in str(info.value)


# Upstream's own printed forms: mlkit prints these maps and sets identically.
# (Not `(d0 + 2) * 3`: xDSL's builtin affine_map parser distributes it.)
CANONICAL_ATTRS = [
    "affine_map<(d0)[s0] -> (d0 + s0)>",
    "affine_map<(d0, d1)[s0] -> (d0 - d1, s0 + 512)>",
    "affine_map<(d0)[s0] -> (-d0 + s0 - 1)>",
    "affine_map<(d0, d1) -> (d0 floordiv 8 + d1 mod 128)>",
    "affine_map<(d0) -> (d0 * -3, d0 ceildiv 4 - 1)>",
    "affine_map<(d0, d1) -> (d0 - d1 * 3, d0 * 2 + 1)>",
    "affine_map<() -> (77, 78, 79)>",
    "affine_map<() -> ()>",
    "affine_map<(d0) -> ((d0 floordiv 4) mod 2)>",
    "affine_set<(d0)[s0] : (d0 - 2 >= 0, -d0 + s0 - 1 >= 0)>",
    "affine_set<(d0) : (d0 * 2 - 4 == 0)>",
    "affine_set<() : (0 == 0)>",
]


@pytest.mark.parametrize("text", CANONICAL_ATTRS)
def test_attribute_text_matches_upstream(text: str) -> None:
    from xdsl.context import Context
    from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, Builtin
    from xdsl.parser import Parser

    from mlkit.dialects.affine.syntax import format_affine_map, format_affine_set

    with ir.Context():
        assert str(ir.Attribute.parse(text)) == text, "the list holds upstream's printed forms"
    ctx = Context()
    ctx.load_dialect(Builtin)
    attr = Parser(ctx, text).parse_attribute()
    if isinstance(attr, AffineMapAttr):
        assert format_affine_map(attr.data) == text
    else:
        assert isinstance(attr, AffineSetAttr)
        assert format_affine_set(attr.data) == text


def test_affine_ops_roundtrip_through_upstream_text() -> None:
    """What upstream prints for affine ops, mlkit reads back as the same IR."""
    text = (TESTS / "ops.mlir").read_text()
    upstream_text = upstream_print(text, generic=False)
    assert upstream_print(mlkit_print(upstream_text)) == upstream_print(text)


VALIDITY = """
func.func @f(%n: index, %m: memref<?xf32>) {
  %c = arith.constant 4 : index
  affine.for %i = 0 to 10 {
    %sym = arith.muli %n, %c : index
    %dim = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %neither = arith.addi %i, %n : index
    %v = affine.load %m[%i] : memref<?xf32>
  }
  return
}
"""


def test_dimension_and_symbol_rules() -> None:
    """mlkit's isValidDim/isValidSymbol agree with upstream on sample values."""
    from mlkit.context import make_context
    from mlkit.dialects.affine import ForOp, is_valid_dim, is_valid_symbol
    from mlkit.dialects.affine.scope import get_affine_scope
    from mlkit.syntax.parser import parse_module
    from mlkit.plugins import default_registry

    module = parse_module(make_context(default_registry()), VALIDITY, "<validity>")
    loop = next(op for op in module.walk() if isinstance(op, ForOp))
    region = get_affine_scope(loop.body.block.first_op)  # pyright: ignore[reportArgumentType]
    values = {v.name_hint: v for op in loop.body.block.ops for v in op.results}
    values["i"] = loop.body.block.args[0]
    values["n"] = module.body.block.first_op.regions[0].block.args[0]  # pyright: ignore
    expected = {
        "n": (True, True),
        "sym": (True, True),
        "i": (True, False),
        "dim": (True, False),
        "neither": (False, False),
    }
    for name, (dim, sym) in expected.items():
        assert is_valid_dim(values[name], region) is dim, name
        assert is_valid_symbol(values[name], region) is sym, name


@pytest.mark.parametrize(
    ("name", "as_dim", "as_symbol"),
    [("n", True, True), ("sym", True, True), ("i", True, False), ("dim", True, False), ("neither", False, False)],
)
def test_upstream_agrees_on_validity(name: str, as_dim: bool, as_symbol: bool) -> None:
    """The same table, asked of upstream through affine.load subscripts."""
    for subscript, valid in ((f"%{name}", as_dim), (f"symbol(%{name})", as_symbol)):
        text = VALIDITY.replace("%m[%i]", f"%m[{subscript}]")
        with ir.Context():
            if valid:
                ir.Module.parse(text)
            else:
                with pytest.raises(Exception):
                    ir.Module.parse(text)
