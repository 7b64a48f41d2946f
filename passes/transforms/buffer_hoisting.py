"""``buffer-hoisting``: move allocations into the blocks that dominate all
their uses.

As upstream's ``BufferAllocationHoistingState``: a ``memref.alloc`` whose
buffer flows on (through branches, or yielded out of an ``scf.if``) moves up
to the nearest block dominating the buffer and every value it flows into, but
no higher than the block defining its sizes and never out of a loop. The
buffer then exists once on every path instead of once per branch, which saves
the copies deallocation would insert where branches join.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from mlkit.passes.transforms.alloc_placement import LOOPS, Bound, Dominance, alias_dominator
from mlkit.passes.transforms.alloc_placement import dependency_block, hoist_allocations


def into_dominators(alloc: Operation, dominance: Dominance) -> Bound:
    """Upstream's ``BufferAllocationHoistingState``: bounded by the lower of
    the block dominating every alias and the sizes' block; any parent op but a
    loop may be left."""
    upper = alias_dominator(alloc.results[0], dominance)
    dependency = dependency_block(alloc, dominance)
    if dependency is not None:
        if upper is None or dominance.properly_dominates(upper, dependency):
            upper = dependency
    return upper, lambda parent: parent.name not in LOOPS


@dataclass(frozen=True)
class BufferHoisting(ModulePass):
    """Optimizes placement of allocation operations by moving them into common dominators and out of nested regions"""

    name = "buffer-hoisting"
    display_name: ClassVar[str] = "BufferHoistingPass"
    anchor: ClassVar[str] = "func.func"

    def apply(self, ctx: Context, op: Operation) -> None:
        hoist_allocations(op, frozenset({"memref.alloc"}), into_dominators, to_dominator=True)
