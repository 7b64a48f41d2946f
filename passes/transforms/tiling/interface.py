"""The tiling interface of linalg's structured ops (upstream's ``TilingInterface``).

What a loop-tiling or fusion driver asks of an op, whatever the op:

- ``iteration_domain``: the size of each of its loops, read off its operands;
- ``tiled_implementation``: the same op over slices of its operands, for a
  tile of that domain (offsets and sizes per loop);
- ``result_tile_domain``: which tile of the domain computes a given tile of
  one of its results (what producer fusion needs).

xDSL's ``tile_structured_op`` tiles an op in one piece; it has no entry point
for a tile at given offsets (which fusion needs) and builds xDSL's classes of
the slice and affine ops rather than the ones mlkit registers, so the
geometry is written here once for every driver (``scf_tiling``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import affine, arith, memref, tensor
from mlkit.dialects.linalg import IndexOp

Size = int | SSAValue
"""A loop bound, offset or size: a constant when known here, else a value."""

__all__ = [
    "IRBuilder",
    "Size",
    "TiledOp",
    "inits",
    "inputs",
    "is_tileable",
    "iteration_domain",
    "reduction_dims",
    "result_tile_domain",
    "slice_lists",
    "tiled_implementation",
]


def inputs(op: Operation) -> list[SSAValue]:
    """The op's ``ins`` operands."""
    listed = getattr(op, "inputs_list", None)
    return list(listed()) if callable(listed) else list(getattr(op, "inputs"))


def inits(op: Operation) -> list[SSAValue]:
    """The op's ``outs`` operands (its destinations)."""
    listed = getattr(op, "inits_list", None)
    return list(listed()) if callable(listed) else list(getattr(op, "outputs"))


def indexing_maps(op: Operation) -> list[AffineMap]:
    return [m.data if isinstance(m, AffineMapAttr) else m for m in getattr(op, "get_indexing_maps")()]


def reduction_dims(op: Operation) -> set[int]:
    """The loops the op reduces over."""
    kinds = getattr(op, "get_iterator_types")()
    return {d for d, kind in enumerate(kinds) if "reduction" in str(kind)}


def is_tileable(op: Operation) -> bool:
    """A structured op with shaped operands, all on tensors or all on memrefs."""
    if not all(hasattr(op, name) for name in ("get_indexing_maps", "get_iterator_types")):
        return False
    try:
        operands = [*inputs(op), *inits(op)]
        maps = indexing_maps(op)
    except (AttributeError, NotImplementedError):
        return False
    if len(maps) != len(operands) or not inits(op):
        return False
    kinds = {type(v.type) for v in operands if isinstance(v.type, ShapedType)}
    return kinds in ({TensorType}, {MemRefType})


def slice_lists(
    offsets: Sequence[Size], sizes: Sequence[Size]
) -> tuple[list[list[SSAValue]], dict[str, Attribute]]:
    """The dynamic offsets and sizes, and the static lists, of a unit-stride
    ``insert_slice``-like op."""

    def static(values: Sequence[Size]) -> DenseArrayBase:
        return DenseArrayBase.from_list(i64, [v if isinstance(v, int) else DYNAMIC_INDEX for v in values])

    dynamic = [[v for v in values if not isinstance(v, int)] for values in (offsets, sizes)]
    props: dict[str, Attribute] = {
        "static_offsets": static(offsets),
        "static_sizes": static(sizes),
        "static_strides": static([1] * len(offsets)),
    }
    return dynamic, props


