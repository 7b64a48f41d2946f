"""``gpu-map-reductions-to-blocks``: launch a parallel loop of reductions
along contiguous rows with one thread block per result, its threads sharing
the row and combining their partial results with ``gpu.all_reduce``.

The loop it rewrites is what ``convert-linalg-to-parallel-loops`` makes of a
reduction over the innermost dimension (a row sum, max or norm)::

    scf.parallel (%i) = ... {
      scf.for %j = %lo to %hi step %s {
        %x = <pure ops and loads at [..., %j]>
        %acc = memref.load %out[%i]
        %new = arith.addf %x, %acc        // a combiner gpu.all_reduce has
        memref.store %new, %out[%i]
      }
    }

It becomes a ``gpu.launch`` with a block per ``%i`` (up to three parallel
dimensions, the innermost on x) and ``threads`` threads (fewer, a power of
two, for a shorter static row): thread ``t`` combines elements ``t, t +
threads, ...`` of the row, so neighbouring threads read neighbouring
elements, starting from the combiner's identity; ``gpu.all_reduce uniform``
combines the threads' results (``convert-gpu-to-nvvm`` lowers it to warp
shuffles and workgroup memory), and thread 0 combines that with the value
already in ``%out`` and stores it. Floating-point sums are reassociated, as
on any GPU.

Left for the one-thread-per-result mapping: reductions whose row is a
constant shorter than ``min-row``, rows that are not the loads' last index
(column reductions read coalesced with a thread per column), loops with
other effects, results that are not one combiner of the accumulator and a
value computed from the row, loops of rank above 3, and loops whose outer
dimensions have more results than a grid has blocks along y or z.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IndexType, IntegerAttr, IntegerType
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from mlkit.diagnostics import UNKNOWN, DiagnosticError
from mlkit.dialects import arith as marith
from mlkit.dialects import scf as mscf
from mlkit.dialects.gpu import kernel as gpu_kernel
from mlkit.dialects.gpu import ops as gpu_ops
from mlkit.dialects.gpu.attrs import AllReduceOperation, AllReduceOperationAttr

K = AllReduceOperation
_KINDS = {
    "arith.addf": K.ADD, "arith.addi": K.ADD, "arith.mulf": K.MUL, "arith.muli": K.MUL,
    "arith.maximumf": K.MAXIMUMF, "arith.minimumf": K.MINIMUMF, "arith.maxnumf": K.MAXNUMF,
    "arith.minnumf": K.MINNUMF, "arith.maxsi": K.MAXSI, "arith.minsi": K.MINSI,
    "arith.maxui": K.MAXUI, "arith.minui": K.MINUI, "arith.andi": K.AND, "arith.ori": K.OR,
    "arith.xori": K.XOR,
}  # fmt: skip
_NO_OVERFLOW = marith.IntegerOverflowAttr("none")
MAX_GRID_YZ = 65535  # blocks along y and z (x has 2**31 - 1)


def identity(kind: AllReduceOperation, type_: Attribute) -> xarith.ConstantOp:
    """The value that ``kind`` leaves any value of ``type_`` unchanged with."""
    if isinstance(type_, AnyFloat):
        value = {K.ADD: -0.0, K.MUL: 1.0, K.MAXIMUMF: -math.inf, K.MAXNUMF: -math.inf,
                 K.MINIMUMF: math.inf, K.MINNUMF: math.inf}[kind]  # fmt: skip
        return xarith.ConstantOp(FloatAttr(value, type_))
    assert isinstance(type_, IntegerType)
    width = type_.width.data
    value = {K.ADD: 0, K.MUL: 1, K.OR: 0, K.XOR: 0, K.MAXUI: 0, K.AND: -1, K.MINUI: -1,
             K.MAXSI: -(1 << (width - 1)), K.MINSI: (1 << (width - 1)) - 1}[kind]  # fmt: skip
    return xarith.ConstantOp(IntegerAttr(value, type_))


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, xarith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _static_trips(lb: SSAValue, ub: SSAValue, step: SSAValue) -> int | None:
    """``(ub - lb) ceildiv step`` where all three are constants."""
    low, high, st = (_constant(v) for v in (lb, ub, step))
    if low is None or high is None or not st:
        return None
    return max(0, -(-(high - low) // st))


def _outside(value: SSAValue, op: Operation) -> bool:
    """Whether ``value`` is defined outside ``op``."""
    owner = value.owner
    owner_op = owner.parent_op() if isinstance(owner, Block) else owner
    return owner_op is None or not op.is_ancestor(owner_op)


@dataclass
class _Reduction:
    """A matched loop: the reduction loop in it, its accumulator's load, the
    combiner and the store, and the combiner's other operand."""

    loop: scf.ParallelOp
    inner: scf.ForOp
    load: memref.LoadOp
    combiner: Operation
    store: memref.StoreOp
    value: SSAValue
    kind: AllReduceOperation


