"""``convert-scf-to-cf``: structured control flow to a CFG.

xDSL's lowerings of ``scf.for`` and ``scf.if`` are direct translations of
upstream's SCFToControlFlow patterns and are reused; its ``scf.index_switch``
lowering casts to the wrong width and is replaced.
xDSL has none for ``scf.while``, ``scf.execute_region`` and ``scf.parallel``;
they are added here following upstream (``scf.parallel`` becomes a nest of
``scf.for`` carrying the reductions, then a CFG).  ``scf.forall`` is not
covered: xDSL has no such op, so mlkit cannot read it.  An ``unsigned``
``scf.for`` compares with ``ult``; loop annotations are not carried over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, cf, scf
from xdsl.dialects.builtin import DenseIntElementsAttr, IndexType, ModuleOp, VectorType, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf, ForLowering, IfLowering, SwitchLowering

from mlkit.diagnostics import DiagnosticError
from mlkit.diagnostics.locations import op_loc
from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns
from mlkit.pipeline.options import option


def _split_before(op: Operation) -> tuple[Block, Block]:
    """The block holding ``op`` and the new continuation that starts at ``op``.

    Not xDSL's ``Block.split_before``: it finds the block's index by walking
    the region's blocks, then walks them again to insert at that index, so
    lowering n ``scf.if`` in one function was quadratic (2,000 nested took 7 s).
    """
    block = op.parent_block()
    assert block is not None and block.parent is not None
    continuation = Block()
    block.parent.insert_block_after(continuation, block)
    moving: list[Operation] = []
    cur: Operation | None = op
    while cur is not None:
        moving.append(cur)
        cur = cur.next_op
    for moved in moving:
        block.detach_op(moved)
    continuation.add_ops(moving)
    return block, continuation


class LinearIfLowering(IfLowering):
    """xDSL's ``IfLowering`` (upstream's ``IfLowering``) with a split that
    does not walk the region's blocks."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        condition, remaining = _split_before(op)
        continuation = remaining
        if op.results:
            continuation = Block(arg_types=op.result_types)
            assert remaining.parent is not None
            remaining.parent.insert_block_before(continuation, remaining)
            rewriter.insert(cf.BranchOp(remaining), InsertPoint.at_end(continuation))
        then_block = _inline_branching(op.true_region, continuation, rewriter)
        else_block = _inline_branching(op.false_region, continuation, rewriter) or continuation
        assert then_block is not None
        branch = cf.ConditionalBranchOp(op.cond, then_block, (), else_block, ())
        rewriter.insert(branch, InsertPoint.at_end(condition))
        rewriter.replace(op, [], continuation.args)


def _inline_branching(region: Region, target: Block, rewriter: PatternRewriter) -> Block | None:
    """Replace the region's terminator by a branch to ``target`` carrying its
    operands and inline the region before ``target``; its entry, if any."""
    first, last = region.first_block, region.last_block
    if first is None or last is None:
        return None
    terminator = last.last_op
    assert terminator is not None
    rewriter.insert(cf.BranchOp(target, *terminator.operands), InsertPoint.at_end(last))
    rewriter.erase(terminator)
    rewriter.inline_region(region, BlockInsertPoint.before(target))
    return first


