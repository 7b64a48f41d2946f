"""``scf-forall-to-for``: an ``scf.forall`` becomes a nest of ``scf.for``.

As upstream's ``forallToForLoop``: one ``scf.for`` per dimension, outermost
first, with the forall's bounds and steps (static ones as ``arith.constant``),
and the forall's body inlined into the innermost loop with the induction
variables for its arguments. A forall with ``shared_outs`` is left as it is,
with upstream's warning. Nested foralls are converted inner first, as
upstream's post-order walk does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.diagnostics.emit import emit_warning
from mlkit.dialects.scf import ForallOp, ForOp, YieldOp


def _values(
    static: Sequence[int], dynamic: Sequence[SSAValue], before: Operation
) -> list[SSAValue]:
    """The mixed static/dynamic list as values, constants made before ``before``."""
    values: list[SSAValue] = []
    operands = iter(dynamic)
    for value in static:
        if value == DYNAMIC_INDEX:
            values.append(next(operands))
            continue
        constant = arith.ConstantOp.from_int_and_width(value, IndexType())
        Rewriter.insert_op(constant, InsertPoint.before(before))
        values.append(constant.result)
    return values


def forall_bounds(forall: ForallOp) -> tuple[list[SSAValue], list[SSAValue], list[SSAValue]]:
    """The forall's lower bounds, upper bounds and steps as values; the static
    ones become constants before it."""
    return (
        _values(forall.staticLowerBound.get_values(), forall.dynamicLowerBound, forall),
        _values(forall.staticUpperBound.get_values(), forall.dynamicUpperBound, forall),
        _values(forall.staticStep.get_values(), forall.dynamicStep, forall),
    )


def forall_to_for(ctx: Context, forall: ForallOp) -> None:
    """Replace ``forall`` by its ``scf.for`` nest (upstream's ``forallToForLoop``)."""
    if forall.outputs:
        emit_warning(ctx, forall, "skipping scf.forall with outputs, currently not supported")
        return
    lbs, ubs, steps = forall_bounds(forall)
    point = InsertPoint.before(forall)
    ivs: list[SSAValue] = []
    innermost: Block | None = None
    for lb, ub, step in zip(lbs, ubs, steps, strict=True):
        body = Block([YieldOp()], arg_types=[IndexType()])
        Rewriter.insert_op(ForOp(lb, ub, step, [], Region(body)), point)
        ivs.append(body.args[0])
        innermost = body
        point = InsertPoint.before(body.last_op)  # pyright: ignore[reportArgumentType]
    block = forall.body.block
    terminator = block.last_op
    if terminator is not None:
        Rewriter.erase_op(terminator)
    if innermost is None:  # a zero-dimensional forall runs its body once
        Rewriter.inline_block(block, InsertPoint.before(forall), ())
    else:
        Rewriter.inline_block(block, point, ivs)
    Rewriter.erase_op(forall)


@dataclass(frozen=True)
class ScfForallToFor(ModulePass):
    """Convert SCF forall loop to SCF for loops"""

    name = "scf-forall-to-for"

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        for forall in [o for o in op.walk(region_first=True) if isinstance(o, ForallOp)]:
            if forall is not op:
                forall_to_for(ctx, forall)
