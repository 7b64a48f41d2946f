"""Tiling and tile-and-fuse with ``scf`` loops over the tiling interface
(upstream's ``tileUsingSCF`` and ``tileConsumerAndFuseProducersUsingSCF``).

``tile_using_for`` wraps an op in one ``scf.for`` per tiled loop, in the
interchanged order; on tensors the loops carry the op's destinations, each
tile is written back with ``tensor.insert_slice``. ``tile_using_forall`` puts
the tiles in one ``scf.forall`` (by tile size or by thread count), each tile
written back with ``tensor.parallel_insert_slice``. ``tile_and_fuse`` then
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

from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ArrayAttr, DenseArrayBase
from xdsl.dialects.builtin import IndexType, TensorType, i32, i64
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import affine, arith, scf, tensor
from mlkit.passes.transforms.tiling.interface import (
    IRBuilder,
    Size,
    inits,
    is_tileable,
    iteration_domain,
    reduction_dims,
    result_tile_domain,
    slice_lists,
    tiled_implementation,
)

__all__ = ["TilingError", "TilingResult", "tile_and_fuse", "tile_using_for", "tile_using_forall"]


_NO_OVERFLOW = arith.IntegerOverflowAttr("none")


class TilingError(Exception):
    """The op cannot be tiled as asked; the message is upstream's where it has one."""


@dataclass
class TilingResult:
    """The tiled op, the loops around it (outermost first), the values that
    replace the op's results, and the ops fused into the tiles."""

    tiled_op: Operation
    loops: list[Operation]
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


def _prepare(op: Operation, tile_sizes: Sequence[int]) -> tuple[IRBuilder, list[Size], list[int]]:
    """A builder before ``op``, its iteration domain and one tile size per loop."""
    if not is_tileable(op):
        raise TilingError("only structured ops on tensors or on memrefs can be tiled")
    num_loops = getattr(op, "get_num_loops")()
    if len(tile_sizes) > num_loops:
        raise TilingError(f"too many tiles provided, expected at most {num_loops} found {len(tile_sizes)}")
    if any(size < 0 for size in tile_sizes):
        raise TilingError("expected tile sizes to be non-negative")
    outer = IRBuilder(InsertPoint.before(op))
    domain = iteration_domain(outer, op)
    if domain is None:
        raise TilingError("cannot read the op's loop bounds off its operands")
    return outer, domain, list(tile_sizes) + [0] * (num_loops - len(tile_sizes))


def _replace(op: Operation, replacements: Sequence[SSAValue]) -> None:
    for old, new in zip(op.results, replacements):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(op)


def tile_using_for(
    op: Operation, tile_sizes: Sequence[int], interchange: Sequence[int] = ()
) -> TilingResult:
    """Tile ``op`` by ``tile_sizes`` (0: not tiled; missing trailing sizes too)
    with ``scf.for`` loops, and replace it with the loops' results."""
    outer, domain, sizes = _prepare(op, tile_sizes)
    num_loops = len(domain)
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
    _replace(op, replacements)
    return TilingResult(tiled.op, list(loops), replacements, [])


def tile_using_forall(
    op: Operation,
    tile_sizes: Sequence[int] | None = None,
    num_threads: Sequence[int] | None = None,
    mapping: ArrayAttr | None = None,
    normalized: bool = True,
) -> TilingResult:
    """Tile ``op`` into one ``scf.forall`` over the tiles, given their sizes or
    their count per loop (upstream's ``tileToForallOp``); each tile's results go
    back with ``tensor.parallel_insert_slice``. Normalized, the forall counts
    tiles from 0 by 1 (``tile_using_forall``); otherwise it steps through the
    range by the tile size, as ``scf.for`` tiling does (``fuse {use_forall}``).
    A reduction loop is not tiled this way: its tiles would write the same
    results at once."""
    counts = list(num_threads) if num_threads is not None else None
    outer, domain, sizes = _prepare(op, counts if counts is not None else list(tile_sizes or ()))
    dims = [d for d, size in enumerate(sizes) if size != 0]
    if reduction_dims(op) & set(dims):
        raise TilingError("tiling a reduction loop with scf.forall is not supported: its tiles would race")
    if mapping is not None and len(mapping.data) != len(dims):
        raise TilingError(f"expected {len(dims)} mapping attributes, got {len(mapping.data)}")
    d0 = AffineExpr.dimension(0)
    steps: dict[int, Size] = {}
    trips: dict[int, Size] = {}
    for d in dims:
        if counts is None:
            steps[d] = sizes[d]
            trips[d] = outer.apply(AffineExpr.dimension(0).ceil_div(sizes[d]), [domain[d]])
        else:
            trips[d] = sizes[d]
            steps[d] = outer.apply(AffineExpr.dimension(0).ceil_div(sizes[d]), [domain[d]])
    on_tensors = bool(op.results)
    outputs = inits(op) if on_tensors else []
    body = Block(arg_types=[IndexType()] * len(dims) + [v.type for v in outputs])
    if not normalized:
        if counts is not None:
            raise TilingError("a thread count needs a normalized forall")
        trips = {d: domain[d] for d in dims}
    uppers = list(trips.values())
    dynamic = [t for t in uppers if not isinstance(t, int)]
    forall = scf.ForallOp.create(
        operands=[*dynamic, *outputs],
        result_types=[v.type for v in outputs],
        properties={
            "staticLowerBound": DenseArrayBase.from_list(i64, [0] * len(dims)),
            "staticUpperBound": DenseArrayBase.from_list(
                i64, [t if isinstance(t, int) else DYNAMIC_INDEX for t in uppers]
            ),
            "staticStep": DenseArrayBase.from_list(
                i64, [1] * len(dims) if normalized else [sizes[d] for d in dims]
            ),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [0, len(dynamic), 0, len(outputs)]),
            **({"mapping": mapping} if mapping is not None else {}),
        },
        regions=[Region(body)],
    )
    Rewriter.insert_op(forall, outer.point)
    inner = IRBuilder(InsertPoint.at_start(body))
    offsets: list[Size] = [0] * len(domain)
    tile: list[Size] = list(domain)
    for iv, d in zip(body.args, dims):
        if not normalized:
            offsets[d], tile[d] = iv, _tile_size(inner, iv, domain[d], sizes[d])
            continue
        step, bound = steps[d], domain[d]
        offsets[d] = inner.apply(d0 * step, [iv]) if isinstance(step, int) else _times(inner, iv, step)
        tile[d] = _forall_tile_size(inner, iv, bound, step, trips[d])
    carried = list(body.args[len(dims) :])
    tiled = tiled_implementation(inner, op, offsets, tile, set(dims), carried or None)
    combine = Block()
    for result, dest, offs, szs in zip(tiled.op.results, carried, tiled.result_offsets, tiled.result_sizes):
        combine.add_op(_parallel_insert(result, dest, offs, szs))
    inner.insert(scf.InParallelOp.create(regions=[Region(combine)]))
    _replace(op, list(forall.results))
    return TilingResult(tiled.op, [forall], list(forall.results), [])


