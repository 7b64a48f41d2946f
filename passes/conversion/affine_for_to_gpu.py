"""``convert-affine-for-to-gpu{gpu-block-dims gpu-thread-dims}``: each top-level
``affine.for`` nest of a function becomes a ``gpu.launch``.

As upstream's ``convertAffineLoopNestToGPULaunch`` (``SCFToGPU.cpp``): the
outer ``gpu-block-dims`` loops of a perfect nest map to block ids x, y, z and
the next ``gpu-thread-dims`` loops to thread ids. Above the nest, each mapped
loop's size is ``ub - lb`` (``ceildivsi`` by the step when it is not 1), the
bounds expanded as ``lower-affine`` does (max of lower, min of upper bound
results); unmapped launch sizes are the constant 1. Inside the launch each
induction variable becomes ``lb + step * id`` (no multiply when the step is 1)
and the innermost mapped loop's body is moved there.

Errors (the pass fails, as upstream's): more than 3 block or thread
dimensions, bounds that depend on other mapped loops, a nest that is not
perfect or not deep enough, loops with ``iter_args``. Deviations, where
upstream builds invalid IR or reads a non-loop as a loop instead: bounds
whose expansion upstream refuses (division by a non-positive constant), and
both dimension counts 0, are errors; with one count 0 the nest structure and
the 3-dimension limits are still checked (upstream skips those checks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import affine

from mlkit.dialects.gpu import kernel as gpu_kernel
from mlkit.diagnostics.emit import emit_error
from mlkit.passes.conversion.affine_to_std import AffineLoweringError, lower_map_max, lower_map_min


class _MappingError(Exception):
    """The nest cannot be mapped; ``op`` is where upstream reports it."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


def _defined_above(values: tuple[SSAValue, ...] | list[SSAValue], region: Region) -> bool:
    """Upstream's ``areValuesDefinedAbove``: no value is defined inside ``region``."""
    for value in values:
        block = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
        while block is not None:
            if block.parent is region:
                return False
            parent = block.parent_op()
            block = parent.parent_block() if parent is not None else None
    return True


def check_nest(root: affine.ForOp, num_loops: int) -> None:
    """Upstream's ``checkAffineLoopNestMappableImpl``: enough perfectly nested
    loops, with bounds computable above the outermost one."""
    limit = root.body
    loop = root
    for i in range(num_loops):
        if not _defined_above(list(loop.lowerBoundOperands), limit) or not _defined_above(
            list(loop.upperBoundOperands), limit
        ):
            raise _MappingError(loop, "loops with bounds depending on other mapped loops are not supported")
        if i == num_loops - 1:
            break
        ops = list(loop.body.block.ops)
        if len(ops) != 2:
            raise _MappingError(loop, "expected perfectly nested loops in the body")
        if not isinstance(ops[0], affine.ForOp):
            raise _MappingError(ops[0], "expected a nested loop")
        loop = ops[0]


def convert_nest(root: affine.ForOp, num_block_dims: int, num_thread_dims: int) -> None:
    """Replace the nest rooted at ``root`` by a ``gpu.launch``."""
    if num_block_dims > 3:
        raise _MappingError(root, "cannot map to more than 3 block dimensions")
    if num_thread_dims > 3:
        raise _MappingError(root, "cannot map to more than 3 thread dimensions")
    num_loops = num_block_dims + num_thread_dims
    if num_loops == 0:
        raise _MappingError(root, "expected at least one block or thread dimension to map")
    check_nest(root, num_loops)

    rewriter = PatternRewriter(root)
    dims: list[SSAValue] = []
    lbs: list[SSAValue] = []
    steps: list[int] = []
    step_values: list[SSAValue] = []
    ivs: list[SSAValue] = []
    loop = root
    for i in range(num_loops):
        if loop.inits:
            raise _MappingError(loop, "affine loop with iter_args cannot be converted to GPU kernel")
        try:
            lb = lower_map_max(rewriter, loop.lowerBoundMap.data, loop.lowerBoundOperands)
            ub = lower_map_min(rewriter, loop.upperBoundMap.data, loop.upperBoundOperands)
        except AffineLoweringError as err:
            raise _MappingError(loop, str(err)) from None
        size = rewriter.insert(arith.SubiOp(ub, lb)).result
        step = loop.step.value.data
        step_value = rewriter.insert(arith.ConstantOp(IntegerAttr(step, IndexType()))).result
        if step != 1:
            size = rewriter.insert(arith.CeilDivSIOp(size, step_value)).result
        dims.append(size)
        lbs.append(lb)
        steps.append(step)
        step_values.append(step_value)
        ivs.append(loop.body.block.args[0])
        if i != num_loops - 1:
            nested = loop.body.block.first_op
            assert isinstance(nested, affine.ForOp)
            loop = nested
    innermost = loop

    one: SSAValue | None = None
    if num_block_dims < 3 or num_thread_dims < 3:
        one = rewriter.insert(arith.ConstantOp(IntegerAttr(1, IndexType()))).result
    grid = [dims[i] if i < num_block_dims else one for i in range(3)]
    block = [dims[num_block_dims + i] if i < num_thread_dims else one for i in range(3)]
    body = Block(arg_types=[IndexType()] * 12)
    launch = gpu_kernel.LaunchOp.build(
        operands=[[], *grid, *block, [], [], [], [], []],
        regions=[Region(body)],
        result_types=[[]],
    )
    rewriter.insert(launch)

    # Move the innermost mapped loop's body, its terminator replaced.
    inner_block = innermost.body.block
    for op in list(inner_block.ops)[:-1]:
        op.detach()
        body.add_op(op)
    body.add_op(gpu_kernel.TerminatorOp())

    at = InsertPoint.at_start(body)
    args = body.args
    for index, iv in enumerate(ivs):
        id_value = args[index] if index < num_block_dims else args[3 + index - num_block_dims]
        if steps[index] != 1:
            mul = arith.MuliOp(step_values[index], id_value)
            Rewriter.insert_op(mul, at)
            id_value = mul.result
        add = arith.AddiOp(lbs[index], id_value)
        Rewriter.insert_op(add, at)
        iv.replace_all_uses_with(add.result)
    Rewriter.erase_op(root, safe_erase=False)


@dataclass(frozen=True)
class ConvertAffineForToGPU(ModulePass):
    """Convert top-level AffineFor Ops to GPU kernels"""

    name = "convert-affine-for-to-gpu"
    display_name: ClassVar[str] = "ConvertAffineForToGPUPass"
    anchor: ClassVar[str] = "func.func"

    gpu_block_dims: int = 1
    gpu_thread_dims: int = 1

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        roots = [o for region in op.regions for b in region.blocks for o in b.ops if isinstance(o, affine.ForOp)]
        for root in roots:
            try:
                convert_nest(root, self.gpu_block_dims, self.gpu_thread_dims)
            except _MappingError as err:
                raise emit_error(ctx, err.op, str(err)) from None
