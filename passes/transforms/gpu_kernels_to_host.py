"""``gpu-kernels-to-host``: add a host copy of every kernel of every
``gpu.module``, a function that runs the kernel's whole grid as loops, so a
program lowered for the GPU can be checked on the CPU
(:mod:`mlkit.api.cuda_host` compiles them and :mod:`mlkit.runtime.gpu_host`
calls them where the GPU would run the kernels). Upstream has no such pass;
the kernels themselves are left as they are.

The copy of ``gpu.func @k`` in ``gpu.module @m`` is ``func.func
@__mlkit_host.m.k(%grid_x, %grid_y, %grid_z, %block_x, %block_y, %block_z,
<k's arguments>)``, so after ``convert-func-to-llvm`` it takes the kernel's
parameters as the launch passes them. It loops over the blocks; inside, the
kernel's body runs in a loop nest over the threads. Block ids and the grid
and block sizes are the loops' variables and the function's arguments; pure
ops that depend only on them, constants and arguments run once per block.

Threads of a kernel with ``gpu.barrier`` run as loops between barriers:
the body is cut at each barrier, each piece runs for every thread before the
next starts, and a value a thread computes in one piece and uses in a later
one lives in a per-thread buffer. Barriers may sit inside ``scf.for`` and
``scf.if`` whose bounds and condition are the same for every thread of a
block (as a GPU requires); the values such a loop carries live in per-thread
buffers too. Workgroup memory is one buffer, which block after
block reuses; private memory one buffer reused thread after thread.

A ``gpu.all_reduce`` runs as a barrier does: after the piece before it has
run for every thread, the threads' values are combined in the order of
their linear ids, once per block.

Errors (at the op): warp-level ops (``gpu.shuffle``, subgroup reductions)
and other gpu ops without a host meaning, barriers under other
control flow or under a condition or bounds that a thread computes, loops
around barriers that carry memrefs, private memory or memref values that
live across a barrier, kernels of more than one block, and kernels that use
symbols of their ``gpu.module`` other than its ``memref.global`` ops (which
get host copies, ``@__mlkit_host.<module>.<global>``, that the kernels'
copies read).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.dialects.builtin import DYNAMIC_INDEX, NoneAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from mlkit.diagnostics.emit import emit_error
from mlkit.dialects import arith as marith
from mlkit.dialects import func
from mlkit.dialects import scf as mscf
from mlkit.dialects.gpu import func as gpu_func
from mlkit.dialects.gpu import module as gpu_module
from mlkit.dialects.gpu import ops as gpu_ops
from mlkit.dialects.gpu.attrs import AddressSpaceAttr
from mlkit.passes.conversion.gpu_all_reduce import combine, combine_body

HOST_KERNEL_PREFIX = "__mlkit_host."
GRID_PARAMETERS = 6  # grid x, y, z, then block x, y, z, before the kernel's own
WARP_SIZE = 32

_NO_OVERFLOW = marith.IntegerOverflowAttr("none")
_UNIFORM_QUERIES = {"gpu.block_id": "block", "gpu.grid_dim": "grid", "gpu.block_dim": "size"}
_THREAD_QUERIES = frozenset({"gpu.thread_id", "gpu.global_id", "gpu.lane_id", "gpu.subgroup_id"})
_QUERIES = frozenset({*_UNIFORM_QUERIES, *_THREAD_QUERIES, "gpu.num_subgroups",
                      "gpu.subgroup_size"})  # fmt: skip


def host_kernel_name(module: str, kernel: str) -> str:
    """The symbol of the host copy of kernel ``kernel`` of ``gpu.module @module``."""
    return f"{HOST_KERNEL_PREFIX}{module}.{kernel}"


def _index(value: int) -> xarith.ConstantOp:
    return xarith.ConstantOp(IntegerAttr(value, IndexType()))


def _host_type(type_: Attribute) -> Attribute:
    """``type_`` without a GPU address space (host memory has one)."""
    if isinstance(type_, MemRefType) and isinstance(type_.memory_space, AddressSpaceAttr):
        return MemRefType(type_.element_type, type_.get_shape(), type_.layout, NoneAttr())
    return type_


def _outside_operands(op: Operation) -> list[SSAValue]:
    """The values ``op`` and the ops nested in it use that are defined outside ``op``."""

    def inside(value: SSAValue) -> bool:
        owner = value.owner
        if isinstance(owner, Block):
            parent = owner.parent_op()
            return parent is not None and op.is_ancestor(parent)
        return op.is_ancestor(owner)

    found: dict[SSAValue, None] = {}
    for nested in op.walk():
        for value in nested.operands:
            if not inside(value):
                found[value] = None
    return list(found)


def _at_level(op: Operation, level: Block) -> Operation:
    """``op``'s ancestor (or ``op``) in ``level``."""
    while op.parent_block() is not level:
        parent = op.parent_op()
        assert parent is not None  # a use is dominated by its definition in ``level``
        op = parent
    return op


