"""``convert-scf-to-openmp``: ``scf.parallel`` loops become
``omp.parallel { omp.wsloop { omp.loop_nest ... } omp.terminator }``
(upstream's ``SCFToOpenMP.cpp``).

The loop's dimensions go into one ``omp.loop_nest`` (``collapse(n)`` for
more than one), its body into the nest's region with ``omp.yield`` for the
empty ``scf.reduce``. ``num-threads`` puts a ``num_threads`` clause on every
team; ``automatic-num-threads`` uses the loop's static trip count instead,
as upstream does. Nested parallel loops become nested teams.

Differences from upstream, both about what the loop body may hold:
- a loop with reductions (``scf.reduce`` with operands) stays an
  ``scf.parallel`` (upstream declares an ``omp.declare_reduction`` for it);
  so does every loop around it, since a team cannot hold a sequential part;
- the body is not wrapped in ``memref.alloca_scope``: mlkit's lowering has
  no ``alloca_scope`` yet, and its own lowerings allocate scratch with
  ``memref.alloc`` or ahead of the loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import llvm, omp


def _constant(value: SSAValue) -> int | None:
    attr = value.owner.properties.get("value") if isinstance(value.owner, Operation) else None
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _around_reductions(loops: list[xscf.ParallelOp]) -> set[int]:
    """The loops that reduce values or hold one that does (by ``id``)."""
    blocked: set[int] = set()
    for loop in loops:
        if not (loop.initVals or loop.res):
            continue
        op: Operation | None = loop
        while op is not None and id(op) not in blocked:
            if isinstance(op, xscf.ParallelOp):
                blocked.add(id(op))
            op = op.parent_op()
    return blocked


def static_trip_count(loop: xscf.ParallelOp) -> int | None:
    """The product of the trip counts of every dimension, if all are known."""
    total = 1
    for lb, ub, step in zip(loop.lowerBound, loop.upperBound, loop.step):
        values = [_constant(v) for v in (lb, ub, step)]
        if any(v is None for v in values) or values[2] <= 0:  # type: ignore[operator]
            return None
        low, high, stride = values  # type: ignore[misc]
        total *= max(0, -(-(high - low) // stride))
    return total


def convert_parallel_loop(loop: xscf.ParallelOp, num_threads: int | None) -> omp.ParallelOp:
    """Replace ``loop`` (without reductions) by its OpenMP form."""
    body = loop.body
    block = body.block
    terminator = block.last_op
    assert isinstance(terminator, xscf.ReduceOp)
    Rewriter.replace_op(terminator, omp.YieldOp())
    region = Region()
    body.move_blocks(region)
    nest = omp.LoopNestOp(loop.lowerBound, loop.upperBound, loop.step, region)
    wsloop = omp.WsLoopOp(omp.single_block([nest]))
    before: list[Operation] = []
    count = None
    if num_threads is not None:
        constant = llvm.ConstantOp(IntegerAttr(num_threads, i32), i32)
        before.append(constant)
        count = constant.results[0]
    team = omp.ParallelOp(omp.single_block([wsloop, omp.TerminatorOp()]), count)
    Rewriter.insert_op([*before, team], InsertPoint.before(loop))
    Rewriter.erase_op(loop)
    return team


@dataclass(frozen=True)
class ConvertSCFToOpenMPPass(ModulePass):
    """Convert SCF parallel loop to OpenMP parallel + workshare constructs."""

    name = "convert-scf-to-openmp"

    num_threads: int = 0
    automatic_num_threads: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [loop for loop in op.walk() if isinstance(loop, xscf.ParallelOp)]
        blocked = _around_reductions(loops)
        for loop in reversed(loops):  # inner loops first, while the outer still exist
            if id(loop) in blocked:
                continue
            threads: int | None = self.num_threads or None
            if self.automatic_num_threads:
                threads = static_trip_count(loop) or threads
            convert_parallel_loop(loop, threads)