def match(loop: scf.ParallelOp, min_row: int) -> _Reduction | None:
    """``loop`` as a reduction along rows (see the module's docstring), or None."""
    if loop.initVals or "mapping" in loop.attributes or not 1 <= len(loop.lowerBound) <= 3:
        return None
    outer = list(zip(loop.lowerBound, loop.upperBound, loop.step))[:-1]
    if any((_static_trips(*b) or 0) > MAX_GRID_YZ for b in outer):
        return None  # more blocks than a grid has along y or z
    body = [op for op in loop.body.block.ops if not isinstance(op, scf.ReduceOp)]
    if not body or not isinstance(inner := body[-1], scf.ForOp) or inner.iter_args:
        return None
    if any(op.regions or not is_side_effect_free(op) for op in body[:-1]):
        return None
    if not all(_outside(v, loop) for v in (inner.lb, inner.ub, inner.step)):
        return None
    row = _static_trips(inner.lb, inner.ub, inner.step)
    if row is not None and row < min_row:
        return None
    ops = [op for op in inner.body.block.ops if not isinstance(op, scf.YieldOp)]
    stores = [op for op in ops if isinstance(op, memref.StoreOp)]
    if len(stores) != 1 or stores[0] is not ops[-1]:
        return None
    store = stores[0]
    combiner = store.value.owner
    kind = _KINDS.get(getattr(combiner, "name", ""))
    if not isinstance(combiner, Operation) or kind is None or combiner.parent_block() is not inner.body.block:
        return None
    if len(combiner.operands) != 2 or not combiner.results[0].has_one_use():
        return None
    loads = [v.owner for v in combiner.operands if isinstance(v.owner, memref.LoadOp)
             and v.owner.memref == store.memref and list(v.owner.indices) == list(store.indices)]  # fmt: skip
    if len(loads) != 1 or combiner.operands[0] is combiner.operands[1]:
        return None
    acc_load = loads[0]
    if not acc_load.res.has_one_use() or not all(_outside(v, inner) for v in store.indices):
        return None
    value = next(v for v in combiner.operands if v is not acc_load.res)
    iv = inner.body.block.args[0]
    row_last = False
    for op in ops:
        if op in (acc_load, combiner, store):
            continue
        if op.regions or not (is_side_effect_free(op) or isinstance(op, memref.LoadOp)):
            return None
        if isinstance(op, memref.LoadOp):
            if op.memref == store.memref:
                return None
            indices = list(op.indices)
            if iv in indices[:-1]:
                return None  # not along a row: a thread per result reads coalesced
            row_last |= bool(indices) and indices[-1] is iv
    if not row_last:
        return None
    return _Reduction(loop, inner, acc_load, combiner, store, value, kind)


def _trip_count(lb: SSAValue, ub: SSAValue, step: SSAValue, at: InsertPoint) -> SSAValue:
    """``(ub - lb) ceildiv step``, made before ``at`` (a constant where it can be)."""
    trips = _static_trips(lb, ub, step)
    if trips is not None:
        ops: list[Operation] = [xarith.ConstantOp(IntegerAttr(trips, IndexType()))]
    else:
        diff = marith.SubiOp(ub, lb, overflow=_NO_OVERFLOW)
        ops = [diff, xarith.CeilDivSIOp(diff, step)]
    Rewriter.insert_op(ops, at)
    return ops[-1].results[0]


