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

from mlkit.passes.transforms.alloc_placement import LOOPS, Dominance, alias_dominator
from mlkit.passes.transforms.alloc_placement import dependency_block, find_placement_block
from mlkit.passes.transforms.alloc_placement import function_ops, start_operation


@dataclass(frozen=True)
class BufferLoopHoisting(ModulePass):
    """Optimizes placement of allocation operations by moving them out of loop nests"""

    name = "buffer-loop-hoisting"
    display_name: ClassVar[str] = "BufferLoopHoistingPass"
    anchor: ClassVar[str] = "func.func"

    def apply(self, ctx: Context, op: Operation) -> None:
        dominance = Dominance()
        for alloc in function_ops(op, frozenset({"memref.alloc", "memref.alloca"})):
            block = alloc.parent_block()
            if block is None:
                continue
            aliases_above = alias_dominator(alloc.results[0], dominance)

            def legal(loop: Operation) -> bool:
                outer = loop.parent_block()
                return (
                    loop.name in LOOPS
                    and outer is not None
                    and not (aliases_above is not None and dominance.dominates(aliases_above, outer))
                )

            upper = dependency_block(alloc, dominance)
            placement = find_placement_block(block, upper, dominance, legal, to_dominator=False)
            if placement is not block:
                start = start_operation(alloc, placement)
                alloc.detach()
                placement.insert_op_before(alloc, start)
