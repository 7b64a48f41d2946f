"""``scf-forall-to-parallel``: an ``scf.forall`` becomes an ``scf.parallel``.

As upstream's ``forallToParallelLoop``: the forall's bounds and steps (static
ones as ``arith.constant``) become the parallel loop's, its body moves into
the parallel loop with the induction variables for its arguments (its
``mapping`` kept as an attribute), and its
empty ``scf.forall.in_parallel`` terminator becomes ``scf.reduce``. A forall
with ``shared_outs`` (before bufferization) fails the pass, as upstream's
does; mlkit also says why, at the forall. From there
``convert-scf-to-openmp`` runs it on threads.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.diagnostics.emit import emit_error
from mlkit.dialects.scf import ForallOp, ParallelOp, ReduceOp
from mlkit.passes.transforms.scf_forall_to_for import forall_bounds


def forall_to_parallel(ctx: Context, forall: ForallOp) -> None:
    """Replace ``forall`` by an ``scf.parallel`` (upstream's ``forallToParallelLoop``)."""
    if forall.outputs:
        raise emit_error(ctx, forall, "only fully bufferized scf.forall ops can be lowered to scf.parallel")
    lbs, ubs, steps = forall_bounds(forall)
    block = forall.body.block
    terminator = block.last_op
    if terminator is not None:
        Rewriter.erase_op(terminator)
    body = Block(arg_types=[arg.type for arg in block.args])
    body.add_op(ReduceOp())
    Rewriter.inline_block(block, InsertPoint.before(body.last_op), body.args)  # pyright: ignore
    parallel = ParallelOp(lbs, ubs, steps, Region(body))
    if forall.mapping is not None:
        parallel.attributes["mapping"] = forall.mapping  # kept, as upstream does
    Rewriter.replace_op(forall, parallel)


@dataclass(frozen=True)
class ScfForallToParallel(ModulePass):
    """Convert SCF forall loop to SCF parallel loop"""

    name = "scf-forall-to-parallel"

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        for forall in [o for o in op.walk(region_first=True) if isinstance(o, ForallOp)]:
            if forall is not op:
                forall_to_parallel(ctx, forall)