def rewrite(r: _Reduction, threads: int) -> None:
    """Replace ``r.loop`` by its launch."""
    loop, inner = r.loop, r.inner
    before = InsertPoint.before(loop)
    rank = len(loop.lowerBound)
    rows = [_trip_count(*b, before) for b in zip(loop.lowerBound, loop.upperBound, loop.step)]
    row = _static_trips(inner.lb, inner.ub, inner.step)
    if row is not None:
        threads = max(32, min(threads, 1 << (max(row, 1) - 1).bit_length()))
    one = xarith.ConstantOp(IntegerAttr(1, IndexType()))
    size = xarith.ConstantOp(IntegerAttr(threads, IndexType()))
    Rewriter.insert_op([one, size], before)
    grid = [*reversed(rows), *[one.result] * (3 - rank)]  # the innermost dimension on x
    body = Block(arg_types=[IndexType()] * 12)
    launch = gpu_kernel.LaunchOp.build(
        operands=[[], *grid, size.result, one.result, one.result, [], [], [], [], []],
        regions=[Region(body)],
        result_types=[[]],
    )
    block_ids, tid, block_x = body.args[0:3], body.args[3], body.args[9]
    mapping: dict[SSAValue, SSAValue] = {}
    for d, (iv, low, st) in enumerate(zip(loop.body.block.args, loop.lowerBound, loop.step)):
        scaled = marith.MuliOp(block_ids[rank - 1 - d], st, overflow=_NO_OVERFLOW)
        index = marith.AddiOp(scaled, low, overflow=_NO_OVERFLOW)
        body.add_ops([scaled, index])
        mapping[iv] = index.result
    for op in loop.body.block.ops:
        if op is not inner and not isinstance(op, scf.ReduceOp):
            body.add_op(op.clone(value_mapper=mapping))

    # each thread's part of the row: elements tid, tid + threads, ...
    offset = marith.MuliOp(tid, inner.step, overflow=_NO_OVERFLOW)
    start = marith.AddiOp(inner.lb, offset, overflow=_NO_OVERFLOW)
    stride = marith.MuliOp(inner.step, block_x, overflow=_NO_OVERFLOW)
    init = identity(r.kind, r.value.type)
    part = Block(arg_types=[IndexType(), r.value.type])
    partial = mscf.ForOp(start, inner.ub, stride, [init], Region(part))
    body.add_ops([offset, start, stride, init, partial])
    mapping[inner.body.block.args[0]] = part.args[0]
    for op in inner.body.block.ops:
        if op not in (r.load, r.combiner, r.store) and not isinstance(op, scf.YieldOp):
            part.add_op(op.clone(value_mapper=mapping))
    combined = r.combiner.clone(value_mapper={**mapping, r.load.res: part.args[1]})
    part.add_ops([combined, scf.YieldOp(combined.results[0])])

    total = gpu_ops.AllReduceOp.create(
        operands=[partial.results[0]],
        result_types=[r.value.type],
        properties={"op": AllReduceOperationAttr(r.kind), "uniform": UnitAttr()},
        regions=[Region()],
    )
    zero = xarith.ConstantOp(IntegerAttr(0, IndexType()))
    first = marith.CmpiOp(tid, zero, "eq")
    indices = [mapping.get(v, v) for v in r.store.indices]
    old = memref.LoadOp.get(mapping.get(r.store.memref, r.store.memref), indices)
    new = r.combiner.clone(value_mapper={r.load.res: old.res, r.value: total.results[0]})
    write = memref.StoreOp.get(new.results[0], mapping.get(r.store.memref, r.store.memref), indices)
    then = Block([old, new, write, scf.YieldOp()])
    body.add_ops([total, zero, first, mscf.IfOp(first, [], Region(then)), gpu_kernel.TerminatorOp()])
    Rewriter.insert_op(launch, before)
    Rewriter.erase_op(loop)


@dataclass(frozen=True)
class GpuMapReductionsToBlocks(ModulePass):
    """Launch parallel loops of row reductions with a thread block per result, combined by gpu.all_reduce"""

    name = "gpu-map-reductions-to-blocks"

    threads: int = 256
    min_row: int = 128

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        if not 1 <= self.threads <= 1024:
            raise DiagnosticError.at(UNKNOWN, f"threads: {self.threads} threads per block, a "
                                     "GPU runs 1 to 1024")  # fmt: skip
        candidates = [
            o for o in op.walk()
            if isinstance(o, scf.ParallelOp)
            and not any(isinstance(p, scf.ParallelOp | gpu_kernel.LaunchOp) for p in _parents(o))
        ]  # fmt: skip
        for loop in candidates:
            found = match(loop, self.min_row)
            if found is not None:
                rewrite(found, self.threads)


def _parents(op: Operation):  # noqa: ANN202 - a generator of ops
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()
