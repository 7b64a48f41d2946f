"""mlkit's walks visit what xDSL's recursive ones did, in the same order,
and stay safe when the op just handed out is erased (issue 16)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from xdsl.ir import Block, Operation, Region

from mlkit.context import make_context
from mlkit.plugins import default_registry
from mlkit.syntax.parser import parse_module

PROGRAM = """
func.func @f(%c: i1, %a: index, %n: index) -> index {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %a to %n step %c1 iter_args(%s = %a) -> (index) {
    %t = arith.addi %s, %i : index
    %u = scf.if %c -> (index) {
      %v = arith.muli %t, %t : index
      scf.yield %v : index
    } else {
      scf.yield %c1 : index
    }
    scf.yield %u : index
  }
  cf.br ^bb1
^bb1:
  %w = arith.addi %r, %r : index
  return %w : index
}
func.func private @g()
"""


def recursive(node: Operation | Region | Block, reverse: bool, region_first: bool) -> Iterator[Operation]:
    """xDSL's definition of the walk, written out."""
    if isinstance(node, Operation):
        if not region_first:
            yield node
        for region in reversed(node.regions) if reverse else node.regions:
            yield from recursive(region, reverse, region_first)
        if region_first:
            yield node
    elif isinstance(node, Region):
        for block in reversed(node.blocks) if reverse else node.blocks:
            yield from recursive(block, reverse, region_first)
    else:
        for op in reversed(node.ops) if reverse else node.ops:
            yield from recursive(op, reverse, region_first)


@pytest.fixture(scope="module")
def module() -> Operation:
    return parse_module(make_context(default_registry()), PROGRAM, "walk.mlir")


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("region_first", [False, True])
def test_same_order_as_the_recursive_walk(module: Operation, reverse: bool, region_first: bool) -> None:
    function = module.regions[0].block.first_op
    assert function is not None
    nodes: list[Operation | Region | Block] = [module, function, function.regions[0]]
    nodes += list(function.regions[0].blocks)
    for node in nodes:
        got = list(node.walk(reverse=reverse, region_first=region_first))
        assert got == list(recursive(node, reverse, region_first))
        assert len(got) > 1


def test_erasing_the_op_just_walked_is_safe() -> None:
    module = parse_module(make_context(default_registry()), PROGRAM, "walk.mlir")
    names = []
    for op in module.walk():
        names.append(op.name)
        if op.name == "arith.muli":
            op.results[0].replace_all_uses_with(op.operands[0])
            op.detach()
            op.erase()
    assert names.count("arith.muli") == 1
    assert names[-1] == "func.func"  # the walk went on past the erased op
    assert "arith.muli" not in [op.name for op in module.walk()]


def test_deep_nesting_walks_on_a_shallow_stack() -> None:
    """A walk adds no Python frames per level: 3,000 nested regions walk
    under a recursion limit that xDSL's generators would exceed."""
    import sys

    from xdsl.dialects.test import TestOp

    inner = TestOp()
    for _ in range(3000):
        inner = TestOp(regions=[Region(Block([inner]))])
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        assert sum(1 for _ in inner.walk()) == 3001
        assert sum(1 for _ in inner.walk(region_first=True, reverse=True)) == 3001
    finally:
        sys.setrecursionlimit(limit)
