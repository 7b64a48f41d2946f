"""Constants that rewrite patterns create, placed where upstream's greedy
rewriter puts them: its folder moves each constant it is handed to the start
of the entry block of the closest isolated-from-above region (a function),
and keeps one per value there."""

from __future__ import annotations

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

__all__ = ["function_constant"]


def _constant_scope(op: Operation) -> Block:
    """The entry block of the closest isolated-from-above region around ``op``."""
    current = op
    while (parent := current.parent_op()) is not None:
        if parent.has_trait(IsolatedFromAbove):
            block = current.parent_block()
            region = block.parent if block is not None else None
            if region is not None and region.first_block is not None:
                return region.first_block
        current = parent
    block = op.parent_block()
    assert block is not None
    return block


def function_constant(
    rewriter: PatternRewriter, near: Operation, value: IntegerAttr | FloatAttr
) -> SSAValue:
    """``arith.constant value`` at the start of the function around ``near``,
    reusing one already there: where upstream's greedy rewriter (its folder)
    keeps the constants that patterns create."""
    block = _constant_scope(near)
    constant = None
    for existing in block.ops:
        if not isinstance(existing, ConstantOp):
            break
        if existing.value == value:
            constant = existing
            break
    # The folder puts each constant it is handed first in the block.
    if constant is not None:
        if constant is block.first_op:
            return constant.result
        constant.detach()
    else:
        constant = ConstantOp(value)
    first = block.first_op
    rewriter.insert(
        constant, InsertPoint.before(first) if first is not None else InsertPoint.at_end(block)
    )
    return constant.result
