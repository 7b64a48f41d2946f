"""``convert-parallel-loops-to-gpu``: ``scf.parallel`` nests that carry a
``mapping`` (from ``gpu-map-parallel-loops``) become ``gpu.launch`` ops.

As upstream's ``ParallelToGpuLaunchLowering`` (``SCFToGPU.cpp``): every
launch size starts at 1; a dimension mapped to a block or thread id sets that
size to ``affine.apply ((ub - lb) ceildiv step)`` composed with the
dimension's ``bound`` map (an ``arith.constant`` where the bounds are
constants, which upstream's canonicalize would fold it into), and its
induction variable becomes ``affine.apply (id * step + lb)`` composed with
its ``map``; a sequential
dimension becomes an ``scf.for``. Directly nested parallel loops are mapped
the same way. The launch is tagged ``SCFToGPU_visited`` as upstream does.

Not supported (the loop is left alone, as upstream's pattern fails): loops
with reductions, bounds that are neither defined above the launch nor
constants, two dimensions mapped to the same hardware id, and a nested
parallel loop that follows a side-effecting op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.dialects.builtin import UnitAttr
from xdsl.dialects.gpu import LoopDimMapAttr, ProcessorEnum
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from mlkit.dialects import affine

from mlkit.dialects.gpu import kernel as gpu_kernel

VISITED_ATTR = "SCFToGPU_visited"
_PROCESSOR_SLOT = {
    ProcessorEnum.Block_X: 0, ProcessorEnum.Block_Y: 1, ProcessorEnum.Block_Z: 2,
    ProcessorEnum.Thread_X: 3, ProcessorEnum.Thread_Y: 4, ProcessorEnum.Thread_Z: 5,
}  # fmt: skip

_D0, _S0, _S1 = AffineExpr.dimension(0), AffineExpr.symbol(0), AffineExpr.symbol(1)
TRIP_COUNT = AffineMap(1, 2, (AffineBinaryOpExpr(AffineBinaryOpKind.CeilDiv, _D0 - _S0, _S1),))
"""``(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)``: ub, [lb, step]."""
INDEX = AffineMap(1, 2, (AffineBinaryOpExpr(AffineBinaryOpKind.Mul, _D0, _S0) + _S1,))
"""``(d0)[s0, s1] -> (d0 * s0 + s1)``: id, [step, lb]."""


class Unsupported(Exception):
    """The nest cannot be converted; the input is left as it was."""


@dataclass
class _Lowering:
    launch: gpu_kernel.LaunchOp
    sizes: list[SSAValue | None]
    before_launch: InsertPoint

    def invariant(self, value: SSAValue) -> SSAValue:
        """``value`` usable at the launch: defined above it, or a constant cloned there."""
        owner = value.owner
        if not self.launch.is_ancestor(owner):  # neither the launch nor inside it
            return value
        if isinstance(owner, arith.ConstantOp):
            clone = owner.clone()
            Rewriter.insert_op(clone, self.before_launch)
            return clone.result
        raise Unsupported("cannot derive loop-invariant upper bound")

    def lower(self, loop: scf.ParallelOp, at: InsertPoint) -> None:
        """Map ``loop``'s dimensions and move its body to ``at``."""
        mapping = loop.attributes.get("mapping")
        if loop.initVals or not isinstance(mapping, ArrayAttr) or len(mapping) != len(loop.lowerBound):
            raise Unsupported("loop is not mapped or has reductions")
        args = self.launch.body.blocks[0].args
        replacements: list[SSAValue] = []
        for dim, (lb, ub, step) in enumerate(zip(loop.lowerBound, loop.upperBound, loop.step)):
            attr = mapping.data[dim]
            assert isinstance(attr, LoopDimMapAttr)
            processor = ProcessorEnum(attr.processor.data)
            if processor == ProcessorEnum.Sequential:
                for_op = scf.ForOp(lb, ub, step, [], Region(Block([scf.YieldOp()], arg_types=[IndexType()])))
                Rewriter.insert_op(for_op, at)
                replacements.append(for_op.body.block.args[0])
                at = InsertPoint.at_start(for_op.body.block)
                continue
            slot = _PROCESSOR_SLOT[processor]
            index_map = INDEX if attr.map.data == AffineMap.identity(1) else attr.map.data.compose(INDEX)
            apply = affine.ApplyOp([args[slot], step, lb], AffineMapAttr(index_map))
            Rewriter.insert_op(apply, at)
            replacements.append(apply.result)
            if self.sizes[slot] is not None:
                raise Unsupported("cannot redefine the bound for processor")
            bound_ops = [self.invariant(v) for v in (ub, lb, step)]
            bound_map = TRIP_COUNT if attr.bound.data == AffineMap.identity(1) else attr.bound.data.compose(TRIP_COUNT)
            size = _folded(bound_map, bound_ops) or affine.ApplyOp(bound_ops, AffineMapAttr(bound_map))
            Rewriter.insert_op(size, self.before_launch)
            self.sizes[slot] = size.results[0]
        body = loop.body.block
        for arg, new in zip(body.args, replacements):
            arg.replace_all_uses_with(new)
        seen_side_effects = False
        for op in list(body.ops):
            if isinstance(op, scf.ReduceOp):
                continue
            if isinstance(op, scf.ParallelOp):
                if seen_side_effects:
                    raise Unsupported("nested parallel loop after side effects")
                self.lower(op, at)
                continue
            seen_side_effects |= not is_side_effect_free(op)
            op.detach()
            Rewriter.insert_op(op, at)