class _Loops:
    """A nest of ``scf.for`` loops from 0 by 1, the outermost first."""

    def __init__(self, bounds: Sequence[SSAValue], zero: SSAValue, one: SSAValue) -> None:
        self.ops: list[mscf.ForOp] = []
        for bound in bounds:
            loop = mscf.ForOp(zero, bound, one, [], Region(Block(arg_types=[IndexType()])))
            if self.ops:
                self.ops[-1].body.block.add_op(loop)
            self.ops.append(loop)
        self.body = self.ops[-1].body.block
        self.ivs = [loop.body.block.args[0] for loop in self.ops]

    def close(self) -> mscf.ForOp:
        for loop in self.ops:
            loop.body.block.add_op(scf.YieldOp())
        return self.ops[0]


@dataclass
class _Builder:
    """Builds the host copy of one kernel."""

    ctx: Context
    kernel: gpu_func.GPUFuncOp
    setup: list[Operation] = field(default_factory=list[Operation])
    teardown: list[Operation] = field(default_factory=list[Operation])
    spills: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    private: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    barrier_parents: set[Operation] = field(default_factory=set[Operation])
    has_barrier: bool = False

    def _setup(self, *ops: Operation) -> Operation:
        self.setup.extend(ops)
        return ops[-1]

    def _buffer(self, type_: MemRefType, sizes: Sequence[SSAValue] = ()) -> SSAValue:
        """A buffer allocated before the block loops and freed after them."""
        alloc = memref.AllocOp(list(sizes), [], type_)
        self._setup(alloc)
        self.teardown.append(memref.DeallocOp.get(alloc))
        return alloc.memref

    def build(self, name: str) -> func.FuncOp:
        kernel = self.kernel
        if len(kernel.body.blocks) != 1:
            raise emit_error(self.ctx, kernel, "gpu-kernels-to-host: a kernel must be one block")
        self._check(kernel)
        inputs = [_host_type(t) for t in kernel.function_type.inputs.data]
        entry = Block(arg_types=[IndexType()] * GRID_PARAMETERS + inputs)
        self.grid = list(entry.args[0:3])
        self.size = list(entry.args[3:6])
        self.zero = self._setup(_index(0)).results[0]
        self.one = self._setup(_index(1)).results[0]
        sx, sy, sz = self.size
        xy = self._setup(marith.MuliOp(sx, sy, overflow=_NO_OVERFLOW))
        self.threads = self._setup(marith.MuliOp(xy, sz, overflow=_NO_OVERFLOW)).results[0]

        body = kernel.body.block
        ins = len(kernel.function_type.inputs.data)
        uniform: dict[SSAValue, SSAValue] = dict(zip(body.args[:ins], entry.args[GRID_PARAMETERS:]))
        for arg in kernel.workgroup_args():
            uniform[arg] = self._buffer(_host_type(arg.type))  # type: ignore[arg-type]
        for arg in kernel.private_args():
            self.private[arg] = self._buffer(_host_type(arg.type))  # type: ignore[arg-type]
        if self.private and self.has_barrier:
            raise emit_error(self.ctx, kernel, "gpu-kernels-to-host: private memory in a kernel "
                             "with gpu.barrier is not supported")  # fmt: skip

        blocks = _Loops(list(reversed(self.grid)), self.zero, self.one)  # z outermost
        self.block_ids = list(reversed(blocks.ivs))
        ops = [op for op in body.ops if not isinstance(op, gpu_func.ReturnOp)]
        self._level(ops, body, blocks.body, uniform)
        entry.add_ops([*self.setup, blocks.close(), *self.teardown, func.ReturnOp()])
        host = func.FuncOp(name, FunctionType.from_lists(entry.arg_types, []), Region(entry))
        _strip_address_spaces(host)
        return host

    # -- checks ------------------------------------------------------------------------
    def _check(self, kernel: gpu_func.GPUFuncOp) -> None:
        for op in kernel.body.walk():
            if isinstance(op, gpu_ops.BarrierOp | gpu_ops.AllReduceOp):
                self.has_barrier = True  # a reduction synchronizes the block as a barrier does
                parent = op.parent_op()
                while parent is not None and parent is not kernel:
                    self.barrier_parents.add(parent)
                    parent = parent.parent_op()
            elif op.name.startswith("gpu.") and op.name not in _QUERIES and not (
                isinstance(op, gpu_func.ReturnOp)
                or isinstance(op, gpu_ops.YieldOp) and isinstance(op.parent_op(), gpu_ops.AllReduceOp)
            ):
                raise emit_error(self.ctx, op, f"gpu-kernels-to-host: '{op.name}' has no host "
                                 "equivalent here")  # fmt: skip
            if isinstance(op, memref.GetGlobalOp) and op.name_.string_value().startswith(HOST_KERNEL_PREFIX):
                continue  # a global of the gpu.module, copied to the host (host_kernels)
            for attr in (*op.properties.values(), *op.attributes.values()):
                if isinstance(attr, SymbolRefAttr):
                    raise emit_error(self.ctx, op, "gpu-kernels-to-host: a kernel that uses "
                                     f"@{attr.string_value()} of its gpu.module is not supported")  # fmt: skip

    # -- one region level: segments of thread code between barriers ------------------
    def _level(
        self, ops: Sequence[Operation], level: Block, out: Block, uniform: dict[SSAValue, SSAValue]
    ) -> None:
        segment: list[Operation] = []
        for op in ops:
            if isinstance(op, gpu_ops.BarrierOp):
                self._threads(segment, level, out, uniform)
                segment = []
            elif isinstance(op, gpu_ops.AllReduceOp):
                self._threads(segment, level, out, uniform)
                segment = []
                self._all_reduce(op, out, uniform)
            elif op in self.barrier_parents:
                self._threads(segment, level, out, uniform)
                segment = []
                self._control(op, out, uniform)
            elif (query := _UNIFORM_QUERIES.get(op.name)) is not None:
                values = {"block": self.block_ids, "grid": self.grid, "size": self.size}[query]
                uniform[op.results[0]] = values["xyz".index(_dimension(op))]
            elif op.name == "gpu.subgroup_size":
                out.add_op(constant := _index(WARP_SIZE))
                uniform[op.results[0]] = constant.result
            elif op.name == "gpu.num_subgroups":
                warps = _index(WARP_SIZE - 1), _index(WARP_SIZE)
                add = marith.AddiOp(self.threads, warps[0], overflow=_NO_OVERFLOW)
                div = marith.DivUIOp(add, warps[1])
                out.add_ops([*warps, add, div])
                uniform[op.results[0]] = div.result
            elif op.name in _THREAD_QUERIES:
                continue  # computed in each thread loop that uses it
            elif self._is_uniform(op, uniform):
                out.add_op(op.clone(value_mapper=uniform))
            else:
                segment.append(op)
        self._threads(segment, level, out, uniform)

    def _all_reduce(
        self, op: gpu_ops.AllReduceOp, out: Block, uniform: dict[SSAValue, SSAValue]
    ) -> None:
        """The reduction of the threads' values (kept by the piece before it),
        once per block, in the order of the threads' linear ids: the same for
        every thread, so a uniform value."""
        value = op.value
        if isinstance(value.owner, Operation) and value.owner.name in _THREAD_QUERIES:
            raise emit_error(self.ctx, op, "gpu-kernels-to-host: gpu.all_reduce of a thread id "
                             "is not supported")  # fmt: skip
        if len(op.body.blocks) > 1:
            raise emit_error(self.ctx, op, "gpu-kernels-to-host: a gpu.all_reduce body of more "
                             "than one block is not supported")  # fmt: skip

        def value_of(thread: SSAValue, block: Block) -> SSAValue:
            if value in uniform:
                return uniform[value]
            load = memref.LoadOp.get(self.spills[value], [thread])
            block.add_op(load)
            return load.res

        first = value_of(self.zero, out)
        body = Block(arg_types=[IndexType(), value.type])
        loop = mscf.ForOp(self.one, self.threads, self.one, [first], Region(body))
        thread, accumulated = body.args
        x = value_of(thread, body)
        if op.op is not None:
            combined = combine(op.op.data, accumulated, x)
            body.add_op(combined)
            result = combined.results[0]
        else:
            ops, result = combine_body(op.body.blocks[0], accumulated, x)
            body.add_ops(ops)
        body.add_op(scf.YieldOp(result))
        out.add_op(loop)
        uniform[op.result] = loop.results[0]

    def _is_uniform(self, op: Operation, uniform: dict[SSAValue, SSAValue]) -> bool:
        """Whether ``op`` computes the same for every thread of a block: pure,
        without regions, of values that are."""
        return (
            not op.regions
            and op.name not in _THREAD_QUERIES
            and is_side_effect_free(op)
            and all(v in uniform for v in op.operands)
        )

    def _control(self, op: Operation, out: Block, uniform: dict[SSAValue, SSAValue]) -> None:
        """A loop or branch around a barrier: run once per block, its body
        cut again at its barriers."""

        def same_for_all(values: Iterable[SSAValue], what: str) -> list[SSAValue]:
            if any(v not in uniform for v in values):
                raise emit_error(self.ctx, op, f"gpu-kernels-to-host: gpu.barrier under {what} "
                                 "that threads compute for themselves is not supported")  # fmt: skip
            return [uniform[v] for v in values]

        if isinstance(op, scf.ForOp):
            lb, ub, step = same_for_all((op.lb, op.ub, op.step), "loop bounds")
            carried = list(op.body.block.args[1:])
            if any(isinstance(a.type, MemRefType) for a in carried):
                raise emit_error(self.ctx, op, "gpu-kernels-to-host: a loop around gpu.barrier "
                                 "that carries memrefs is not supported")  # fmt: skip
            # each thread's carried values live in per-thread buffers: the
            # iteration arguments', which the results share
            for arg, result in zip(carried, op.results):
                buffer_type = MemRefType(_host_type(arg.type), [DYNAMIC_INDEX])
                self.spills[arg] = self.spills[result] = self._buffer(buffer_type, [self.threads])
            self._copy_per_thread(list(zip(op.iter_args, carried)), out, uniform)
            loop = mscf.ForOp(lb, ub, step, [], Region(Block(arg_types=[op.lb.type])))
            out.add_op(loop)
            inner = dict(uniform)
            inner[op.body.block.args[0]] = loop.body.block.args[0]
            body = [o for o in op.body.block.ops if not isinstance(o, scf.YieldOp)]
            self._level(body, op.body.block, loop.body.block, inner)
            yielded = op.body.block.last_op
            assert isinstance(yielded, scf.YieldOp)
            pairs = [(v, a) for v, a in zip(yielded.operands, carried) if v is not a]
            self._copy_per_thread(pairs, loop.body.block, inner)
            loop.body.block.add_op(scf.YieldOp())
            return
        if isinstance(op, scf.IfOp) and not op.results:
            (cond,) = same_for_all((op.cond,), "a condition")
            regions: list[Region] = []
            for region in (op.true_region, op.false_region):
                if not region.blocks:
                    continue
                block = Block()
                ops = [o for o in region.block.ops if not isinstance(o, scf.YieldOp)]
                self._level(ops, region.block, block, dict(uniform))
                block.add_op(scf.YieldOp())
                regions.append(Region(block))
            out.add_op(mscf.IfOp(cond, [], *regions))
            return
        raise emit_error(self.ctx, op, f"gpu-kernels-to-host: gpu.barrier inside '{op.name}' "
                         "is not supported (only scf.for and scf.if without results)")  # fmt: skip

    def _copy_per_thread(
        self, pairs: Sequence[tuple[SSAValue, SSAValue]], out: Block, uniform: dict[SSAValue, SSAValue]
    ) -> None:
        """For every thread, store each pair's value (uniform or kept per
        thread) into the per-thread buffer of its carried value."""
        if not pairs:
            return
        threads = _Loops(list(reversed(self.size)), self.zero, self.one)
        ids = _ThreadIds(threads, self.size, self.block_ids)
        loads: list[Operation] = []
        stores: list[Operation] = []
        for value, carried in pairs:
            if value in uniform:
                source = uniform[value]
            else:
                load = memref.LoadOp.get(self.spills[value], [ids.linear()])
                loads.append(load)
                source = load.res
            stores.append(memref.StoreOp.get(source, self.spills[carried], [ids.linear()]))
        threads.body.add_ops([*loads, *stores])  # all loads first: the pairs may swap values
        out.add_op(threads.close())

    def _threads(
        self,
        segment: list[Operation],
        level: Block,
        out: Block,
        uniform: dict[SSAValue, SSAValue],
    ) -> None:
        """``segment`` in a loop nest over the block's threads."""
        if not segment:
            return
        threads = _Loops(list(reversed(self.size)), self.zero, self.one)
        ids = _ThreadIds(threads, self.size, self.block_ids)
        body = threads.body
        local = dict(uniform)
        local.update(self.private)
        members = set(segment)
        for op in segment:
            for value in _outside_operands(op):
                if value in local:
                    continue
                owner = value.owner
                if isinstance(owner, Operation) and owner.name in _THREAD_QUERIES:
                    local[value] = ids.query(owner)  # recomputed, not kept
                    continue
                if value not in self.spills:
                    raise emit_error(self.ctx, op, "gpu-kernels-to-host: internal error: "
                                     "a value from an earlier piece was not kept")  # fmt: skip
                load = memref.LoadOp.get(self.spills[value], [ids.linear()])
                body.add_op(load)
                local[value] = load.res
            body.add_op(op.clone(value_mapper=local))
            for result in op.results:
                if any(_at_level(use.operation, level) not in members for use in result.uses):
                    self._spill(op, result, local[result], body, ids.linear())
        out.add_op(threads.close())

    def _spill(
        self, op: Operation, old: SSAValue, new: SSAValue, body: Block, linear: SSAValue
    ) -> None:
        """Keep ``new`` (the copy of ``old``) for the later pieces, per thread."""
        if isinstance(old.type, MemRefType):
            raise emit_error(self.ctx, op, "gpu-kernels-to-host: a memref that a thread computes "
                             "before a gpu.barrier and uses after it is not supported")  # fmt: skip
        if old not in self.spills:
            buffer_type = MemRefType(_host_type(old.type), [DYNAMIC_INDEX])
            self.spills[old] = self._buffer(buffer_type, [self.threads])
        body.add_op(memref.StoreOp.get(new, self.spills[old], [linear]))


