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

from mlkit.passes.transforms.alloc_placement import LOOPS, Dominance, alias_dominator
from mlkit.passes.transforms.alloc_placement import dependency_block, find_placement_block
from mlkit.passes.transforms.alloc_placement import function_ops, start_operation


@dataclass(frozen=True)
class BufferHoisting(ModulePass):
    """Optimizes placement of allocation operations by moving them into common dominators and out of nested regions"""

    name = "buffer-hoisting"
    display_name: ClassVar[str] = "BufferHoistingPass"
    anchor: ClassVar[str] = "func.func"

    def apply(self, ctx: Context, op: Operation) -> None:
        dominance = Dominance()
        for alloc in function_ops(op, frozenset({"memref.alloc"})):
            block = alloc.parent_block()
            if block is None:
                continue
            upper = alias_dominator(alloc.results[0], dominance)
            dependency = dependency_block(alloc, dominance)
            if dependency is not None and (
                upper is None or dominance.properly_dominates(upper, dependency)
            ):
                upper = dependency
            placement = find_placement_block(
                block, upper, dominance, lambda parent: parent.name not in LOOPS, to_dominator=True
            )
            if placement is not block:
                start = start_operation(alloc, placement)
                alloc.detach()
                placement.insert_op_before(alloc, start)
