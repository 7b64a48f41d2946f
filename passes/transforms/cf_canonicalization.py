"""cf's canonicalization patterns where xDSL's are quadratic.

**Pass-through chains.** A block that holds nothing but ``cf.br ^next(...)`` passes control through.
xDSL's ``SimplifyPassThroughBr``/``SimplifyPassThroughCondBranch`` (upstream's
patterns) retarget a branch past one such block per rewrite. ``convert-scf-to-cf``
turns ``n`` nested ``scf.if`` into ``n`` such merge blocks in a row, so every
branch into the chain was rewritten once per block it passed: quadratic in
nesting depth. These follow the whole chain and retarget every branch of it
at its end as they go (path compression), so that a later branch into the
chain passes one block at most; the IR they produce is the one upstream's
patterns reach when run to a fixed point.

**Truth propagation.** In the single-predecessor successors of
``cf.cond_br %c``, ``%c`` is known (true in the first, false in the second),
and upstream's pattern replaces its uses there. It finds them among all the
uses of ``%c``, on every visit of every branch on it: quadratic when one
condition steers many branches (``n`` nested ``scf.if`` on one ``%c``). This
looks through the successor's ops instead, and each block has one
predecessor, so each block is looked through for one branch only.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, cf
from xdsl.dialects.builtin import BoolAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.transforms.canonicalization_patterns import cf as xdsl_cf

from mlkit.dialects.cf import ConditionalBranchOp as CondBranch


def _pass_through(block: Block) -> cf.BranchOp | None:
    """The block's ``cf.br`` if that is all the block holds and its arguments
    go only to it (xDSL's ``collapse_branch`` conditions)."""
    branch = block.first_op
    if type(branch) is not cf.BranchOp or branch is not block.last_op:
        return None
    if branch.successor is block:  # an infinite loop stays
        return None
    for argument in block.args:
        for use in argument.uses:
            if use.operation is not branch:
                return None
    return branch


def _through(block: Block, values: Sequence[SSAValue], operands: Sequence[SSAValue]) -> tuple[SSAValue, ...]:
    """``values`` (a branch's operands in ``block``) with ``block``'s arguments
    replaced by the ``operands`` a branch into ``block`` passes."""
    return tuple(
        operands[value.index]
        if isinstance(value, BlockArgument) and value.owner is block
        else value
        for value in values
    )


def collapse_chain(
    successor: Block,
    operands: Sequence[SSAValue],
    rewriter: PatternRewriter,
    origin: Block | None,
) -> tuple[Block, tuple[SSAValue, ...]] | None:
    """Where a branch from ``origin`` to ``successor(operands)`` can go instead,
    past every pass-through block in a row, or None if ``successor`` is not
    one. The branches of the chain are retargeted at its end on the way."""
    seen = {successor, origin}
    chain: list[tuple[Block, cf.BranchOp]] = []
    block = successor
    while (branch := _pass_through(block)) is not None and branch.successor not in seen:
        chain.append((block, branch))
        block = branch.successor
        seen.add(block)
    if branch is not None and branch.successor is not origin:
        # the chain runs into a loop of pass-through blocks: stop where it
        # enters the loop, or going round it would retarget on every visit
        entry = branch.successor
        chain = chain[: [b for b, _ in chain].index(entry)]
        block = entry
    if not chain:
        return None
    end = block
    # the end's operands in terms of each chain block's arguments, from the end back
    values: tuple[SSAValue, ...] = tuple(chain[-1][1].arguments)
    for (inner, _), (_, branch) in zip(reversed(chain), reversed(chain[:-1])):
        values = _through(inner, values, branch.arguments)
        rewriter.replace(branch, cf.BranchOp(end, *values))
    return end, _through(successor, values, operands)


class SimplifyPassThroughBr(xdsl_cf.SimplifyPassThroughBr):
    """``br ^bb1`` where ^bb1 (and what follows) only branches on -> a branch
    to the end of the chain."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter) -> None:
        parent = op.parent_block()
        if parent is None or op.successor is parent:
            return
        found = collapse_chain(op.successor, op.arguments, rewriter, parent)
        if found is not None:
            rewriter.replace(op, cf.BranchOp(found[0], *found[1]))


class SimplifyPassThroughCondBranch(xdsl_cf.SimplifyPassThroughCondBranch):
    """Both destinations of a ``cf.cond_br`` collapsed past their pass-through chains."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter) -> None:
        parent = op.parent_block()
        then_ = collapse_chain(op.then_block, op.then_arguments, rewriter, parent)
        else_ = collapse_chain(op.else_block, op.else_arguments, rewriter, parent)
        if then_ is None and else_ is None:
            return
        then_block, then_args = then_ or (op.then_block, op.then_arguments)
        else_block, else_args = else_ or (op.else_block, op.else_arguments)
        new = CondBranch(op.cond, then_block, then_args, else_block, else_args)
        weights = op.properties.get("branch_weights")
        if weights is not None:  # the same two edges, so upstream keeps their weights
            new.properties["branch_weights"] = weights
        rewriter.replace(op, new)


def _uses_in(block: Block, value: SSAValue) -> list[tuple[Operation, int]]:
    """The (op, operand index) pairs where the ops of ``block`` (not those
    nested in them) use ``value``."""
    return [
        (op, index)
        for op in block.ops
        for index, operand in enumerate(op._operands)  # pyright: ignore[reportPrivateUsage]
        if operand is value
    ]


class CondBranchTruthPropagation(xdsl_cf.CondBranchTruthPropagation):
    """``%c`` is true in the then-successor of ``cf.cond_br %c`` and false in
    the else-successor, where that successor has no other predecessor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter) -> None:
        for block, truth in ((op.then_block, True), (op.else_block, False)):
            if len(block.predecessors()) != 1:
                continue
            uses = _uses_in(block, op.cond)
            if not uses:
                continue
            constant = arith.ConstantOp(BoolAttr.from_bool(truth))
            rewriter.insert(constant, InsertPoint.before(op))
            for user, index in uses:
                user.operands[index] = constant.result
            for user in dict.fromkeys(user for user, _ in uses):
                rewriter.notify_op_modified(user)


REPLACEMENTS = {
    xdsl_cf.SimplifyPassThroughBr: SimplifyPassThroughBr(),
    xdsl_cf.SimplifyPassThroughCondBranch: SimplifyPassThroughCondBranch(),
    xdsl_cf.CondBranchTruthPropagation: CondBranchTruthPropagation(),
}
"""xDSL's pattern classes and the instances that stand in for them."""
