"""``convert-linalg-to-loops``, ``convert-linalg-to-affine-loops`` and
``convert-linalg-to-parallel-loops``: linalg structured ops on buffers to loop nests.

The three passes differ only in the loops and memory accesses they emit:

- ``convert-linalg-to-loops``: ``scf.for`` per loop, ``memref.load``/``store``;
- ``convert-linalg-to-affine-loops``: ``affine.for``, ``affine.load``/``store``;
- ``convert-linalg-to-parallel-loops``: ``scf.parallel`` over each run of
  consecutive parallel loops, ``scf.for`` for each reduction loop.

They apply to every op of upstream's ``LinalgOp`` interface (generic, the named
ops, map, reduce, transpose, broadcast) whose operands are all memrefs or
scalars; ops on tensors are left alone, as upstream leaves them. ``linalg.pack``,
``linalg.unpack`` and ``linalg.softmax`` are not ``LinalgOp``s: upstream lowers
them only after decomposing them, and these passes leave them untouched. The
shared lowering is :mod:`linalg_to_loops_lowering`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from mlkit.passes.transforms.rewrite_driver import rewrite_regions
from mlkit.passes.conversion.linalg_to_loops_lowering import (
    ConstantPool,
    LoopKind,
    has_pure_buffer_semantics,
    is_structured_op,
    lower_to_loops,
)

__all__ = [
    "ConvertLinalgToAffineLoops",
    "ConvertLinalgToLoops",
    "ConvertLinalgToParallelLoops",
    "LinalgToLoopsPattern",
]


@dataclass
class LinalgToLoopsPattern(RewritePattern):
    """Any structured op with pure buffer semantics, to a loop nest of ``kind``."""

    kind: LoopKind
    pool: ConstantPool

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_structured_op(op) or not has_pure_buffer_semantics(op):
            return
        lower_to_loops(rewriter, op, self.kind, self.pool)


class _LinalgToLoopsBase(ModulePass):
    KIND: ClassVar[LoopKind]

    def apply(self, ctx: Context, op: Operation) -> None:
        # The pass runs on whatever op the pipeline anchors it on.
        rewrite_regions(op, LinalgToLoopsPattern(self.KIND, ConstantPool()), apply_recursively=False)


@dataclass(frozen=True)
class ConvertLinalgToLoops(_LinalgToLoopsBase):
    """Convert the operations from the linalg dialect into loops"""

    name = "convert-linalg-to-loops"
    display_name: ClassVar[str] = "ConvertLinalgToLoopsPass"
    KIND: ClassVar[LoopKind] = LoopKind.SCF_FOR


@dataclass(frozen=True)
class ConvertLinalgToAffineLoops(_LinalgToLoopsBase):
    """Lower the operations from the linalg dialect into affine loops"""

    name = "convert-linalg-to-affine-loops"
    display_name: ClassVar[str] = "ConvertLinalgToAffineLoopsPass"
    KIND: ClassVar[LoopKind] = LoopKind.AFFINE_FOR


@dataclass(frozen=True)
class ConvertLinalgToParallelLoops(_LinalgToLoopsBase):
    """Convert the operations from the linalg dialect into parallel loops"""

    name = "convert-linalg-to-parallel-loops"
    display_name: ClassVar[str] = "ConvertLinalgToParallelLoopsPass"
    KIND: ClassVar[LoopKind] = LoopKind.SCF_PARALLEL
