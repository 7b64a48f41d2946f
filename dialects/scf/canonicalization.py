"""Upstream's canonicalization patterns for ``scf.if``, ``scf.for`` and
``scf.parallel`` that xDSL lacks (``SCF.cpp``'s ``getCanonicalizationPatterns``).

xDSL brings the constant-condition ``if`` and the trivial ``for`` loops; these
add, with upstream's semantics and the IR upstream's produce:

- ``scf.if``: ``ConvertTrivialIfToSelect`` (results yielded from outside the
  regions become ``arith.select``, or the value itself where both branches
  agree), ``RemoveUnusedResults``, ``ReplaceIfYieldWithConditionOrValue``
  (an ``i1`` result of constants is the condition or its negation),
  ``ConditionPropagation`` (the condition is true inside ``then`` and false
  inside ``else``) and ``RemoveEmptyElseBranch``;
- ``scf.for``: ``SimplifyTrivialLoops`` in full (in place of xDSL's),
  ``ForOpIterArgsFolder`` (iteration arguments that are forwarded unchanged,
  whose initial value is what is yielded, that are unused with an unused
  result, or that duplicate another are dropped) and ``ForOpTensorCastFolder``
  (a ``tensor.cast`` to a less static type moves from the init into the body);
- ``scf.parallel``: ``ParallelOpSingleOrZeroIterationDimsFolder`` (a
  dimension of one iteration becomes its lower bound, one of none removes
  the loop) and ``MergeNestedParallelLoops``.

Constants the patterns create go where upstream's folder puts them, the
start of the enclosing function (:func:`function_constant`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects import scf as xscf
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import IntegerAttr, TensorType, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.transforms.canonicalization_patterns.scf import (
    SimplifyTrivialLoops as XdslSimplifyTrivialLoops,
)
from xdsl.transforms.canonicalization_patterns.scf import replace_op_with_region
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from mlkit.dialects.utils.constants import function_constant

__all__ = ["REPLACED_PATTERNS", "add_scf_canonicalizations"]


def _yield_of(region: Region) -> Operation | None:
    block = region.first_block
    return block.last_op if block is not None else None


def _defined_in(value: SSAValue, region: Region) -> bool:
    """Whether ``value`` is defined directly in ``region`` (its blocks' ops or arguments)."""
    owner = value.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    return block is not None and block.parent is region


def _constant_bool(value: SSAValue) -> bool | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        if owner.value.type == i1:
            return owner.value.value.data != 0
    return None


def _new_if(
    op: xscf.IfOp, types: Sequence[object], rewriter: PatternRewriter, with_else: bool = True
) -> xscf.IfOp:
    """An ``scf.if`` on ``op``'s condition with ``op``'s regions moved into it
    (the else region stays behind, to be erased with ``op``, unless ``with_else``)."""
    then_region, else_region = Region(), Region()
    op.true_region.move_blocks(then_region)
    if with_else:
        op.false_region.move_blocks(else_region)
    new = type(op)(op.cond, list(types), then_region, else_region)  # type: ignore[arg-type]
    new.attributes.update(op.attributes)
    rewriter.insert_op(new, InsertPoint.before(op))
    return new


def _set_yield(region: Region, values: Sequence[SSAValue], rewriter: PatternRewriter) -> None:
    old = _yield_of(region)
    assert old is not None
    rewriter.replace_op(old, type(old).create(operands=list(values)))


def _branch_yields(op: Operation) -> tuple[xscf.IfOp, Operation, Operation] | None:
    """An ``scf.if`` with results (and so an else) and its two ``scf.yield``."""
    if not isinstance(op, xscf.IfOp) or not op.results or not op.false_region.blocks:
        return None
    then_yield, else_yield = _yield_of(op.true_region), _yield_of(op.false_region)
    assert then_yield is not None and else_yield is not None
    return op, then_yield, else_yield


class ConvertTrivialIfToSelect(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if (found := _branch_yields(op)) is None:
            return
        op, then_yield, else_yield = found
        pairs = list(zip(then_yield.operands, else_yield.operands))
        kept = [
            t for t, f in pairs if _defined_in(t, op.true_region) or _defined_in(f, op.false_region)
        ]
        if len(kept) == len(op.results):
            return
        replacement = _new_if(op, [t.type for t in kept], rewriter)
        results: list[SSAValue] = []
        true_yields: list[SSAValue] = []
        false_yields: list[SSAValue] = []
        for t, f in pairs:
            if _defined_in(t, replacement.true_region) or _defined_in(f, replacement.false_region):
                results.append(replacement.results[len(true_yields)])
                true_yields.append(t)
                false_yields.append(f)
            elif t == f:
                results.append(t)
            else:
                select = arith.SelectOp(op.cond, t, f)
                rewriter.insert_op(select, InsertPoint.before(replacement))
                results.append(select.result)
        _set_yield(replacement.true_region, true_yields, rewriter)
        _set_yield(replacement.false_region, false_yields, rewriter)
        rewriter.replace_op(op, [], results)


class RemoveUnusedResults(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xscf.IfOp) or not op.results:
            return
        used = [r for r in op.results if r.uses]
        if len(used) == len(op.results):
            return
        indices = [r.index for r in used]
        new = _new_if(op, [r.type for r in used], rewriter)
        for region in (new.true_region, new.false_region):
            terminator = _yield_of(region)
            assert terminator is not None
            _set_yield(region, [terminator.operands[i] for i in indices], rewriter)
        replacements: list[SSAValue | None] = [None] * len(op.results)
        for new_result, old in zip(new.results, used):
            replacements[old.index] = new_result
        rewriter.replace_op(op, [], replacements)


class ReplaceIfYieldWithConditionOrValue(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if (found := _branch_yields(op)) is None:
            return
        op, then_yield, else_yield = found
        for t, f, result in zip(then_yield.operands, else_yield.operands, op.results):
            if t == f:
                if result.uses:
                    rewriter.replace_all_uses_with(result, t)
                continue
            true_value, false_value = _constant_bool(t), _constant_bool(f)
            if true_value is None or false_value is None or not result.uses:
                continue
            if not true_value and false_value:
                one = function_constant(rewriter, op, IntegerAttr(1, i1))
                negated = arith.XOrIOp(op.cond, one)
                rewriter.insert_op(negated, InsertPoint.before(op))
                rewriter.replace_all_uses_with(result, negated.result)
            elif true_value and not false_value:
                rewriter.replace_all_uses_with(result, op.cond)


class ConditionPropagation(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xscf.IfOp) or _constant_bool(op.cond) is not None:
            return
        constants: dict[bool, SSAValue] = {}
        for use in list(op.cond.uses):
            owner = use.operation
            if op.true_region.is_ancestor(owner):
                value = True
            elif op.false_region.is_ancestor(owner):
                value = False
            else:
                continue
            if value not in constants:
                constants[value] = function_constant(rewriter, op, IntegerAttr(int(value), i1))
            owner.operands[use.index] = constants[value]
            rewriter.handle_operation_modification(owner)


class RemoveEmptyElseBranch(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xscf.IfOp) or op.results:
            return
        block = op.false_region.first_block
        if block is None or block.first_op is not block.last_op:
            return
        _new_if(op, [], rewriter, with_else=False)
        rewriter.erase_op(op)


def _new_for(
    op: xscf.ForOp, inits: Sequence[SSAValue], rewriter: PatternRewriter
) -> tuple[xscf.ForOp, Block]:
    """An ``scf.for`` like ``op`` (bounds, attributes, ``unsigned``) on
    ``inits``, inserted before it, with an empty body of the right arguments."""
    body = Block(arg_types=[op.body.block.args[0].type, *(v.type for v in inits)])
    new = type(op)(op.lb, op.ub, op.step, list(inits), Region(body))
    new.attributes.update(op.attributes)
    new.properties.update(op.properties)
    rewriter.insert_op(new, InsertPoint.before(op))
    return new, body


class ForOpIterArgsFolder(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xscf.ForOp):
            return
        body = op.body.block
        terminator = body.last_op
        assert terminator is not None
        args = body.args[1:]
        keep: list[bool] = []
        transfer: list[SSAValue | None] = [None]
        results: list[SSAValue | None] = []
        new_inits: list[SSAValue] = []
        seen: dict[tuple[SSAValue, SSAValue], tuple[SSAValue, SSAValue]] = {}
        changed = False
        for init, arg, result, yielded in zip(op.iter_args, args, op.results, terminator.operands):
            if arg == yielded or init == yielded or (not arg.uses and not result.uses):
                changed = True
                keep.append(False)
                transfer.append(init)
                results.append(init)
                continue
            if (init, yielded) in seen:
                changed = True
                keep.append(False)
                same_arg, same_result = seen[init, yielded]
                rewriter.replace_all_uses_with(arg, same_arg)
                rewriter.replace_all_uses_with(result, same_result)
                transfer.append(init)
                results.append(init)
                continue
            seen[init, yielded] = (arg, result)
            keep.append(True)
            new_inits.append(init)
            transfer.append(None)
            results.append(None)
        if not changed:
            return
        new, new_body = _new_for(op, new_inits, rewriter)
        transfer[0] = new_body.args[0]
        kept = 0
        for i, value in enumerate(results):
            if value is None:
                transfer[1 + i] = new_body.args[1 + kept]
                results[i] = new.results[kept]
                kept += 1
        yielded = [v for v, k in zip(terminator.operands, keep) if k]
        rewriter.inline_block(body, InsertPoint.at_end(new_body), transfer)  # type: ignore[arg-type]
        old_yield = new_body.last_op
        assert old_yield is not None
        rewriter.replace_op(old_yield, type(old_yield).create(operands=yielded))
        rewriter.replace_op(op, [], results)


def _preserves_static_information(wider: object, narrower: object) -> bool:
    """Whether tensor type ``narrower`` knows every static size ``wider`` does
    (upstream's ``tensor::preservesStaticInformation(wider, narrower)``)."""
    if not isinstance(wider, TensorType) or not isinstance(narrower, TensorType):
        return False
    if wider.element_type != narrower.element_type or wider.encoding != narrower.encoding:
        return False
    a, b = wider.get_shape(), narrower.get_shape()
    return len(a) == len(b) and all(x < 0 or x == y for x, y in zip(a, b))


class ForOpTensorCastFolder(RewritePattern):
    """An iteration argument that starts as a ``tensor.cast`` to a less static
    type iterates on the cast's source instead; casts inside the body and
    after the loop give the uses the type they had."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xscf.ForOp):
            return
        from mlkit.dialects.tensor import CastOp

        for index, (init, result) in enumerate(zip(op.iter_args, op.results)):
            cast = init.owner
            if not isinstance(cast, xtensor.CastOp) or cast.source.type == cast.dest.type:
                continue
            if not _preserves_static_information(cast.dest.type, cast.source.type):
                continue
            if result.uses.get_length() != 1:
                continue
            self._rewrite(op, index, cast.source, CastOp, rewriter)
            return

    @staticmethod
    def _rewrite(
        op: xscf.ForOp, index: int, source: SSAValue, cast_op: type[Operation], rewriter: PatternRewriter
    ) -> None:
        body = op.body.block
        old_type = op.iter_args[index].type
        inits = list(op.iter_args)
        inits[index] = source
        new, new_body = _new_for(op, inits, rewriter)
        inner = cast_op(new_body.args[1 + index], old_type)  # type: ignore[call-arg]
        new_body.add_op(inner)
        transfer = list(new_body.args)
        transfer[1 + index] = inner.results[0]
        rewriter.inline_block(body, InsertPoint.at_end(new_body), transfer)
        terminator = new_body.last_op
        assert terminator is not None
        back = cast_op(terminator.operands[index], source.type)  # type: ignore[call-arg]
        rewriter.insert_op(back, InsertPoint.before(terminator))
        terminator.operands[index] = back.results[0]
        after = cast_op(new.results[index], old_type)  # type: ignore[call-arg]
        rewriter.insert_op(after, InsertPoint.after(new))
        results = list(new.results)
        results[index] = after.results[0]
        rewriter.replace_op(op, [], results)


def _trip_count(lb: SSAValue, ub: SSAValue, step: SSAValue) -> int | None:
    if lb == ub:
        return 0
    low, high, stride = const_evaluate_operand(lb), const_evaluate_operand(ub), const_evaluate_operand(step)
    if low is None or high is None or stride is None or stride <= 0:
        return None
    return max(0, -(-(high - low) // stride))


class ParallelOpSingleOrZeroIterationDimsFolder(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xscf.ParallelOp):
            return
        body = op.body.block
        kept: list[int] = []
        mapping: dict[SSAValue, SSAValue] = {}
        for i, (lb, ub, step) in enumerate(zip(op.lowerBound, op.upperBound, op.step)):
            count = _trip_count(lb, ub, step)
            if count == 0:
                rewriter.replace_op(op, [], list(op.initVals))
                return
            if count == 1:
                mapping[body.args[i]] = lb
                continue
            kept.append(i)
        if len(kept) == len(op.lowerBound):
            return
        if not kept:
            self._inline(op, mapping, rewriter)
            return
        for arg, value in mapping.items():
            rewriter.replace_all_uses_with(arg, value)
        for arg in [a for a in body.args if a in mapping]:
            rewriter.erase_block_argument(arg)
        region = Region()
        op.body.move_blocks(region)
        new = type(op)(
            [op.lowerBound[i] for i in kept],
            [op.upperBound[i] for i in kept],
            [op.step[i] for i in kept],
            region,
            list(op.initVals),
        )
        new.attributes.update(op.attributes)
        rewriter.replace_op(op, new)

    @staticmethod
    def _inline(op: xscf.ParallelOp, mapping: dict[SSAValue, SSAValue], rewriter: PatternRewriter) -> None:
        """Every dimension runs once: the body, then each reduction on its init."""
        body = op.body.block
        reduce = body.last_op
        assert reduce is not None
        operands = [mapping.get(v, v) for v in reduce.operands]
        blocks = [region.detach_block(region.block) for region in reduce.regions]
        rewriter.erase_op(reduce)
        rewriter.inline_block(body, InsertPoint.before(op), [mapping[a] for a in body.args])
        results: list[SSAValue] = []
        for init, operand, block in zip(op.initVals, operands, blocks):
            returned = block.last_op
            assert returned is not None
            value = returned.operands[0]
            rewriter.erase_op(returned)
            rewriter.inline_block(block, InsertPoint.before(op), [init, operand])
            results.append(value)
        rewriter.replace_op(op, [], results)


class MergeNestedParallelLoops(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xscf.ParallelOp) or op.initVals:
            return
        outer = op.body.block
        inner = outer.first_op
        if not isinstance(inner, xscf.ParallelOp) or inner.next_op is not outer.last_op:
            return
        if inner.initVals:
            return
        bounds = {*inner.lowerBound, *inner.upperBound, *inner.step}
        if any(arg in bounds for arg in outer.args):
            return
        inner_body = inner.body.block
        merged = Block(arg_types=[a.type for a in (*outer.args, *inner_body.args)])
        new = type(op)(
            [*op.lowerBound, *inner.lowerBound],
            [*op.upperBound, *inner.upperBound],
            [*op.step, *inner.step],
            Region(merged),
        )
        new.attributes.update(op.attributes)
        for old, value in zip(outer.args, merged.args):
            rewriter.replace_all_uses_with(old, value)
        rewriter.inline_block(inner_body, InsertPoint.at_end(merged), merged.args[len(outer.args):])
        rewriter.replace_op(op, new)


def _width(value: SSAValue) -> int:
    width = getattr(value.type, "width", None)
    return width.data if width is not None else 64  # index


def _const_diff(lb: SSAValue, ub: SSAValue, unsigned: bool) -> int | None:
    """``ub - lb`` when both are constants or ``ub`` is ``lb + c`` (upstream's
    ``computeConstDiff``), the constants read unsigned for an unsigned loop."""
    low, high = const_evaluate_operand(lb), const_evaluate_operand(ub)
    if low is not None and high is not None:
        if unsigned:
            mask = (1 << _width(lb)) - 1
            return (high & mask) - (low & mask)
        return high - low
    owner = ub.owner
    if isinstance(owner, arith.AddiOp):
        for this, other in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            if this == lb and (c := const_evaluate_operand(other)) is not None:
                return c
    return None


class SimplifyTrivialLoops(RewritePattern):
    """Upstream's: a loop of no iterations is its inits, one of one iteration
    is its body, and an empty loop of several that yields only values from
    outside is those values. (xDSL's stops before the last case, compares
    bounds only as constants, and reads unsigned loops as signed.)"""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xscf.ForOp):
            return
        if op.lb == op.ub:
            rewriter.replace_op(op, [], list(op.iter_args))
            return
        unsigned = "unsignedCmp" in op.properties
        diff = _const_diff(op.lb, op.ub, unsigned)
        if diff is None:
            return
        if diff <= 0:
            rewriter.replace_op(op, [], list(op.iter_args))
            return
        step = const_evaluate_operand(op.step)
        if step is None:
            return
        if unsigned:
            step &= (1 << _width(op.step)) - 1
        if step >= diff:
            replace_op_with_region(rewriter, op, op.body, [op.lb, *op.iter_args])
            return
        block = op.body.block
        terminator = block.last_op
        if block.first_op is not terminator or terminator is None:
            return
        if any(_defined_in(v, op.body) for v in terminator.operands):
            return
        rewriter.replace_op(op, [], list(terminator.operands))


# xDSL's patterns that these replace (``canonicalize`` swaps them in)
REPLACED_PATTERNS: dict[type[RewritePattern], RewritePattern] = {
    XdslSimplifyTrivialLoops: SimplifyTrivialLoops(),
}


class _Patterns(HasCanonicalizationPatternsTrait):
    """Upstream's patterns for one op, after xDSL's own."""

    PATTERNS: tuple[RewritePattern, ...] = ()

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return cls.PATTERNS


class _IfPatterns(_Patterns):
    PATTERNS = (
        ConditionPropagation(),
        ConvertTrivialIfToSelect(),
        RemoveEmptyElseBranch(),
        RemoveUnusedResults(),
        ReplaceIfYieldWithConditionOrValue(),
    )


class _ForPatterns(_Patterns):
    PATTERNS = (ForOpIterArgsFolder(), ForOpTensorCastFolder())


class _ParallelPatterns(_Patterns):
    PATTERNS = (ParallelOpSingleOrZeroIterationDimsFolder(), MergeNestedParallelLoops())


def add_scf_canonicalizations(replaced: dict[type, type]) -> None:
    """Give xDSL's scf op classes (which passes build) and mlkit's (which the
    parser builds) the patterns."""
    for base, trait in (
        (xscf.IfOp, _IfPatterns()),
        (xscf.ForOp, _ForPatterns()),
        (xscf.ParallelOp, _ParallelPatterns()),
    ):
        for cls in (base, replaced[base]):
            if not cls.has_trait(type(trait)):
                cls.traits.add_trait(trait)
