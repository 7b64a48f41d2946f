"""one-shot-bufferize rules for func and scf ops that carry tensors (``scf.forall``
with its shared outputs and ``parallel_insert_slice`` terminators too).

Loop-carried buffers have an identity or a fully dynamic layout; a yielded
buffer of another type is cast, or copied into a fresh identity buffer when a
cast could fail. (Without ``allow-return-allocs-from-loops`` the analysis has
already rejected loops that yield values not equivalent to their region
arguments, as upstream does.) The ``func`` rules apply where function
boundaries are bufferized.
"""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseArrayBase, DictionaryAttr, FunctionType
from xdsl.dialects.builtin import i32
from xdsl.dialects.builtin import MemRefType, TensorType, UnrankedMemRefType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint

from mlkit.dialects import bufferization as buf
from mlkit.dialects import tensor
from mlkit.dialects.scf import ForallOp, InParallelOp

from mlkit.passes.transforms.bufferization.core import Bufferizer, BufferizeError, Rule
from mlkit.passes.transforms.bufferization.operands import WRITABLE_ATTR, is_tensor, is_tensor_type
from mlkit.passes.transforms.bufferization.semantics import owner_of
from mlkit.passes.transforms.bufferization.tensor import parallel_insert_slice
from mlkit.passes.transforms.bufferization.types import dynamic_layout_memref, is_identity, tensor_of


def _iter_type(b: Bufferizer, value: SSAValue) -> SSAValue:
    """An identity or fully dynamic layout for a loop-carried buffer."""
    t = value.type
    if isinstance(t, UnrankedMemRefType) or is_identity(t):
        return value
    return b.cast(value, dynamic_layout_memref(t))


def _retype_args(b: Bufferizer, block: Block, types: dict[int, Attribute]) -> None:
    """Give tensor block arguments buffer types: each new argument goes just
    before the old one, which stays (and is erased) when the walk ends."""
    for index, new_type in sorted(types.items(), reverse=True):
        old = block.args[index]
        new = block.insert_arg(new_type, index)
        b.bind(old, new)
        b.dead_args.append(old)


def _run_region_block(b: Bufferizer, block: Block) -> None:
    saved = b.point
    b.run_block(block)
    b.point = saved


def _run_regions(b: Bufferizer, op: Operation) -> None:
    """Bufferize inside ``op``, which itself carries no tensors."""
    for region in op.regions:
        for blk in region.blocks:
            _run_region_block(b, blk)


# -- func -------------------------------------------------------------------------

LAYOUT_ATTR = "bufferization.buffer_layout"


def func_op(b: Bufferizer, op: func.FuncOp) -> None:
    """A function with its boundary bufferized (without that option function
    ops are not bufferizable, and only their bodies are bufferized)."""
    inputs = list(op.function_type.inputs.data)
    outputs = list(op.function_type.outputs.data)
    new_inputs = [_arg_buffer_type(b, op, i, t) if is_tensor_type(t) else t
                  for i, t in enumerate(inputs)]
    _drop_bufferization_arg_attrs(op)
    if not op.body.blocks:
        new_outputs = [b.buffer_type(t, True) if is_tensor_type(t) else t for t in outputs]
        op.function_type = FunctionType.from_lists(new_inputs, new_outputs)
        b.signatures[op.sym_name.data] = (new_inputs, new_outputs)
        return
    entry = op.body.blocks.first
    assert entry is not None
    _retype_args(b, entry, {i: t for i, t in enumerate(new_inputs) if is_tensor_type(inputs[i])})
    returns: list[func.ReturnOp] = []
    b.returns = returns  # type: ignore[attr-defined]
    for blk in op.body.blocks:
        _run_region_block(b, blk)
    new_outputs = list(outputs)
    for k, t in enumerate(outputs):
        if not is_tensor_type(t):
            continue
        types = {r.operands[k].type for r in returns}
        if b.options.infer_layout:
            new_outputs[k] = types.pop() if len(types) == 1 else b.buffer_type(t, True)
        else:
            new_outputs[k] = b.buffer_type(t, False)
    for ret in returns:
        b.point = InsertPoint.before(ret)
        for k, value in enumerate(list(ret.operands)):
            if value.type != new_outputs[k]:
                ret.operands[k] = b.cast(value, new_outputs[k])
    op.function_type = FunctionType.from_lists(new_inputs, new_outputs)
    b.signatures[op.sym_name.data] = (new_inputs, new_outputs)


def _arg_buffer_type(b: Bufferizer, op: func.FuncOp, i: int, t: Attribute) -> Attribute:
    """The buffer type of argument ``i``: ``bufferization.buffer_layout`` on
    the argument chooses its layout, as upstream."""
    layout = op.arg_attrs.data[i].data.get(LAYOUT_ATTR) if op.arg_attrs is not None else None
    if isinstance(layout, AffineMapAttr) and isinstance(t, TensorType):
        if layout.data == AffineMap.identity(len(t.get_shape())):
            return MemRefType(t.element_type, t.get_shape())
        return MemRefType(t.element_type, t.get_shape(), layout)
    return b.buffer_type(t, True)


