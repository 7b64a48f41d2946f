"""one-shot-bufferize rules for the tensor dialect, constants, ``arith.select``,
linalg ops and the bufferization boundary ops, ``dealloc_tensor`` and
``materialize_in_destination``. ``tensor.reshape``,
``tensor.bitcast``, ``tensor.gather`` and ``tensor.scatter`` are not covered
(the pass reports them as not bufferized). ``parallel_insert_slice`` is
bufferized by its ``scf.forall.in_parallel`` (:mod:`.control`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, IndexType, MemRefType
from xdsl.dialects.builtin import TensorType, UnrankedTensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from mlkit.dialects import bufferization as buf
from mlkit.dialects import memref, tensor  # memref: mlkit's registered classes
from mlkit.dialects.tensor.common import compute_rank_reduction_mask

from mlkit.passes.transforms.bufferization.operands import is_tensor, linalg_inits, linalg_reads_init
from mlkit.passes.transforms.bufferization.core import Bufferizer, BufferizeError, Rule
from mlkit.passes.transforms.bufferization.types import dynamic_layout_memref, identity_memref, is_identity, subview_type


def _replace_scalar(b: Bufferizer, op: Operation, new: Operation) -> None:
    b.insert(new)
    op.results[0].replace_all_uses_with(new.results[0])
    b.finish(op)


def _mixed(b: Bufferizer, static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[SSAValue]:
    values, it = [], iter(dynamic)
    for s in static:
        values.append(next(it) if s == DYNAMIC_INDEX else b.index(s))
    return values


def _subview(b: Bufferizer, source: SSAValue, op: Operation, result_shape: Sequence[int]) -> SSAValue:
    offsets = list(op.static_offsets.get_values())  # type: ignore[attr-defined]
    sizes = list(op.static_sizes.get_values())  # type: ignore[attr-defined]
    strides = list(op.static_strides.get_values())  # type: ignore[attr-defined]
    dropped = compute_rank_reduction_mask(sizes, list(result_shape))
    if dropped is None:
        dropped = set()
    assert isinstance(source.type, MemRefType)
    result_type = subview_type(source.type, offsets, sizes, strides, dropped)
    view = memref.SubviewOp(
        source, list(op.offsets), list(op.sizes), list(op.strides),  # type: ignore[attr-defined]
        offsets, sizes, strides, result_type,
    )
    return b.insert(view).results[0]


def loop_nest(b: Bufferizer, sizes: Sequence[SSAValue], emit: Callable[[list[SSAValue]], None]) -> None:
    """``scf.for`` loops over ``[0, size)`` for each size, ``emit`` in the innermost."""
    outer = b.point
    zero, one = b.index(0), b.index(1)
    ivs: list[SSAValue] = []
    for size in sizes:
        block = Block(arg_types=[IndexType()])
        block.add_op(scf.YieldOp())
        b.insert(scf.ForOp(zero, size, one, [], block))
        ivs.append(block.args[0])
        b.point = InsertPoint.before(block.last_op)  # type: ignore[arg-type]
    emit(ivs)
    b.point = outer


def _inline_body(
    b: Bufferizer, block: Block, ivs: list[SSAValue]
) -> tuple[SSAValue, list[Operation]]:
    """Clone a generate/pad body at the insertion point: the value it yields
    and the clones, still on tensors where the body reads any."""
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, ivs))
    clones: list[Operation] = []
    for inner in block.ops:
        if isinstance(inner, tensor.YieldOp):
            return mapping.get(inner.value, inner.value), clones
        clone = b.insert(inner.clone(value_mapper=mapping))
        assert b.analysis is not None
        b.analysis.adopt(clone, inner)
        clones.append(clone)
    raise BufferizeError(b.current, "expected a tensor.yield")


def _sizes_of(b: Bufferizer, shape: Sequence[int], dynamic: Sequence[SSAValue]) -> list[SSAValue]:
    return _mixed(b, shape, dynamic)


def _fill_with_body(b: Bufferizer, target: SSAValue, sizes: list[SSAValue], body: Block) -> None:
    def emit(ivs: list[SSAValue]) -> None:
        value, clones = _inline_body(b, body, ivs)
        store = b.insert(memref.StoreOp.get(value, target, ivs))
        # The walk has passed this point: bufferize the clones here, now that the
        # store uses what they yield. A body that reads a tensor (tensor.extract of
        # an argument) would otherwise keep the tensor alive after its op is gone.
        saved = b.point
        b.run_block(store.parent_block(), clones)  # type: ignore[arg-type]
        b.point = saved

    loop_nest(b, sizes, emit)


# -- rules ----------------------------------------------------------------------


def empty(b: Bufferizer, op: tensor.EmptyOp) -> None:
    fresh = b.alloc(identity_memref(op.tensor.type), list(op.dynamic_sizes))  # type: ignore[arg-type]
    b.unused_if_dead.append(fresh.owner)  # type: ignore[arg-type]
    b.bind(op.tensor, fresh)
    b.finish(op)


def alloc_tensor(b: Bufferizer, op: buf.AllocTensorOp) -> None:
    if op.copy is not None:
        source = b.buffer(op.copy)
        fresh = b.alloc_like(op.tensor.type, source)
        b.copy(source, fresh)
    else:
        fresh = b.alloc(identity_memref(op.tensor.type), list(op.dynamic_sizes))  # type: ignore[arg-type]
        b.unused_if_dead.append(fresh.owner)  # type: ignore[arg-type]
    b.bind(op.tensor, fresh)
    b.finish(op)


def constant(b: Bufferizer, op: arith.ConstantOp) -> None:
    if not is_tensor(op.result):
        return
    value = op.value
    if not isinstance(value, DenseIntOrFPElementsAttr):  # a dense_resource without its data
        raise BufferizeError(op, f"cannot bufferize a constant whose data is not known: {value}")
    memref_type = identity_memref(op.result.type)
    name = b.global_for(value, memref_type)  # type: ignore[arg-type]
    b.bind(op.result, b.insert(memref.GetGlobalOp(name, memref_type)).results[0])
    b.finish(op)


def extract(b: Bufferizer, op: tensor.ExtractOp) -> None:
    _replace_scalar(b, op, memref.LoadOp.get(b.buffer(op.tensor), list(op.indices)))


def insert(b: Bufferizer, op: tensor.InsertOp) -> None:
    dest = b.dest_buffer(op, 1, reads=True)
    b.insert(memref.StoreOp.get(op.scalar, dest, list(op.indices)))
    b.bind(op.result, dest)
    b.finish(op)


def extract_slice(b: Bufferizer, op: tensor.ExtractSliceOp) -> None:
    b.bind(op.result, _subview(b, b.buffer(op.source), op, op.result.type.get_shape()))
    b.finish(op)


def insert_slice(b: Bufferizer, op: tensor.InsertSliceOp) -> None:
    dest = b.dest_buffer(op, 1, reads=True)
    view = _subview(b, dest, op, op.source.type.get_shape())
    b.copy(b.buffer(op.source), view)
    b.bind(op.result, dest)
    b.finish(op)


def parallel_insert_slice(b: Bufferizer, op: tensor.ParallelInsertSliceOp) -> None:
    """The tile's buffer copied into its part of the shared output's buffer, at
    the insertion point (the forall's body, before its terminator). It writes
    in place, whatever the analysis says, as upstream's (which resolves no
    conflicts for it)."""
    view = _subview(b, b.buffer(op.dest), op, op.source.type.get_shape())
    b.copy(b.buffer(op.source), view)
    b.finish(op)


def cast(b: Bufferizer, op: tensor.CastOp) -> None:
    source = b.buffer(op.source)
    target_tensor = op.dest.type
    if isinstance(target_tensor, UnrankedTensorType) or is_identity(source.type):
        target = identity_memref(target_tensor)
    else:
        target = dynamic_layout_memref(target_tensor)
    b.bind(op.dest, b.insert(memref.CastOp.create(operands=[source], result_types=[target])).results[0])
    b.finish(op)


def dim(b: Bufferizer, op: tensor.DimOp) -> None:
    _replace_scalar(b, op, memref.DimOp(b.buffer(op.source), op.index))


def rank(b: Bufferizer, op: tensor.RankOp) -> None:
    new = memref.RankOp.create(operands=[b.buffer(op.tensor)], result_types=[IndexType()])
    _replace_scalar(b, op, new)


def _contiguous_source(b: Bufferizer, value: SSAValue) -> SSAValue:
    source = b.buffer(value)
    if is_identity(source.type):
        return source
    fresh = b.alloc_like(value.type, source)
    b.copy(source, fresh)
    return fresh


def expand_shape(b: Bufferizer, op: tensor.ExpandShapeOp) -> None:
    new = memref.ExpandShapeOp.create(
        operands=[_contiguous_source(b, op.src), *op.dynamic_output_shape],
        result_types=[identity_memref(op.result.type)],
        properties={"reassociation": op.reassociation, "static_output_shape": op.static_output_shape},
    )
    b.bind(op.result, b.insert(new).results[0])
    b.finish(op)


def collapse_shape(b: Bufferizer, op: tensor.CollapseShapeOp) -> None:
    new = memref.CollapseShapeOp.create(
        operands=[_contiguous_source(b, op.src)],
        result_types=[identity_memref(op.result.type)],
        properties={"reassociation": op.reassociation},
    )
    b.bind(op.result, b.insert(new).results[0])
    b.finish(op)


def from_elements(b: Bufferizer, op: tensor.FromElementsOp) -> None:
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    target = b.alloc(identity_memref(result_type), [])  # type: ignore[arg-type]
    shape = list(result_type.get_shape())
    for flat, element in enumerate(op.elements):
        indices, rest = [], flat
        for size in reversed(shape):
            indices.insert(0, rest % size)
            rest //= size
        b.insert(memref.StoreOp.get(element, target, [b.index(i) for i in indices]))
    b.bind(op.result, target)
    b.finish(op)


def _alloc_result(b: Bufferizer, result_type: TensorType, dynamic: Sequence[SSAValue]
                  ) -> tuple[SSAValue, list[SSAValue]]:
    """A fresh buffer of ``result_type`` with ``dynamic`` sizes, and all its
    sizes as index values."""
    target = b.alloc(identity_memref(result_type), dynamic)  # type: ignore[arg-type]
    return target, _sizes_of(b, result_type.get_shape(), dynamic)


def generate(b: Bufferizer, op: tensor.GenerateOp) -> None:
    target, sizes = _alloc_result(b, op.result.type, list(op.dynamic_extents))
    _fill_with_body(b, target, sizes, op.body.block)
    b.bind(op.result, target)
    b.finish(op)


def pad(b: Bufferizer, op: tensor.PadOp) -> None:
    source = b.buffer(op.source)
    result_type = op.result.type
    low = _mixed(b, op.static_low.get_values(), list(op.low))
    high = _mixed(b, op.static_high.get_values(), list(op.high))
    src_shape = op.source.type.get_shape()
    src_sizes = [
        b.index(s) if s != DYNAMIC_INDEX else b.insert(memref.DimOp(source, b.index(i))).results[0]
        for i, s in enumerate(src_shape)
    ]
    sizes: list[SSAValue] = []
    dynamic: list[SSAValue] = []
    for i, size in enumerate(result_type.get_shape()):
        if size == DYNAMIC_INDEX:
            total = b.insert(arith.AddiOp(src_sizes[i], low[i])).results[0]
            total = b.insert(arith.AddiOp(total, high[i])).results[0]
            dynamic.append(total)
            sizes.append(total)
        else:
            sizes.append(b.index(size))
    target = b.alloc(identity_memref(result_type), dynamic)  # type: ignore[arg-type]
    _fill_with_body(b, target, sizes, op.region.block)
    strides = [1] * len(src_shape)
    offsets = list(op.static_low.get_values())
    static_sizes = list(src_shape)
    view_type = subview_type(target.type, offsets, static_sizes, strides, set())  # type: ignore[arg-type]
    view = memref.SubviewOp(
        target, list(op.low), [s for s, n in zip(src_sizes, src_shape) if n == DYNAMIC_INDEX], [],
        offsets, static_sizes, strides, view_type,
    )
    b.copy(source, b.insert(view).results[0])
    b.bind(op.result, target)
    b.finish(op)


def concat(b: Bufferizer, op: tensor.ConcatOp) -> None:
    axis = op.dim.value.data
    result_type = op.result.type
    buffers = [b.buffer(v) for v in op.inputs]
    along = [b.insert(memref.DimOp(m, b.index(axis))).results[0] for m in buffers]
    dynamic: list[SSAValue] = []
    for i, size in enumerate(result_type.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        if i == axis:
            total = along[0]
            for extra in along[1:]:
                total = b.insert(arith.AddiOp(total, extra)).results[0]
            dynamic.append(total)
        else:
            dynamic.append(b.insert(memref.DimOp(buffers[0], b.index(i))).results[0])
    target = b.alloc(identity_memref(result_type), dynamic)  # type: ignore[arg-type]
    offset: SSAValue = b.index(0)
    rank_ = len(result_type.get_shape())
    for value, source, length in zip(op.inputs, buffers, along):
        shape = list(value.type.get_shape())
        offsets = [0] * rank_
        offsets[axis] = DYNAMIC_INDEX
        view_type = subview_type(target.type, offsets, shape, [1] * rank_, set())  # type: ignore[arg-type]
        dyn_sizes = [b.insert(memref.DimOp(source, b.index(i))).results[0]
                     for i, s in enumerate(shape) if s == DYNAMIC_INDEX]
        view = memref.SubviewOp(target, [offset], dyn_sizes, [], offsets, shape, [1] * rank_, view_type)
        b.copy(source, b.insert(view).results[0])
        offset = b.insert(arith.AddiOp(offset, length)).results[0]
    b.bind(op.result, target)
    b.finish(op)


def splat(b: Bufferizer, op: tensor.SplatOp) -> None:
    target, sizes = _alloc_result(b, op.result.type, list(op.dynamicSizes))
    loop_nest(b, sizes, lambda ivs: b.insert(memref.StoreOp.get(op.input, target, ivs)) and None)
    b.bind(op.result, target)
    b.finish(op)


def linalg_op(b: Bufferizer, op: Operation) -> None:
    """The same op on buffers: inputs read, tensor inits written (in place or not)."""
    inits = linalg_inits(op)
    operands: list[SSAValue] = []
    for i, value in enumerate(op.operands):
        if i in inits:
            operands.append(b.dest_buffer(op, i, reads=linalg_reads_init(op, i)))
        elif is_tensor(value):
            operands.append(b.buffer(value))
        else:
            operands.append(value)
    regions = [op.detach_region(r) for r in list(op.regions)]
    new = type(op).create(
        operands=operands,
        result_types=[r.type for r in op.results if not is_tensor(r)],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=regions,
    )
    b.insert(new)
    tensor_results = [r for r in op.results if is_tensor(r)]
    for result, index in zip(tensor_results, inits):
        b.bind(result, operands[index])
    saved = b.point
    for region in new.regions:  # the body may read other tensors (tensor.extract)
        for block in region.blocks:
            b.run_block(block)
    b.point = saved
    b.finish(op)


def to_tensor(b: Bufferizer, op: buf.ToTensorOp) -> None:
    b.bind(op.tensor, op.memref)
    b.finish(op)


def dealloc_tensor(b: Bufferizer, op: buf.DeallocTensorOp) -> None:
    b.insert(memref.DeallocOp.get(b.buffer(op.tensor)))
    b.finish(op)


def to_buffer(b: Bufferizer, op: buf.ToBufferOp) -> None:
    # a read-only to_buffer does not write; the walk copies it if need be
    written = b.analysis is not None and b.analysis.writes(op, 0)
    source = b.dest_buffer(op, 0, reads=True) if written else b.buffer(op.tensor)
    op.memref.replace_all_uses_with(b.cast(source, op.memref.type))
    b.finish(op)


def select(b: Bufferizer, op: arith.SelectOp) -> None:
    """A select of buffers; of different layouts, both cast to a dynamic one."""
    if is_tensor(op.cond):
        raise BufferizeError(op, "'arith.select' op only i1 condition values are supported")
    lhs, rhs = b.buffer(op.lhs), b.buffer(op.rhs)
    if lhs.type != rhs.type:
        target = dynamic_layout_memref(op.result.type)
        lhs, rhs = b.cast(lhs, target), b.cast(rhs, target)
    new = arith.SelectOp(op.cond, lhs, rhs)
    b.insert(new)
    b.bind(op.result, new.result)
    b.finish(op)


def materialize_in_destination(b: Bufferizer, op: buf.MaterializeInDestinationOp) -> None:
    """The source's contents copied into the destination's buffer (which the
    analysis keeps in place), the result's buffer."""
    dest = b.dest_buffer(op, 1, reads=False)
    b.copy(b.buffer(op.source), dest)
    if op.result is not None:
        b.bind(op.result, dest)
    b.finish(op)


TENSOR_RULES: dict[type[Operation], Rule] = {
    tensor.EmptyOp: empty,
    buf.AllocTensorOp: alloc_tensor,
    arith.ConstantOp: constant,
    tensor.ExtractOp: extract,
    tensor.InsertOp: insert,
    tensor.ExtractSliceOp: extract_slice,
    tensor.InsertSliceOp: insert_slice,
    tensor.CastOp: cast,
    tensor.DimOp: dim,
    tensor.RankOp: rank,
    tensor.ExpandShapeOp: expand_shape,
    tensor.CollapseShapeOp: collapse_shape,
    tensor.FromElementsOp: from_elements,
    tensor.GenerateOp: generate,
    tensor.PadOp: pad,
    tensor.ConcatOp: concat,
    tensor.SplatOp: splat,
    buf.ToTensorOp: to_tensor,
    buf.ToBufferOp: to_buffer,
    buf.DeallocTensorOp: dealloc_tensor,
    buf.MaterializeInDestinationOp: materialize_in_destination,
    arith.SelectOp: select,
    Operation: linalg_op,  # the fallback for linalg ops (looked up by name)
}
