"""The blocked, packed loop nest a matmul becomes.

Goto's (BLIS's) algorithm, for each batch index::

    for jc in 0..N step NC                        B panel of NC columns
      for pc in 0..K step KC                      KC-deep slice
        pack B[pc:pc+kc, jc:jc+nc] -> Bp[nc/NR][kc*NR]
        for ic in 0..M step MC                    A block of MC rows (on threads)
          pack A[ic:ic+mc, pc:pc+kc] -> Ap[mc/MR][kc*MR]
          for ir in 0..mc step MR                 one MR x KC sliver of Ap (in L1)
            for jr in 0..nc step NR               one KC x NR sliver of Bp (from L2)
              C[MR x NR tile] += Ap sliver * Bp sliver      (the micro-kernel)

The row slivers are outside the column slivers, so an A sliver stays in L1
while the whole packed B block (in L2) streams past it, and consecutive tiles
walk along the rows of C, which the hardware prefetcher follows (measured on
AVX-512: 1.06x the other order at 2048^3; NC past the L2 size loses).

Packing (:mod:`.packing`) pads the last sliver of each block with zeros, so
the micro-kernel always runs whole: an ``scf.for`` over k carrying the
``MR * NR / VL`` accumulators as iteration arguments, each step a
``vector.load`` per vector of the B row, a ``vector.broadcast`` per element of
the A column and a ``vector.fma`` per accumulator. The accumulators start at
zero, so that no FMA waits for C to arrive from memory, and after each KC
slice are added to the C tile (the op's init: C += A * B), or to the value of
an absorbed fill in the first slice; the last slice may store an absorbed
epilogue of the tile instead (:mod:`.fusion`). With both absorbed, the
partial sums of the earlier slices are kept in the epilogue's output itself,
and C, never read, is not allocated: one buffer of the size of C instead of
two in the caches. A tile that crosses the edge
of C (or a C whose rows are not contiguous) goes through an ``MR x NR``
scratch tile, copied in and out element by element for the part inside C.
The scratch buffers are 64-byte aligned and freed after the nest.

With ``parallel``, the row-block loop is an ``scf.parallel``: its blocks
write disjoint rows of C, so threads share the packed B panel and each packs
its own A block (and uses its own scratch tile); the slivers of the B panel
are packed on threads too, ahead of it. Every tile is computed as without
threads, so the result is the same to the bit.

Static sizes fold: a dimension that is a multiple of its block loses its
``min`` and edge paths, and blocks shrink to problems smaller than them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from mlkit.passes.conversion.linalg_matmul_to_microkernel.blocking import Blocking
from mlkit.passes.conversion.linalg_matmul_to_microkernel.builder import (
    Bound,
    Builder,
    Constants,
    insert_built,
)
from mlkit.passes.conversion.linalg_matmul_to_microkernel.collapse import collapse
from mlkit.passes.conversion.linalg_matmul_to_microkernel.contraction import (
    K,
    M,
    N,
    Access,
    Contraction,
)
from mlkit.passes.conversion.linalg_matmul_to_microkernel.fusion import Epilogue
from mlkit.passes.conversion.linalg_matmul_to_microkernel.packing import Packer
from xdsl.dialects import arith as xarith
from xdsl.dialects import memref, vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

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
    fill: SSAValue | None = None  # the value of the absorbed fill of C
    epilogue: Epilogue | None = None
    parallel: bool = False  # row blocks run on threads, each with its own Ap and C tile
    scratch_shapes: dict[str, list[int]] = field(default_factory=dict)

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

    # -- the micro-kernel --------------------------------------------------------------

    def tile(
        self, b: Builder, i0: Bound, j0: Bound, rows: Bound, cols: Bound,
        sa: Bound, sb: Bound, pc: SSAValue, kc: Bound,
    ) -> None:
        """``C[i0:i0+MR, j0:j0+NR] += Ap[sa] * Bp[sb]``, clipped to ``rows x cols``."""
        p, out = self.p, self.c.out
        full: bool | SSAValue = b.both(
            True if self.always_full(M, p.mr) else b.less_equal(p.mr, rows),
            True if self.always_full(N, p.nr) else b.less_equal(p.nr, cols),
        )
        if not out.contiguous(N):
            full = False
        zero = b.constants.splat(0.0, self.vector_type)
        accs = self.k_loop(b, [zero] * (p.mr * p.vectors_per_row), sa, sb, kc)
        first = self.first_slice(b, pc)
        last = self.last_slice(b, pc, kc)

        def write_back(ub: Builder, is_first: bool, is_last: bool) -> None:
            if full is not False:
                _branch(ub, full, lambda fb: self.direct(fb, accs, i0, j0, is_first, is_last),
                        lambda fb: self.through_scratch(fb, accs, i0, j0, rows, cols, is_first, is_last))
            else:
                self.through_scratch(ub, accs, i0, j0, rows, cols, is_first, is_last)

        _branch(
            b, first,
            lambda fb: _branch(fb, last, lambda lb: write_back(lb, True, True),
                               lambda lb: write_back(lb, True, False)),
            lambda fb: _branch(fb, last, lambda lb: write_back(lb, False, True),
                               lambda lb: write_back(lb, False, False)),
        )  # fmt: skip

    def first_slice(self, b: Builder, pc: SSAValue) -> bool | SSAValue:
        """Whether C starts from the absorbed fill in this KC slice."""
        if self.fill is None:
            return False
        if isinstance(self.extents[K], int) and self.extents[K] <= self.kc:
            return True
        return b.equal(pc, 0)

    def last_slice(self, b: Builder, pc: SSAValue, kc: Bound) -> bool | SSAValue:
        """Whether the epilogue applies after this KC slice."""
        if self.epilogue is None:
            return False
        if isinstance(self.extents[K], int) and self.extents[K] <= self.kc:
            return True
        return b.less_equal(self.extents[K], b.add(pc, kc))

    def old_value(self, b: Builder, buffer: SSAValue, where: list[SSAValue], is_first: bool) -> SSAValue:
        """The tile's value before this slice: loaded, or the fill's in the first."""
        if is_first:
            assert self.fill is not None
            return b.add_op(vector.BroadcastOp(self.fill, self.vector_type)).results[0]
        return b.add_op(vector.LoadOp(buffer, where, self.vector_type)).results[0]

    def direct(
        self, b: Builder, accs: list[SSAValue], i0: Bound, j0: Bound, is_first: bool, is_last: bool
    ) -> None:
        """``C tile = old + accs`` (old: C, or the fill), or the epilogue of it to D."""
        p, out = self.p, self.c.out
        for n, acc in enumerate(accs):
            r, v = divmod(n, p.vectors_per_row)
            at = {**self.at, M: b.value(b.add(i0, r)), N: b.value(b.add(j0, v * p.vl))}
            where = out.locate(b, at)
            total = b.add_op(xarith.AddfOp(self.old_value(b, out.buffer, where, is_first), acc)).results[0]
            if is_last:
                assert self.epilogue is not None
                result = self.epilogue.apply(b, total, at, p.vl)
                b.add_op(vector.StoreOp(result, self.epilogue.out.buffer, self.epilogue.out.locate(b, at)))
            else:
                b.add_op(vector.StoreOp(total, out.buffer, where))

    def through_scratch(
        self, b: Builder, accs: list[SSAValue], i0: Bound, j0: Bound, rows: Bound, cols: Bound,
        is_first: bool, is_last: bool,
    ) -> None:
        """:meth:`direct` for a tile that crosses the edge of C (or a C whose rows
        are not contiguous), through the scratch tile."""
        assert self.ct is not None
        p = self.p
        if not is_first:
            self.copy_tile(b, i0, j0, rows, cols, into_scratch=True)
        for n, acc in enumerate(accs):
            r, v = divmod(n, p.vectors_per_row)
            where = [b.value(r), b.value(v * p.vl)]
            total = b.add_op(xarith.AddfOp(self.old_value(b, self.ct, where, is_first), acc)).results[0]
            b.add_op(vector.StoreOp(total, self.ct, where))
        self.copy_tile(b, i0, j0, rows, cols, into_scratch=False, epilogue=is_last)

    def k_loop(self, b: Builder, accs: list[SSAValue], sa: Bound, sb: Bound, kc: Bound) -> list[SSAValue]:
        p = self.p
        assert self.ap is not None and self.bp is not None
        loop, kb, k, carried = b.for_(0, kc, 1, accs)
        sa_v, sb_v = kb.value(sa), kb.value(sb)
        b_row, a_col = kb.mul(k, p.nr), kb.mul(k, p.mr)
        rows = [
            kb.add_op(vector.LoadOp(
                self.bp, [sb_v, kb.value(kb.add(b_row, v * p.vl))], self.vector_type
            )).results[0]
            for v in range(p.vectors_per_row)
        ]  # fmt: skip
        new: list[SSAValue] = []
        for r in range(p.mr):
            a = kb.add_op(memref.LoadOp.get(self.ap, [sa_v, kb.value(kb.add(a_col, r))])).results[0]
            splat = kb.add_op(vector.BroadcastOp(a, self.vector_type)).results[0]
            for v in range(p.vectors_per_row):
                acc = carried[r * p.vectors_per_row + v]
                new.append(kb.add_op(vector.FMAOp(splat, rows[v], acc)).results[0])
        kb.yield_(*new)
        return list(loop.results)

    def copy_tile(
        self, b: Builder, i0: Bound, j0: Bound, rows: Bound, cols: Bound, into_scratch: bool,
        epilogue: bool = False,
    ) -> None:
        """Copy the part of the C tile inside C into the scratch tile, or back
        (to D through the epilogue with ``epilogue``)."""
        assert self.ct is not None
        out = self.c.out
        _, rb, r, _ = b.for_(0, b.min(rows, self.p.mr), 1)
        _, cb, j, _ = rb.for_(0, rb.min(cols, self.p.nr), 1)
        at = {**self.at, M: cb.value(cb.add(i0, r)), N: cb.value(cb.add(j0, j))}
        c_at = out.locate(cb, at)
        if into_scratch:
            value = cb.add_op(memref.LoadOp.get(out.buffer, c_at)).results[0]
            cb.add_op(memref.StoreOp.get(value, self.ct, [r, j]))
        elif epilogue:
            assert self.epilogue is not None
            value = cb.add_op(memref.LoadOp.get(self.ct, [r, j])).results[0]
            result = self.epilogue.apply(cb, value, at, 0)
            cb.add_op(memref.StoreOp.get(result, self.epilogue.out.buffer, self.epilogue.out.locate(cb, at)))
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
        assert self.bp is not None
        packer = Packer(p.vl, c.element, self.at)
        packer.pack(
            kb, c.rhs, N, jc, nc, pc, kc, p.nr, self.bp, self.always_full(N, p.nr), self.parallel
        )
        m = self.extents[M]
        if self.parallel:
            ib, ic = kb.parallel_(0, m, self.mc)
            own = {name: self.scratch(ib, name) for name in ("ap", "ct") if name in self.scratch_shapes}
            self.ap, self.ct = own["ap"], own.get("ct")
        else:
            _, ib, ic, _ = kb.for_(0, m, self.mc)
            own = {}
        mc = self.block_extent(ib, M, ic, self.mc)
        assert self.ap is not None
        packer.pack(ib, c.lhs, M, ic, mc, pc, kc, p.mr, self.ap, self.always_full(M, p.mr))
        _, rb, ir, _ = ib.for_(0, mc, p.mr)
        sa = rb.div(ir, p.mr)
        rows = rb.sub(mc, ir)
        i0 = rb.add(ic, ir)
        _, tb, jr, _ = rb.for_(0, nc, p.nr)
        sb = tb.div(jr, p.nr)
        self.tile(tb, i0, tb.add(jc, jr), rows, tb.sub(nc, jr), sa, sb, pc, kc)
        tb.yield_()
        rb.yield_()
        for buffer in own.values():
            ib.add_op(memref.DeallocOp.get(buffer))
        for inner in (ib, kb, jb):
            inner.yield_()

    def scratch(self, b: Builder, name: str) -> SSAValue:
        """A new 64-byte-aligned scratch buffer of the shape ``name`` needs."""
        alloc = memref.AllocOp.get(self.c.element, ALIGNMENT, self.scratch_shapes[name])
        return b.add_op(alloc).results[0]


def _branch(
    b: Builder, cond: bool | SSAValue,
    then: Callable[[Builder], None], other: Callable[[Builder], None],
) -> None:
    """``then`` or ``other`` where ``cond`` is known, else an ``scf.if`` of both."""
    if cond is True:
        then(b)
    elif cond is False:
        other(b)
    else:
        _, tb, eb = b.if_(cond)
        then(tb)
        tb.yield_()
        other(eb)
        eb.yield_()


def _collapse_groups(
    b: Builder, c: Contraction, epilogue: Epilogue | None
) -> tuple[Contraction, Epilogue | None]:
    """``c`` and ``epilogue`` on views with one dimension per role (:mod:`.collapse`),
    one view per buffer."""
    views: dict[tuple[SSAValue, tuple[str, ...]], Access] = {}

    def view(access: Access) -> Access:
        key = (access.buffer, access.roles)
        if key not in views:
            views[key] = collapse(b, access)
        return views[key]

    c = replace(c, lhs=view(c.lhs), rhs=view(c.rhs), out=view(c.out))
    if epilogue is not None:
        inputs = {
            position: view(source) if isinstance(source, Access) else source
            for position, source in epilogue.inputs.items()
        }
        epilogue = replace(epilogue, inputs=inputs, out=view(epilogue.out))
    return c, epilogue


def emit_matmul(
    rewriter: PatternRewriter, c: Contraction, p: Blocking,
    fill: tuple[Operation, SSAValue] | None = None, epilogue: Epilogue | None = None,
    parallel: bool = False,
) -> None:
    """Replace the matmul ``c.op`` by its blocked loop nest, absorbing ``fill``
    (the op and its value) and ``epilogue`` (see :mod:`.fusion`)."""
    op = c.op
    temporary = c.out.buffer
    if fill is not None and epilogue is not None and epilogue.out.type == c.out.type:
        # C starts from the fill and is only read by the epilogue: the partial
        # sums of the KC slices go to D itself, and C is never touched
        c = replace(c, out=replace(epilogue.out, roles=c.out.roles))
    replaced = temporary is not c.out.buffer
    constants = Constants()
    pre = Builder(Block(), constants)
    if c.lhs.plain and c.rhs.plain:
        c, epilogue = _collapse_groups(pre, c, epilogue)
    extents: dict[str, Bound] = {}
    for role in (*c.batch, M, N, K):
        extents[role] = c.extent_access(role).extent(pre, role)
    m, n, k = extents[M], extents[N], extents[K]
    mc = min(p.mc, _round_up(m, p.mr)) if isinstance(m, int) else p.mc
    nc = min(p.nc, _round_up(n, p.nr)) if isinstance(n, int) else p.nc
    kc = max(1, min(p.kc, k)) if isinstance(k, int) else p.kc
    width = c.element.bitwidth // 8
    if isinstance(k, int) and kc < k <= p.kc_max and k * nc * width <= p.panel_bytes:
        kc = k
    nest = _Nest(c, p, extents, mc, nc, kc)
    nest.fill = fill[1] if fill is not None else None
    nest.epilogue = epilogue
    # one row block has nothing to share out
    parallel = parallel and not (isinstance(m, int) and m <= mc)
    nest.parallel = parallel
    nest.scratch_shapes = {"ap": [mc // p.mr, kc * p.mr], "bp": [nc // p.nr, kc * p.nr]}
    if not (nest.always_full(M, p.mr) and nest.always_full(N, p.nr) and c.out.contiguous(N)):
        nest.scratch_shapes["ct"] = [p.mr, p.nr]
    # the shared ones; with threads, each row block allocates its own Ap and C tile
    nest.bp = nest.scratch(pre, "bp")
    if not parallel:
        nest.ap = nest.scratch(pre, "ap")
        nest.ct = nest.scratch(pre, "ct") if "ct" in nest.scratch_shapes else None
    body = pre
    loops: list[Builder] = []
    for role in c.batch:
        _, body, iv, _ = body.for_(0, extents[role], 1)
        nest.at[role] = iv
        loops.append(body)
    nest.blocks(body)
    for inner in reversed(loops):
        inner.yield_()
    for buffer in (nest.bp,) if parallel else (nest.ap, nest.bp, nest.ct):
        if buffer is not None:
            pre.add_op(memref.DeallocOp.get(buffer))
    # after the epilogue's output is allocated (only allocations and pure ops
    # sit between the matmul and the epilogue)
    insert_built(rewriter, pre, epilogue.op if epilogue is not None else op, op)
    rewriter.erase(op)
    if epilogue is not None:
        rewriter.erase(epilogue.op)
    if fill is not None:
        rewriter.erase(fill[0])
    if replaced:
        for use in list(temporary.uses):
            rewriter.erase(use.operation)
        rewriter.erase(temporary.owner)  # type: ignore[arg-type]

