"""Packing a linalg op's loops into tiles, as upstream's ``linalg::pack`` and
``packTranspose`` do, split into a plan (maps, iterators, and each operand's
``inner_dims_pos``, tiles and ``outer_dims_perm``) computed without touching
the IR and a builder that emits the ``tensor.empty``/``linalg.pack``/
``linalg.unpack`` ops of a plan.

Packing loop ``i`` by a tile adds a new innermost loop ``ii`` (same iterator
type) and, to each operand indexed by ``i`` alone, a trailing dimension indexed
by ``ii``: the operand is ``linalg.pack``ed with that dimension tiled. A loop
with tile 0 is not packed; an operand indexed by a packed loop through anything
but the loop alone cannot be packed (upstream's ``packLinalgMetadataOnce``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, AnyFloat, DenseArrayBase
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType, TensorType, i32
from xdsl.dialects.builtin import i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from mlkit.dialects import affine
from mlkit.dialects import tensor
from mlkit.dialects.affine.scope import get_affine_scope, is_valid_symbol
from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.dialects.linalg.relayout import PackOp, UnPackOp

__all__ = ["OperandPack", "PackPlan", "PackBuilder", "plan_packing", "Tile"]

Tile = int | SSAValue
"""A tile size: a constant or an index value."""

_DYNAMIC = -(2**63)  # upstream's marker of an SSA tile in ``static_inner_tiles``


@dataclass
class OperandPack:
    """How one operand is packed: the dimensions tiled, in tile order, the
    loop each tile comes from, and the permutation of its outer dimensions."""

    inner_dims_pos: list[int] = field(default_factory=list)
    loops: list[int] = field(default_factory=list)
    outer_dims_perm: list[int] | None = None

    def tiles(self, loop_tiles: Sequence[Tile]) -> list[Tile]:
        return [loop_tiles[loop] for loop in self.loops]

    @property
    def packed(self) -> bool:
        return bool(self.loops)


@dataclass
class PackPlan:
    """The packed op: its maps and iterators, and each operand's packing."""

    maps: list[AffineMap]
    iterators: list[IteratorType]
    operands: list[OperandPack]

    def transpose(self, operand: int, outer_perm: Sequence[int], inner_perm: Sequence[int]) -> None:
        """Upstream's ``packTranspose``: permute operand's packed outer
        dimensions by ``outer_perm`` and its tiles by ``inner_perm``; its map
        follows."""
        spec = self.operands[operand]
        rank = len(self.maps[operand].results) - len(spec.loops)
        spec.inner_dims_pos = [spec.inner_dims_pos[p] for p in inner_perm]
        spec.loops = [spec.loops[p] for p in inner_perm]
        outer = spec.outer_dims_perm if spec.outer_dims_perm is not None else list(range(rank))
        spec.outer_dims_perm = [outer[p] for p in outer_perm]
        whole = [*outer_perm, *(rank + p for p in inner_perm)]
        old = self.maps[operand]
        results = tuple(old.results[p] for p in whole)
        self.maps[operand] = AffineMap(old.num_dims, old.num_symbols, results)


def _first_result_of(indexing_map: AffineMap, dim: int) -> int | None:
    for index, expr in enumerate(indexing_map.results):
        if dim in expr.used_dims():
            return index
    return None


def plan_packing(
    maps: Sequence[AffineMap], iterators: Sequence[IteratorType], packed_loops: Sequence[bool]
) -> PackPlan | None:
    """Pack each loop ``i`` with ``packed_loops[i]``, in loop order; None when an
    operand cannot be packed."""
    new_maps, new_iterators = list(maps), list(iterators)
    operands = [OperandPack() for _ in maps]
    for loop, packed in enumerate(packed_loops):
        if not packed:
            continue
        new_dim = len(new_iterators)
        new_iterators.append(new_iterators[loop])
        for index, indexing_map in enumerate(new_maps):
            results = indexing_map.results
            position = _first_result_of(indexing_map, loop)
            if position is not None:
                if not isinstance(results[position], AffineDimExpr):
                    return None
                results = (*results, AffineExpr.dimension(new_dim))
                operands[index].inner_dims_pos.append(position)
                operands[index].loops.append(loop)
            new_maps[index] = AffineMap(new_dim + 1, indexing_map.num_symbols, results)
    return PackPlan(new_maps, new_iterators, operands)


def zero_attr(element_type: Attribute) -> Attribute | None:
    """The zero a pack pads with (upstream's ``getZeroAttr``)."""
    if isinstance(element_type, AnyFloat):
        return FloatAttr(0.0, element_type)
    if isinstance(element_type, IntegerType | IndexType):
        return IntegerAttr(0, element_type)
    return None


def needs_padding(
    shape: Sequence[int], inner_dims_pos: Sequence[int], tiles: Sequence[Tile | None]
) -> bool:
    """Whether a pack may read past the source: a dynamic size or tile, or a
    tile that does not divide its dimension."""
    if any(not isinstance(t, int) for t in tiles) or DYNAMIC_INDEX in shape:
        return True
    return any(shape[p] % t != 0 for p, t in zip(inner_dims_pos, tiles))  # type: ignore[operator]