def _folded(bound_map: AffineMap, operands: list[SSAValue]) -> arith.ConstantOp | None:
    """The launch size as a constant where the bounds are constants (what
    upstream's canonicalize folds the ``affine.apply`` into; mlkit's
    canonicalize does not fold it, and constant sizes are what the kernels'
    launches and their ``known_block_size`` need)."""
    values: list[int] = []
    for value in operands:
        owner = value.owner
        if not (isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr)):
            return None
        values.append(owner.value.value.data)
    (size,) = bound_map.eval(values[:1], values[1:])
    return arith.ConstantOp(IntegerAttr(size, IndexType()))


def convert_parallel_loop(loop: scf.ParallelOp) -> bool:
    """Replace ``loop`` by a ``gpu.launch``; False (IR unchanged) when unsupported."""
    one = arith.ConstantOp.from_int_and_width(1, IndexType())
    body = Block(arg_types=[IndexType()] * 12)
    launch = gpu_kernel.LaunchOp.build(
        operands=[[], *([one.result] * 6), [], [], [], [], []],
        regions=[Region(body)],
        result_types=[[]],
    )
    # work on a clone so that a failure leaves the input untouched
    work = loop.clone()
    Rewriter.insert_op([one, launch], InsertPoint.before(loop))
    Rewriter.insert_op(work, InsertPoint.at_start(body))
    lowering = _Lowering(launch, [None] * 6, InsertPoint.before(launch))
    try:
        lowering.lower(work, InsertPoint.before(work))
    except Unsupported:
        _erase_between(one, loop)
        return False
    Rewriter.erase_op(work, safe_erase=False)
    body.add_op(gpu_kernel.TerminatorOp())
    for slot, size in enumerate(lowering.sizes):
        if size is not None:
            launch.operands[slot] = size  # no async dependencies come first
    launch.attributes[VISITED_ATTR] = UnitAttr()
    Rewriter.erase_op(loop)
    return True


def _erase_between(first: Operation, stop: Operation) -> None:
    """Erase the ops a failed conversion put before ``stop``, from ``first`` on."""
    op: Operation | None = first
    doomed: list[Operation] = []
    while op is not None and op is not stop:
        doomed.append(op)
        op = op.next_op
    for dead in reversed(doomed):
        for result in dead.results:
            for use in list(result.uses):
                use.operation.drop_all_references()
        dead.drop_all_references()
        Rewriter.erase_op(dead, safe_erase=False)


@dataclass(frozen=True)
class ConvertParallelLoopToGpu(ModulePass):
    """Convert mapped scf.parallel ops to gpu launch operations"""

    name = "convert-parallel-loops-to-gpu"

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        loops = [
            o for o in op.walk()
            if isinstance(o, scf.ParallelOp)
            and "mapping" in o.attributes
            and not any(isinstance(p, (scf.ParallelOp, gpu_kernel.LaunchOp)) for p in _parents(o))
        ]
        for loop in loops:
            convert_parallel_loop(loop)


def _parents(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()
