"""The verifier's shortcuts decide as the full checks do (issue 16).

``verify_memo`` skips IRDL signature checks already passed, and
``dominance_holds`` is a quick sufficient test in front of the exact
dominance checker. Neither may let invalid IR through.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import i32
from xdsl.ir import Block

from mlkit.context import make_context
from mlkit.diagnostics import DiagnosticError
from mlkit.diagnostics.dominance import DominanceChecker, dominance_holds
from mlkit.diagnostics.verifier import verify_op_tree, verify_structure
from mlkit.plugins import default_registry
from mlkit.syntax.parser import parse_module

CTX = make_context(default_registry())

VALID = {
    "straight": """
func.func @f(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  %c = arith.mulf %b, %a : f32
  return %c : f32
}""",
    "nested": """
func.func @f(%a: index, %n: index) -> index {
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %r = scf.for %i = %a to %n step %c1 iter_args(%s = %a) -> (index) {
    %t = arith.addi %s, %i : index
    %u = scf.if %true -> (index) { scf.yield %t : index } else { scf.yield %c1 : index }
    scf.yield %u : index
  }
  return %r : index
}""",
    "diamond": """
func.func @f(%c: i1, %a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %y = arith.addi %x, %a : i32
  cf.br ^bb3(%y : i32)
^bb2:
  cf.br ^bb3(%x : i32)
^bb3(%z: i32):
  %w = arith.addi %z, %x : i32
  return %w : i32
}""",
    "graph": """
func.func @g() -> i32 {
  %r = func.call @h() : () -> i32
  return %r : i32
}
func.func private @h() -> i32""",
}

INVALID = {
    "before definition": """
func.func @f(%a: i32) -> i32 {
  %b = arith.addi %c, %a : i32
  %c = arith.addi %a, %a : i32
  return %b : i32
}""",
    "sibling block": """
func.func @f(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %y = arith.addi %a, %a : i32
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  return %y : i32
}""",
    "own region": """
func.func @f(%a: index) {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %a to %a step %c1 iter_args(%s = %a) -> (index) {
    %t = arith.addi %r, %i : index
    scf.yield %t : index
  }
  return
}""",
}


def _parse(text: str):
    return parse_module(CTX, text, "t.mlir")


@pytest.mark.parametrize("name", sorted(VALID))
def test_quick_dominance_accepts_valid_ir(name: str) -> None:
    module = _parse(VALID[name])
    verify_op_tree(module)
    assert dominance_holds(module)


@pytest.mark.parametrize("name", sorted(INVALID))
def test_quick_dominance_never_accepts_invalid_ir(name: str) -> None:
    module = _parse(INVALID[name])
    verify_structure(module)
    assert not dominance_holds(module)
    with pytest.raises(DiagnosticError, match="does not dominate|undeclared|not defined"):
        verify_op_tree(module)


def test_unreachable_block_goes_to_the_exact_checker() -> None:
    module = _parse("""
func.func @f(%a: i32) -> i32 {
  return %a : i32
^dead:
  %y = arith.addi %y, %a : i32
  cf.br ^dead
}""")
    assert not dominance_holds(module)  # inconclusive
    verify_op_tree(module)  # upstream does not check uses in unreachable blocks
    assert DominanceChecker(module).reachable(module.body.block.first_op.body.first_block)


def test_memoized_signature_still_sees_a_changed_operand() -> None:
    module = _parse(VALID["straight"])
    verify_op_tree(module)
    verify_op_tree(module)  # the second run takes the memo
    func = module.body.block.first_op
    add = func.body.block.first_op
    add.operands = [Block(arg_types=[i32]).args[0], add.operands[1]]
    with pytest.raises(DiagnosticError, match="arith.addf"):
        verify_structure(module)


def test_memo_by_value_checks_fresh_equal_types_once() -> None:
    from xdsl.dialects.arith import AddfOp
    from xdsl.dialects.builtin import Float32Type
    from xdsl.irdl.operations import OpDef

    from mlkit.diagnostics import verify_memo

    calls = []

    def counting(self: OpDef, op) -> None:
        calls.append(op)
        original(self, op)

    original = verify_memo._unmemoized_verify
    verify_memo._unmemoized_verify = counting
    verify_memo._passed.clear()
    verify_memo._passed_by_value.clear()
    try:
        block = Block(arg_types=[Float32Type(), Float32Type()])
        first = AddfOp(block.args[0], block.args[1])
        first.verify()
        assert len(calls) == 1
        # an equal but distinct type object: found by value
        other = Block(arg_types=[Float32Type(), Float32Type()])
        assert other.args[0].type is not block.args[0].type
        AddfOp(other.args[0], other.args[1]).verify()
        assert len(calls) == 1
        # a different type is checked, and rejected
        bad = Block(arg_types=[i32, i32])
        with pytest.raises(Exception, match="i32"):
            AddfOp(bad.args[0], bad.args[1]).verify()
        assert len(calls) == 2
    finally:
        verify_memo._unmemoized_verify = original


def test_snapshot_sees_every_change_verification_depends_on() -> None:
    from xdsl.dialects.builtin import IntegerAttr, StringAttr, f32

    from mlkit.pipeline.ir_snapshot import snapshot

    module = _parse(VALID["diamond"])
    func = module.body.block.first_op
    before = snapshot(module)
    assert before == snapshot(module)
    assert before != snapshot(_parse(VALID["diamond"]))  # other objects

    def changed(mutate) -> bool:
        fresh = _parse(VALID["diamond"])
        base = snapshot(fresh)
        mutate(fresh.body.block.first_op)
        return base != snapshot(fresh)

    assert changed(lambda f: f.attributes.__setitem__("x", StringAttr("y")))
    assert changed(lambda f: f.properties.__setitem__("sym_name", StringAttr("g")))
    assert changed(lambda f: setattr(f.body.blocks[3].args[0], "_type", f32))
    assert changed(lambda f: f.body.blocks[1].first_op.detach())
    assert changed(lambda f: f.body.blocks[3].args[0].replace_all_uses_with(f.body.blocks[0].args[1]))
    assert changed(lambda f: f.body.blocks[0].first_op.attributes.__setitem__("n", IntegerAttr(1, 8)))
    assert func is module.body.block.first_op


def test_isolated_scopes_catch_values_from_outside() -> None:
    module = _parse(
        'func.func @f(%a: i32) {\n  "builtin.module"() ({\n    func.func @g() -> i32 {\n'
        "      return %a : i32\n    }\n  }) : () -> ()\n  return\n}\n"
    )
    assert dominance_holds(module)  # %a dominates its use ...
    assert not dominance_holds(module, isolate=True)  # ... but @g is isolated
    with pytest.raises(DiagnosticError, match="using value defined outside the region"):
        verify_op_tree(module)
    assert dominance_holds(_parse(VALID["nested"]), isolate=True)


def test_a_verifier_raising_a_plain_exception_gives_a_located_error() -> None:
    """xDSL verifiers raise ValueError or bare Exception as well as
    VerifyException; each is reported at the op like any verifier error."""
    from xdsl.dialects.arith import AddfOp

    module = _parse(VALID["straight"])
    original = AddfOp.verify_

    def broken(self: AddfOp) -> None:
        raise Exception("broken verifier")

    AddfOp.verify_ = broken  # type: ignore[method-assign]
    try:
        with pytest.raises(DiagnosticError, match="broken verifier") as err:
            verify_op_tree(module)
    finally:
        AddfOp.verify_ = original  # type: ignore[method-assign]
    assert err.value.diagnostic.loc.line == 3
