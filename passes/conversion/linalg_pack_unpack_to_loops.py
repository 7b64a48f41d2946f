"""``convert-linalg-pack-unpack-to-loops``: ``linalg.pack`` and ``linalg.unpack``
on buffers to ``scf.for`` loop nests of scalar loads and stores.

mlkit's own pass: upstream lowers pack and unpack only by decomposing them on
tensors (``lowerPack``: ``tensor.pad``, ``expand_shape``, ``linalg.transpose``;
``lowerUnPack``: the reverse and an ``extract_slice``), which needs static
tiles. Here every case lowers the same way, after bufferization:

- ``pack`` loops over the packed buffer, outer dimensions (in
  ``outer_dims_perm`` order) then the tiles. The source element of a packed
  index is, per source dimension ``d``, its outer index, times the tile and
  plus the tile index where ``d`` is tiled (``inner_dims_pos``). Where a tile
  may run past the source (a tile that does not divide its dimension, or a
  dynamic size or tile), the load is guarded and the ``padding_value`` stored
  instead (without one, the element is left as it was: upstream leaves it
  undefined).
- ``unpack`` loops over the unpacked buffer and reads, for index ``i`` of a
  tiled dimension, outer index ``i / tile`` and tile index ``i % tile``;
  elements of partial tiles past the unpacked size are never read.

Ops on tensors are left alone (bufferize them first; ``one-shot-bufferize``
keeps both as destination-style ops on memrefs), as is everything else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects import memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from mlkit.dialects import arith, scf
from mlkit.dialects.linalg.relayout import PackOp, UnPackOp
from mlkit.passes.transforms.rewrite_driver import rewrite_regions

__all__ = ["ConvertLinalgPackUnpackToLoops"]

_NO_OVERFLOW = arith.IntegerOverflowAttr("none")
_ULT = 6  # arith.cmpi predicate


@dataclass
class _Emitter:
    """Builds index arithmetic and loops at an insertion point."""

    rewriter: PatternRewriter
    point: InsertPoint
    _constants: dict[int, SSAValue] = field(default_factory=dict)

    def insert(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.point)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def index(self, value: int) -> SSAValue:
        """An index constant, made once, ahead of the loops."""
        if value not in self._constants:
            constant = xarith.ConstantOp(IntegerAttr(value, IndexType()))
            self.rewriter.insert(constant, self._top)
            self._constants[value] = constant.result
        return self._constants[value]

    def __post_init__(self) -> None:
        self._top = self.point

    def size(self, buffer: SSAValue, dim: int) -> SSAValue:
        static = buffer.type.get_shape()[dim]  # type: ignore[attr-defined]
        if static != DYNAMIC_INDEX:
            return self.index(static)
        return self.insert(memref.DimOp(buffer, self.index(dim)))

    def muladd(self, outer: SSAValue, tile: SSAValue, inner: SSAValue) -> SSAValue:
        product = self.insert(arith.MuliOp(outer, tile, overflow=_NO_OVERFLOW))
        return self.insert(arith.AddiOp(product, inner, overflow=_NO_OVERFLOW))

    def loops(self, bounds: Sequence[SSAValue], body: Callable[[list[SSAValue]], None]) -> None:
        """A nest of ``scf.for`` over ``[0, bound)``, ``body`` innermost."""
        zero, one = self.index(0), self.index(1)
        saved = self.point
        ivs: list[SSAValue] = []
        for bound in bounds:
            block = Block(arg_types=[IndexType()])
            block.add_op(scf.YieldOp())
            self.insert(scf.ForOp(zero, bound, one, [], Region(block)))
            ivs.append(block.args[0])
            self.point = InsertPoint.before(block.last_op)  # type: ignore[arg-type]
        body(ivs)
        self.point = saved


def _tiles(e: _Emitter, op: PackOp | UnPackOp) -> list[SSAValue]:
    return [t if isinstance(t, SSAValue) else e.index(t) for t in op.mixed_tiles()]


def _outer_perm(op: PackOp | UnPackOp, rank: int) -> list[int]:
    return list(op.outer_dims_perm.get_values()) if op.outer_dims_perm else list(range(rank))


def _may_run_past(op: PackOp) -> bool:
    """Whether some tile may reach past the source: it does not divide its
    dimension statically, or the size or the tile is dynamic."""
    shape = op.source.type.get_shape()  # type: ignore[attr-defined]
    for position, tile in zip(op.inner_dims_pos.get_values(), op.mixed_tiles()):
        if not isinstance(tile, int) or shape[position] == DYNAMIC_INDEX:
            return True
        if shape[position] % tile:
            return True
    return False


def _parts(
    op: PackOp | UnPackOp, rewriter: PatternRewriter, rank: int
) -> tuple[_Emitter, list[int], list[int], list[SSAValue]]:
    """What lowering a pack or unpack of ``rank`` unpacked dimensions starts
    from: an emitter before ``op``, its tiled dimensions, its outer permutation
    and its tile sizes as values."""
    e = _Emitter(rewriter, InsertPoint.before(op))
    return e, list(op.inner_dims_pos.get_values()), _outer_perm(op, rank), _tiles(e, op)


def _replace_by_loops(
    e: _Emitter, op: Operation, bounds: list[SSAValue], body: Callable[[list[SSAValue]], None]
) -> None:
    e.loops(bounds, body)
    e.rewriter.erase(op)


def lower_pack(op: PackOp, rewriter: PatternRewriter) -> None:
    source, dest = op.source, op.dest
    rank = len(source.type.get_shape())  # type: ignore[attr-defined]
    e, inner, perm, tiles = _parts(op, rewriter, rank)
    guarded = _may_run_past(op)
    source_sizes = {d: e.size(source, d) for d in inner} if guarded else {}
    bounds = [e.size(dest, j) for j in range(rank + len(inner))]

    def body(ivs: list[SSAValue]) -> None:
        outer = {perm[j]: ivs[j] for j in range(rank)}
        indices: list[SSAValue] = []
        in_bounds: SSAValue | None = None
        for d in range(rank):
            if d not in inner:
                indices.append(outer[d])
                continue
            q = inner.index(d)
            index = e.muladd(outer[d], tiles[q], ivs[rank + q])
            indices.append(index)
            if guarded:
                check = e.insert(arith.CmpiOp(index, source_sizes[d], _ULT))
                if in_bounds is not None:
                    check = e.insert(xarith.AndIOp(in_bounds, check))
                in_bounds = check
        if in_bounds is None:
            value = e.insert(memref.LoadOp.get(source, indices))
            e.insert(memref.StoreOp.get(value, dest, ivs))
            return
        load = memref.LoadOp.get(source, indices)
        if op.padding_value is None:
            store = memref.StoreOp.get(load.res, dest, ivs)
            e.insert(scf.IfOp(in_bounds, [], [load, store, scf.YieldOp()], Region()))
            return
        element = load.res.type
        pick = scf.IfOp(
            in_bounds, [element], [load, scf.YieldOp(load.res)], [scf.YieldOp(op.padding_value)]
        )
        e.insert(memref.StoreOp.get(e.insert(pick), dest, ivs))

    _replace_by_loops(e, op, bounds, body)


def lower_unpack(op: UnPackOp, rewriter: PatternRewriter) -> None:
    source, dest = op.source, op.dest
    rank = len(dest.type.get_shape())  # type: ignore[attr-defined]
    e, inner, perm, tiles = _parts(op, rewriter, rank)
    bounds = [e.size(dest, d) for d in range(rank)]

    def body(ivs: list[SSAValue]) -> None:
        outer: list[SSAValue] = list(ivs)
        within: list[SSAValue] = []
        for q, d in enumerate(inner):
            outer[d] = e.insert(arith.DivUIOp(ivs[d], tiles[q]))
            within.append(e.insert(xarith.RemUIOp(ivs[d], tiles[q])))
        indices = [outer[perm[j]] for j in range(rank)] + within
        value = e.insert(memref.LoadOp.get(source, indices))
        e.insert(memref.StoreOp.get(value, dest, ivs))

    _replace_by_loops(e, op, bounds, body)


def _on_buffers(op: PackOp | UnPackOp) -> bool:
    return isinstance(op.source.type, MemRefType) and isinstance(op.dest.type, MemRefType)


_LOWERINGS: dict[type[Operation], Callable[[Any, PatternRewriter], None]] = {
    PackOp: lower_pack,
    UnPackOp: lower_unpack,
}


class PackUnpackToLoopsPattern(RewritePattern):
    """A pack or unpack on buffers, to its loop nest."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        lower = _LOWERINGS.get(type(op))
        if lower is not None and _on_buffers(op):  # type: ignore[arg-type]
            lower(op, rewriter)


@dataclass(frozen=True)
class ConvertLinalgPackUnpackToLoops(ModulePass):
    """Lower linalg.pack and linalg.unpack on buffers to loops"""

    name = "convert-linalg-pack-unpack-to-loops"

    def apply(self, ctx: Context, op: Operation) -> None:
        rewrite_regions(op, PackUnpackToLoopsPattern(), apply_recursively=False)
