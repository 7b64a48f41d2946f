"""``canonicalize``: xDSL's canonicalizer (patterns, folding, region DCE) under
upstream's name and display name.

Upstream's canonicalizer runs on any op (``func.func(canonicalize)``,
``gpu.module(canonicalize)``); xDSL's assumes a ``builtin.module``, so this
walks the regions of whatever op it is given, in upstream's loop: patterns and
folding over a worklist, then the dead-code sweep, until nothing changes or
``max-iterations`` rounds have run (upstream's options: ``top-down``,
``region-simplify`` (``aggressive`` also merges identical blocks:
``block_merging``), ``max-iterations``,
``max-num-rewrites``, ``test-convergence``).

The dead-code sweep after each walk is upstream's region DCE
(``region_dce``): dead ops and dead block arguments in one linear pass. Each
op's memory effects are worked out once (``effects_memo``): xDSL asks every
op for them afresh, and an op with recursive effects (``scf.if``,
``scf.for``) asks everything nested in it, so the sweep was quadratic in
nesting depth (500 nested ``scf.if`` spent seconds here).

Each op class's canonicalization patterns are gathered once per run (xDSL
imports and builds them again for every op it visits), and cf's pass-through
patterns that were quadratic are mlkit's (``cf_canonicalization``): a chain
of pass-through blocks collapses in one rewrite rather than one per block,
and a branch's condition is propagated by looking through its successors
rather than through all the uses of the condition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal

from xdsl.context import Context
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter
from xdsl.pattern_rewriter import PatternRewriterListener, RewritePattern
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait, IsolatedFromAbove
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.canonicalize import CanonicalizePass

from mlkit.diagnostics.emit import emit_error
from mlkit.passes.transforms.block_merging import drop_redundant_arguments
from mlkit.passes.transforms.block_merging import forward_common_arguments, merge_identical_blocks
from mlkit.dialects.arith.canonicalization import REPLACED_PATTERNS as ARITH_REPLACEMENTS
from mlkit.dialects.scf.canonicalization import REPLACED_PATTERNS as SCF_REPLACEMENTS
from mlkit.passes.transforms.cf_canonicalization import REPLACEMENTS as CF_REPLACEMENTS
from mlkit.passes.transforms.region_dce import region_dce
from mlkit.passes.transforms.rewrite_driver import LinearWalker
from mlkit.pipeline.options import option


def _insertion_region(op: Operation, root: Region) -> Region:
    """Where upstream's folder keeps ``op``'s constant: the region of the
    closest isolated-from-above (or unregistered, or top-level) ancestor, or
    ``root``, whichever comes first (upstream's ``getInsertionRegion``)."""
    region = op.parent_region()
    assert region is not None
    while region is not root:
        parent = region.parent_op()
        if (
            parent is None
            or parent.parent_block() is None
            or isinstance(parent, UnregisteredOp)
            or parent.has_trait(IsolatedFromAbove)
            or parent.name in _MATERIALIZE_INTO
        ):
            break
        outer = parent.parent_region()
        assert outer is not None
        region = outer
    return region


# ops whose regions keep their own constants (upstream's ``shouldMaterializeInto``)
_MATERIALIZE_INTO = frozenset({"omp.target"})


def _constants_in_order(region: Region) -> list[Operation]:
    """The constant-like ops nested in ``region``, each op before what its
    regions hold (the order upstream's driver visits them in)."""
    found: list[Operation] = []
    stack = [iter([op for block in region.blocks for op in block.ops])]
    while stack:
        op = next(stack[-1], None)
        if op is None:
            stack.pop()
        elif op.regions:
            stack.append(iter([o for r in op.regions for b in r.blocks for o in b.ops]))
        elif len(op.results) == 1 and op.has_trait(ConstantLike):
            found.append(op)
    return found


def unique_constants(
    region: Region,
    listener: PatternRewriterListener | None = None,
    owned: set[Operation] | None = None,
) -> bool:
    """Upstream's ``OperationFolder`` on the constants: each is kept at the
    start of the entry block of its insertion region (:func:`_insertion_region`),
    one per value and type there. ``owned`` are the constants the folder has
    already seen (kept across the walks of one run); the others are handed
    to it in walk order, and each that is not among the leading constants
    moves to the very front. (Upstream hands over a pattern's new constants
    as its worklist pops them; mlkit's patterns put theirs where that order
    leaves them, see ``function_constant``.)
    Whether a duplicate was replaced (moving is not a change, as upstream's
    driver does not count it)."""
    changed = False
    owned = set() if owned is None else owned
    tables: dict[Region, dict[tuple[object, ...], Operation]] = {}
    constants = _constants_in_order(region)
    known = [op for op in constants if op in owned]
    fresh = [op for op in constants if op not in owned]
    for op in known + fresh:
        home = _insertion_region(op, region)
        table = tables.setdefault(home, {})
        key = (
            op.name,
            tuple(sorted(op.properties.items())),
            tuple(sorted(op.attributes.items())),
            op.results[0].type,
        )
        first = table.get(key)
        if first is not None:
            op.results[0].replace_all_uses_with(first.results[0])
            if listener is not None:
                listener.handle_operation_removal(op)
            owned.discard(op)
            op.detach()
            op.erase(safe_erase=False)
            changed = True
            continue
        entry = home.first_block
        assert entry is not None
        if op not in owned and (
            op.parent_block() is not entry
            or (op is not entry.first_op and op.prev_op not in owned)
        ):
            op.detach()
            Rewriter.insert_op(op, InsertPoint.at_start(entry))
        owned.add(op)
        table[key] = op
    return changed


# xDSL's patterns and the instances of mlkit's that stand in for them
REPLACEMENTS: dict[type[RewritePattern], RewritePattern] = {
    **CF_REPLACEMENTS,
    **SCF_REPLACEMENTS,
    **ARITH_REPLACEMENTS,
}

RegionSimplify = Literal["disabled", "normal", "aggressive"]


def _after_walk(
    region_simplify: RegionSimplify, owned: set[Operation]
) -> Callable[[Region, PatternRewriterListener], bool]:
    """What runs between the walks: constant uniquing, then upstream's
    ``simplifyRegions``: region DCE and, when aggressive, block merging."""

    def after(region: Region, listener: PatternRewriterListener) -> bool:
        changed = unique_constants(region, listener, owned)
        changed = forward_common_arguments(region, listener) or changed
        if region_simplify == "disabled":
            return changed
        changed = region_dce(region, listener) or changed
        if region_simplify == "aggressive":
            changed = merge_identical_blocks(region, listener) or changed
            changed = drop_redundant_arguments(region, listener) or changed
        return changed

    return after


class CanonicalizationPatterns(RewritePattern):
    """xDSL's ``CanonicalizationRewritePattern``: the patterns of the op's
    ``HasCanonicalizationPatternsTrait`` in order, until one rewrites, with
    each op class's patterns gathered once."""

    def __init__(self) -> None:
        self._patterns: dict[type[Operation], tuple[RewritePattern, ...]] = {}

    def _of(self, op: Operation) -> tuple[RewritePattern, ...]:
        kind = type(op)
        patterns = self._patterns.get(kind)
        if patterns is None:
            patterns = tuple(
                REPLACEMENTS.get(type(pattern), pattern)
                for trait in op.get_traits_of_type(HasCanonicalizationPatternsTrait)
                for pattern in trait.get_patterns(kind)
            )
            self._patterns[kind] = patterns
        return patterns

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        for pattern in self._of(op):
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


class _RewriteBudget(RewritePattern):
    """``pattern``, until ``limit`` rewrites have been made (``max-num-rewrites``;
    negative: no limit); the caller zeroes ``count`` for each iteration."""

    def __init__(self, pattern: RewritePattern, limit: int) -> None:
        self.pattern, self.limit, self.count = pattern, limit, 0

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if 0 <= self.limit <= self.count:
            return
        self.pattern.match_and_rewrite(op, rewriter)
        if rewriter.has_done_action:
            self.count += 1


def canonicalize(
    ctx: Context,
    op: Operation,
    *,
    top_down: bool = True,
    region_simplify: RegionSimplify | bool = "normal",
    max_iterations: int = 10,
    max_num_rewrites: int = -1,
) -> bool:
    """Canonicalize inside ``op`` as upstream's greedy driver does: xDSL's
    canonicalization patterns and folding over a worklist seeded top-down (or
    bottom-up), then dead code and unreachable blocks removed, repeated until
    nothing changes or ``max_iterations`` (negative: no limit) have run.
    Whether it converged."""
    budget = _RewriteBudget(
        GreedyRewritePatternApplier([CanonicalizationPatterns()], ctx=ctx, folding_enabled=True),
        max_num_rewrites,
    )
    # xDSL's walker pops in walk order; upstream's bottom-up seeding pops the
    # post-order walk from its end, which is the reversed pre-order walk
    owned: set[Operation] = set()  # the constants upstream's folder would hold
    walker = LinearWalker(
        budget,
        walk_reverse=not top_down,
        post_walk_func=_after_walk(
            region_simplify
            if isinstance(region_simplify, str)
            else ("normal" if region_simplify else "disabled"),
            owned,
        ),
    )
    converged = True
    for region in op.regions:
        # upstream's driver hands the constants to its folder as it seeds the
        # worklist, before any pattern runs; mlkit's does it after each walk
        unique_constants(region, owned=owned)
        iteration, changed = 0, True
        while changed and (max_iterations < 0 or iteration < max_iterations):
            budget.count = 0
            changed = walker.rewrite_region_once(region)
            iteration += 1
        converged &= not changed
    return converged


@dataclass(frozen=True)
class Canonicalize(CanonicalizePass):
    """Canonicalize operations"""

    name = "canonicalize"
    display_name: ClassVar[str] = "Canonicalizer"

    top_down: bool = option(True, "Seed the worklist in general top-down order")
    region_simplify: RegionSimplify = option(
        "normal", "Perform control flow optimizations to the region tree"
    )
    max_iterations: int = option(10, "Max. iterations between applying patterns / simplifying regions")
    max_num_rewrites: int = option(-1, "Max. number of pattern rewrites within an iteration")
    test_convergence: bool = option(
        False, "Test only: Fail pass on non-convergence to detect cyclic pattern"
    )

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        converged = canonicalize(
            ctx,
            op,
            top_down=self.top_down,
            region_simplify=self.region_simplify,
            max_iterations=self.max_iterations,
            max_num_rewrites=self.max_num_rewrites,
        )
        if self.test_convergence and not converged:
            raise emit_error(
                ctx, op, f"canonicalizer did not converge within {self.max_iterations} iterations"
            )
