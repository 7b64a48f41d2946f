"""``gpu-tile-parallel-loops``: tile each ``scf.parallel`` loop that would
otherwise map onto the GPU's grid alone, with tile sizes chosen by its rank,
so that each tile becomes one thread block.

Upstream's ``scf-parallel-loop-tiling`` takes one size list for every loop;
a 1-D elementwise loop and a 2-D matmul want different block shapes, so
this pass picks the sizes per loop and calls the same tiling
(:func:`~mlkit.passes.transforms.scf_parallel_loop_tiling.tile_parallel_loop`,
always with ``no-min-max-bounds``: the inner loops get constant trip counts,
which ``convert-parallel-loops-to-gpu`` needs for block sizes, and the body a
bounds guard), and folds the steps of the tile loop to constants. Then
``gpu-map-parallel-loops`` maps the tile loop onto blocks and the inner loop
onto threads.

Sizes are listed in loop order, outermost dimension first; with
``gpu-map-parallel-loops{mapping-policy=innermost-first}`` the last one is
thread x, so the default 2-D shape 8x32 has 32 consecutive threads on
consecutive columns (coalesced row-major accesses). A loop of rank above 3
keeps tile size 1 on its dimensions past the third (they are sequential in
the mapping). Where a dimension's trip count is a constant smaller than its
tile, the tile shrinks to that count rounded up to a power of two and the
threads it frees go to the other dimensions, innermost first, so a 1024x1
loop still gets 256 threads per block.

Tiled: loops outside any ``scf.parallel`` and ``gpu.launch``, with no
mapping yet, no reductions and no nested ``scf.parallel`` (a nest of parallel
loops already maps onto blocks and threads as it is).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import prod

from xdsl.context import Context
from xdsl.dialects import scf as xscf
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mlkit.diagnostics import UNKNOWN, DiagnosticError
from mlkit.dialects.gpu import kernel as gpu_kernel
from mlkit.passes.transforms.rewrite_driver import rewrite_regions
from mlkit.passes.transforms.scf_parallel_loop_tiling import tile_parallel_loop

MAX_THREADS_PER_BLOCK = 1024  # CUDA's limit on every NVIDIA GPU since sm_20


def _pow2_at_least(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


def fit_tile_sizes(sizes: Sequence[int], trip_counts: Sequence[int | None]) -> tuple[int, ...]:
    """``sizes`` adapted to the loop's static trip counts (None: unknown):
    a tile larger than its dimension shrinks to the dimension (rounded up to
    a power of two), then tiles double, innermost dimension first, while the
    block has fewer threads than ``sizes`` asks for and a dimension has work
    left for them."""
    target = prod(sizes)
    limits = [None if n is None else _pow2_at_least(max(n, 1)) for n in trip_counts]
    tiles = [size if limit is None else min(size, limit) for size, limit in zip(sizes, limits)]
    grown = True
    while prod(tiles) < target and grown:
        grown = False
        for d in reversed(range(len(tiles))):
            limit = limits[d]
            if prod(tiles) < target and (limit is None or tiles[d] * 2 <= limit):
                tiles[d] *= 2
                grown = True
    return tuple(tiles)


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(value.type, IndexType):
        if isinstance(owner.value, IntegerAttr):
            return owner.value.value.data
    return None


def _trip_count(lower: SSAValue, upper: SSAValue, step: SSAValue) -> int | None:
    lb, ub, st = (_constant(v) for v in (lower, upper, step))
    if lb is None or ub is None or st is None or st <= 0:
        return None
    return max(0, -(-(ub - lb) // st))


def _is_nested(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, (xscf.ParallelOp, gpu_kernel.LaunchOp)):
            return True
        parent = parent.parent_op()
    return False


def grid_loops(root: Operation) -> list[xscf.ParallelOp]:
    """The loops this pass tiles (see the module's docstring)."""
    return [
        op
        for op in root.walk()
        if isinstance(op, xscf.ParallelOp)
        and op.lowerBound
        and not op.initVals
        and "mapping" not in op.attributes
        and not _is_nested(op)
        and not any(isinstance(o, xscf.ParallelOp) for o in op.body.walk())
    ]


@dataclass
class TileByRank(RewritePattern):
    """Tiles the loops chosen before the walk with their rank's sizes."""

    sizes_by_rank: tuple[tuple[int, ...], ...]  # rank 1, 2, 3
    targets: dict[int, xscf.ParallelOp] = field(default_factory=dict[int, xscf.ParallelOp])

    def sizes_for(self, op: xscf.ParallelOp) -> tuple[int, ...]:
        rank = len(op.lowerBound)
        base = self.sizes_by_rank[min(rank, 3) - 1] + (1,) * max(0, rank - 3)
        trips = [_trip_count(*bounds) for bounds in zip(op.lowerBound, op.upperBound, op.step)]
        mapped = fit_tile_sizes(base[:3], trips[:3])
        return mapped + base[3:]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xscf.ParallelOp, rewriter: PatternRewriter, /) -> None:
        if self.targets.pop(id(op), None) is not op:
            return
        outer, _ = tile_parallel_loop(op, self.sizes_for(op), True, rewriter)
        fold_steps(outer, rewriter)


def fold_steps(outer: xscf.ParallelOp, rewriter: PatternRewriter) -> None:
    """The tile loop's steps (``step * tile``) as constants where both are, so
    that the launch sizes are constants without a ``canonicalize``, which
    would merge the tile and thread loops back into one (upstream's
    ``MergeNestedParallelLoops``)."""
    for step in list(outer.step):
        product = step.owner
        if not isinstance(product, arith.MuliOp):
            continue
        factors = [_constant(v) for v in product.operands]
        if None in factors:
            continue
        value = factors[0] * factors[1]  # type: ignore[operator]
        constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
        rewriter.replace_op(product, constant)


@dataclass(frozen=True)
class GpuTileParallelLoops(ModulePass):
    """Tile parallel loops into thread blocks, with tile sizes chosen by loop rank"""

    name = "gpu-tile-parallel-loops"

    tile_sizes_1d: tuple[int, ...] = (256,)
    tile_sizes_2d: tuple[int, ...] = (8, 32)
    tile_sizes_3d: tuple[int, ...] = (2, 4, 32)

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        sizes = (self.tile_sizes_1d, self.tile_sizes_2d, self.tile_sizes_3d)
        for rank, given in enumerate(sizes, 1):
            option = f"tile-sizes-{rank}d"
            if len(given) != rank:
                raise DiagnosticError.at(UNKNOWN, f"{option} needs {rank} sizes, got {len(given)}")
            if any(s <= 0 for s in given):
                raise DiagnosticError.at(UNKNOWN, f"{option}: tile sizes must be positive")
            if prod(given) > MAX_THREADS_PER_BLOCK:
                raise DiagnosticError.at(
                    UNKNOWN,
                    f"{option}: {prod(given)} threads per block, more than the "
                    f"{MAX_THREADS_PER_BLOCK} a GPU runs",
                )
        targets = {id(loop): loop for loop in grid_loops(op)}
        if targets:
            rewrite_regions(op, TileByRank(sizes, targets), apply_recursively=False)