class _ThreadIds:
    """The thread's ids in the body of a thread loop nest, made where first used."""

    def __init__(self, loops: _Loops, size: Sequence[SSAValue], block_ids: Sequence[SSAValue]) -> None:
        tz, ty, tx = loops.ivs
        self.tids = (tx, ty, tz)
        self.body = loops.body
        self.size = size
        self.block_ids = block_ids
        self._linear: SSAValue | None = None

    def _prepend(self, ops: Sequence[Operation]) -> SSAValue:
        first = self.body.first_op
        if first is None:
            self.body.add_ops(ops)
        else:
            self.body.insert_ops_before(ops, first)
        return ops[-1].results[0]

    def linear(self) -> SSAValue:
        """``(tz * block_y + ty) * block_x + tx``."""
        if self._linear is None:
            tx, ty, tz = self.tids
            sx, sy, _ = self.size
            zy = marith.MuliOp(tz, sy, overflow=_NO_OVERFLOW)
            zyy = marith.AddiOp(zy, ty, overflow=_NO_OVERFLOW)
            zyx = marith.MuliOp(zyy, sx, overflow=_NO_OVERFLOW)
            self._linear = self._prepend([zy, zyy, zyx, marith.AddiOp(zyx, tx, overflow=_NO_OVERFLOW)])
        return self._linear

    def query(self, op: Operation) -> SSAValue:
        """The value of the thread query ``op`` for this thread."""
        if op.name == "gpu.thread_id":
            return self.tids["xyz".index(_dimension(op))]
        if op.name == "gpu.global_id":
            d = "xyz".index(_dimension(op))
            scaled = marith.MuliOp(self.block_ids[d], self.size[d], overflow=_NO_OVERFLOW)
            return self._prepend([scaled, marith.AddiOp(scaled, self.tids[d], overflow=_NO_OVERFLOW)])
        linear = self.linear()
        warp = _index(WARP_SIZE)
        part = (xarith.RemUIOp if op.name == "gpu.lane_id" else marith.DivUIOp)(linear, warp)
        first = linear.owner.next_op  # type: ignore[union-attr]
        assert first is not None
        self.body.insert_ops_before([warp, part], first)
        return part.result


