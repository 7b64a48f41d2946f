"""``lower-to-cpu``: the one-word pipeline from tensors to the llvm dialect.

It takes any mix of tensor, linalg, affine, scf, arith, math, memref and func
IR to the llvm dialect, ready for ``--emit=llvm|asm|obj``, with mlkit's passes
only and in the order upstream's integration tests lower their programs:
decompose ``linalg.softmax`` into generics, bufferize across function
boundaries (loops may yield new tensors), hoist its allocations out of
branches and loops and put the small ones on the stack
(``buffer-placement``), free what bufferization allocated, turn ``linalg.pack``
and ``linalg.unpack`` into loops, then the other linalg ops, affine into scf and scf into
a CFG, expand strided memref metadata (which leaves affine.apply behind, so
lower-affine runs again), then math ops with an LLVM intrinsic to intrinsics
and the rest to libm calls, and everything else through ``convert-to-llvm``.

It optimizes as XLA does, each step an option: first, on tensors, arith and
math ops become ``linalg.generic``, named elementwise ops are generalized and
chains of elementwise generics fuse into one loop nest
(``fusion``); after bufferization, matmul-shaped contractions run on
packed panels and a register-blocked micro-kernel with their elementwise
epilogue in the tile (``microkernels``), elementwise ops and reductions on
the target's vector registers (``vectorize``, ``vector-bits``); after the
loops exist, loop-invariant code is hoisted; the row blocks of
contractions and the outer loops of large elementwise ops and reductions
run on threads of mlkit's pool (``threads``, ``num-threads``,
``parallel-threshold``: ``scf.parallel``, and ``scf.forall`` through
``scf-forall-to-parallel``, through ``convert-scf-to-openmp``,
and the LLVM IR translation outlines each team); f32
transcendental functions become upstream's polynomial approximations, which
vectorize (``polynomial-math``), where a libm call per lane would not.

With ``runtime-checks``, the memref loads, stores, dims and casts the loops
hold (the program's own and the scalar loops linalg ops become; not the
vector loads the micro-kernels and the vectorizer emit, which are in bounds
by construction) are checked when the code runs.

Input that already frees its own buffers (``memref.dealloc``) must be lowered
with ``deallocation=false``, since the ownership-based deallocation rejects it,
as upstream's does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mlkit.pipeline.options import option


@dataclass
class LowerToCPU:
    """Lower tensor, linalg, affine, scf, arith, math, memref and func IR to the llvm dialect"""

    name = "lower-to-cpu"

    function_boundary_type_conversion: Literal["identity-layout-map", "infer-layout-map"] = option(
        "identity-layout-map", "Layout of the memrefs that replace tensor arguments and results"
    )
    deallocation: bool = option(True, "Free the buffers bufferization allocates")
    buffer_placement: bool = option(
        True,
        "Hoist allocations out of branches and loops and put small ones on the stack "
        "(buffer-hoisting, buffer-loop-hoisting, promote-buffers-to-stack)",
    )
    affine_loops: bool = option(False, "Lower linalg ops to affine loops rather than scf loops")
    fusion: bool = option(True, "Fuse elementwise ops into one loop nest, on tensors")
    microkernels: bool = option(
        True, "Run matmul-shaped contractions on packed, register-blocked micro-kernels"
    )
    vectorize: bool = option(
        True, "Run elementwise ops and reductions on the target's vector registers"
    )
    vector_bits: int = option(0, "Vector register width in bits (0: the target machine's widest)")
    polynomial_math: bool = option(
        True, "Approximate f32 math functions with polynomials rather than libm calls"
    )
    threads: bool = option(
        True,
        "Run the row blocks of contractions and large elementwise ops and "
        "reductions on threads",
    )
    num_threads: int = option(
        0, "Threads per parallel loop (0: the runtime's, see MLKIT_NUM_THREADS)"
    )
    runtime_checks: bool = option(
        False,
        "Check memref accesses and casts when the code runs "
        "(generate-runtime-verification on the loops)",
    )
    parallel_threshold: int = option(
        1 << 15, "Fewest iterations an elementwise op or reduction needs for threads"
    )

    def pipeline(self) -> str:
        # softmax is not a structured op: its generics lower (and fuse) as any others
        steps = ["func.func(linalg-decompose-aggregated-ops)"]
        if self.fusion:
            # Micro-kernels read plain operands: producers stay out of contractions.
            into = str(not self.microkernels).lower()
            steps += [
                "func.func(convert-elementwise-to-linalg,linalg-generalize-named-ops,"
                f"linalg-fuse-elementwise-ops{{fuse-into-contractions={into}}})",
                "canonicalize",
                "cse",
            ]
        steps += [
            "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
            f"function-boundary-type-conversion={self.function_boundary_type_conversion}}}",
        ]
        if self.buffer_placement:
            steps.append("func.func(buffer-hoisting,buffer-loop-hoisting,promote-buffers-to-stack)")
        if self.deallocation:
            steps.append("buffer-deallocation-pipeline")
        steps.append("convert-linalg-pack-unpack-to-loops")
        threads = str(self.threads).lower()
        if self.microkernels:
            steps.append(f"linalg-matmul-to-microkernel{{parallel={threads}}}")
        if self.vectorize:
            steps.append(
                f"linalg-vectorize-loops{{vector-bits={self.vector_bits} parallel={threads} "
                f"parallel-threshold={self.parallel_threshold}}}"
            )
        steps += [
            "convert-linalg-to-affine-loops" if self.affine_loops else "convert-linalg-to-loops",
        ]
        if self.runtime_checks:
            steps.append("generate-runtime-verification")
        steps += ["loop-invariant-code-motion", "scf-forall-to-parallel"]
        if self.threads:
            steps.append(f"convert-scf-to-openmp{{num-threads={max(0, self.num_threads)}}}")
        steps += [
            "convert-vector-to-scf",
            "lower-affine",
            "convert-scf-to-cf",
            "expand-strided-metadata",
            "lower-affine",
        ]
        if self.polynomial_math:
            steps.append("test-math-polynomial-approximation")
        steps += [
            "canonicalize",
            "cse",
            "convert-math-to-llvm",
            "convert-math-to-libm",
            "convert-to-llvm",
            "reconcile-unrealized-casts",
            "canonicalize",
            "cse",
        ]
        return ",".join(steps)
