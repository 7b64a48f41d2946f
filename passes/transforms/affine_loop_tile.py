"""``affine-loop-tile``: tile the perfect ``affine.for`` nests of a function
(upstream's ``Affine/Transforms/LoopTiling.cpp``).

Each top-level ``affine.for`` of the function starts a band: it and the
loops perfectly nested in it. A band is tiled when no dependence between its
accesses has a known negative distance on one of its loops, when no loop
yields values and when no bound depends on another loop of the band.

Tile sizes: ``tile-size`` for every loop if set; else ``tile-sizes``, the
missing ones 4; else a model of the band's memory footprint, which divides
it evenly among the loops to fit ``cache-size`` KiB (a footprint that fits
gives tiles of 1; one beyond the analysis, tiles of 4), each size reduced to
a divisor of its loop's constant trip count so no ``min`` bound is needed.
With ``separate``, full tiles are versioned from partial ones by an
``affine.if``.

Unlike the build of upstream in the test oracle, a distance known exactly
and negative (such as -1) makes the band invalid too (the fix upstream's
``loop-tiling-validity.mlir`` tests since), and so does a pair of accesses
the dependence analysis cannot decide (semi-affine ones), which that build
takes for independent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, IntegerType, MemRefType
from xdsl.dialects.builtin import NoneAttr, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.utils.hints import isa

from mlkit.diagnostics.emit import emit_warning
from mlkit.dialects.affine import ForOp
from mlkit.pipeline.options import option
from mlkit.passes.transforms.affine_analysis import ACCESS_OPS, Access, Form, SystemBuilder
from mlkit.passes.transforms.affine_analysis import Unsupported, access_forms
from mlkit.passes.transforms.affine_analysis import constant_trip_count, enclosing_loops
from mlkit.passes.transforms.affine_analysis import is_tiling_valid
from mlkit.passes.transforms.affine_constraints import Constraints, TooComplex
from mlkit.passes.transforms.affine_tiling import perfectly_nested_loops, separate_full_tiles
from mlkit.passes.transforms.affine_tiling import tile_perfectly_nested

DEFAULT_TILE_SIZE = 4


# -- memory footprint (Utils) -------------------------------------------------

# Along one dimension of a region: the symbolic part of its lower bound (its
# divisor, then the symbols' coefficients), the bound's constant, the extent.
DimBound = tuple[tuple[int, ...], int, int]
Box = list[DimBound | None]


def _dim_bound(cst: Constraints, pos: int, dims: range, syms: Sequence[int]) -> DimBound | None:
    """A lower bound of dim ``pos`` and the smallest constant extent above
    it, from constraints on no other dim (upstream's
    ``getConstantBoundOnDimSize``)."""
    others = [d for d in dims if d != pos]
    for r in cst.eqs:
        if r[pos] in (1, -1) and all(r[d] == 0 for d in others):
            sign = r[pos]
            return (1, *(-sign * r[s] for s in syms)), -sign * r[-1], 1
    rows = [r for r in cst.ineqs if r[pos] and all(r[d] == 0 for d in others)]
    best: DimBound | None = None
    for ub in (r for r in rows if r[pos] < 0):
        for lb in (r for r in rows if r[pos] > 0):
            if any(ub[j] != -lb[j] for j in range(len(lb) - 1)):
                continue  # not `0 <= dim - f(symbols) <= constant`
            a = lb[pos]
            extent = max(0, -(-(ub[-1] + lb[-1] + 1) // a))
            if best is None or extent < best[2]:
                best = (a, *(-lb[s] for s in syms)), -lb[-1], extent
    return best


def memref_region(op: Access) -> Box:
    """The bounding box of what ``op`` touches over all the loops around it,
    clipped to the memref's static shape (upstream's ``MemRefRegion::compute``
    at depth 0)."""
    mtype = op.memref.type
    assert isa(mtype, MemRefType)
    shape = mtype.get_shape()
    b = SystemBuilder()
    dims = range(len(shape))
    for _ in dims:
        b.cst.add_var()
    for loop in enclosing_loops(op):
        b.iv(loop, "")
    for d, form in zip(dims, access_forms(op), strict=True):
        b.add_eq({d: 1}, Form(), form.scale(-1), "")
        if shape[d] >= 0:
            b.cst.add_ineq(b.cst.row({d: 1}, 0))
            b.cst.add_ineq(b.cst.row({d: -1}, shape[d] - 1))
    syms = [v for k, v in b.vars.items() if isinstance(k, SSAValue)]
    b.cst.project_out(v for v in range(len(shape), b.cst.num_vars) if v not in syms)
    if b.cst.infeasible:
        return [((), 0, 0) for _ in dims]
    return [_dim_bound(b.cst, d, dims, syms) for d in dims]


def union_boxes(a: Box, b: Box) -> Box | None:
    """The smallest box around both, or None when a pair of lower bounds does
    not differ by a constant (upstream's ``unionBoundingBox``)."""
    out: Box = []
    for x, y in zip(a, b, strict=True):
        if x is None or y is None or x[0] != y[0]:
            return None
        lo = min(x[1], y[1])
        hi = max(x[1] + x[2], y[1] + y[2])
        out.append((x[0], lo, hi - lo))
    return out


def element_size_in_bytes(mtype: MemRefType[Attribute]) -> int | None:
    """Upstream's ``getMemRefIntOrFloatEltSizeInBytes``."""
    elem = mtype.element_type
    count = 1
    if isinstance(elem, VectorType):
        count = math.prod(elem.get_shape())
        elem = elem.element_type
    if isinstance(elem, IntegerType):
        bits = elem.width.data
    elif hasattr(elem, "bitwidth") and not isinstance(elem, IndexType):
        bits = elem.bitwidth  # pyright: ignore[reportAttributeAccessIssue]
    else:
        return None
    return -(-(bits * count) // 8)


def region_size_in_bytes(mtype: MemRefType[Attribute], box: Box) -> int | None:
    layout = mtype.layout
    if not isinstance(layout, NoneAttr) and not (
        isinstance(layout, AffineMapAttr) and layout.data == AffineMap.identity(layout.data.num_dims)
    ):
        return None
    elements = 1
    for extent, size in zip(box, mtype.get_shape(), strict=True):
        if extent is not None:
            elements *= extent[2]
        elif size >= 0:
            elements *= size
        else:
            return None
    elt = element_size_in_bytes(mtype)
    return None if elt is None else elt * elements


def memory_footprint_bytes(root: ForOp) -> tuple[int | None, Operation | None]:
    """The bytes ``root`` touches in memory space 0 (upstream's
    ``getMemoryFootprintBytes``), or None with the access whose region could
    not be merged into its memref's when that is why."""
    boxes: dict[SSAValue, Box] = {}
    for op in root.walk():
        if not isinstance(op, ACCESS_OPS):
            continue
        mtype = op.memref.type
        assert isa(mtype, MemRefType)
        space = mtype.memory_space
        if not isinstance(space, NoneAttr) and not (isinstance(space, IntegerAttr) and space.value.data == 0):
            continue
        try:
            box = memref_region(op)
        except (Unsupported, TooComplex):
            return None, None
        if op.memref in boxes:
            merged = union_boxes(boxes[op.memref], box)
            if merged is None:
                return None, op
            box = merged
        boxes[op.memref] = box
    total = 0
    for memref, box in boxes.items():
        mtype = memref.type
        assert isa(mtype, MemRefType)
        size = region_size_in_bytes(mtype, box)
        if size is None:
            return None, None
        total += size
    return total, None


def adjust_to_divisors_of_trip_counts(band: Sequence[ForOp], sizes: list[int]) -> None:
    """Shrink each size to the largest divisor of its loop's constant trip
    count not above it (and not above half the trip count)."""
    for i, loop in enumerate(band):
        count = constant_trip_count(loop)
        if count is None:
            continue
        if count > 1 and sizes[i] > count // 2:
            sizes[i] = count // 2
        while count % sizes[i] != 0:
            sizes[i] -= 1


@dataclass(frozen=True)
class AffineLoopTiling(ModulePass):
    """Tile affine loop nests"""

    name = "affine-loop-tile"
    display_name: ClassVar[str] = "AffineLoopTiling"
    anchor: ClassVar[str] = "func.func"

    cache_size: int = option(512, "Set size of cache to tile for in KiB (default: 512)")
    separate: bool = option(False, "Separate full and partial tiles (default: false)")
    tile_size: int = option(0, "Use this tile size for all loops")
    tile_sizes: tuple[int, ...] = option(
        (), "List of tile sizes for each perfect nest (overridden by -tile-size)"
    )

    def __post_init__(self) -> None:
        # upstream's options are unsigned: LLVM's parser refuses a negative value
        checks = [("cache-size", self.cache_size, "ulong"), ("tile-size", self.tile_size, "uint")]
        checks += [("tile-sizes", size, "uint") for size in self.tile_sizes]
        for dashed, value, kind in checks:
            if value < 0:
                raise ValueError(f"for the --{dashed} option: '{value}' value invalid for {kind} argument!")
        if 0 in self.tile_sizes:
            raise ValueError("for the --tile-sizes option: a tile size must be positive")

    def band_tile_sizes(self, ctx: Context, band: Sequence[ForOp]) -> list[int]:
        """Upstream's ``LoopTiling::getTileSizes``."""
        if self.tile_size:
            return [self.tile_size] * len(band)
        if self.tile_sizes:
            sizes = list(self.tile_sizes[: len(band)])
            return sizes + [DEFAULT_TILE_SIZE] * (len(band) - len(sizes))
        if self.cache_size == 0:
            return [1] * len(band)
        footprint, failed_union = memory_footprint_bytes(band[0])
        if failed_union is not None:
            emit_warning(
                ctx, failed_union, "getMemoryFootprintBytes: unable to perform a union on a memory region"
            )
        if footprint is None:
            sizes = [DEFAULT_TILE_SIZE] * len(band)
            adjust_to_divisors_of_trip_counts(band, sizes)
            return sizes
        excess = -(-footprint // (self.cache_size * 1024))
        if excess <= 1:
            return [1] * len(band)
        size = math.floor(math.pow(excess, 1.0 / len(band)))
        sizes = [size] * (len(band) - 1)
        sizes.append(max(1, excess // (size ** (len(band) - 1))))
        adjust_to_divisors_of_trip_counts(band, sizes)
        return sizes

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        functions = [op] if op.name == "func.func" else [o for o in op.walk() if o.name == "func.func"]
        for function in functions:
            roots = [o for region in function.regions for block in region.blocks for o in block.ops]
            bands = [perfectly_nested_loops(r) for r in roots if isinstance(r, ForOp)]
            for band in bands:
                if not is_tiling_valid(band):
                    continue
                nest = tile_perfectly_nested(band, self.band_tile_sizes(ctx, band))
                if nest is not None and self.separate:
                    separate_full_tiles(nest[len(band) :])