def _dimension(op: Operation) -> str:
    return op.properties["dimension"].data  # type: ignore[union-attr]


def _strip_address_spaces(host: Operation) -> None:
    """Give every memref in ``host`` host memory's (default) memory space."""
    for op in host.walk():
        for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            stripped = _host_type(value.type)
            if stripped != value.type:
                Rewriter.replace_value_with_new_type(value, stripped)


def host_kernels(ctx: Context, module: ModuleOp) -> list[Operation]:
    """The host copies of the kernels of ``module``'s gpu.modules, after
    host copies of the ``memref.global`` ops of those modules."""
    globals_: list[Operation] = []
    copies: list[Operation] = []
    for op in module.ops:
        if not isinstance(op, gpu_module.GPUModuleOp):
            continue
        renames: dict[str, str] = {}
        for global_ in op.bodyRegion.block.ops:
            if isinstance(global_, memref.GlobalOp):
                renames[global_.sym_name.data] = host_kernel_name(op.sym_name.data, global_.sym_name.data)
                host_global = global_.clone()
                host_global.properties["sym_name"] = StringAttr(renames[global_.sym_name.data])
                host_global.properties["sym_visibility"] = StringAttr("private")
                if isinstance(host_global.type, MemRefType):
                    host_global.properties["type"] = _host_type(host_global.type)
                globals_.append(host_global)
        for kernel in op.bodyRegion.block.ops:
            if isinstance(kernel, gpu_func.GPUFuncOp) and kernel.kernel is not None:
                name = host_kernel_name(op.sym_name.data, kernel.sym_name.data)
                copy = _with_queries_first(kernel)
                for use in copy.walk():
                    if isinstance(use, memref.GetGlobalOp) and (
                        new := renames.get(use.name_.string_value())
                    ) is not None:
                        use.properties["name"] = SymbolRefAttr(new)
                copies.append(_Builder(ctx, copy).build(name))
    return [*globals_, *copies]


def _with_queries_first(kernel: gpu_func.GPUFuncOp) -> gpu_func.GPUFuncOp:
    """A copy of ``kernel`` whose id and size queries (pure, without
    operands) come first in its body, outside any loop or branch."""
    copy = kernel.clone()
    if len(copy.body.blocks) != 1:
        return copy  # rejected by the builder
    body = copy.body.block
    queries = [op for op in copy.body.walk() if op.name in _QUERIES]
    for op in queries:
        op.detach()
    first = body.first_op
    if first is None:
        body.add_ops(queries)
    else:
        body.insert_ops_before(queries, first)
    return copy


@dataclass(frozen=True)
class GpuKernelsToHost(ModulePass):
    """Add a host copy of each GPU kernel that runs its grid as loops, to run GPU programs on the CPU"""

    name = "gpu-kernels-to-host"

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        assert isinstance(op, ModuleOp)
        for copy in host_kernels(ctx, op):
            op.body.block.add_op(copy)
