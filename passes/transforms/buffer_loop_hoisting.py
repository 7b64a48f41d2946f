"""``buffer-loop-hoisting``: move allocations out of the loops around them.

As upstream's ``BufferAllocationLoopHoistingState``: a ``memref.alloc`` or
``memref.alloca`` leaves each enclosing loop (``scf.for``, ``scf.while``,
``affine.for``) whose iterations do not hand the buffer on (no alias of it is
yielded to the next iteration or out of the loop) and that its sizes are
defined outside of; it goes right before the outermost such loop. Then one
buffer serves every iteration instead of one allocation each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from mlkit.passes.transforms.alloc_placement import LOOPS, Bound, Dominance, alias_dominator
from mlkit.passes.transforms.alloc_placement import dependency_block, hoist_allocations


def out_of_loops(alloc: Operation, dominance: Dominance) -> Bound:
    """Upstream's ``BufferAllocationLoopHoistingState``: bounded by the sizes'
    block; a loop may be left unless an alias of the buffer reaches the block
    the loop is in (the buffer is handed to a later iteration or out)."""
    aliases_above = alias_dominator(alloc.results[0], dominance)

    def legal(loop: Operation) -> bool:
        outer = loop.parent_block()
        if loop.name not in LOOPS or outer is None:
            return False
        return aliases_above is None or not dominance.dominates(aliases_above, outer)

    return dependency_block(alloc, dominance), legal


@dataclass(frozen=True)
class BufferLoopHoisting(ModulePass):
    """Optimizes placement of allocation operations by moving them out of loop nests"""

    name = "buffer-loop-hoisting"
    display_name: ClassVar[str] = "BufferLoopHoistingPass"
    anchor: ClassVar[str] = "func.func"

    def apply(self, ctx: Context, op: Operation) -> None:
        hoist_allocations(
            op, frozenset({"memref.alloc", "memref.alloca"}), out_of_loops, to_dominator=False
        )
