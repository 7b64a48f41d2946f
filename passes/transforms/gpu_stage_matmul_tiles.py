"""``gpu-stage-matmul-tiles``: launch each matmul on buffers as a kernel whose
thread blocks stage tiles of A and B in shared (workgroup) memory.

Upstream has no single pass for this (its GPU matmuls go through the
transform dialect or a vendor library); this one makes the classic kernel.
A ``linalg.matmul`` on memrefs, or a ``linalg.generic`` of the same shape
(maps ``(i, k)``, ``(k, j)``, ``(i, j)``, iterators parallel, parallel,
reduction, body ``acc + a * b`` on floats), becomes a ``gpu.launch`` with a
block per ``tile-m`` x ``tile-n`` tile of C and ``block-y`` x ``block-x``
threads. The block walks K in steps of ``tile-k``:

* its threads load the ``tile-m x tile-k`` tile of A and the ``tile-k x
  tile-n`` tile of B into two workgroup attributions of the launch
  (``memref<..., #gpu.address_space<workgroup>>``), consecutive threads
  reading consecutive elements of a row; elements outside A or B load as
  zero, so no size has to divide by a tile;
* ``gpu.barrier``;
* each thread accumulates its ``tile-m / block-y`` x ``tile-n / block-x``
  register tile (carried by the loops, rows ``ty + block-y * r`` and
  columns ``tx + block-x * c`` of the block's tile, so a warp reads a row of
  B's tile without bank conflicts and A's as a broadcast) with ``math.fma``;
* ``gpu.barrier`` before the next tiles overwrite these.

Then each thread adds its register tile to C where the element is inside C.
The sums are reassociated, as any GPU matmul's are. Matmuls of other element
types, with casts, of other ranks or on tensors are left as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects import math, memref, scf
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IndexType, IntegerAttr, MemRefType
from xdsl.dialects.builtin import ModuleOp, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.diagnostics import UNKNOWN, DiagnosticError
from mlkit.dialects import arith as marith
from mlkit.dialects import scf as mscf
from mlkit.dialects.gpu import kernel as gpu_kernel
from mlkit.dialects.gpu import ops as gpu_ops
from mlkit.dialects.gpu.attrs import AddressSpace, AddressSpaceAttr
from mlkit.passes.transforms.linalg_generic_utils import is_multiply_add_body

_NO_OVERFLOW = marith.IntegerOverflowAttr("none")
_MATMUL_MAPS = [
    AffineMap.from_callable(lambda i, j, k: (i, k)),
    AffineMap.from_callable(lambda i, j, k: (k, j)),
    AffineMap.from_callable(lambda i, j, k: (i, j)),
]


@dataclass
class _Matmul:
    op: Operation
    a: SSAValue
    b: SSAValue
    c: SSAValue
    element: AnyFloat


def match(op: Operation) -> _Matmul | None:
    """``op`` as a float matmul on 2-D memrefs, or None."""
    if op.name not in ("linalg.matmul", "linalg.generic"):
        return None
    ins, outs = list(op.inputs), list(op.outputs)  # type: ignore[attr-defined]
    if len(ins) != 2 or len(outs) != 1 or op.results:
        return None
    if not all(isinstance(v.type, MemRefType) and len(v.type.shape) == 2 for v in (*ins, *outs)):
        return None
    element = outs[0].type.element_type  # type: ignore[union-attr]
    if not isinstance(element, AnyFloat) or any(v.type.element_type != element for v in ins):  # type: ignore[union-attr]
        return None
    maps = [m.data for m in op.get_indexing_maps()]  # type: ignore[attr-defined]
    if op.name == "linalg.matmul":  # a cast does nothing where all types are the same
        return _Matmul(op, ins[0], ins[1], outs[0], element) if maps == _MATMUL_MAPS else None
    iterators = [str(t.data) for t in op.get_iterator_types()]  # type: ignore[attr-defined]
    if maps != _MATMUL_MAPS or [s.lower() for s in iterators] != ["parallel", "parallel", "reduction"]:
        return None
    if not is_multiply_add_body(op.regions[0]):
        return None
    return _Matmul(op, ins[0], ins[1], outs[0], element)


def _index(value: int) -> xarith.ConstantOp:
    return xarith.ConstantOp(IntegerAttr(value, IndexType()))


class _Emitter:
    """Appends index arithmetic to a block."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self.constants: dict[int, SSAValue] = {}

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def const(self, value: int) -> SSAValue:
        if value not in self.constants:
            self.constants[value] = self.add(_index(value))
        return self.constants[value]

    def mul(self, x: SSAValue, y: SSAValue | int) -> SSAValue:
        y = self.const(y) if isinstance(y, int) else y
        return self.add(marith.MuliOp(x, y, overflow=_NO_OVERFLOW))

    def plus(self, x: SSAValue, y: SSAValue | int) -> SSAValue:
        y = self.const(y) if isinstance(y, int) else y
        return self.add(marith.AddiOp(x, y, overflow=_NO_OVERFLOW))

    def less(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.add(marith.CmpiOp(x, y, "ult"))

    def both(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.add(xarith.AndIOp(x, y))


@dataclass(frozen=True)
class _Tiles:
    m: int
    n: int
    k: int
    x: int
    y: int


def _size(value: SSAValue, dim: int, before: InsertPoint) -> SSAValue:
    """The size of ``value``'s dimension ``dim``, made before ``before``."""
    shape = value.type.shape.data  # type: ignore[union-attr]
    size = shape[dim].data
    if size >= 0:
        op: Operation = _index(size)
    else:
        index = _index(dim)
        Rewriter.insert_op(index, before)
        op = memref.DimOp(value, index)
    Rewriter.insert_op(op, before)
    return op.results[0]


def _ceil_div(size: SSAValue, tile: SSAValue, before: InsertPoint) -> SSAValue:
    """``size ceildiv tile``, a constant where both are (so is the grid)."""
    sizes = [v.owner.value.value.data for v in (size, tile)
             if isinstance(v.owner, xarith.ConstantOp) and isinstance(v.owner.value, IntegerAttr)]  # fmt: skip
    op: Operation = _index(-(-sizes[0] // sizes[1])) if len(sizes) == 2 else xarith.CeilDivSIOp(size, tile)
    Rewriter.insert_op(op, before)
    return op.results[0]


def _cooperative_load(
    e: _Emitter,
    source: SSAValue,
    tile: SSAValue,
    shape: tuple[int, int],
    origin: tuple[SSAValue, SSAValue],
    bounds: tuple[SSAValue, SSAValue],
    tid: SSAValue,
    threads: int,
    zero: SSAValue,
) -> None:
    """The block's threads copy ``source[origin + (r, c)]`` to ``tile[r, c]``
    for the ``shape`` of the tile, thread ``t`` elements ``t, t + threads, ...``
    of it in row-major order; zero outside ``bounds``."""
    rows, cols = shape
    for part in range(rows * cols // threads):
        element = e.plus(tid, part * threads) if part else tid
        r = e.add(marith.DivUIOp(element, e.const(cols)))
        c = e.add(xarith.RemUIOp(element, e.const(cols)))
        i, j = e.plus(origin[0], r), e.plus(origin[1], c)
        inside = e.both(e.less(i, bounds[0]), e.less(j, bounds[1]))
        load = memref.LoadOp.get(source, [i, j])
        guarded = mscf.IfOp(inside, [zero.type], [load, scf.YieldOp(load.res)], [scf.YieldOp(zero)])
        e.add(guarded)
        e.block.add_op(memref.StoreOp.get(guarded.results[0], tile, [r, c]))


def rewrite(mm: _Matmul, t: _Tiles) -> None:
    """Replace ``mm.op`` by its launch."""
    before = InsertPoint.before(mm.op)
    m_size, n_size = _size(mm.c, 0, before), _size(mm.c, 1, before)
    k_size = _size(mm.a, 1, before)
    grid_ops = [_index(t.n), _index(t.m), _index(1), _index(t.x), _index(t.y)]
    Rewriter.insert_op(grid_ops, before)
    grid_x = _ceil_div(n_size, grid_ops[0].result, before)
    grid_y = _ceil_div(m_size, grid_ops[1].result, before)
    one = grid_ops[2].result
    space = AddressSpaceAttr(AddressSpace.WORKGROUP)
    a_tile = MemRefType(mm.element, [t.m, t.k], memory_space=space)
    b_tile = MemRefType(mm.element, [t.k, t.n], memory_space=space)
    body = Block(arg_types=[IndexType()] * 12 + [a_tile, b_tile])
    launch = gpu_kernel.LaunchOp.build(
        operands=[[], grid_x, grid_y, one, grid_ops[3].result, grid_ops[4].result,
                  one, [], [], [], [], []],
        properties={"workgroup_attributions": IntegerAttr(2, i64)},
        regions=[Region(body)],
        result_types=[[]],
    )  # fmt: skip
    bx, by, tx, ty = body.args[0], body.args[1], body.args[3], body.args[4]
    a_shared, b_shared = body.args[12], body.args[13]
    e = _Emitter(body)
    row0, col0 = e.mul(by, t.m), e.mul(bx, t.n)
    tid = e.plus(e.mul(ty, t.x), tx)
    zero = e.add(xarith.ConstantOp(FloatAttr(0.0, mm.element)))
    rm, rn = t.m // t.y, t.n // t.x
    count = rm * rn
    rows = [ty if r == 0 else e.plus(ty, t.y * r) for r in range(rm)]
    cols = [tx if c == 0 else e.plus(tx, t.x * c) for c in range(rn)]

    # the loop over K, carrying the thread's register tile
    step = Block(arg_types=[IndexType(), *[mm.element] * count])
    k_loop = mscf.ForOp(e.const(0), k_size, e.const(t.k), [zero] * count, Region(step))
    e.block.add_op(k_loop)
    k0 = step.args[0]
    s = _Emitter(step)
    s.constants = dict(e.constants)  # constants of the launch body dominate the loop
    threads = t.x * t.y
    _cooperative_load(s, mm.a, a_shared, (t.m, t.k), (row0, k0), (m_size, k_size), tid, threads, zero)
    _cooperative_load(s, mm.b, b_shared, (t.k, t.n), (k0, col0), (k_size, n_size), tid, threads, zero)
    step.add_op(gpu_ops.BarrierOp.create())
    inner = Block(arg_types=[IndexType(), *[mm.element] * count])
    kk_loop = mscf.ForOp(s.const(0), s.const(t.k), s.const(1), list(step.args[1:]), Region(inner))
    step.add_op(kk_loop)
    step.add_op(gpu_ops.BarrierOp.create())
    step.add_op(scf.YieldOp(*kk_loop.results))

    kk = inner.args[0]
    ie = _Emitter(inner)
    ie.constants = dict(s.constants)
    a_values = [ie.add(memref.LoadOp.get(a_shared, [rows[r], kk])) for r in range(rm)]
    b_values = [ie.add(memref.LoadOp.get(b_shared, [kk, cols[c]])) for c in range(rn)]
    sums = [
        ie.add(math.FmaOp(a_values[r], b_values[c], inner.args[1 + r * rn + c]))
        for r in range(rm) for c in range(rn)
    ]  # fmt: skip
    inner.add_op(scf.YieldOp(*sums))
    # the register tile added to C, inside C's bounds
    for r in range(rm):
        i = e.plus(row0, rows[r])
        row_inside = e.less(i, m_size)
        for c in range(rn):
            j = e.plus(col0, cols[c])
            inside = e.both(row_inside, e.less(j, n_size))
            old = memref.LoadOp.get(mm.c, [i, j])
            new = xarith.AddfOp(old.res, k_loop.results[r * rn + c])
            write = memref.StoreOp.get(new.result, mm.c, [i, j])
            body.add_op(mscf.IfOp(inside, [], [old, new, write, scf.YieldOp()]))
    body.add_op(gpu_kernel.TerminatorOp())
    Rewriter.insert_op(launch, before)
    Rewriter.erase_op(mm.op)


@dataclass(frozen=True)
class GpuStageMatmulTiles(ModulePass):
    """Launch matmuls on buffers as kernels that stage tiles of A and B in shared memory"""

    name = "gpu-stage-matmul-tiles"

    tile_m: int = 64
    tile_n: int = 64
    tile_k: int = 16
    block_x: int = 16
    block_y: int = 16

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        t = _Tiles(self.tile_m, self.tile_n, self.tile_k, self.block_x, self.block_y)
        threads = t.x * t.y
        problems = [
            (not 1 <= threads <= 1024, f"{threads} threads per block, a GPU runs 1 to 1024"),
            (t.m % t.y or t.n % t.x, "tile-m and tile-n must be multiples of block-y and block-x"),
            ((t.m * t.k) % threads or (t.k * t.n) % threads,
             "each tile of A and B must have a multiple of block-x * block-y elements"),
        ]  # fmt: skip
        for bad, message in problems:
            if bad:
                raise DiagnosticError.at(UNKNOWN, f"gpu-stage-matmul-tiles: {message}")
        candidates = [
            o for o in op.walk()
            if not any(isinstance(p, gpu_kernel.LaunchOp | scf.ParallelOp) for p in _parents(o))
        ]  # fmt: skip
        for candidate in candidates:
            found = match(candidate)
            if found is not None:
                rewrite(found, t)


def _parents(op: Operation) -> Sequence[Operation]:
    parents: list[Operation] = []
    parent = op.parent_op()
    while parent is not None:
        parents.append(parent)
        parent = parent.parent_op()
    return parents
