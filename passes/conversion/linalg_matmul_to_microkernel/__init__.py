"""``linalg-matmul-to-microkernel``: matmuls on buffers to a cache-blocked,
packed loop nest around a register-blocked vector micro-kernel.

Upstream MLIR gets this structure from a schedule: tile
(``transform.structured.tile_using_for``), pack (``linalg-block-pack-matmul``,
``linalg.pack``) and vectorize (``transform.structured.vectorize`` to
``vector.contract``, lowered to outer products and FMAs). mlkit has none of
those yet, so this pass stands for that route in one step. It runs after
bufferization, on memrefs, ahead of ``convert-linalg-to-loops``, and rewrites

- ``linalg.matmul`` and ``linalg.batch_matmul`` (with or without transposing
  ``indexing_maps``),
- ``linalg.conv_2d_nhwc_hwcf``, ``linalg.conv_2d_nchw_fchw`` (any strides and
  dilations) and convolutions like them, through the same nest on an
  implicit im2col (:mod:`.conv`),
- ``linalg.matvec`` and ``linalg.vecmat``, to vector loops that read the
  matrix once instead (:mod:`.gemv`), and
- any ``linalg.generic`` of those shapes (``linalg-generalize-named-ops`` turns
  the named ops into these before fusion), including ones whose ``m``, ``n``
  or ``k`` is several loops that each operand can view as one dimension
  (a 3-D ``x @ W`` whose ``collapse_shape`` fusion folded in: :mod:`.collapse`),

in f32 and f64 with static or dynamic sizes (see :mod:`.contraction` for what
is accepted; integer and mixed-type ones, depthwise convolutions and other
generics are left to ``convert-linalg-to-loops``). The op's init is
accumulated into (C += A * B). With ``fuse`` (the default) the fill of C
just before a matmul and an elementwise op just after it (bias add,
activation) are absorbed into its tiles (:mod:`.fusion`). The nest and the micro-kernel are described in
:mod:`.kernel`, packing in :mod:`.packing`; they use only vector ops
``convert-vector-to-llvm`` lowers (``load``, ``store``, ``broadcast``,
``shuffle``, ``fma``), and pad edges with zeros instead of masking.

The parameters come from the machine code is generated for (``--mtriple``/
``--mcpu``, else the host): the vector width from its CPU features
(:mod:`mlkit.target.vector_width`), the register tile from its register
count and the cache blocks from its cache sizes (:mod:`.blocking`). Each can
be overridden: ``vector-bits``, ``mr``, ``nr``, ``kc``, ``mc``, ``nc``
(0: chosen from the target).

It must run after ``buffer-deallocation-pipeline`` (its scratch buffers are
freed with ``memref.dealloc``, which the ownership-based deallocation
rejects) and before ``linalg-vectorize-loops`` (which would otherwise take
the elementwise op it can absorb).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlkit.pipeline.options import option

from mlkit.target.vector_width import TargetVectors, module_target_vectors, vector_bits_option
from mlkit.diagnostics import UNKNOWN, DiagnosticError
from mlkit.passes.conversion.linalg_matmul_to_microkernel.blocking import (
    Blocking,
    CacheSizes,
    choose_blocking,
    host_cache_sizes,
)
from mlkit.passes.conversion.linalg_matmul_to_microkernel.contraction import match_contraction
from mlkit.passes.conversion.linalg_matmul_to_microkernel.conv import (
    conv_blocking,
    match_convolution,
)
from mlkit.passes.conversion.linalg_matmul_to_microkernel.fusion import find_epilogue, find_fill
from mlkit.passes.conversion.linalg_matmul_to_microkernel.gemv import emit_gemv, match_gemv
from mlkit.passes.conversion.linalg_matmul_to_microkernel.kernel import emit_matmul
from mlkit.passes.transforms.rewrite_driver import rewrite_regions
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

__all__ = ["LinalgMatmulToMicrokernel", "MatmulToMicrokernelPattern"]


@dataclass
class MatmulToMicrokernelPattern(RewritePattern):
    """A matmul-shaped structured op on buffers, to its blocked loop nest."""

    blocking: dict[int, Blocking]  # by element width in bytes
    registers: int = 16  # vector registers of the target
    fuse: bool = True
    parallel: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        contraction = match_contraction(op)
        if contraction is None:
            contraction = match_convolution(op)
        if contraction is None:
            gemv = match_gemv(op)
            if gemv is not None:
                vl = self.blocking[gemv.element.bitwidth // 8].vl
                emit_gemv(rewriter, gemv, vl, self.registers)
            return
        blocking = self.blocking[contraction.element.bitwidth // 8]
        if not (contraction.lhs.plain and contraction.rhs.plain):
            blocking = conv_blocking(contraction, blocking)
        fill = find_fill(contraction) if self.fuse else None
        epilogue = find_epilogue(contraction, fill[0] if fill else None) if self.fuse else None
        emit_matmul(rewriter, contraction, blocking, fill, epilogue, self.parallel)


@dataclass(frozen=True)
class LinalgMatmulToMicrokernel(ModulePass):
    """Lower matmuls on buffers to packed, cache-blocked loops around a vector FMA micro-kernel"""

    name = "linalg-matmul-to-microkernel"

    vector_bits: int = vector_bits_option()
    mr: int = option(0, "Rows of the register tile; 0: from the target")
    nr: int = option(0, "Columns of the register tile (whole vectors); 0: from the target")
    kc: int = option(0, "Depth of a packed slice; 0: from the L1 size")
    mc: int = option(0, "Rows of a packed A block; 0: from the L2 size")
    nc: int = option(0, "Columns of a packed B block; 0: from the L2 size")
    fuse: bool = option(
        True, "Absorb the fill before a matmul and the elementwise op after it into its tiles"
    )
    parallel: bool = option(False, "Make the loop over row blocks an scf.parallel (for threads)")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for name in ("vector_bits", "mr", "nr", "kc", "mc", "nc"):
            if getattr(self, name) < 0:
                raise DiagnosticError.at(UNKNOWN, f"{name.replace('_', '-')} cannot be negative")
        target = module_target_vectors(ctx, op)
        bits = self.vector_bits or target.bits
        if bits < 64:
            raise DiagnosticError.at(UNKNOWN, "vector-bits must be at least 64")
        caches = host_cache_sizes() if target.host else CacheSizes()
        registers = TargetVectors(bits, target.arch, target.host).registers
        blocking = {
            width: choose_blocking(
                width, bits, registers, caches,
                mr=self.mr, nr=self.nr, kc=self.kc, mc=self.mc, nc=self.nc,
            )
            for width in (4, 8)
        }  # fmt: skip
        pattern = MatmulToMicrokernelPattern(blocking, registers, self.fuse, self.parallel)
        rewrite_regions(op, pattern, apply_recursively=False)
