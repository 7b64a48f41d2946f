"""Tiling and tile-and-fuse with ``scf`` loops over the tiling interface
(upstream's ``tileUsingSCF`` and ``tileConsumerAndFuseProducersUsingSCF``).

``tile_using_for`` wraps an op in one ``scf.for`` per tiled loop, in the
interchanged order; on tensors the loops carry the op's destinations, each
tile is written back with ``tensor.insert_slice``. ``tile_and_fuse`` then
fuses producers greedily: each slice the tiles read of a value a structured
op computes becomes that op over the tile it needs.

One case differs from upstream on purpose. Upstream also fuses the producer
of a destination reached through the loops' ``iter_args`` (the ``linalg.fill``
of a matmul's accumulator) when a reduction loop is tiled, so the fill runs
again in every reduction tile and the result is wrong; mlkit fuses through
``iter_args`` only when every tiled loop is parallel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IndexType, TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import scf, tensor
from mlkit.passes.transforms.tiling.interface import (
    IRBuilder,
    Size,
    inits,
    is_tileable,
    iteration_domain,
    reduction_dims,
    result_tile_domain,
    tiled_implementation,
)

__all__ = ["TilingError", "TilingResult", "tile_and_fuse", "tile_using_for"]


class TilingError(Exception):
    """The op cannot be tiled as asked; the message is upstream's where it has one."""


@dataclass
class TilingResult:
    """The tiled op, the loops around it (outermost first), the values that
    replace the op's results, and the ops fused into the tiles."""

    tiled_op: Operation
    loops: list[scf.ForOp]
    replacements: list[SSAValue]
    fused: list[Operation]


def _loop_order(num_loops: int, sizes: Sequence[int], interchange: Sequence[int]) -> list[int]:
    """The tiled loops, outermost first: the interchange's order, untiled ones dropped."""
    order = list(interchange) if interchange else list(range(num_loops))
    if sorted(order) != list(range(len(order))) or len(order) > num_loops:
        raise TilingError("expected interchange to be a permutation of the loops")
    order += [d for d in range(num_loops) if d not in order]
    return [d for d in order if sizes[d] != 0]


def _tile_size(b: IRBuilder, iv: SSAValue, bound: Size, step: int) -> Size:
    """The size of the tile at ``iv``: ``step``, or ``min(step, bound - iv)``
    when ``bound`` may not be a multiple of it (upstream's ``affine.min``)."""
    if isinstance(bound, int) and bound % step == 0:
        return step
    d0 = AffineExpr.dimension(0)
    if isinstance(bound, int):
        return b.min_of(AffineMap(1, 0, (-d0 + bound, AffineExpr.constant(step))), [iv])
    s0 = AffineExpr.symbol(0)
    return b.min_of(AffineMap(1, 1, (-d0 + s0, AffineExpr.constant(step))), [iv, bound])


def tile_using_for(
    op: Operation, tile_sizes: Sequence[int], interchange: Sequence[int] = ()
) -> TilingResult:
    """Tile ``op`` by ``tile_sizes`` (0: not tiled; missing trailing sizes too)
    with ``scf.for`` loops, and replace it with the loops' results."""
    if not is_tileable(op):
        raise TilingError("only structured ops on tensors or on memrefs can be tiled")
    outer = IRBuilder(InsertPoint.before(op))
    domain = iteration_domain(outer, op)
    if domain is None:
        raise TilingError("cannot read the op's loop bounds off its operands")
    num_loops = len(domain)
    if len(tile_sizes) > num_loops:
        raise TilingError(f"too many tile sizes provided, expected at most {num_loops}")
    if any(size < 0 for size in tile_sizes):
        raise TilingError("expected tile sizes to be non-negative")
    sizes = list(tile_sizes) + [0] * (num_loops - len(tile_sizes))
    order = _loop_order(num_loops, sizes, interchange)
    if not order:
        return TilingResult(op, [], list(op.results), [])

    on_tensors = bool(op.results)
    carried: list[SSAValue] = inits(op) if on_tensors else []
    zero = outer.index(0)
    bounds = {d: outer.value(domain[d]) for d in order}
    steps = {d: outer.index(sizes[d]) for d in order}
    loops: list[scf.ForOp] = []
    ivs: dict[int, SSAValue] = {}
    point = outer.point
    for d in order:
        body = Block(arg_types=[IndexType(), *(v.type for v in carried)])
        loop = scf.ForOp(zero, bounds[d], steps[d], list(carried), Region(body))
        Rewriter.insert_op(loop, point)
        loops.append(loop)
        ivs[d] = body.args[0]
        carried = list(body.args[1:])
        point = InsertPoint.at_start(body)

    inner = IRBuilder(point)
    offsets: list[Size] = [ivs.get(d, 0) for d in range(num_loops)]
    tile: list[Size] = list(domain)
    for d in order:
        tile[d] = _tile_size(inner, ivs[d], domain[d], sizes[d])
    tiled = tiled_implementation(inner, op, offsets, tile, set(order), carried or None)

    yielded: list[SSAValue] = [
        inner.insert_slice(result, dest, offs, szs)
        for result, dest, offs, szs in zip(
            tiled.op.results, carried, tiled.result_offsets, tiled.result_sizes
        )
    ]
    for loop in reversed(loops):
        Rewriter.insert_op(scf.YieldOp(*yielded), InsertPoint.at_end(loop.body.block))
        yielded = list(loop.results)
    replacements = list(loops[0].results)
    for old, new in zip(op.results, replacements):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(op)
    return TilingResult(tiled.op, loops, replacements, [])