class LinearForLowering(ForLowering):
    """xDSL's ``ForLowering`` (upstream's ``ForLowering``) with a split that
    does not walk the region's blocks."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if op.parent_block() is None:
            return
        init, end = _split_before(op)
        # the body's entry becomes the condition block (it has the induction
        # variable and the carried values as arguments); its ops move on
        condition = op.body.first_block
        assert condition is not None and condition.first_op is not None
        _, first_body = _split_before(condition.first_op)
        last_body = op.body.last_block
        assert last_body is not None
        rewriter.inline_region(op.body, BlockInsertPoint.before(end))
        iv = condition.args[0]
        terminator = last_body.last_op
        assert terminator is not None
        stepped = arith.AddiOp(iv, op.step)
        rewriter.insert(stepped, InsertPoint.before(terminator))
        rewriter.replace(terminator, cf.BranchOp(condition, stepped, *terminator.operands))
        rewriter.insert(cf.BranchOp(condition, op.lb, *op.iter_args), InsertPoint.at_end(init))
        # an ``unsigned`` loop compares its bounds unsigned, as upstream's lowering
        predicate = "ult" if "unsignedCmp" in op.properties else "slt"
        comparison = arith.CmpiOp(iv, op.ub, predicate)
        rewriter.insert(comparison, InsertPoint.at_end(condition))
        branch = cf.ConditionalBranchOp(comparison, first_body, (), end, ())
        rewriter.insert(branch, InsertPoint.at_end(condition))
        rewriter.replace(op, [], condition.args[1:])


class IndexSwitchLowering(SwitchLowering):
    """Upstream's ``IndexSwitchLowering``; replaces xDSL's, which switches on
    an ``i32`` cast of the index where upstream casts to ``i64`` (cases beyond
    32 bits would be truncated)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IndexSwitchOp, rewriter: PatternRewriter) -> None:
        current, continuation = _split_before(op)
        for i, type in enumerate(op.result_types):
            rewriter.insert_block_argument(continuation, i, type)
        cases = tuple(self._convert_region(r, continuation, rewriter) for r in op.case_regions)
        default = self._convert_region(op.default_region, continuation, rewriter)
        value = rewriter.insert(arith.IndexCastOp(op.arg, i64), InsertPoint.at_end(current))
        case_values = DenseIntElementsAttr.from_list(VectorType(i64, (len(cases),)), op.cases.get_values())
        switch = cf.SwitchOp(value, default, (), case_values, cases, tuple(() for _ in cases))
        rewriter.insert(switch, InsertPoint.at_end(current))
        rewriter.replace(op, [], continuation.args)


class WhileLowering(RewritePattern):
    """Upstream's ``WhileLowering``: both regions inlined, the condition
    becomes a ``cf.cond_br`` to the "after" blocks or the continuation; the
    "after" region's ``scf.yield`` branches back to the "before" entry."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter) -> None:
        if _lower_do_while(op, rewriter):
            return
        current, continuation = _split_before(op)
        before, before_last = op.before_region.first_block, op.before_region.last_block
        after, after_last = op.after_region.first_block, op.after_region.last_block
        assert before and before_last and after and after_last
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(after))
        results = _enter_loop(op, rewriter, current, before, before_last, after, continuation)
        yield_op = after_last.last_op
        assert isinstance(yield_op, scf.YieldOp)
        rewriter.replace(yield_op, cf.BranchOp(before, *yield_op.operands))
        rewriter.replace(op, [], results)


def _lower_do_while(op: scf.WhileOp, rewriter: PatternRewriter) -> bool:
    """Upstream's ``DoWhileLowering`` (tried first, as its benefit is higher):
    an "after" region that only forwards its arguments is not inlined; the
    condition branches straight back to the "before" entry."""
    blocks = list(op.after_region.blocks)
    if len(blocks) != 1:
        return False
    yield_op = blocks[0].first_op
    if not isinstance(yield_op, scf.YieldOp) or yield_op is not blocks[0].last_op:
        return False
    if list(yield_op.operands) != list(blocks[0].args):
        return False
    current, continuation = _split_before(op)
    before, before_last = op.before_region.first_block, op.before_region.last_block
    assert before and before_last
    rewriter.inline_region(op.before_region, BlockInsertPoint.before(continuation))
    results = _enter_loop(op, rewriter, current, before, before_last, before, continuation)
    rewriter.replace(op, [], results)
    return True


def _enter_loop(op: scf.WhileOp, rewriter: PatternRewriter, current: Block, before: Block,
                before_last: Block, loop: Block, continuation: Block) -> list[SSAValue]:
    """Branch from ``current`` to the inlined "before" entry with the loop's
    initial values; its ``scf.condition`` (ending ``before_last``) becomes a
    ``cf.cond_br`` to ``loop`` or the continuation. Returns the values the
    condition forwards, the loop's results."""
    rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(current))
    cond = before_last.last_op
    assert isinstance(cond, scf.ConditionOp)
    results = list(cond.args)
    rewriter.replace(cond, cf.ConditionalBranchOp(cond.condition, loop, results, continuation, ()))
    return results


