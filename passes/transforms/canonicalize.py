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
from xdsl.pattern_rewriter import GreedyRewritePatternApplier
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern, CanonicalizePass
from xdsl.transforms.dead_code_elimination import region_dce

from mlkit.passes.transforms.rewrite_driver import rewrite_regions


def canonicalize(ctx: Context, op: Operation) -> None:
    """Canonicalize inside ``op``: xDSL's canonicalization patterns and
    folding, with dead code (in nested regions too) removed after each walk,
    to a fixed point."""
    pattern = GreedyRewritePatternApplier(
        [CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True
    )
    rewrite_regions(op, pattern, post_walk_func=region_dce)


@dataclass(frozen=True)
class Canonicalize(CanonicalizePass):
    """Canonicalize operations"""

    name = "canonicalize"
    display_name: ClassVar[str] = "Canonicalizer"

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        canonicalize(ctx, op)
