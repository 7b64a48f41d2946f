"""``canonicalize``: xDSL's canonicalizer (patterns, folding, region DCE) under
upstream's name and display name.

Upstream's canonicalizer runs on any op (``func.func(canonicalize)``,
``gpu.module(canonicalize)``); xDSL's assumes a ``builtin.module``, so this
walks the regions of whatever op it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern, CanonicalizePass
from xdsl.transforms.dead_code_elimination import region_dce


@dataclass(frozen=True)
class Canonicalize(CanonicalizePass):
    """Canonicalize operations"""

    name = "canonicalize"
    display_name: ClassVar[str] = "Canonicalizer"

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        pattern = GreedyRewritePatternApplier(
            [CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True
        )
        walker = PatternRewriteWalker(pattern, post_walk_func=region_dce)
        for region in op.regions:
            walker.rewrite_region(region)
