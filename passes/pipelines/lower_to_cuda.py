"""``lower-to-cuda``: the one-word pipeline from tensors to kernels in PTX
and host code in the llvm dialect that launches them.

First, on tensors, chains of elementwise ops fuse into one generic
(``fusion``), so each chain becomes one kernel. Then upstream's
integration-test recipe for the GPU: bufferize across function boundaries
and free what bufferization allocated, turn linalg ops into ``scf.parallel``
loops (each matmul first becomes a kernel whose blocks stage tiles of A
and B in shared memory, ``gpu-stage-matmul-tiles``, option
``matmul-tiles``), give each reduction along rows a thread block per result, combined
by ``gpu.all_reduce`` (``gpu-map-reductions-to-blocks``, options
``block-reductions`` and ``reduction-threads``), tile each other loop into
thread blocks with sizes chosen by its rank (``gpu-tile-parallel-loops``:
256 threads for 1-D loops, 8x32 for 2-D, 2x4x32 for 3-D, options
``tile-sizes-*``; constant-size tiles with bounds guards, the sizes fitted
to small static dimensions), map the tile loops onto blocks and the loops
within a tile onto threads, the innermost dimension on x so that
consecutive threads touch consecutive elements
(``gpu-map-parallel-loops{mapping-policy=innermost-first}``), and turn them
into ``gpu.launch`` (``convert-parallel-loops-to-gpu``), then
``gpu-lower-to-nvvm-pipeline`` outlines the kernels, compiles them to PTX
(``isa``, loaded through the driver's JIT at run time) and lowers the host
code, whose remaining math and memref ops go through ``convert-to-llvm``.
Loops that do not map (other reductions') stay sequential inside the
kernels, one thread per result.

With ``host-kernels``, ``gpu-kernels-to-host`` also adds a host copy of
each kernel after outlining, which :mod:`mlkit.api.cuda_host` runs on the
CPU in place of the GPU.
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
    tile_sizes_1d: tuple[int, ...] = option(
        (256,), "Threads per block of a 1-D parallel loop (gpu-tile-parallel-loops)"
    )
    tile_sizes_2d: tuple[int, ...] = option(
        (8, 32), "Block shape of a 2-D parallel loop, outer dimension first (the last is x)"
    )
    tile_sizes_3d: tuple[int, ...] = option(
        (2, 4, 32), "Block shape of a 3-D (or higher) parallel loop, outer dimension first"
    )
    block_reductions: bool = option(
        True,
        "Reduce each row of a row reduction in one thread block, with gpu.all_reduce "
        "(gpu-map-reductions-to-blocks)",
    )
    reduction_threads: int = option(256, "Threads per block of a row reduction")
    matmul_tiles: bool = option(
        True,
        "Launch matmuls as kernels that stage 64x64x16 tiles of A and B in shared memory, "
        "256 threads a block, 4x4 results a thread (gpu-stage-matmul-tiles)",
    )
    host_kernels: bool = option(
        False,
        "Also compile each kernel for the host (gpu-kernels-to-host), so that "
        "mlkit.api.cuda_host can run the program on the CPU",
    )

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
            *(["gpu-stage-matmul-tiles"] if self.matmul_tiles else []),
            "convert-linalg-to-parallel-loops",
            *(
                [f"gpu-map-reductions-to-blocks{{threads={self.reduction_threads}}}"]
                if self.block_reductions else []
            ),
            (
                f"gpu-tile-parallel-loops{{tile-sizes-1d={_sizes(self.tile_sizes_1d)} "
                f"tile-sizes-2d={_sizes(self.tile_sizes_2d)} "
                f"tile-sizes-3d={_sizes(self.tile_sizes_3d)}}}"
            ),
            "func.func(gpu-map-parallel-loops{mapping-policy=innermost-first})",
            "convert-parallel-loops-to-gpu",
            "lower-affine",
            *(["gpu-kernel-outlining", "gpu-kernels-to-host"] if self.host_kernels else []),
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


def _sizes(sizes: tuple[int, ...]) -> str:
    return ",".join(str(s) for s in sizes)