def _drop_bufferization_arg_attrs(op: func.FuncOp) -> None:
    """Upstream drops these argument attributes once the boundary is buffers."""
    if op.arg_attrs is None:
        return
    op.arg_attrs = ArrayAttr([
        DictionaryAttr({k: v for k, v in d.data.items() if k not in (WRITABLE_ATTR, LAYOUT_ATTR)})
        for d in op.arg_attrs.data
    ])


def return_op(b: Bufferizer, op: func.ReturnOp) -> None:
    if not any(is_tensor(v) for v in op.operands):
        b.returns.append(op)  # type: ignore[attr-defined]
        return
    new = func.ReturnOp(*[_returned_buffer(b, v) if is_tensor(v) else v for v in op.operands])
    b.insert(new)
    b.returns.append(new)  # type: ignore[attr-defined]
    b.finish(op)


def _returned_buffer(b: Bufferizer, value: SSAValue) -> SSAValue:
    """The buffer a return passes on; for a tensor of an op that is not
    bufferized, a to_buffer of the function's buffer type (as upstream makes
    it, right before the return)."""
    target = None if b.options.infer_layout else b.buffer_type(value.type, False)
    if value in b.buffers or b.analysis is None or b.analysis.model(owner_of(value)) is not None:
        buffer = b.buffer(value)
        return buffer if target is None else b.cast(buffer, target)
    to_buf = buf.ToBufferOp(value, target or b.buffer_type(value.type, True))
    return b.insert(to_buf).results[0]


def call_op(b: Bufferizer, op: func.CallOp) -> None:
    if not any(is_tensor(v) for v in (*op.arguments, *op.results)):
        return
    name = op.callee.root_reference.data
    if name not in b.signatures:
        raise BufferizeError(op, "cannot bufferize a call to a function that is not yet bufferized (recursion)")
    inputs, outputs = b.signatures[name]
    assert b.analysis is not None
    args: list[SSAValue] = []
    for i, value in enumerate(op.arguments):
        if not is_tensor(value):
            args.append(value)
            continue
        written = b.analysis.writes(op, i)
        source = b.dest_buffer(op, i, reads=True) if written else b.buffer(value)
        args.append(b.cast(source, inputs[i]))
    new = func.CallOp(op.callee, args, outputs)
    b.insert(new)
    b.replace_results(op, new)


# -- scf --------------------------------------------------------------------------


def for_op(b: Bufferizer, op: scf.ForOp) -> None:
    if not any(is_tensor(r) for r in op.results):
        _run_regions(b, op)
        return
    inits: list[SSAValue] = []
    for k, value in enumerate(op.iter_args):
        if is_tensor(value):
            inits.append(_iter_type(b, b.dest_buffer(op, 3 + k, reads=True)))
        else:
            inits.append(value)
    region = op.detach_region(op.body)
    block = region.block
    _retype_args(b, block, {k + 1: inits[k].type for k, v in enumerate(op.iter_args) if is_tensor(v)})
    new = scf.ForOp(op.lb, op.ub, op.step, inits, region)
    new.attributes.update(op.attributes)
    b.insert(new)
    _run_region_block(b, block)
    b.replace_results(op, new)


def if_op(b: Bufferizer, op: scf.IfOp) -> None:
    if not any(is_tensor(r) for r in op.results):
        _run_regions(b, op)
        return
    for region in op.regions:
        _run_region_block(b, region.block)
    # The new yield precedes the old one, which goes when the walk ends.
    yields = [
        next(y for y in region.block.ops if isinstance(y, scf.YieldOp)) for region in op.regions
    ]
    types: list[Attribute] = []
    for k, result in enumerate(op.results):
        found = {y.operands[k].type for y in yields}  # type: ignore[union-attr]
        if len(found) == 1:
            types.append(found.pop())
        else:
            types.append(dynamic_layout_memref(tensor_of(next(iter(found)))))
    for y in yields:
        assert y is not None
        b.point = InsertPoint.before(y)
        for k, value in enumerate(list(y.operands)):
            if value.type != types[k]:
                y.operands[k] = b.cast(value, types[k])
    b.point = InsertPoint.before(op)
    regions = [op.detach_region(r) for r in list(op.regions)]
    new = scf.IfOp(op.cond, types, regions[0], regions[1])
    new.attributes.update(op.attributes)
    b.insert(new)
    b.replace_results(op, new)


