"""The blocked, packed loop nest a matmul becomes.

Goto's (BLIS's) algorithm, for each batch index::

    for jc in 0..N step NC                        B panel of NC columns
      for pc in 0..K step KC                      KC-deep slice
        pack B[pc:pc+kc, jc:jc+nc] -> Bp[nc/NR][kc][NR]
        for ic in 0..M step MC                    A block of MC rows
          pack A[ic:ic+mc, pc:pc+kc] -> Ap[mc/MR][kc][MR]
          for jr in 0..nc step NR                 one KC x NR sliver of Bp
            for ir in 0..mc step MR               one MR x KC sliver of Ap
              C[MR x NR tile] += Ap sliver * Bp sliver      (the micro-kernel)

Packing pads the last sliver of each block with zeros, so the micro-kernel
always runs whole: an ``scf.for`` over k carrying the ``MR * NR / VL``
accumulators as iteration arguments, each step a ``vector.load`` per vector of
the B row, a ``vector.broadcast`` per element of the A column and a
``vector.fma`` per accumulator. The accumulators start from the C tile (the
op's init: C += A * B) and go back to it after each KC slice. A tile that
crosses the edge of C (or a C whose rows are not contiguous) goes through an
``MR x NR`` scratch tile, copied in and out element by element for the part
inside C. The scratch buffers are 64-byte aligned and freed after the nest.

Static sizes fold: a dimension that is a multiple of its block loses its
``min`` and edge paths, and blocks shrink to problems smaller than them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlkit.diagnostics.locations import source_loc
from mlkit.passes.conversion.linalg_matmul_to_microkernel.blocking import Blocking
from mlkit.passes.conversion.linalg_matmul_to_microkernel.builder import Bound, Builder, Constants
from mlkit.passes.conversion.linalg_matmul_to_microkernel.contraction import (
    K,
    M,
    N,
    Access,
    Contraction,
)
from xdsl.dialects import memref, vector
from xdsl.dialects.builtin import DYNAMIC_INDEX, VectorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

__all__ = ["emit_matmul"]

ALIGNMENT = 64  # a cache line, and an AVX-512 register


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


@dataclass
class _Nest:
    c: Contraction
    p: Blocking
    extents: dict[str, Bound]
    mc: int
    nc: int
    kc: int
    ap: SSAValue | None = None
    bp: SSAValue | None = None
    ct: SSAValue | None = None
    at: dict[str, SSAValue] = field(default_factory=dict)  # batch indices

    @property
    def vector_type(self) -> VectorType:
        return VectorType(self.c.element, [self.p.vl])

    def always_full(self, role: str, width: int) -> bool:
        extent = self.extents[role]
        return isinstance(extent, int) and extent % width == 0

    def block_extent(self, b: Builder, role: str, start: SSAValue, block: int) -> Bound:
        """``min(block, extent - start)``, folded where the sizes are known."""
        extent = self.extents[role]
        if isinstance(extent, int) and extent <= block:
            return extent
        if isinstance(extent, int) and extent % block == 0:
            return block
        return b.min(block, b.sub(extent, start))

    def indices(self, b: Builder, access: Access, **at: Bound) -> list[SSAValue]:
        return access.indices({**self.at, **{r: b.value(v) for r, v in at.items()}})

    # -- packing ---------------------------------------------------------------------

    def pack(
        self, b: Builder, src: Access, role: str, start: SSAValue, extent: Bound,
        pc: SSAValue, kc: Bound, width: int, dst: SSAValue,
    ) -> None:
        """``dst[s][k][j] = src[role = start + s*width + j, k = pc + k]`` over the
        block, zero where ``s*width + j`` passes ``extent``."""
        loop, body, offset, _ = b.for_(0, extent, width)
        sliver = body.div(offset, width)
        base = body.add(start, offset)
        if self.always_full(role, width):
            self.pack_sliver(body, src, role, base, width, width, pc, kc, dst, sliver)
        else:
            valid = body.sub(extent, offset)
            full = body.less_equal(width, valid)
            assert isinstance(full, SSAValue)
            _, then, other = body.if_(full)
            self.pack_sliver(then, src, role, base, width, width, pc, kc, dst, sliver)
            then.yield_()
            self.pack_sliver(other, src, role, base, valid, width, pc, kc, dst, sliver)
            other.yield_()
        body.yield_()

    def pack_sliver(
        self, b: Builder, src: Access, role: str, base: Bound, valid: Bound, width: int,
        pc: SSAValue, kc: Bound, dst: SSAValue, sliver: Bound,
    ) -> None:
        vl, element = self.p.vl, self.c.element
        if valid == width and src.contiguous(role) and width % vl == 0:
            _, kb, k, _ = b.for_(0, kc, 1)
            row = kb.add(pc, k)
            for v in range(width // vl):
                column = kb.add(base, v * vl)
                load = kb.add_op(vector.LoadOp(
                    src.buffer, self.indices(kb, src, **{role: column, K: row}), self.vector_type
                ))  # fmt: skip
                kb.add_op(vector.StoreOp(load.results[0], dst, [kb.value(sliver), k, kb.value(v * vl)]))
            kb.yield_()
            return
        k_inner = src.roles[-1] == K  # walk src along its contiguous dimension

        def copy(lo: Bound, hi: Bound, zero: bool) -> None:
            outer_hi, inner_hi = (hi, kc) if k_inner else (kc, hi)
            outer_lo, inner_lo = (lo, 0) if k_inner else (0, lo)
            _, ob, i, _ = b.for_(outer_lo, outer_hi, 1)
            _, ib, j, _ = ob.for_(inner_lo, inner_hi, 1)
            col, k = (i, j) if k_inner else (j, i)
            if zero:
                value = ib.constants.float(0.0, element)
            else:
                at = {role: ib.add(base, col), K: ib.add(pc, k)}
                value = ib.add_op(memref.LoadOp.get(src.buffer, self.indices(ib, src, **at))).results[0]
            ib.add_op(memref.StoreOp.get(value, dst, [ib.value(sliver), k, col]))
            ib.yield_()
            ob.yield_()

        copy(0, valid, zero=False)
        if valid != width:
            copy(valid, width, zero=True)

    # -- the micro-kernel --------------------------------------------------------------

    def tile(
        self, b: Builder, i0: Bound, j0: Bound, rows: Bound, cols: Bound,
        sa: Bound, sb: Bound, kc: Bound,
    ) -> None:
        """``C[i0:i0+MR, j0:j0+NR] += Ap[sa] * Bp[sb]``, clipped to ``rows x cols``."""
        p, out = self.p, self.c.out
        full: bool | SSAValue = b.both(
            True if self.always_full(M, p.mr) else b.less_equal(p.mr, rows),
            True if self.always_full(N, p.nr) else b.less_equal(p.nr, cols),
        )
        if not out.contiguous(N):
            full = False
        types = [self.vector_type] * (p.mr * p.vectors_per_row)

        def direct_loads(lb: Builder) -> list[SSAValue]:
            return [
                lb.add_op(vector.LoadOp(
                    out.buffer, self.indices(lb, out, **{M: lb.add(i0, r), N: lb.add(j0, v * p.vl)}),
                    self.vector_type,
                )).results[0]
                for r in range(p.mr) for v in range(p.vectors_per_row)
            ]  # fmt: skip

        def scratch_loads(lb: Builder) -> list[SSAValue]:
            self.copy_tile(lb, i0, j0, rows, cols, into_scratch=True)
            assert self.ct is not None
            return [
                lb.add_op(vector.LoadOp(
                    self.ct, [lb.value(r), lb.value(v * p.vl)], self.vector_type
                )).results[0]
                for r in range(p.mr) for v in range(p.vectors_per_row)
            ]  # fmt: skip

        if full is True:
            accs = direct_loads(b)
        elif full is False:
            accs = scratch_loads(b)
        else:
            branch, then, other = b.if_(full, types)
            then.yield_(*direct_loads(then))
            other.yield_(*scratch_loads(other))
            accs = list(branch.results)
        accs = self.k_loop(b, accs, sa, sb, kc)

        def direct_stores(sb_: Builder) -> None:
            for n, acc in enumerate(accs):
                r, v = divmod(n, p.vectors_per_row)
                at = {M: sb_.add(i0, r), N: sb_.add(j0, v * p.vl)}
                sb_.add_op(vector.StoreOp(acc, out.buffer, self.indices(sb_, out, **at)))

        def scratch_stores(sb_: Builder) -> None:
            assert self.ct is not None
            for n, acc in enumerate(accs):
                r, v = divmod(n, p.vectors_per_row)
                sb_.add_op(vector.StoreOp(acc, self.ct, [sb_.value(r), sb_.value(v * p.vl)]))
            self.copy_tile(sb_, i0, j0, rows, cols, into_scratch=False)

        if full is True:
            direct_stores(b)
        elif full is False:
            scratch_stores(b)
        else:
            _, then, other = b.if_(full)
            direct_stores(then)
            then.yield_()
            scratch_stores(other)
            other.yield_()

    def k_loop(self, b: Builder, accs: list[SSAValue], sa: Bound, sb: Bound, kc: Bound) -> list[SSAValue]:
        p = self.p
        assert self.ap is not None and self.bp is not None
        loop, kb, k, carried = b.for_(0, kc, 1, accs)
        sa_v, sb_v = kb.value(sa), kb.value(sb)
        rows = [
            kb.add_op(vector.LoadOp(self.bp, [sb_v, k, kb.value(v * p.vl)], self.vector_type)).results[0]
            for v in range(p.vectors_per_row)
        ]
        new: list[SSAValue] = []
        for r in range(p.mr):
            a = kb.add_op(memref.LoadOp.get(self.ap, [sa_v, k, kb.value(r)])).results[0]
            splat = kb.add_op(vector.BroadcastOp(a, self.vector_type)).results[0]
            for v in range(p.vectors_per_row):
                acc = carried[r * p.vectors_per_row + v]
                new.append(kb.add_op(vector.FMAOp(splat, rows[v], acc)).results[0])
        kb.yield_(*new)
        return list(loop.results)

    def copy_tile(
        self, b: Builder, i0: Bound, j0: Bound, rows: Bound, cols: Bound, into_scratch: bool
    ) -> None:
        """Copy the part of the C tile inside C into the scratch tile, or back."""
        assert self.ct is not None
        out = self.c.out
        _, rb, r, _ = b.for_(0, b.min(rows, self.p.mr), 1)
        _, cb, j, _ = rb.for_(0, rb.min(cols, self.p.nr), 1)
        c_at = self.indices(cb, out, **{M: cb.add(i0, r), N: cb.add(j0, j)})
        if into_scratch:
            value = cb.add_op(memref.LoadOp.get(out.buffer, c_at)).results[0]
            cb.add_op(memref.StoreOp.get(value, self.ct, [r, j]))
        else:
            value = cb.add_op(memref.LoadOp.get(self.ct, [r, j])).results[0]
            cb.add_op(memref.StoreOp.get(value, out.buffer, c_at))
        cb.yield_()
        rb.yield_()

    # -- the nest ----------------------------------------------------------------------

    def blocks(self, b: Builder) -> None:
        c, p = self.c, self.p
        _, jb, jc, _ = b.for_(0, self.extents[N], self.nc)
        nc = self.block_extent(jb, N, jc, self.nc)
        _, kb, pc, _ = jb.for_(0, self.extents[K], self.kc)
        kc = self.block_extent(kb, K, pc, self.kc)
        assert self.bp is not None and self.ap is not None
        self.pack(kb, c.rhs, N, jc, nc, pc, kc, p.nr, self.bp)
        _, ib, ic, _ = kb.for_(0, self.extents[M], self.mc)
        mc = self.block_extent(ib, M, ic, self.mc)
        self.pack(ib, c.lhs, M, ic, mc, pc, kc, p.mr, self.ap)
        _, rb, jr, _ = ib.for_(0, nc, p.nr)
        sb = rb.div(jr, p.nr)
        cols = rb.sub(nc, jr)
        j0 = rb.add(jc, jr)
        _, tb, ir, _ = rb.for_(0, mc, p.mr)
        sa = tb.div(ir, p.mr)
        self.tile(tb, tb.add(ic, ir), j0, tb.sub(mc, ir), cols, sa, sb, kc)
        for inner in (tb, rb, ib, kb, jb):
            inner.yield_()


def emit_matmul(rewriter: PatternRewriter, c: Contraction, p: Blocking) -> None:
    """Replace the matmul ``c.op`` by its blocked loop nest."""
    op = c.op
    constants = Constants()
    pre = Builder(Block(), constants)
    extents: dict[str, Bound] = {}
    for role in (*c.batch, M, N, K):
        buffer, dim = c.extent_source(role)
        size = c.out.type.get_shape()[dim] if buffer is c.out.buffer else c.lhs.type.get_shape()[dim]
        if size == DYNAMIC_INDEX:
            extents[role] = pre.add_op(memref.DimOp.from_source_and_index(
                buffer, constants.index(dim)
            )).results[0]  # fmt: skip
        else:
            extents[role] = size
    m, n, k = extents[M], extents[N], extents[K]
    mc = min(p.mc, _round_up(m, p.mr)) if isinstance(m, int) else p.mc
    nc = min(p.nc, _round_up(n, p.nr)) if isinstance(n, int) else p.nc
    kc = max(1, min(p.kc, k)) if isinstance(k, int) else p.kc
    nest = _Nest(c, p, extents, mc, nc, kc)

    def scratch(shape: list[int]) -> SSAValue:
        alloc = pre.add_op(memref.AllocOp.get(c.element, ALIGNMENT, shape))
        return alloc.results[0]

    nest.ap = scratch([mc // p.mr, kc, p.mr])
    nest.bp = scratch([nc // p.nr, kc, p.nr])
    needs_scratch_tile = not (
        nest.always_full(M, p.mr) and nest.always_full(N, p.nr) and c.out.contiguous(N)
    )
    if needs_scratch_tile:
        nest.ct = scratch([p.mr, p.nr])
    body = pre
    loops: list[Builder] = []
    for role in c.batch:
        _, body, iv, _ = body.for_(0, extents[role], 1)
        nest.at[role] = iv
        loops.append(body)
    nest.blocks(body)
    for inner in reversed(loops):
        inner.yield_()
    for buffer in (nest.ap, nest.bp, nest.ct):
        if buffer is not None:
            pre.add_op(memref.DeallocOp.get(buffer))
    new_ops: list[Operation] = [*constants.ops, *pre.block.ops]
    for new in new_ops:
        if new.parent is not None:
            new.detach()
        for inner in new.walk():
            if not source_loc(inner.location).known:
                inner.location = op.location
    rewriter.insert(new_ops, InsertPoint.before(op))
    rewriter.erase(op)