@dataclass
class IRBuilder:
    """Inserts mlkit's ops at one point, working out what is known here."""

    point: InsertPoint
    _constants: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])

    def insert(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def index(self, value: int) -> SSAValue:
        if value not in self._constants:
            constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self._constants[value] = self.insert(constant).results[0]
        return self._constants[value]

    def value(self, size: Size) -> SSAValue:
        return self.index(size) if isinstance(size, int) else size

    def dim(self, source: SSAValue, position: int) -> Size:
        size = source.type.get_shape()[position]  # pyright: ignore[reportAttributeAccessIssue]
        if size != DYNAMIC_INDEX:
            return size
        op = tensor.DimOp if isinstance(source.type, TensorType) else memref.DimOp
        return self.insert(op(source, self.index(position))).results[0]

    def apply(self, expr: AffineExpr, values: Sequence[Size]) -> Size:
        """``expr`` over ``values`` (one per dimension): folded when the values are
        constants or the expression is one of them, else one ``affine.apply``."""
        if isinstance(expr, AffineDimExpr):
            return values[expr.position]
        if all(isinstance(v, int) for v in values):
            return expr.eval([v for v in values if isinstance(v, int)], [])
        replacements: list[AffineExpr] = []
        operands: list[SSAValue] = []
        used = expr.used_dims()
        for position, v in enumerate(values):
            if isinstance(v, int) or position not in used:
                replacements.append(AffineExpr.constant(v if isinstance(v, int) else 0))
            else:
                replacements.append(AffineExpr.dimension(len(operands)))
                operands.append(v)
        folded = expr.replace_dims_and_symbols(replacements, [])
        if isinstance(folded, AffineConstantExpr):
            return folded.value
        if isinstance(folded, AffineDimExpr):
            return operands[folded.position]
        amap = AffineMap(len(operands), 0, (folded,))
        return self.insert(affine.ApplyOp(operands, AffineMapAttr(amap))).results[0]

    def min_of(self, amap: AffineMap, operands: Sequence[SSAValue]) -> SSAValue:
        return self.insert(affine.MinOp(list(operands), AffineMapAttr(amap))).results[0]

    def slice(self, source: SSAValue, offsets: Sequence[Size], sizes: Sequence[Size]) -> SSAValue:
        """The unit-stride slice of ``source``: ``tensor.extract_slice`` or ``memref.subview``."""
        strides = [1] * len(offsets)
        if isinstance(source.type, TensorType):
            static = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
            result = TensorType(source.type.element_type, static)
            op = tensor.ExtractSliceOp(source, list(offsets), list(sizes), strides, result)
        else:
            result = memref.SubviewOp.infer_result_type(source.type, offsets, sizes, strides)  # pyright: ignore
            op = memref.SubviewOp.get(source, list(offsets), list(sizes), strides, result)
        return self.insert(op).results[0]

    def insert_slice(
        self, tile: SSAValue, dest: SSAValue, offsets: Sequence[Size], sizes: Sequence[Size]
    ) -> SSAValue:
        dynamic, props = slice_lists(offsets, sizes)
        op = tensor.InsertSliceOp(
            operands=[tile, dest, *dynamic, []], properties=props, result_types=[dest.type]
        )
        return self.insert(op).results[0]


def iteration_domain(b: IRBuilder, op: Operation) -> list[Size] | None:
    """Each loop's size, from the first operand dimension indexed by that loop
    alone; None when some loop has none (upstream's ``getIterationDomain``)."""
    operands = [*inputs(op), *inits(op)]
    maps = indexing_maps(op)
    sources: dict[int, tuple[SSAValue, int]] = {}
    for amap, value in zip(maps, operands):
        for position, expr in enumerate(amap.results):
            if isinstance(expr, AffineDimExpr) and expr.position not in sources:
                sources[expr.position] = (value, position)
    num_loops = maps[0].num_dims if maps else 0
    if len(sources) != num_loops:
        return None
    return [b.dim(*sources[d]) for d in range(num_loops)]


def _slice_geometry(
    b: IRBuilder,
    amap: AffineMap,
    source: SSAValue,
    offsets: Sequence[Size],
    sizes: Sequence[Size],
    tiled: set[int],
) -> tuple[list[Size], list[Size]]:
    """Where one operand's tile sits in it: per operand dimension, the offset and
    size that the map's result takes over the tile (upstream's
    ``computeSliceParameters``). ``offsets``/``sizes`` hold one entry per loop;
    loops outside ``tiled`` run whole (offset 0, size their range)."""
    starts = [offsets[d] if d in tiled else 0 for d in range(amap.num_dims)]
    # a result's size is its value at each loop's last index in the tile, plus one
    lasts = [AffineExpr.dimension(d) - 1 for d in range(amap.num_dims)]
    slice_offsets: list[Size] = []
    slice_sizes: list[Size] = []
    for position, expr in enumerate(amap.results):
        if not (expr.used_dims() & tiled):
            slice_offsets.append(0)
            slice_sizes.append(b.dim(source, position))
            continue
        if isinstance(expr, AffineDimExpr):
            slice_offsets.append(offsets[expr.position])
            slice_sizes.append(sizes[expr.position])
            continue
        at_zero = expr.eval([0] * amap.num_dims, [])
        slice_offsets.append(b.apply(expr - at_zero if at_zero else expr, starts))
        size = expr.replace_dims_and_symbols(lasts, []) - at_zero + 1
        slice_sizes.append(b.apply(size, sizes))
    return slice_offsets, slice_sizes


@dataclass
class TiledOp:
    """The op over one tile, and where each of its results goes in the whole."""

    op: Operation
    result_offsets: list[list[Size]]
    result_sizes: list[list[Size]]


def tiled_implementation(
    b: IRBuilder,
    op: Operation,
    offsets: Sequence[Size],
    sizes: Sequence[Size],
    tiled: set[int],
    destinations: Sequence[SSAValue] | None = None,
) -> TiledOp:
    """A copy of ``op`` over the slices of its operands that the tile (one offset
    and size per loop; loops outside ``tiled`` whole) reads and writes, built at
    ``b``. Its ``outs`` are sliced from ``destinations`` (the values a loop
    carries) rather than from the op's own inits when given."""
    maps = indexing_maps(op)
    ins, outs = inputs(op), inits(op)
    sources = [*ins, *(destinations if destinations is not None else outs)]
    slices: list[SSAValue] = []
    out_offsets: list[list[Size]] = []
    out_sizes: list[list[Size]] = []
    for index, (amap, whole, source) in enumerate(zip(maps, [*ins, *outs], sources)):
        if not isinstance(whole.type, ShapedType) or not whole.type.get_shape():
            slices.append(source)  # a scalar operand is the same in every tile
            if index >= len(ins):
                out_offsets.append([])
                out_sizes.append([])
            continue
        if index < len(ins) and not any(e.used_dims() & tiled for e in amap.results):
            slices.append(source)  # every tile reads all of it
            continue
        slice_offsets, slice_sizes = _slice_geometry(b, amap, source, offsets, sizes, tiled)
        slices.append(b.slice(source, slice_offsets, slice_sizes))
        if index >= len(ins):
            out_offsets.append(slice_offsets)
            out_sizes.append(slice_sizes)
    result_types: list[Attribute] = [
        v.type for v in slices[len(ins) :] if isinstance(v.type, TensorType)
    ]
    copy = type(op).create(
        operands=slices,
        result_types=result_types,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[region.clone() for region in op.regions],
    )
    b.insert(copy)
    _offset_indices(copy, offsets, tiled)
    return TiledOp(copy, out_offsets, out_sizes)


_SUM = AffineMap(2, 0, (AffineExpr.dimension(0) + AffineExpr.dimension(1),))


def _offset_indices(op: Operation, offsets: Sequence[Size], tiled: set[int]) -> None:
    """A ``linalg.index`` in the tile reads its position in the tile; add back
    where the tile starts, so it reads the position in the whole iteration."""
    for region in op.regions:
        for inner in list(region.walk()):
            if not isinstance(inner, IndexOp):
                continue
            dim = inner.dim.value.data
            if dim not in tiled or offsets[dim] == 0:
                continue
            point = IRBuilder(InsertPoint.after(inner))
            offset = point.value(offsets[dim])
            total = point.insert(affine.ApplyOp([inner.result, offset], AffineMapAttr(_SUM)))
            inner.result.replace_uses_with_if(
                total.results[0], lambda use, total=total: use.operation is not total
            )


def result_tile_domain(
    op: Operation,
    result_number: int,
    offsets: Sequence[Size],
    sizes: Sequence[Size],
    domain: Sequence[Size],
) -> tuple[list[Size], list[Size], set[int]] | None:
    """The tile of ``op``'s domain that computes the given tile of its result
    (upstream's ``getIterationDomainTileFromResultTile``): loops the result is
    indexed by take the tile's offsets and sizes, the others (its reductions)
    run whole. None unless the result's map is a projected permutation."""
    amap = indexing_maps(op)[len(inputs(op)) + result_number]
    loop_offsets: list[Size] = [0] * amap.num_dims
    loop_sizes: list[Size] = list(domain)
    tiled: set[int] = set()
    for position, expr in enumerate(amap.results):
        if not isinstance(expr, AffineDimExpr) or expr.position in tiled:
            return None
        tiled.add(expr.position)
        loop_offsets[expr.position] = offsets[position]
        loop_sizes[expr.position] = sizes[position]
    return loop_offsets, loop_sizes, tiled