def _forall_tile_size(b: IRBuilder, iv: SSAValue, bound: Size, step: Size, trips: Size) -> Size:
    """The tile at ``iv`` of a forall of ``trips`` tiles of ``step``: ``step``, or
    what is left of ``bound``; ``max(0, ...)`` where a last tile (of a thread
    count) may start past the end."""
    d0, s0 = AffineExpr.dimension(0), AffineExpr.symbol(0)
    if isinstance(step, int) and isinstance(bound, int):
        if bound % step == 0 and (not isinstance(trips, int) or trips * step <= bound):
            return step  # every tile is whole
        left = b.min_of(AffineMap(1, 0, (d0 * -step + bound, AffineExpr.constant(step))), [iv])
        if isinstance(trips, int) and (trips - 1) * step < bound:
            return left
    elif isinstance(step, int):
        left = b.min_of(AffineMap(1, 1, (d0 * -step + s0, AffineExpr.constant(step))), [iv, b.value(bound)])
        if not isinstance(trips, int):
            return left  # trips = ceil(bound / step): every tile starts inside
    else:  # a dynamic count of threads: xDSL's affine maps cannot multiply two values
        start = _times(b, iv, step)
        rest = b.insert(arith.SubiOp(b.value(bound), start, overflow=_NO_OVERFLOW)).results[0]
        left = b.insert(arith.MinSIOp(rest, step)).results[0]
        return b.insert(arith.MaxSIOp(left, b.index(0))).results[0]
    zero_or = AffineMap(1, 0, (AffineExpr.constant(0), d0))
    clamp = affine.MaxOp.create(operands=[left], result_types=[IndexType()], properties={"map": AffineMapAttr(zero_or)})
    return b.insert(clamp).results[0]


def _times(b: IRBuilder, iv: SSAValue, step: SSAValue) -> SSAValue:
    return b.insert(arith.MuliOp(iv, step, overflow=_NO_OVERFLOW)).results[0]


def _parallel_insert(tile: SSAValue, dest: SSAValue, offsets: Sequence[Size], sizes: Sequence[Size]) -> Operation:
    dynamic, props = slice_lists(offsets, sizes)
    return tensor.ParallelInsertSliceOp(operands=[tile, dest, *dynamic, []], properties=props)


def _untiled_source(
    value: SSAValue, loops: Sequence[Operation]
) -> tuple[SSAValue, Operation | None, int]:
    """Follow a value the tiles slice out through the loops' ``iter_args`` (or the
    forall's ``shared_outs``) to the value outside the nest: (that value, the
    outermost loop, the operand of that loop it comes from)."""
    carried_by: Operation | None = None
    operand = -1
    while isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        if owner not in loops:
            break
        if isinstance(owner, scf.ForOp) and value.index > 0:
            operand = 3 + value.index - 1
        elif isinstance(owner, scf.ForallOp) and value.index >= len(owner.staticStep.get_values()):
            rank = len(owner.staticStep.get_values())
            operand = len(owner.operands) - len(owner.outputs) + value.index - rank
        else:
            break
        carried_by = owner
        value = owner.operands[operand]
    return value, carried_by, operand


def _slice_params(op: tensor.ExtractSliceOp) -> tuple[list[Size], list[Size]] | None:
    """A unit-stride, full-rank slice's offsets and sizes; None for any other."""
    if any(s != 1 for s in op.mixed_strides()) or op.dropped_dims():
        return None
    return list(op.mixed_offsets()), list(op.mixed_sizes())


def tile_and_fuse(
    op: Operation, tile_sizes: Sequence[int], interchange: Sequence[int] = (), use_forall: bool = False
) -> TilingResult:
    """Tile ``op`` with ``scf.for`` loops (or one ``scf.forall``), then fuse into
    the tiles, greedily, every structured op on tensors whose result the tiles
    slice."""
    reductions = reduction_dims(op)
    if use_forall:
        if interchange:
            raise TilingError("interchange is not supported with use_forall")
        result = tile_using_forall(op, tile_sizes, normalized=False)
    else:
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
        source, carried_by, operand = _untiled_source(slice_op.source, result.loops)
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
            operands[operand] = inits(producer)[source.index]
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
