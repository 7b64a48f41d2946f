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
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait
from xdsl.transforms.canonicalize import CanonicalizePass

from mlkit.diagnostics.emit import emit_error
from mlkit.passes.transforms.block_merging import drop_redundant_arguments
from mlkit.passes.transforms.block_merging import forward_common_arguments, merge_identical_blocks
from mlkit.passes.transforms.cf_canonicalization import REPLACEMENTS
from mlkit.passes.transforms.region_dce import region_dce
from mlkit.passes.transforms.rewrite_driver import LinearWalker
from mlkit.pipeline.options import option


def unique_constants(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Upstream's ``OperationFolder`` keeps one constant per value and type:
    a constant-like op equal to one earlier in its block (the folder's own
    constants included) is replaced by it. Upstream also hoists constants to
    the entry block of the enclosing isolated region; mlkit leaves them where
    they are. Whether anything was replaced."""
    changed = False
    regions = [region]
    while regions:
        for block in regions.pop().blocks:
            seen: dict[tuple[object, ...], Operation] = {}
            for op in list(block.ops):
                regions.extend(op.regions)
                if op.regions or len(op.results) != 1 or not op.has_trait(ConstantLike):
                    continue
                key = (
                    op.name,
                    tuple(sorted(op.properties.items())),
                    tuple(sorted(op.attributes.items())),
                    op.results[0].type,
                )
                first = seen.setdefault(key, op)
                if first is not op:
                    op.results[0].replace_all_uses_with(first.results[0])
                    if listener is not None:
                        listener.handle_operation_removal(op)
                    block.erase_op(op, safe_erase=False)
                    changed = True
    return changed


RegionSimplify = Literal["disabled", "normal", "aggressive"]


def _after_walk(region_simplify: RegionSimplify) -> Callable[[Region, PatternRewriterListener], bool]:
    """What runs between the walks: constant uniquing, then upstream's
    ``simplifyRegions``: region DCE and, when aggressive, block merging."""

    def after(region: Region, listener: PatternRewriterListener) -> bool:
        changed = unique_constants(region, listener)
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
    walker = LinearWalker(
        budget,
        walk_reverse=not top_down,
        post_walk_func=_after_walk(
            region_simplify
            if isinstance(region_simplify, str)
            else ("normal" if region_simplify else "disabled")
        ),
    )
    converged = True
    for region in op.regions:
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