@dataclass
class PackBuilder:
    """Emits ops before ``anchor``: index constants once each, sizes folded
    where static, as upstream's ``makeComposedFoldedAffineApply`` leaves them."""

    rewriter: PatternRewriter
    anchor: Operation
    _constants: dict[int, SSAValue] = field(default_factory=dict)
    _dims: dict[tuple[SSAValue, int], SSAValue] = field(default_factory=dict)

    def insert(self, op: Operation) -> Operation:
        return self.rewriter.insert(op, InsertPoint.before(self.anchor))

    def index(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = self.insert(xarith.ConstantOp(IntegerAttr(value, IndexType())))
            self._constants[value] = op.results[0]
        return self._constants[value]

    def value(self, tile: Tile) -> SSAValue:
        return self.index(tile) if isinstance(tile, int) else tile

    def sizes(self, source: SSAValue) -> list[Tile]:
        """Each dimension of a tensor: its static size or a ``tensor.dim``
        (made once per tensor and dimension)."""
        shape = source.type.get_shape()  # type: ignore[attr-defined]
        sizes: list[Tile] = []
        for i, size in enumerate(shape):
            if size != DYNAMIC_INDEX:
                sizes.append(size)
                continue
            if (source, i) not in self._dims:
                dim = self.insert(tensor.DimOp(source, self.index(i)))
                self._dims[(source, i)] = dim.results[0]
            sizes.append(self._dims[(source, i)])
        return sizes

    def apply(self, expr_of: AffineExpr, operands: Sequence[SSAValue]) -> SSAValue:
        """``affine.apply`` of a map over ``operands`` taken as symbols (where
        valid, else as dims): ``expr_of`` is written over ``s0, s1, ...``."""
        scope = get_affine_scope(self.anchor)
        dims = [v for v in operands if not is_valid_symbol(v, scope)]
        symbols = [v for v in operands if is_valid_symbol(v, scope)]
        replacements = [
            AffineExpr.dimension(dims.index(v)) if v in dims
            else AffineExpr.symbol(symbols.index(v))
            for v in operands
        ]
        expr = expr_of.replace_dims_and_symbols([], replacements)
        amap = AffineMap(len(dims), len(symbols), (expr,))
        return self.insert(affine.ApplyOp([*dims, *symbols], AffineMapAttr(amap))).results[0]

    def ceil_div(self, size: Tile, tile: Tile) -> Tile:
        if isinstance(size, int) and isinstance(tile, int):
            return -(-size // tile)
        if isinstance(tile, int):
            return self.apply(AffineExpr.symbol(0).ceil_div(tile), [size])  # type: ignore[list-item]
        # A semi-affine ``ceildiv`` by a value: upstream's affine.apply is not
        # expressible in xDSL's affine maps, so the arith op.
        op = xarith.CeilDivUIOp(self.value(size), tile)
        return self.insert(op).results[0]

    def round_up(self, size: Tile, multiple: int) -> Tile:
        """``size`` rounded up to a multiple of ``multiple``."""
        if isinstance(size, int):
            return -(-size // multiple) * multiple
        expr = AffineExpr.symbol(0).ceil_div(multiple) * multiple
        return self.apply(expr, [size])

    def empty(self, sizes: Sequence[Tile], element_type: Attribute) -> SSAValue:
        shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
        dynamic = [s for s in sizes if not isinstance(s, int)]
        return self.insert(tensor.EmptyOp(dynamic, TensorType(element_type, shape))).results[0]

    def pack_dest(self, source: SSAValue, spec: OperandPack, tiles: Sequence[Tile]) -> SSAValue:
        """The ``tensor.empty`` a pack writes (upstream's ``createDestinationTensor``)."""
        sizes = self.sizes(source)
        for position, tile in zip(spec.inner_dims_pos, tiles):
            sizes[position] = self.ceil_div(sizes[position], tile)
        if spec.outer_dims_perm is not None:
            sizes = [sizes[p] for p in spec.outer_dims_perm]
        element_type = source.type.get_element_type()  # type: ignore[attr-defined]
        return self.empty([*sizes, *tiles], element_type)

    def pack(self, source: SSAValue, spec: OperandPack, tiles: Sequence[Tile]) -> SSAValue:
        dest = self.pack_dest(source, spec, tiles)
        padding: list[SSAValue] = []
        shape = source.type.get_shape()  # type: ignore[attr-defined]
        if needs_padding(shape, spec.inner_dims_pos, tiles):
            zero = zero_attr(source.type.get_element_type())  # type: ignore[attr-defined]
            assert zero is not None, "checked by the caller"
            padding = [self.insert(xarith.ConstantOp(zero)).results[0]]
        props = _relayout_props(spec.inner_dims_pos, tiles, spec.outer_dims_perm)
        op = PackOp.build(
            operands=[source, dest, padding, _dynamic(tiles)],
            result_types=[[dest.type]],
            properties=props,
        )
        op.results[0].name_hint = "pack"
        return self.insert(op).results[0]

    def unpack(
        self, source: SSAValue, dest: SSAValue, spec: OperandPack, tiles: Sequence[Tile]
    ) -> SSAValue:
        dynamic = _dynamic(tiles)
        op = UnPackOp.build(
            operands=[source, dest, dynamic],
            result_types=[[dest.type]],
            properties=_relayout_props(spec.inner_dims_pos, tiles, None),
            # upstream's unpack records pack's four operand segments (see relayout.py)
            attributes={
                "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 0, len(dynamic)])
            },
        )
        op.results[0].name_hint = "unpack"
        return self.insert(op).results[0]


def _dynamic(tiles: Sequence[Tile]) -> list[SSAValue]:
    return [t for t in tiles if not isinstance(t, int)]


def _relayout_props(
    inner_dims_pos: Sequence[int], tiles: Sequence[Tile], outer_dims_perm: Sequence[int] | None
) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {
        "inner_dims_pos": DenseArrayBase.from_list(i64, list(inner_dims_pos)),
        "static_inner_tiles": DenseArrayBase.from_list(
            i64, [t if isinstance(t, int) else _DYNAMIC for t in tiles]
        ),
    }
    if outer_dims_perm is not None:
        props["outer_dims_perm"] = DenseArrayBase.from_list(i64, list(outer_dims_perm))
    return props
