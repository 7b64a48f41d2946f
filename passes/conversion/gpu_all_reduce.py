"""``gpu.all_reduce`` in simpler gpu ops, as upstream's ``AllReduceLowering.cpp``
(``populateGpuAllReducePatterns``, which ``convert-gpu-to-nvvm`` applies
before it converts): each subgroup (warp) reduces its values with five
``gpu.shuffle xor`` steps, lane 0 of each writes its result to a workgroup
buffer of 32 elements (a new workgroup attribution of the function), and
after a barrier the first subgroup reduces those; after a second barrier
every thread reads the result. A subgroup the block does not fill accumulates
only what its active lanes shuffled. The branches are ``cf`` blocks, as
upstream makes them.

As upstream: only functions whose reductions are all ``uniform`` are
rewritten. :func:`rewrite_wide_shuffles` is upstream's ``GpuShuffleRewriter``
(shuffles of 64-bit values as two of 32 bits), which runs after it.
:func:`combine` (the arith op of a reduction kind) is shared with the passes
that make or emulate reductions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import cf
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, DictionaryAttr, IndexType, IntegerAttr
from xdsl.dialects.builtin import IntegerType, MemRefType, i1, i32, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import Rewriter

from mlkit.dialects import arith, memref
from mlkit.dialects.gpu import func as gpu_func
from mlkit.dialects.gpu import ops as gpu_ops
from mlkit.dialects.gpu.attrs import AddressSpace, AddressSpaceAttr, AllReduceOperation
from mlkit.dialects.gpu.attrs import ShuffleMode, ShuffleModeAttr
from xdsl.dialects.gpu import DimensionAttr, DimensionEnum

SUBGROUP_SIZE = 32
K = AllReduceOperation
_INTEGER_OPS = {K.ADD: "AddiOp", K.MUL: "MuliOp", K.MINUI: "MinUIOp", K.MINSI: "MinSIOp",
                K.MAXUI: "MaxUIOp", K.MAXSI: "MaxSIOp", K.AND: "AndIOp", K.OR: "OrIOp",
                K.XOR: "XOrIOp"}  # fmt: skip
_FLOAT_OPS = {K.ADD: "AddfOp", K.MUL: "MulfOp", K.MINNUMF: "MinnumfOp", K.MAXNUMF: "MaxnumfOp",
              K.MINIMUMF: "MinimumfOp", K.MAXIMUMF: "MaximumfOp"}  # fmt: skip


def combine(kind: AllReduceOperation, lhs: SSAValue, rhs: SSAValue) -> Operation:
    """The arith op that combines two values by ``kind`` (upstream's
    ``vector::makeArithReduction``)."""
    table = _FLOAT_OPS if isinstance(lhs.type, AnyFloat) else _INTEGER_OPS
    return getattr(arith, table[kind])(lhs, rhs)


def combine_body(body: Block, lhs: SSAValue, rhs: SSAValue) -> tuple[list[Operation], SSAValue]:
    """The ops of a single-block reduction body applied to ``lhs`` and
    ``rhs``, and the value its ``gpu.yield`` yields."""
    mapping: dict[SSAValue, SSAValue] = {body.args[0]: lhs, body.args[1]: rhs}
    ops: list[Operation] = []
    for op in body.ops:
        if isinstance(op, gpu_ops.YieldOp):
            return ops, mapping.get(op.operands[0], op.operands[0])
        ops.append(op.clone(value_mapper=mapping))
    raise ValueError("a reduction body must end in gpu.yield")


def _i32(value: int) -> Operation:
    return arith.ConstantOp(IntegerAttr(value, i32))


class _Rewriter:
    """Upstream's ``GpuAllReduceRewriter`` for one reduction."""

    def __init__(self, func: gpu_func.GPUFuncOp, op: gpu_ops.AllReduceOp) -> None:
        self.func = func
        self.op = op
        self.type = op.value.type
        self.block = op.parent_block()
        self.before: Operation | None = op
        assert self.block is not None

    def create(self, op: Operation) -> SSAValue:
        if self.before is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.before)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def _split(self, block: Block, before: Operation | None) -> Block:
        if before is not None:
            return block.split_before(before)
        new = Block()
        assert block.parent is not None
        block.parent.insert_block_after(new, block)
        return new

    def dim(self, cls: type[Operation], d: str) -> SSAValue:
        value = self.create(cls.create(properties={"dimension": DimensionAttr(DimensionEnum(d))},
                                       result_types=[IndexType()]))  # fmt: skip
        return self.create(arith.IndexCastOp(value, i32))

    def rewrite(self) -> None:
        dim_x, dim_y, dim_z = (self.dim(gpu_ops.BlockDimOp, d) for d in "xyz")
        tid_x, tid_y, tid_z = (self.dim(gpu_ops.ThreadIdOp, d) for d in "xyz")
        none = arith.IntegerOverflowAttr("none")
        tmp1 = self.create(arith.MuliOp(tid_z, dim_y, overflow=none))
        tmp2 = self.create(arith.AddiOp(tmp1, tid_y, overflow=none))
        tmp3 = self.create(arith.MuliOp(tmp2, dim_x, overflow=none))
        tmp4 = self.create(arith.MuliOp(dim_x, dim_y, overflow=none))
        invocation = self.create(arith.AddiOp(tmp3, tid_x, overflow=none))
        size = self.create(arith.MuliOp(tmp4, dim_z, overflow=none))
        mask = self.create(_i32(SUBGROUP_SIZE - 1))
        lane = self.create(arith.AndIOp(invocation, mask))
        first_lane = self.create(arith.CmpiOp(lane, self.create(_i32(0)), "eq"))
        before_me = self.create(arith.SubiOp(invocation, lane, overflow=none))
        active = self.create(arith.SubiOp(size, before_me, overflow=none))
        accumulate = self.accumulator()
        reduced = self.subgroup_reduce(active, self.op.value, accumulate)
        buffer = self.workgroup_buffer()

        def write_partial() -> list[SSAValue]:
            subgroup = self.create(arith.DivSIOp(invocation, self.create(_i32(SUBGROUP_SIZE))))
            index = self.create(arith.IndexCastOp(subgroup, IndexType()))
            self.create(memref.StoreOp.get(reduced, buffer, [index]))
            return []

        self.branch(first_lane, write_partial, lambda: [])
        self.create(gpu_ops.BarrierOp())
        biased = self.create(arith.AddiOp(size, mask, overflow=none))
        subgroups = self.create(arith.DivSIOp(biased, self.create(_i32(SUBGROUP_SIZE))))
        valid = self.create(arith.CmpiOp(invocation, subgroups, "slt"))
        zero = self.create(arith.ConstantOp(IntegerAttr(0, IndexType())))

        def reduce_partials() -> list[SSAValue]:
            index = self.create(arith.IndexCastOp(invocation, IndexType()))
            value = self.create(memref.LoadOp.get(buffer, [index]))
            result = self.subgroup_reduce(subgroups, value, accumulate)
            self.create(memref.StoreOp.get(result, buffer, [zero]))
            return []

        self.branch(valid, reduce_partials, lambda: [])
        self.create(gpu_ops.BarrierOp())
        result = self.create(memref.LoadOp.get(buffer, [zero]))
        self.op.result.replace_all_uses_with(result)
        Rewriter.erase_op(self.op)

    def workgroup_buffer(self) -> SSAValue:
        """A new workgroup attribution of 32 values (upstream's ``addWorkgroupAttribution``)."""
        func = self.func
        space = AddressSpaceAttr(AddressSpace.WORKGROUP)
        type_ = MemRefType(self.type, [SUBGROUP_SIZE], memory_space=space)
        entry = func.body.blocks[0]
        position = len(func.function_type.inputs) + func.num_workgroup_attributions
        arg = entry.insert_arg(type_, position)
        func.properties["workgroup_attributions"] = IntegerAttr(func.num_workgroup_attributions + 1, i64)
        attrs = func.workgroup_attrib_attrs
        if attrs is not None:
            func.properties["workgroup_attrib_attrs"] = ArrayAttr([*attrs.data, DictionaryAttr({})])
        return arg

    def accumulator(self) -> Callable[[SSAValue, SSAValue], SSAValue]:
        kind = self.op.op
        if kind is not None:
            return lambda lhs, rhs: self.create(combine(kind.data, lhs, rhs))
        body = self.op.body

        def clone_body(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
            # the body's blocks between two halves of the current block
            rest = self._split(self.block, self.before)
            mapping: dict[SSAValue, SSAValue] = {body.blocks[0].args[0]: lhs, body.blocks[0].args[1]: rhs}
            block_map: dict[Block, Block] = {}
            region = self.block.parent
            assert region is not None
            # the entry block's arguments are lhs and rhs; the others stay arguments
            clones = [Block(arg_types=() if i == 0 else b.arg_types) for i, b in enumerate(body.blocks)]
            for i, (old, new) in enumerate(zip(body.blocks, clones)):
                block_map[old] = new
                if i:
                    mapping.update(zip(old.args, new.args))
            for old, new in zip(body.blocks, clones):
                for op in old.ops:
                    if isinstance(op, gpu_ops.YieldOp):
                        new.add_op(cf.BranchOp(rest, mapping.get(op.operands[0], op.operands[0])))
                    else:
                        new.add_op(op.clone(value_mapper=mapping, block_mapper=block_map))
            for new in clones:
                region.insert_block_before(new, rest)
            self.block.add_op(cf.BranchOp(clones[0]))
            self.block, self.before = rest, rest.first_op
            return rest.insert_arg(lhs.type, 0)

        return clone_body

    def branch(
        self,
        condition: SSAValue,
        then: Callable[[], Sequence[SSAValue]],
        otherwise: Callable[[], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """Upstream's ``createIf``: cond_br to a then and an else block that
        branch to a continuation with their values as its arguments."""
        current, point = self.block, self.before
        then_block = self._split(current, point)
        else_block = self._split(then_block, then_block.first_op)
        continuation = self._split(else_block, else_block.first_op)
        current.add_op(cf.ConditionalBranchOp(condition, then_block, (), else_block, ()))
        self.block, self.before = then_block, None
        then_values = list(then())
        self.create(cf.BranchOp(continuation, *then_values))
        self.block, self.before = else_block, None
        else_values = list(otherwise())
        self.create(cf.BranchOp(continuation, *else_values))
        self.block, self.before = continuation, continuation.first_op
        return [continuation.insert_arg(v.type, i) for i, v in enumerate(then_values)]

    def subgroup_reduce(
        self, active: SSAValue, operand: SSAValue, accumulate: Callable[[SSAValue, SSAValue], SSAValue]
    ) -> SSAValue:
        """The reduction over the first ``active`` lanes of a subgroup (all
        of it when ``active`` is 32 or more); lane 0 holds the result."""
        full = self.create(_i32(SUBGROUP_SIZE))
        partial = self.create(arith.CmpiOp(active, full, "slt"))

        def shuffle(value: SSAValue, offset: int, width: SSAValue) -> gpu_ops.ShuffleOp:
            op = gpu_ops.ShuffleOp.create(
                operands=[value, self.create(_i32(offset)), width],
                result_types=[self.type, i1],
                properties={"mode": ShuffleModeAttr(ShuffleMode.XOR)},
            )
            self.create(op)
            return op

        def over_active_lanes() -> list[SSAValue]:
            value = operand
            i = 1
            while i < SUBGROUP_SIZE:
                got = shuffle(value, i, active)
                current = value
                (value,) = self.branch(
                    got.valid, lambda: [accumulate(current, got.shuffleResult)], lambda: [current]
                )
                i <<= 1
            return [value]

        def over_the_subgroup() -> list[SSAValue]:
            value = operand
            i = 1
            while i < SUBGROUP_SIZE:
                value = accumulate(value, shuffle(value, i, full).shuffleResult)
                i <<= 1
            return [value]

        (result,) = self.branch(partial, over_active_lanes, over_the_subgroup)
        return result


def rewrite_wide_shuffles(root: Operation) -> None:
    """Upstream's ``GpuShuffleRewriter``: a shuffle of a 64-bit integer or
    float is two shuffles of its 32-bit halves; valid where both are."""
    i64 = IntegerType(64)
    for op in [o for o in root.walk() if isinstance(o, gpu_ops.ShuffleOp)]:
        type_ = op.value.type
        if not isinstance(type_, AnyFloat | IntegerType) or type_.bitwidth != 64:
            continue
        ops: list[Operation] = []
        value = op.value
        if isinstance(type_, AnyFloat):
            ops.append(arith.BitcastOp(value, i64))
            value = ops[-1].results[0]
        lo = arith.TruncIOp(value, i32)
        c32 = arith.ConstantOp(IntegerAttr(32, i64))
        shifted = arith.ShRUIOp(value, c32)
        hi = arith.TruncIOp(shifted, i32)
        halves = [
            gpu_ops.ShuffleOp.create(operands=[half.results[0], op.offset, op.width],
                                     result_types=[i32, i1], properties={"mode": op.mode})
            for half in (lo, hi)
        ]  # fmt: skip
        lo_wide = arith.ExtUIOp(halves[0].results[0], i64)
        hi_wide = arith.ExtUIOp(halves[1].results[0], i64)
        hi_up = arith.ShLIOp(hi_wide, c32, overflow=arith.IntegerOverflowAttr("none"))
        joined = arith.OrIOp(hi_up, lo_wide)
        ops += [lo, c32, shifted, hi, *halves, lo_wide, hi_wide, hi_up, joined]
        result = joined.results[0]
        if isinstance(type_, AnyFloat):
            ops.append(arith.BitcastOp(result, type_))
            result = ops[-1].results[0]
        valid = halves[0].results[1]
        if op.valid.uses:  # unused, it stays unused: the lowering then does not ask for it
            ops.append(both := arith.AndIOp(halves[0].results[1], halves[1].results[1]))
            valid = both.result
        Rewriter.replace_op(op, ops, [result, valid])


def rewrite_all_reduces(root: Operation) -> None:
    """Rewrite the ``gpu.all_reduce`` ops of each ``gpu.func`` in ``root``
    whose reductions are all uniform."""
    for func in [o for o in root.walk() if isinstance(o, gpu_func.GPUFuncOp)]:
        reduces = [o for o in func.walk() if isinstance(o, gpu_ops.AllReduceOp)]
        if not reduces or any(r.uniform is None for r in reduces):
            continue
        for op in reduces:
            _Rewriter(func, op).rewrite()

