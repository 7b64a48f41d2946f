"""``lower-to-cuda``: the one-word pipeline from tensors to kernels in PTX
and host code in the llvm dialect that launches them.

First, on tensors, chains of elementwise ops fuse into one generic
(``fusion``), so each chain becomes one kernel. Then upstream's
integration-test recipe for the GPU: bufferize across function
boundaries and free what bufferization allocated, turn linalg ops into
``scf.parallel`` loops, map them onto the GPU's grid
(``gpu-map-parallel-loops``) and turn them into ``gpu.launch``
(``convert-parallel-loops-to-gpu``), then ``gpu-lower-to-nvvm-pipeline``
outlines the kernels, compiles them to PTX (``isa``, loaded through the
driver's JIT at run time) and lowers the host code, whose remaining math and
memref ops go through ``convert-to-llvm``. Loops that do not map (a
reduction's) stay sequential inside the kernels. Like ``lower-to-cpu`` it
aims at correct code: nothing is tiled for shared memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlkit.pipeline.options import option


@dataclass
class LowerToCUDA:
    """Lower tensor and linalg IR to NVVM kernels in PTX and llvm-dialect host code"""

    name = "lower-to-cuda"

    chip: str = option("sm_80", "Target GPU (the PTX runs on this and newer)")
    opt_level: int = option(3, "Optimization level of the kernels")
    fusion: bool = option(True, "Fuse elementwise ops into one kernel, on tensors")

    def pipeline(self) -> str:
        fusion = [
            "func.func(convert-elementwise-to-linalg,linalg-generalize-named-ops,"
            "linalg-fuse-elementwise-ops)",
            "canonicalize",
            "cse",
        ]
        return ",".join([
            *(fusion if self.fusion else []),
            (
                "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
                "function-boundary-type-conversion=identity-layout-map}"
            ),
            "buffer-deallocation-pipeline",
            "convert-linalg-to-parallel-loops",
            "func.func(gpu-map-parallel-loops)",
            "convert-parallel-loops-to-gpu",
            "lower-affine",
            (
                f"gpu-lower-to-nvvm-pipeline{{cubin-chip={self.chip} cubin-format=isa "
                f"opt-level={self.opt_level}}}"
            ),
            "convert-math-to-libm",
            "convert-to-llvm",
            "reconcile-unrealized-casts",
            "canonicalize",
            "cse",
        ])  # fmt: skip
