"""A small IR builder for the blocked loop nest: index arithmetic that folds
when both sides are known, ``scf.for``/``scf.if`` with their bodies, and
constants hoisted ahead of the whole nest.

A :data:`Bound` is an ``int`` where the value is known at compile time and an
``index`` SSA value otherwise, so that a static problem size gives static
trip counts and drops edge paths that can never run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mlkit.dialects import arith as marith
from mlkit.dialects import scf
from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    VectorType,
)
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from mlkit.diagnostics.locations import source_loc

__all__ = ["Bound", "Builder", "Constants", "insert_built"]

Bound = int | SSAValue
_NO_WRAP = marith.IntegerOverflowAttr("none")


@dataclass
class Constants:
    """Constants created once, in the order first asked for, ahead of the nest."""

    ops: list[Operation] = field(default_factory=list)
    _made: dict[object, SSAValue] = field(default_factory=dict)

    def _constant(self, key: object, value: Attribute) -> SSAValue:
        if key not in self._made:
            op = xarith.ConstantOp(value)  # type: ignore[arg-type]
            self.ops.append(op)
            self._made[key] = op.result
        return self._made[key]

    def index(self, value: int) -> SSAValue:
        return self._constant(("index", value), IntegerAttr(value, IndexType()))

    def float(self, value: float, type_: Attribute) -> SSAValue:
        return self._constant((type_, value), FloatAttr(value, type_))  # type: ignore[arg-type]

    def splat(self, value: float, type_: VectorType) -> SSAValue:
        key = (type_, value)
        if key not in self._made:
            lanes = type_.get_shape()[0]
            return self._constant(key, DenseIntOrFPElementsAttr.from_list(type_, [value] * lanes))
        return self._made[key]


@dataclass
class Builder:
    """Appends ops to ``block``; its arithmetic folds known operands."""

    block: Block
    constants: Constants
    in_parallel: bool = False  # the body of an scf.parallel, which ends in scf.reduce

    def add_op(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def value(self, bound: Bound) -> SSAValue:
        return self.constants.index(bound) if isinstance(bound, int) else bound

    # -- index arithmetic ----------------------------------------------------------------

    def add(self, lhs: Bound, rhs: Bound) -> Bound:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs + rhs
        if lhs == 0:
            return rhs
        if rhs == 0:
            return lhs
        return self.add_op(marith.AddiOp(self.value(lhs), self.value(rhs), overflow=_NO_WRAP)).results[0]

    def sub(self, lhs: Bound, rhs: Bound) -> Bound:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs - rhs
        if rhs == 0:
            return lhs
        return self.add_op(marith.SubiOp(self.value(lhs), self.value(rhs), overflow=_NO_WRAP)).results[0]

    def mul(self, lhs: Bound, rhs: Bound) -> Bound:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs * rhs
        if rhs == 1:
            return lhs
        if lhs == 1:
            return rhs
        return self.add_op(marith.MuliOp(self.value(lhs), self.value(rhs), overflow=_NO_WRAP)).results[0]

    def div(self, lhs: Bound, rhs: Bound) -> Bound:
        """``lhs / rhs`` for ``lhs >= 0``, ``rhs > 0``."""
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs // rhs
        if rhs == 1:
            return lhs
        return self.add_op(marith.DivUIOp(self.value(lhs), self.value(rhs))).results[0]

    def rem(self, lhs: Bound, rhs: Bound) -> Bound:
        """``lhs mod rhs`` for ``lhs >= 0``, ``rhs > 0``."""
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs % rhs
        if rhs == 1:
            return 0
        return self.add_op(xarith.RemUIOp(self.value(lhs), self.value(rhs))).results[0]

    def round_down(self, value: Bound, multiple: int) -> Bound:
        """``value`` rounded down to a multiple of ``multiple``, for ``value >= 0``."""
        if isinstance(value, int):
            return value - value % multiple
        return self.sub(value, self.rem(value, multiple))

    def min(self, lhs: Bound, rhs: Bound) -> Bound:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return min(lhs, rhs)
        return self.add_op(xarith.MinSIOp(self.value(lhs), self.value(rhs))).results[0]

    def max(self, lhs: Bound, rhs: Bound) -> Bound:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return max(lhs, rhs)
        return self.add_op(xarith.MaxSIOp(self.value(lhs), self.value(rhs))).results[0]

    def less_equal(self, lhs: Bound, rhs: Bound) -> bool | SSAValue:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs <= rhs
        return self.add_op(marith.CmpiOp(self.value(lhs), self.value(rhs), "sle")).results[0]

    def equal(self, lhs: Bound, rhs: Bound) -> bool | SSAValue:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs == rhs
        return self.add_op(marith.CmpiOp(self.value(lhs), self.value(rhs), "eq")).results[0]

    def both(self, lhs: bool | SSAValue, rhs: bool | SSAValue) -> bool | SSAValue:
        if isinstance(lhs, bool):
            return rhs if lhs else False
        if isinstance(rhs, bool):
            return lhs if rhs else False
        return self.add_op(xarith.AndIOp(lhs, rhs)).results[0]

    # -- structured control flow ---------------------------------------------------------

    def for_(
        self, lo: Bound, hi: Bound, step: int, iter_args: Sequence[SSAValue] = ()
    ) -> tuple[scf.ForOp, Builder, SSAValue, list[SSAValue]]:
        """An ``scf.for`` appended here, its body's builder, its induction
        variable and its iteration arguments; the caller ends the body with
        :meth:`yield_`."""
        body = Block(arg_types=[IndexType(), *(v.type for v in iter_args)])
        loop = scf.ForOp(self.value(lo), self.value(hi), self.value(step), list(iter_args), Region(body))
        self.add_op(loop)
        return loop, Builder(body, self.constants), body.args[0], list(body.args[1:])

    def parallel_(self, lo: Bound, hi: Bound, step: int) -> tuple[Builder, SSAValue]:
        """An ``scf.parallel`` appended here, its body's builder and its
        induction variable; the caller ends the body with :meth:`yield_`."""
        body = Block(arg_types=[IndexType()])
        loop = scf.ParallelOp([self.value(lo)], [self.value(hi)], [self.value(step)], Region(body))
        self.add_op(loop)
        return Builder(body, self.constants, in_parallel=True), body.args[0]

    def if_(
        self, cond: SSAValue, result_types: Sequence[Attribute] = ()
    ) -> tuple[scf.IfOp, Builder, Builder]:
        """An ``scf.if`` with an else region, and the builders of its two bodies."""
        then, other = Block(), Block()
        op = scf.IfOp(cond, list(result_types), Region(then), Region(other))
        self.add_op(op)
        return op, Builder(then, self.constants), Builder(other, self.constants)

    def yield_(self, *values: SSAValue) -> None:
        self.add_op(scf.ReduceOp() if self.in_parallel else YieldOp(*values))


def insert_built(rewriter: PatternRewriter, b: Builder, anchor: Operation, origin: Operation) -> None:
    """Move the constants and the ops built in ``b`` before ``anchor``, with
    ``origin``'s location where they have none of their own."""
    new_ops: list[Operation] = [*b.constants.ops, *b.block.ops]
    for new in new_ops:
        if new.parent is not None:
            new.detach()
        for inner in new.walk():
            if not source_loc(inner.location).known:
                inner.location = origin.location
    rewriter.insert(new_ops, InsertPoint.before(anchor))
