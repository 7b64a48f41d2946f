"""Differential tests of mlkit's ``index`` dialect against upstream MLIR.

The dialect is checked through a context built here, so these tests do not
depend on how the dialect is registered; ``test_registered_dialect`` checks that
``mlkit-opt`` and the library get this very dialect.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from upstream_oracle import EXPECTED_ERROR, assert_upstream_reads_same_ir, expected_error, ir
from upstream_oracle import upstream_print
from xdsl.context import Context
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, IndexType, IntegerAttr, ModuleOp, i1, i32
from xdsl.dialects.func import Func
from xdsl.ir import Block, Region
from xdsl.traits import Commutative, ConstantLike, Pure

from mlkit.diagnostics import DiagnosticError
from mlkit.dialects import index
from mlkit.syntax.parser import parse_module
from mlkit.syntax.printer import print_op
from mlkit.diagnostics.verifier import verify_op_tree

DIALECT_DIR = Path(__file__).parent.parent / "lit_tests" / "Dialect" / "index"
OPS = DIALECT_DIR / "ops.mlir"
INVALID = DIALECT_DIR / "invalid.mlir"


def _context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, index.Index):
        ctx.load_dialect(dialect)
    return ctx


def _parse(text: str, name: str = "<test>") -> ModuleOp:
    module = parse_module(_context(), text, name)
    verify_op_tree(module)
    return module


# -- round trip against upstream ----------------------------------------------


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_upstream_reads_same_ir(generic: bool) -> None:
    text = OPS.read_text()
    printed = print_op(_parse(text, str(OPS)), generic=generic)
    assert upstream_print(printed) == upstream_print(text), printed


def _index_op_lines(printed: str, marker: str) -> list[str]:
    """The lines holding index ops, with every SSA name replaced by ``%v``:
    upstream names results itself (``%idx42``, ``%true``) and arguments ``%argN``."""
    return [
        re.sub(r"%[\w-]+", "%v", line.strip()) for line in printed.splitlines() if marker in line
    ]


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_prints_upstream_text(generic: bool) -> None:
    """Op by op, mlkit prints the text upstream prints, up to SSA names."""
    text = OPS.read_text()
    ours = print_op(_parse(text, str(OPS)), generic=generic)
    theirs = upstream_print(text, generic=generic)
    marker = '"index.' if generic else " index."
    assert _index_op_lines(ours, marker) == _index_op_lines(theirs, marker)
    assert len(_index_op_lines(ours, marker)) >= 50


def test_registered_dialect() -> None:
    """``index`` resolves to this dialect in the default registry (what
    mlkit-opt uses), and the default path reads ops.mlir as upstream does."""
    from mlkit.plugins import default_registry

    assert default_registry().load_dialect("index") is index.Index
    assert_upstream_reads_same_ir(OPS)


# -- verifier errors ----------------------------------------------------------

CHUNKS = INVALID.read_text().split("// -----")
@pytest.mark.parametrize("chunk", CHUNKS, ids=[expected_error(c)[:60] for c in CHUNKS])
def test_invalid_rejected_by_both(chunk: str) -> None:
    message = expected_error(chunk)
    with pytest.raises(DiagnosticError) as mlkit_err:
        _parse(chunk)
    assert message in str(mlkit_err.value)
    with ir.Context():
        with pytest.raises(Exception) as upstream_err:
            ir.Module.parse(chunk)
    if "the wording differs" not in chunk:
        assert message in str(upstream_err.value)


def test_invalid_file_has_one_chunk_per_error() -> None:
    assert len(CHUNKS) >= 20
    assert all(len(EXPECTED_ERROR.findall(chunk)) == 1 for chunk in CHUNKS)


# -- traits and builders --------------------------------------------------------

# upstream's IndexOps.td marks these Commutative
COMMUTATIVE = {"add", "mul", "maxs", "maxu", "mins", "minu", "and", "or", "xor"}


def test_every_upstream_op_is_defined() -> None:
    names = {op.name for op in index.Index.operations}
    binary = {
        "add", "sub", "mul", "divs", "divu", "ceildivs", "ceildivu", "floordivs",
        "rems", "remu", "maxs", "maxu", "mins", "minu", "shl", "shrs", "shru",
        "and", "or", "xor",
    }  # fmt: skip
    others = {"casts", "castu", "cmp", "sizeof", "constant", "bool.constant"}
    assert names == {f"index.{n}" for n in binary | others}


def test_traits() -> None:
    for op in index.Index.operations:
        assert op.has_trait(Pure), op.name
        short = op.name.removeprefix("index.")
        assert op.has_trait(Commutative) == (short in COMMUTATIVE), op.name
        assert op.has_trait(ConstantLike) == (short in {"constant", "bool.constant"}), op.name


def test_builders_verify_and_print() -> None:
    block = Block(arg_types=[IndexType(), IndexType(), i32])
    a, b, n = block.args
    ops = [
        c := index.ConstantOp(42),
        t := index.BoolConstantOp(True),
        index.AddOp(a, c),
        index.FloorDivSOp(a, b),
        index.CmpOp("uge", a, b),
        index.CmpOp(index.IndexCmpPredicate.NE, a, b),
        index.CastSOp(n, IndexType()),
        index.CastUOp(a, i1),
        index.SizeOfOp(),
    ]
    block.add_ops([*ops, xdsl_test.TestOp([t.result])])
    module = ModuleOp(Region(block))
    for op in ops:
        op.verify()
    printed = print_op(module, generic=True)
    assert "<{pred = #index<cmp_predicate uge>}>" in printed
    assert "<{value = 42 : index}>" in printed
    assert ConstantLike.get_constant_value(c.result) == IntegerAttr(42, IndexType())
    assert ConstantLike.get_constant_value(t.result) == IntegerAttr(1, i1)


# -- passes that rely on the traits -------------------------------------------

CSE_INPUT = """
func.func @f(%a: index, %b: index) -> (index, index, i1, i1, index, index, i32, i32) {
  %c1 = index.constant 1
  %c1b = index.constant 1
  %x = index.add %a, %c1
  %y = index.add %a, %c1b
  %p = index.cmp slt(%a, %b)
  %q = index.cmp slt(%a, %b)
  %r = index.cmp sgt(%a, %b)
  %s = index.sizeof
  %s2 = index.sizeof
  %u = index.casts %a : index to i32
  %v = index.castu %a : index to i32
  %w = index.casts %a : index to i32
  %dead = index.mul %a, %b
  %t = index.bool.constant true
  %t2 = index.bool.constant true
  %o = arith.ori %t, %t2 : i1
  return %x, %y, %p, %r, %s, %s2, %u, %w : index, index, i1, i1, index, index, i32, i32
}
"""


def test_cse_matches_upstream() -> None:
    """Pure index ops, constants included, are merged as upstream's cse merges
    them; different predicates and casts stay apart."""
    from mlkit.passes.transforms.cse import CSE

    ctx = _context()
    module = parse_module(ctx, CSE_INPUT, "<cse>")
    CSE().apply(ctx, module)
    expected = upstream_print(CSE_INPUT, pipeline="builtin.module(func.func(cse))")
    assert upstream_print(print_op(module)) == expected


def test_canonicalize_erases_dead_pure_ops() -> None:
    from mlkit.passes.transforms.canonicalize import Canonicalize

    text = """
    func.func @f(%a: index, %b: index) -> index {
      %dead = index.divs %a, %b
      %dead2 = index.cmp eq(%a, %b)
      %dead3 = index.casts %a : index to i64
      %live = index.shl %a, %b
      return %live : index
    }
    """
    ctx = _context()
    module = parse_module(ctx, text, "<canon>")
    Canonicalize().apply(ctx, module)
    printed = print_op(module)
    assert "index.shl" in printed
    assert "divs" not in printed and "index.cmp" not in printed and "casts" not in printed
    expected = upstream_print(text, pipeline="builtin.module(canonicalize)")
    assert upstream_print(printed) == expected