class ExecuteRegionLowering(RewritePattern):
    """Upstream's ``ExecuteRegionLowering``: branch into the region, every
    ``scf.yield`` branches to the continuation, whose arguments are the results."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter) -> None:
        current, continuation = _split_before(op)
        entry = op.region.first_block
        assert entry is not None
        rewriter.insert(cf.BranchOp(entry), InsertPoint.at_end(current))
        for block in op.region.blocks:
            if isinstance(term := block.last_op, scf.YieldOp):
                rewriter.replace(term, cf.BranchOp(continuation, *term.operands))
        rewriter.inline_region(op.region, BlockInsertPoint.before(continuation))
        results = [continuation.insert_arg(t, len(continuation.args)) for t in op.result_types]
        rewriter.replace(op, [], results)


class ParallelLowering(RewritePattern):
    """Upstream's ``ParallelLowering``: a nest of ``scf.for``, one per
    dimension, carrying the reduction values; each ``scf.reduce`` region is
    inlined with (accumulator, value) as its arguments.  The loops are lowered
    to a CFG by ``ForLowering`` afterwards."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter) -> None:
        if not op.step:  # invalid IR (upstream's verifier says the same), e.g. unverified input
            raise DiagnosticError.at(
                op_loc(op),
                "'scf.parallel' op needs at least one tuple element for lowerBound, upperBound "
                "and step",
            )
        iter_args: list[SSAValue] = list(op.initVals)
        ivs: list[SSAValue] = []
        loop_results: list[SSAValue] = list(iter_args)
        point = InsertPoint.before(op)
        body: Block | None = None
        for k, (lb, ub, step) in enumerate(zip(op.lowerBound, op.upperBound, op.step)):
            body = Block(arg_types=[IndexType(), *(v.type for v in iter_args)])
            if not iter_args:
                body.add_op(scf.YieldOp())
            loop = scf.ForOp(lb, ub, step, iter_args, Region(body))
            rewriter.insert(loop, point)
            if k == 0:
                loop_results = list(loop.results)
            elif loop.results:
                rewriter.insert(scf.YieldOp(*loop.results), InsertPoint.after(loop))
            ivs.append(body.args[0])
            iter_args = list(body.args[1:])
            point = InsertPoint.at_start(body)
        assert body is not None, "scf.parallel has at least one dimension"

        reduce = op.body.block.last_op
        assert isinstance(reduce, scf.ReduceOp)
        yield_operands: list[SSAValue] = []
        for acc, value, region in zip(iter_args, reduce.args, reduce.reductions):
            block = region.block
            ret = block.last_op
            assert isinstance(ret, scf.ReduceReturnOp)
            yield_operands.append(ret.result)
            rewriter.erase(ret)
            rewriter.inline_block(block, InsertPoint.before(reduce), (acc, value))
        rewriter.erase(reduce)

        inner_point = InsertPoint.before(body.last_op) if body.last_op else InsertPoint.at_end(body)
        rewriter.inline_block(op.body.block, inner_point, ivs)
        if yield_operands:
            rewriter.insert(scf.YieldOp(*yield_operands), InsertPoint.at_end(body))
        rewriter.replace(op, [], loop_results)


@dataclass(frozen=True)
class ConvertSCFToCF(ConvertScfToCf):
    """Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG"""

    name = "convert-scf-to-cf"
    display_name: ClassVar[str] = "SCFToControlFlowPass"

    allow_pattern_rollback: bool = option(
        True,
        "Experimental performance flag to disallow pattern rollback (mlkit's conversion "
        "never rolls a pattern back, so either value converts the same)",
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_conversion_patterns(op, scf_to_cf_patterns())


def scf_to_cf_patterns() -> list[RewritePattern]:
    """The patterns of this conversion (upstream's
    ``populateSCFToControlFlowConversionPatterns``)."""
    return [
        ParallelLowering(),
        IndexSwitchLowering(),
        LinearIfLowering(),
        LinearForLowering(),
        WhileLowering(),
        ExecuteRegionLowering(),
    ]
