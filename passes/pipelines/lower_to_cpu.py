"""``lower-to-cpu``: the one-word pipeline from tensors to the llvm dialect.

It takes any mix of tensor, linalg, affine, scf, arith, math, memref and func
IR to the llvm dialect, ready for ``--emit=llvm|asm|obj``, with mlkit's passes
only and in the order upstream's integration tests lower their programs:
bufferize across function boundaries (loops may yield new tensors), free what
bufferization allocated, turn linalg into loops, affine into scf and scf into
a CFG, expand strided memref metadata (which leaves affine.apply behind, so
lower-affine runs again), then math ops with an LLVM intrinsic to intrinsics
and the rest to libm calls, and everything else through ``convert-to-llvm``.
It aims at correct code, not fast code: nothing is tiled or vectorized.

Input that already frees its own buffers (``memref.dealloc``) must be lowered
with ``deallocation=false``, since the ownership-based deallocation rejects it,
as upstream's does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass
class LowerToCPU:
    """Lower tensor, linalg, affine, scf, arith, math, memref and func IR to the llvm dialect"""

    name = "lower-to-cpu"

    function_boundary_type_conversion: Literal["identity-layout-map", "infer-layout-map"] = field(
        default="identity-layout-map",
        metadata={"help": "Layout of the memrefs that replace tensor arguments and results"},
    )
    deallocation: bool = field(
        default=True, metadata={"help": "Free the buffers bufferization allocates"}
    )
    affine_loops: bool = field(
        default=False, metadata={"help": "Lower linalg ops to affine loops rather than scf loops"}
    )

    def pipeline(self) -> str:
        steps = [
            "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
            f"function-boundary-type-conversion={self.function_boundary_type_conversion}}}",
        ]
        if self.deallocation:
            steps.append("buffer-deallocation-pipeline")
        steps += [
            "convert-linalg-to-affine-loops" if self.affine_loops else "convert-linalg-to-loops",
            "lower-affine",
            "convert-scf-to-cf",
            "expand-strided-metadata",
            "lower-affine",
            "canonicalize",
            "cse",
            "convert-math-to-llvm",
            "convert-math-to-libm",
            "convert-to-llvm",
            "reconcile-unrealized-casts",
            "canonicalize",
            "cse",
        ]
        return ",".join(steps)