def _untiled_source(
    value: SSAValue, loops: Sequence[scf.ForOp]
) -> tuple[SSAValue, scf.ForOp | None, int]:
    """Follow a value the tiles slice out through the loops' ``iter_args`` to the
    value outside the nest: (that value, the outermost loop, the iter_arg index)."""
    carried_by: scf.ForOp | None = None
    index = -1
    while isinstance(value, BlockArgument) and value.index > 0:
        owner = value.block.parent_op()
        if not isinstance(owner, scf.ForOp) or owner not in loops:
            break
        carried_by, index = owner, value.index - 1
        value = owner.iter_args[index]
    return value, carried_by, index


def _slice_params(op: tensor.ExtractSliceOp) -> tuple[list[Size], list[Size]] | None:
    """A unit-stride, full-rank slice's offsets and sizes; None for any other."""
    if any(s != 1 for s in op.mixed_strides()) or op.dropped_dims():
        return None
    return list(op.mixed_offsets()), list(op.mixed_sizes())


def tile_and_fuse(
    op: Operation, tile_sizes: Sequence[int], interchange: Sequence[int] = ()
) -> TilingResult:
    """Tile ``op`` with ``scf.for`` loops, then fuse into the tiles, greedily,
    every structured op on tensors whose result the tiles slice."""
    reductions = reduction_dims(op)
    result = tile_using_for(op, tile_sizes, interchange)
    if not result.loops:
        return result
    tiled_reduction = any(
        d in reductions for d, size in enumerate(tile_sizes) if size != 0
    )
    nest = result.loops[0]
    worklist = [v.owner for v in result.tiled_op.operands if isinstance(v.owner, tensor.ExtractSliceOp)]
    while worklist:
        slice_op = worklist.pop(0)
        assert isinstance(slice_op, tensor.ExtractSliceOp)
        source, carried_by, index = _untiled_source(slice_op.source, result.loops)
        if carried_by is not None and tiled_reduction:
            continue  # the producer would run again in every reduction tile
        producer = source.owner if isinstance(source, OpResult) else None
        params = _slice_params(slice_op)
        if (
            producer is None
            or params is None
            or not is_tileable(producer)
            or not isinstance(source.type, TensorType)
            or nest.is_ancestor(producer)
        ):
            continue
        fused = _fuse_producer(slice_op, producer, source.index, *params)
        if fused is None:
            continue
        if carried_by is not None:
            # the loops now start from the producer's destination, which each tile fills
            operands = list(carried_by.operands)
            operands[3 + index] = inits(producer)[source.index]
            carried_by.operands = operands
        result.fused.append(fused)
        worklist += [
            v.owner for v in fused.operands if isinstance(v.owner, tensor.ExtractSliceOp)
        ]
    return result


def _fuse_producer(
    slice_op: tensor.ExtractSliceOp,
    producer: Operation,
    result_number: int,
    offsets: list[Size],
    sizes: list[Size],
) -> Operation | None:
    """Replace ``slice_op`` by ``producer`` computed over the tile it slices."""
    b = IRBuilder(InsertPoint.before(slice_op))
    domain = iteration_domain(b, producer)
    if domain is None:
        return None
    tile = result_tile_domain(producer, result_number, offsets, sizes, domain)
    if tile is None:
        return None
    loop_offsets, loop_sizes, tiled = tile
    destination = slice_op.source
    destinations = list(inits(producer))
    if isinstance(destination, BlockArgument):
        destinations[result_number] = destination  # keep slicing the carried value
    fused = tiled_implementation(b, producer, loop_offsets, loop_sizes, tiled, destinations)
    value = fused.op.results[result_number]
    if value.type != slice_op.result.type:
        value = b.insert(tensor.CastOp(value, slice_op.result.type)).results[0]
    slice_op.result.replace_all_uses_with(value)
    Rewriter.erase_op(slice_op)
    return fused.op
