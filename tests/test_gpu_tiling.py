"""Blocks of threads in lower-to-cuda (gpu-tile-parallel-loops): the tile
sizes chosen per loop, the tiling compared with upstream's
scf-parallel-loop-tiling, and, for a 1024x1024 matmul, a 4M-element
elementwise chain with tanh and a 4096x4096 row sum (a block per row), the
launch sizes the
host code passes to mgpuLaunchKernel and the PTX of every kernel, which
ptxas must accept for sm_80 and sm_90, and the all-reduce lowering compared
with upstream's. test_gpu_host.py runs such programs
at small sizes against numpy."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from test_gpu_host import CHAIN, MATMUL, ROW_SUM

from mlkit.passes.transforms.gpu_tile_parallel_loops import fit_tile_sizes

BIG = {
    "matmul": MATMUL.format(m=1024, k=1024, n=1024),
    "chain": CHAIN.format(n=4 * 1024 * 1024),
    "row_sum": ROW_SUM.format(m=4096, n=4096),
}
LAUNCH = re.compile(r"call void @mgpuLaunchKernel\(ptr %[\w.]+, " + ", ".join([r"i64 (\d+)"] * 6))


@pytest.mark.parametrize(
    ("sizes", "trips", "fitted"),
    [
        ((256,), [None], (256,)),
        ((256,), [4096], (256,)),
        ((256,), [10], (16,)),
        ((8, 32), [1024, 1024], (8, 32)),
        ((8, 32), [64, 16], (16, 16)),  # 16 columns: the rows get the threads
        ((8, 32), [1000, 3], (64, 4)),
        ((8, 32), [1, 1000], (1, 256)),
        ((8, 32), [2, 3], (2, 4)),  # less work than a block: as small as it goes
        ((2, 4, 32), [None, None, 5], (4, 8, 8)),  # doubled in turn, innermost first
    ],
)
def test_tile_sizes_fit_small_dimensions(
    sizes: tuple[int, ...], trips: list[int | None], fitted: tuple[int, ...]
) -> None:
    assert fit_tile_sizes(sizes, trips) == fitted


TWO_D = """
func.func @f(%n: index, %m: index, %a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<?x?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i, %j] : memref<?x?xf32>
  }
  return
}
"""


@pytest.mark.parametrize("text", [TWO_D, TWO_D.replace("?x?", "100x64").replace("%n, %m)", "%c100, %c64)")
                                  .replace("%c1 = arith.constant 1 : index", "%c1 = arith.constant 1 : index\n"
                                           "  %c100 = arith.constant 100 : index\n  %c64 = arith.constant 64 : index")],
                         ids=["dynamic", "static"])  # fmt: skip
def test_tiling_is_upstreams_with_the_ranks_sizes(text: str) -> None:
    """Op for op what upstream's scf-parallel-loop-tiling gives with the
    same sizes and no-min-max-bounds, once the tile loop's steps
    (``step * tile``) are folded to constants, as the pass does."""
    oracle = pytest.importorskip("upstream_oracle")
    from xdsl.dialects import scf
    from xdsl.pattern_rewriter import PatternRewriter

    from mlkit.context import make_context
    from mlkit.passes.transforms.gpu_tile_parallel_loops import fold_steps
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module
    from mlkit.syntax.printer import print_op

    ours = oracle.mlkit_print(text, pipeline="builtin.module(gpu-tile-parallel-loops)")
    tiled = oracle.upstream_print(
        text,
        pipeline="builtin.module(func.func(scf-parallel-loop-tiling{parallel-loop-tile-sizes=8,32 "
        "no-min-max-bounds=true}))",
    )
    module = parse_module(make_context(default_registry()), tiled, "<upstream>")
    for loop in [op for op in module.walk() if isinstance(op, scf.ParallelOp)]:
        if not isinstance(loop.parent_op(), scf.ParallelOp):
            fold_steps(loop, PatternRewriter(loop))
    theirs = oracle.upstream_print(print_op(module))
    assert oracle.upstream_print(ours) == theirs


@cache
def _lowered(name: str, chip: str) -> object:
    from test_cuda_runtime import lower

    return lower(BIG[name], f"builtin.module(lower-to-cuda{{chip={chip}}})")


def _launches(module: object) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    from mlkit.target.llvmir.module import translate_module

    found = LAUNCH.findall(translate_module(module))  # type: ignore[arg-type]
    return [(tuple(map(int, g[:3])), tuple(map(int, g[3:]))) for g in found]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # the fill, then the matmul: 64x64 tiles of C staged through shared memory
        ("matmul", [((32, 128, 1), (32, 8, 1)), ((16, 16, 1), (16, 16, 1))]),
        ("chain", [((16384, 1, 1), (256, 1, 1))]),  # one fused kernel
        # the fill, then a block per row, reduced by gpu.all_reduce
        ("row_sum", [((16, 1, 1), (256, 1, 1)), ((4096, 1, 1), (256, 1, 1))]),
    ],
)
def test_each_launch_has_at_least_128_threads_per_block(
    name: str, expected: list[tuple[tuple[int, ...], tuple[int, ...]]]
) -> None:
    launches = _launches(_lowered(name, "sm_80"))
    assert launches == expected
    for _, (x, y, z) in launches:
        assert x * y * z >= 128


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas (CUDA toolkit) is not installed")
@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
@pytest.mark.parametrize("name", sorted(BIG))
def test_ptxas_accepts_every_kernel(name: str, chip: str, tmp_path: Path) -> None:
    from mlkit.dialects.gpu.module import BinaryOp

    binaries = [op for op in _lowered(name, chip).walk() if isinstance(op, BinaryOp)]  # type: ignore[attr-defined]
    assert binaries
    for binary in binaries:
        (obj,) = binary.objects.data
        ptx = tmp_path / f"{binary.sym_name.data}.ptx"
        ptx.write_bytes(obj.object.data.encode("latin-1"))
        assert f".target {chip}" in ptx.read_text()
        subprocess.run(["ptxas", f"-arch={chip}", str(ptx), "-o", str(ptx.with_suffix(".cubin"))],
                       check=True, capture_output=True)  # fmt: skip
