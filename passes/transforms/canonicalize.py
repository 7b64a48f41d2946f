"""``canonicalize``: xDSL's canonicalizer (patterns, folding, region DCE) under
upstream's name and display name.

Upstream's canonicalizer runs on any op (``func.func(canonicalize)``,
``gpu.module(canonicalize)``); xDSL's assumes a ``builtin.module``, so this
walks the regions of whatever op it is given.

The dead-code sweep after each walk is xDSL's ``region_dce`` with one change:
an op's memory effects are worked out once per sweep (``effects_memo``). xDSL
asks every op for them afresh, and an op with recursive effects (``scf.if``,
``scf.for``) asks everything nested in it, so that the sweep was quadratic in
nesting depth (500 nested ``scf.if`` spent seconds here).

Each op class's canonicalization patterns are gathered once per run (xDSL
imports and builds them again for every op it visits), and cf's pass-through
patterns that were quadratic are mlkit's (``cf_canonicalization``): a chain
of pass-through blocks collapses in one rewrite rather than one per block,
and a branch's condition is propagated by looking through its successors
rather than through all the uses of the condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation, Region
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter
from xdsl.pattern_rewriter import PatternRewriterListener, RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.dead_code_elimination import LiveSet

from mlkit.passes.transforms.cf_canonicalization import REPLACEMENTS
from mlkit.passes.transforms.effects_memo import remembered_effects
from mlkit.passes.transforms.rewrite_driver import rewrite_regions


def region_dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """xDSL's ``region_dce`` (liveness to a fixed point, then deletion), with
    each op's effects worked out once for the sweep; whether anything was deleted."""
    with remembered_effects():  # the IR holds still until the dead ops go
        live_set = LiveSet()
        while live_set.changed:
            live_set.changed = False
            live_set.propagate_region_liveness(region)
    live_set.delete_dead(region, listener)
    return live_set.changed


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


def canonicalize(ctx: Context, op: Operation) -> None:
    """Canonicalize inside ``op``: xDSL's canonicalization patterns and
    folding, with dead code (in nested regions too) removed after each walk,
    to a fixed point."""
    pattern = GreedyRewritePatternApplier(
        [CanonicalizationPatterns()], ctx=ctx, folding_enabled=True
    )
    rewrite_regions(op, pattern, post_walk_func=region_dce)


@dataclass(frozen=True)
class Canonicalize(CanonicalizePass):
    """Canonicalize operations"""

    name = "canonicalize"
    display_name: ClassVar[str] = "Canonicalizer"

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        canonicalize(ctx, op)
