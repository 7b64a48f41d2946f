"""``linalg-vectorize-loops``: elementwise linalg ops and reductions on
buffers to loop nests whose innermost loop works on host-width vectors.

Upstream MLIR has no pass for this. It vectorizes linalg ops through the
transform dialect (``transform.structured.vectorize``, backed by
``mlir/lib/Dialect/Linalg/Transforms/Vectorization.cpp``) after a schedule has
tiled them to vector-sized pieces; mlkit's default pipeline runs no schedule,
so this pass does the tiling and the vectorization of the innermost loop in
one step, right after bufferization and before ``convert-linalg-to-loops``.
It follows ``Vectorization.cpp``'s semantics for what it accepts and how the
body becomes vector code:

- which ops: structured ops (``linalg.generic``, ``map``, ``reduce``, the named
  elementwise ops) on buffers whose indexing maps are projected permutations
  and whose body holds only arith and math ops (upstream's elementwise-mappable
  ops) and ``linalg.index`` (``vectorizeLinalgOpPrecondition``);
- the body: each op cloned on vector types, loop-invariant scalars broadcast
  (``vectorizeOneOp``'s broadcasting of operands), ``linalg.index`` of the
  vectorized loop as ``offset + [0, 1, ...]`` (``vectorizeLinalgIndex``);
- reductions: a yielded value that combines its init with an arith combiner
  (``matchReduction``, ``getCombinerOpKind``) accumulates in a vector and ends
  in ``vector.reduction`` of that kind (upstream's
  ``vector.multi_reduction``), which reorders a floating-point reduction as
  upstream's does (``vectorize-fp-reductions=false`` keeps those scalar).

Where upstream vectorizes a whole static tile with masks or
``transfer_read``/``transfer_write``, this pass strip-mines the innermost loop
into full ``vector.load``/``vector.store`` iterations and a scalar remainder,
because mlkit's ``convert-vector-to-llvm`` lowers neither masks nor transfer
ops; any trip count (dynamic, odd, smaller than a vector) works. Only the
innermost loop is vectorized, so each vectorized operand must be contiguous
along it: an innermost access that is transposed or strided is left alone,
as are matmul-like contractions (for contraction tiling), ops with other
body ops, and ops on tensors. What is left, ``convert-linalg-to-loops`` lowers.

With ``parallel``, the outermost loop of an op with enough work
(``parallel-threshold`` iterations, or a dynamic size) is an ``scf.parallel``
when it is a parallel dimension, for ``convert-scf-to-openmp`` to run on
threads; an elementwise op with a single loop is cut into chunks first.

The vector width is the target's (``vector-bits``, 0: the widest register of
the machine code is generated for, see :mod:`mlkit.target.vector_width`); the
widest scalar the vector ops carry fills it.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlkit.pipeline.options import option

from mlkit.target.vector_width import TargetVectors, module_target_vectors, vector_bits_option
from mlkit.passes.conversion.linalg_to_vector_loops_plan import (
    Plan,
    Unsupported,
    plan_op,
    static_extent,
)
from mlkit.passes.conversion.linalg_to_vector_loops_emitter import emit_vector_loops
from mlkit.passes.transforms.rewrite_driver import rewrite_regions
from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from mlkit.diagnostics import UNKNOWN, DiagnosticError

__all__ = ["LinalgVectorizeLoops", "VectorizeLinalgPattern", "plan_op"]


@dataclass
class VectorizeLinalgPattern(RewritePattern):
    """A vectorizable structured op on buffers, to its vector loop nest."""

    vector_bits: int
    unroll: int = 1
    vectorize_fp_reductions: bool = True
    parallel_min: int | None = None  # with threads: the fewest iterations worth them
    interleave: bool = False  # the unrolled copies of an elementwise body as one wide vector

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        try:
            plan = plan_op(op)
        except Unsupported:
            return
        if plan.reductions and not self.vectorize_fp_reductions and any(
            isinstance(r.partial.type, AnyFloat) for r in plan.reductions
        ):
            return
        lanes, unroll = self.shape(plan)
        if lanes < 2:
            return
        emit_vector_loops(rewriter, plan, lanes, unroll, self.parallel_min, self.interleave)

    def shape(self, plan: Plan) -> tuple[int, int]:
        """Lanes and vectors per iteration: a static trip count shorter than
        the vectors (or their unrolled group) narrows them to fit."""
        lanes, unroll = plan.lanes(self.vector_bits), max(1, self.unroll)
        extent = static_extent(plan, plan.inner)
        if extent is not None:
            while lanes > extent:
                lanes //= 2
            unroll = max(1, min(unroll, extent // max(lanes, 1)))
        return lanes, unroll


@dataclass(frozen=True)
class LinalgVectorizeLoops(ModulePass):
    """Lower elementwise and reduction linalg ops on buffers to vectorized loops"""

    name = "linalg-vectorize-loops"

    vector_bits: int = vector_bits_option()
    unroll: int = option(2, "Vectors per iteration of the main vector loop")
    vectorize_fp_reductions: bool = option(
        True, "Vectorize floating-point reductions, which reorders them"
    )
    parallel: bool = option(
        False,
        "Make the outermost parallel loop an scf.parallel (for threads); an "
        "elementwise op with one loop is cut into chunks for it",
    )
    parallel_threshold: int = option(
        1 << 15, "Fewest iterations an op with static sizes needs for parallel"
    )
    interleave: bool = option(
        True,
        "On targets with 32 vector registers, compute an elementwise op's unrolled "
        "copies side by side, op by op, rather than one after the other",
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.vector_bits < 0:
            raise DiagnosticError.at(UNKNOWN, "vector-bits cannot be negative")
        if self.unroll < 1:
            raise DiagnosticError.at(UNKNOWN, "unroll must be at least 1")
        target = module_target_vectors(ctx, op)
        bits = self.vector_bits or target.bits
        pattern = VectorizeLinalgPattern(
            bits, self.unroll, self.vectorize_fp_reductions,
            max(0, self.parallel_threshold) if self.parallel else None,
            self.interleave and TargetVectors(bits, target.arch, target.host).registers >= 32,
        )  # fmt: skip
        rewrite_regions(op, pattern, apply_recursively=False)