def while_op(b: Bufferizer, op: scf.WhileOp) -> None:
    if not any(is_tensor(v) for v in (*op.arguments, *op.results)):
        _run_regions(b, op)
        return
    inits = [
        _iter_type(b, b.dest_buffer(op, k, reads=True)) if is_tensor(v) else v
        for k, v in enumerate(op.arguments)
    ]
    before_region, after_region = op.before_region, op.after_region
    before, after = op.detach_region(before_region), op.detach_region(after_region)
    _retype_args(b, before.block, {k: v.type for k, v in enumerate(inits) if is_tensor(op.arguments[k])})
    result_types: list[Attribute] = []
    for k, result in enumerate(op.results):
        if not is_tensor(result):
            result_types.append(result.type)
        elif k < len(inits) and op.arguments[k].type == result.type:
            result_types.append(inits[k].type)
        else:
            result_types.append(b.buffer_type(result.type, False))
    _retype_args(b, after.block, {k: t for k, t in enumerate(result_types) if is_tensor(op.results[k])})
    b.while_types = result_types  # type: ignore[attr-defined]
    new = scf.WhileOp(inits, result_types, before, after)
    b.insert(new)
    _run_region_block(b, before.block)
    _run_region_block(b, after.block)
    b.replace_results(op, new)


def forall_op(b: Bufferizer, op: ForallOp) -> None:
    """The loop without shared outputs: each output's buffer (a copy where the
    analysis puts it out of place) stands for its region argument inside and
    for its result after the loop. Bounds, mapping and attributes stay."""
    if not op.outputs:
        _run_regions(b, op)
        return
    rank = len(op.staticUpperBound.get_values())
    buffers = [b.dest_buffer(op, len(op.operands) - len(op.outputs) + k, reads=True)
               for k in range(len(op.outputs))]
    region = op.detach_region(op.body)
    for arg, buffer in zip(region.block.args[rank:], buffers):
        b.bind(arg, buffer)
        b.dead_args.append(arg)
    bounds = (len(op.dynamicLowerBound), len(op.dynamicUpperBound), len(op.dynamicStep))
    properties = dict(op.properties)
    properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [*bounds, 0])
    new = ForallOp.create(operands=list(op.operands[:sum(bounds)]), properties=properties,
                          attributes=dict(op.attributes), regions=[region])
    b.insert(new)
    _run_region_block(b, region.block)
    for result, buffer in zip(op.results, buffers):
        b.bind(result, buffer)
    b.finish(op)


def in_parallel_op(b: Bufferizer, op: InParallelOp) -> None:
    """Each ``parallel_insert_slice`` becomes a copy into its part of the
    shared output, just before the terminator, which ends empty (upstream's
    forall and parallel_insert_slice rules). What upstream's verifier rejects
    here is an error."""
    forall = op.parent_op()
    assert isinstance(forall, ForallOp)
    outs = forall.body.block.args[len(forall.staticUpperBound.get_values()):]
    for inner in list(op.region.block.ops):
        if not isinstance(inner, tensor.ParallelInsertSliceOp):
            raise BufferizeError(op, f"'{op.name}' op expected only ParallelCombiningOpInterface ops")
        if inner.dest not in outs:
            raise BufferizeError(inner, f"'{inner.name}' op may only insert into an output block argument")
        parallel_insert_slice(b, inner)


def _carried(b: Bufferizer, op: Operation, values: list[SSAValue], types: list[Attribute]) -> list[SSAValue]:
    return [b.cast(b.buffer(v), t) if is_tensor(v) else v for v, t in zip(values, types)]


def yield_op(b: Bufferizer, op: scf.YieldOp) -> None:
    parent = op.parent_op()
    if not any(is_tensor(v) for v in op.operands):
        return
    if isinstance(parent, scf.IfOp):
        new = scf.YieldOp(*[b.buffer(v) if is_tensor(v) else v for v in op.operands])
    elif isinstance(parent, scf.ForOp):
        # the loop's operands, not its region's arguments: until the walk ends the
        # old tensor arguments sit among the new ones (_retype_args)
        types = [v.type for v in parent.iter_args]
        new = scf.YieldOp(*_carried(b, op, list(op.operands), types))
    elif isinstance(parent, scf.WhileOp):
        types = [v.type for v in parent.arguments]
        new = scf.YieldOp(*_carried(b, op, list(op.operands), types))
    else:
        raise BufferizeError(op, "op was not bufferized")
    b.insert(new)
    b.finish(op)


def condition_op(b: Bufferizer, op: scf.ConditionOp) -> None:
    if not any(is_tensor(v) for v in op.args):
        return
    types = b.while_types  # type: ignore[attr-defined]
    new = scf.ConditionOp(op.condition, *_carried(b, op, list(op.args), types))
    b.insert(new)
    b.finish(op)


CONTROL_RULES: dict[type[Operation], Rule] = {
    func.FuncOp: func_op,
    func.ReturnOp: return_op,
    func.CallOp: call_op,
    scf.ForOp: for_op,
    scf.IfOp: if_op,
    scf.WhileOp: while_op,
    scf.YieldOp: yield_op,
    scf.ConditionOp: condition_op,
    ForallOp: forall_op,
    InParallelOp: in_parallel_op,
}
