"""``canonicalize``: xDSL's canonicalizer (patterns, folding, region DCE) under
upstream's name and display name.

Upstream's canonicalizer runs on any op (``func.func(canonicalize)``,
``gpu.module(canonicalize)``); xDSL's assumes a ``builtin.module``, so this
walks the regions of whatever op it is given.

The dead-code sweep after each walk is xDSL's ``region_dce`` with one change:
an op's memory effects are worked out once per sweep. xDSL asks every op for
them afresh, and an op with recursive effects (``scf.if``, ``scf.for``) asks
everything nested in it, so that the sweep was quadratic in nesting depth
(500 nested ``scf.if`` spent seconds here).
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation, Region, SSAValue
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriterListener
from xdsl.traits import EffectInstance, IsTerminator, MemoryEffect, MemoryEffectKind
from xdsl.traits import RecursiveMemoryEffect, SymbolOpInterface
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern, CanonicalizePass
from xdsl.transforms.dead_code_elimination import LiveSet

from mlkit.passes.transforms.rewrite_driver import rewrite_regions


# the function behind the classmethod RecursiveMemoryEffect.get_effects
_RECURSIVE_EFFECTS = RecursiveMemoryEffect.get_effects.__func__  # type: ignore[attr-defined]


@dataclass
class _LiveSet(LiveSet):
    """xDSL's liveness with each op's effects computed once: the IR does not
    change until the dead ops are deleted, so neither do they."""

    _effects: dict[Operation, Set[EffectInstance] | None] = field(
        default_factory=dict[Operation, "Set[EffectInstance] | None"]
    )

    def effects(self, op: Operation) -> Set[EffectInstance] | None:
        """xDSL's ``get_effects``, remembered, and with recursive effects
        gathered from the children's remembered ones."""
        if op in self._effects:
            return self._effects[op]
        found: set[EffectInstance] | None = None
        interfaces = op.get_traits_of_type(MemoryEffect)
        if interfaces:
            found = set()
            for trait in interfaces:
                if getattr(type(trait).get_effects, "__func__", None) is _RECURSIVE_EFFECTS:
                    nested = self._nested_effects(op)
                else:
                    nested = trait.get_effects(op)
                if nested is None:
                    found = None
                    break
                found.update(nested)
        self._effects[op] = found
        return found

    def _nested_effects(self, op: Operation) -> set[EffectInstance] | None:
        found: set[EffectInstance] = set()
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    effects = self.effects(child)
                    if effects is None:
                        return None
                    found.update(effects)
        return found

    def would_be_trivially_dead(self, op: Operation) -> bool:
        """xDSL's ``would_be_trivially_dead`` over the remembered effects."""
        if op.has_trait(IsTerminator, value_if_unregistered=False) or op.has_trait(
            SymbolOpInterface, value_if_unregistered=False
        ):
            return False
        effects = self.effects(op)
        return effects is not None and all(
            e.kind == MemoryEffectKind.READ
            or (
                e.kind == MemoryEffectKind.ALLOC
                and isinstance(v := e.value, SSAValue)
                and op.is_ancestor(v.owner)
            )
            for e in effects
        )

    def propagate_op_liveness(self, op: Operation) -> None:
        for region in op.regions:
            self.propagate_region_liveness(region)
        if self.is_live(op):
            return
        if not self.would_be_trivially_dead(op) or any(
            self.is_live(use.operation) for result in op.results for use in result.uses
        ):
            self.set_live(op)


def region_dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """xDSL's ``region_dce`` (liveness to a fixed point, then deletion) on
    :class:`_LiveSet`; whether anything was deleted."""
    live_set = _LiveSet()
    while live_set.changed:
        live_set.changed = False
        live_set.propagate_region_liveness(region)
    live_set.delete_dead(region, listener)
    return live_set.changed


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
