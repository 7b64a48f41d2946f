"""``loop-invariant-code-motion``: hoist invariant, side-effect-free ops out of loops.

Upstream walks every ``LoopLikeOpInterface`` op innermost first and moves
before the loop each op of a loop region that

- is not a terminator,
- uses (itself, or any op nested in it) only values defined outside the loop,
  or inside the op itself,
- has no memory effects (recursively) and is speculatable: may run even if the
  loop runs zero times (so no division by a value that may be zero, no loop
  that may not terminate).

Once an op moves, its users in the same region are looked at again, so chains
of invariant ops move together and in order. The loop-like ops here are
upstream's: ``scf.for``, ``scf.parallel``, ``scf.forall``, ``scf.while`` (both
regions), ``affine.for`` and ``affine.parallel``.

xDSL's ``licm`` handles only ``scf.for`` and trusts xDSL's speculation traits,
which differ from upstream for some ops (see :mod:`.side_effects`), so this is
mlkit's own.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from mlkit.passes.transforms.side_effects import is_memory_effect_free, is_speculatable

__all__ = ["LOOP_LIKE_OPS", "LoopInvariantCodeMotion", "move_loop_invariant_code"]

LOOP_LIKE_OPS = frozenset(
    {"scf.for", "scf.parallel", "scf.forall", "scf.while", "affine.for", "affine.parallel"}
)


def _scope(value: SSAValue) -> Operation | None:
    """The op whose region defines ``value``."""
    owner = value.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    return block.parent_op() if block is not None else None


def defined_outside(value: SSAValue, loop: Operation) -> bool:
    scope = _scope(value)
    return scope is None or not loop.is_ancestor(scope)


def can_be_hoisted(op: Operation, loop: Operation) -> bool:
    """Not a terminator, and every value it or its nested ops use comes from
    outside the loop or from inside ``op``."""
    if op.has_trait(IsTerminator, value_if_unregistered=False):
        return False
    for child in op.walk():
        for operand in child.operands:
            scope = _scope(operand)
            if scope is not None and op.is_ancestor(scope):
                continue
            if not defined_outside(operand, loop):
                return False
    return True


def _hoist_from_region(loop: Operation, region: Region, rewriter: PatternRewriter) -> int:
    worklist = deque(op for block in region.blocks for op in block.ops)
    moved = 0
    while worklist:
        op = worklist.popleft()
        if op.parent_region() is not region:  # already moved
            continue
        if not can_be_hoisted(op, loop):
            continue
        if not (is_memory_effect_free(op) and is_speculatable(op)):
            continue
        op.detach()
        rewriter.insert(op, InsertPoint.before(loop))
        moved += 1
        for result in op.results:
            for use in result.uses:
                if use.operation.parent_region() is region:
                    worklist.append(use.operation)
    return moved


def move_loop_invariant_code(loop: Operation, rewriter: PatternRewriter) -> int:
    """Move the invariant ops of ``loop``'s regions before it; how many moved."""
    return sum(_hoist_from_region(loop, region, rewriter) for region in loop.regions)


class HoistLoopInvariants(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name in LOOP_LIKE_OPS:
            move_loop_invariant_code(op, rewriter)


@dataclass(frozen=True)
class LoopInvariantCodeMotion(ModulePass):
    """Hoist loop invariant instructions outside of the loop"""

    name = "loop-invariant-code-motion"
    display_name: ClassVar[str] = "LoopInvariantCodeMotionPass"

    def apply(self, ctx: Context, op: Operation) -> None:
        # Nested loops first, so what leaves an inner loop may leave the outer one.
        walker = PatternRewriteWalker(
            HoistLoopInvariants(), apply_recursively=False, walk_regions_first=True
        )
        for region in op.regions:
            walker.rewrite_region(region)
