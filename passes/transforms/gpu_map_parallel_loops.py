"""``gpu-map-parallel-loops``: greedily give ``scf.parallel`` nests a
``mapping`` onto GPU blocks and threads.

xDSL has this pass (``xdsl.transforms.gpu_map_parallel_loops``) but it always
maps the innermost dimension to x, lists sequential dimensions first for
loops with more than three dimensions, and has no ``mapping-policy``
option; upstream (``ParallelLoopMapper.cpp``) maps the outermost dimension
to x by default. So the pass is written again here.

An outermost loop maps onto the grid, a loop nested directly in it onto the
block, deeper loops sequentially; a dimension past the third is sequential.
Loops that already carry a mapping are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp
from xdsl.dialects.gpu import LoopDimMapAttr, ProcessorAttr, ProcessorEnum
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from mlkit.diagnostics.emit import emit_error

MAPPING_ATTR = "mapping"
_LEVELS = (
    (ProcessorEnum.Block_X, ProcessorEnum.Block_Y, ProcessorEnum.Block_Z),
    (ProcessorEnum.Thread_X, ProcessorEnum.Thread_Y, ProcessorEnum.Thread_Z),
)


def hardware_id(level: int, dimension: int) -> ProcessorEnum:
    """The processor of dimension ``dimension`` at nesting ``level``
    (0: grid, 1: block)."""
    if level >= len(_LEVELS) or dimension >= 3:
        return ProcessorEnum.Sequential
    return _LEVELS[level][dimension]


def _identity() -> AffineMapAttr:
    return AffineMapAttr(AffineMap.identity(1))


def map_parallel_op(op: scf.ParallelOp, innermost_first: bool, level: int = 0) -> None:
    """Upstream's ``mapParallelOp``: map ``op`` at ``level`` and the
    parallel loops directly in its body one level deeper."""
    nested_in_parallel = False
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ParallelOp):
            nested_in_parallel = True
            break
        parent = parent.parent_op()
    if MAPPING_ATTR in op.attributes or (level == 0 and nested_in_parallel):
        return
    count = len(op.lowerBound)
    mapped = min(count, 3)
    attrs = []
    for i in range(count):
        dimension = (mapped - 1 - i) if innermost_first and i < mapped else i
        attrs.append(
            LoopDimMapAttr(ProcessorAttr(hardware_id(level, dimension)), _identity(), _identity())
        )
    op.attributes[MAPPING_ATTR] = ArrayAttr(attrs)
    for nested in op.body.block.ops:
        if isinstance(nested, scf.ParallelOp):
            map_parallel_op(nested, innermost_first, level + 1)


@dataclass(frozen=True)
class GpuMapParallelLoopsPass(ModulePass):
    """Greedily maps loops to GPU hardware dimensions."""

    name = "gpu-map-parallel-loops"
    anchor: ClassVar[str] = "func.func"

    mapping_policy: str = "outermost-first"

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        if self.mapping_policy not in ("outermost-first", "innermost-first"):
            raise emit_error(ctx, op, f"Invalid mapping policy '{self.mapping_policy}'")
        innermost = self.mapping_policy == "innermost-first"
        loops = [o for o in op.walk() if isinstance(o, scf.ParallelOp)]
        for loop in loops:
            map_parallel_op(loop, innermost)
