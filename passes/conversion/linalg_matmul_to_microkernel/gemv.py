"""Matrix-vector products (``linalg.matvec``, ``linalg.vecmat`` and the
generics they generalize to) as vector loops that read the matrix once.

A matrix-vector product does two flops per matrix element: it is bound by
the bandwidth of reading the matrix, not by the FMA units, so it needs no
packing; it needs every matrix element loaded once, as part of whole vectors,
in the order the hardware prefetcher follows. Which loop that is depends on
the matrix's layout (``y[p] += A(p, k) * x[k]``):

- **contiguous along p** (``vecmat``, or ``matvec`` of a transposed matrix):
  ``STREAMED_ROWS`` rows of the matrix are read side by side, front to
  back, and added, each times its broadcast ``x[k]``, into ``y`` (which stays
  in cache) a strip of whole vectors at a time, then a vector, then scalars.
  Walking down a strip of columns instead (``y`` in registers) touches a new
  page per row and measured half the bandwidth (0.5x numpy at 4096^2);
- **contiguous along k** (``matvec``): ``ROWS`` rows at a time, each with a
  vector accumulator fed by whole vectors of its row and of ``x``, reduced
  once at the end; the last ``K mod VL`` columns and the last rows are done
  with scalars.

Everything else (another layout, batch loops, integers) is left to the other
lowerings.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlkit.passes.conversion.linalg_matmul_to_microkernel.builder import (
    Bound,
    Builder,
    Constants,
    insert_built,
)
from mlkit.passes.conversion.linalg_matmul_to_microkernel.contraction import (
    Access,
    multiply_add,
)
from mlkit.dialects.linalg.attrs import IteratorType
from xdsl.dialects import arith as xarith
from xdsl.dialects import memref, vector
from xdsl.dialects.arith import FastMathFlag, FastMathFlagsAttr
from xdsl.dialects.builtin import Float32Type, Float64Type, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter

__all__ = ["Gemv", "emit_gemv", "match_gemv"]

P, K = "p", "k"
ROWS = 8  # rows of the k-contiguous form at a time
STREAMED_ROWS = 8  # rows of the p-contiguous form per update of y


@dataclass(frozen=True)
class Gemv:
    """``y[p] += a(p, k) * x[k]``, ``a`` contiguous along ``along``."""

    op: Operation
    a: Access
    x: Access
    y: Access
    element: Float32Type | Float64Type
    along: str


def match_gemv(op: Operation) -> Gemv | None:
    """The matrix-vector product ``op`` is, where a vector loop can read its matrix."""
    found = multiply_add(op)
    if found is None:
        return None
    values, element, maps, kinds = found.operands, found.element, found.maps, found.kinds
    if len(kinds) != 2 or not all(isinstance(e, AffineDimExpr) for m in maps for e in m.results):
        return None
    dims = [[e.position for e in m.results] for m in maps]  # type: ignore[attr-defined]
    if [len(d) for d in dims] not in ([2, 1, 1], [1, 2, 1]) or len(set(dims[2])) != 1:
        return None
    (p,) = dims[2]
    k = 1 - p
    if kinds[p] != IteratorType.PARALLEL or kinds[k] != IteratorType.REDUCTION:
        return None
    matrix = 0 if len(dims[0]) == 2 else 1
    if sorted(dims[matrix]) != [0, 1] or dims[1 - matrix] != [k]:
        return None
    role = {p: P, k: K}
    a = Access(values[matrix], tuple(role[d] for d in dims[matrix]))
    x = Access(values[1 - matrix], (K,))
    y = Access(values[2], (P,))
    if a.contiguous(P) and y.contiguous(P):
        return Gemv(op, a, x, y, element, P)  # type: ignore[arg-type]
    if a.contiguous(K) and x.contiguous(K):
        return Gemv(op, a, x, y, element, K)  # type: ignore[arg-type]
    return None


def _never(lo: Bound, hi: Bound) -> bool:
    """Whether a loop from ``lo`` to ``hi`` is known to run no iteration."""
    return (isinstance(lo, int) and isinstance(hi, int) and hi <= lo) or lo is hi


def _sum(value: SSAValue, element: Attribute) -> Operation:
    """``vector.reduction <add>`` of ``value``, in any order (a tree, not a
    chain of adds); xDSL's constructor gives it the vector's type as its
    result, so it is created by hand."""
    return vector.ReductionOp.create(
        operands=[value], result_types=[element],
        properties={"kind": vector.CombiningKindAttr(vector.CombiningKindFlag.ADD),
                    "fastmath": FastMathFlagsAttr([FastMathFlag.REASSOC])},
    )  # fmt: skip


@dataclass
class _Emitter:
    g: Gemv
    vl: int
    extents: dict[str, Bound]

    def vtype(self) -> VectorType:
        return VectorType(self.g.element, [self.vl])

    def vload(self, b: Builder, access: Access, at: dict[str, Bound]) -> SSAValue:
        return b.add_op(vector.LoadOp(access.buffer, access.locate(b, at), self.vtype())).results[0]

    def load(self, b: Builder, access: Access, at: dict[str, Bound]) -> SSAValue:
        return b.add_op(memref.LoadOp.get(access.buffer, access.locate(b, at))).results[0]

    def fma(self, b: Builder, x: SSAValue, y: SSAValue, acc: SSAValue) -> SSAValue:
        if isinstance(acc.type, VectorType):
            return b.add_op(vector.FMAOp(x, y, acc)).results[0]
        product = b.add_op(xarith.MulfOp(x, y)).results[0]
        return b.add_op(xarith.AddfOp(acc, product)).results[0]

    def strips(self, b: Builder, k0: Bound, xs: list[SSAValue], lo: Bound, hi: Bound, vectors: int) -> None:
        """``y[p : p + vectors*VL] += sum_r xs[r] * a[k0 + r, p : ...]`` for p in [lo, hi)."""
        g, vl = self.g, self.vl
        if _never(lo, hi):
            return
        _, sb, p0, _ = b.for_(lo, hi, vectors * vl)
        for u in range(vectors):
            at = {P: sb.add(p0, u * vl)}
            acc = self.vload(sb, g.y, at)
            for r, x in enumerate(xs):
                acc = self.fma(sb, x, self.vload(sb, g.a, {**at, K: sb.add(k0, r)}), acc)
            sb.add_op(vector.StoreOp(acc, g.y.buffer, g.y.locate(sb, at)))
        sb.yield_()

    def columns(self, b: Builder, k0: Bound, xs: list[SSAValue], lo: Bound, hi: Bound) -> None:
        """:meth:`strips` one scalar at a time."""
        g = self.g
        if _never(lo, hi):
            return
        _, pb, p, _ = b.for_(lo, hi, 1)
        acc = self.load(pb, g.y, {P: p})
        for r, x in enumerate(xs):
            acc = self.fma(pb, x, self.load(pb, g.a, {P: p, K: pb.add(k0, r)}), acc)
        pb.add_op(memref.StoreOp.get(acc, g.y.buffer, g.y.locate(pb, {P: p})))
        pb.yield_()

    def accumulate(self, b: Builder, p: Bound, total: SSAValue) -> None:
        old = self.load(b, self.g.y, {P: p})
        result = b.add_op(xarith.AddfOp(old, total)).results[0]
        b.add_op(memref.StoreOp.get(result, self.g.y.buffer, self.g.y.locate(b, {P: p})))

    def row_block(self, b: Builder, lo: Bound, hi: Bound, count: int, vectors: int) -> None:
        """``y += x[k : k + count] * a[k : k + count, :]`` for k from ``lo`` to ``hi``:
        ``count`` rows streamed side by side, ``y`` (in cache) updated once per block."""
        if _never(lo, hi):
            return
        extent, vl = self.extents[P], self.vl
        _, kb, k0, _ = b.for_(lo, hi, count)
        xs = [self.load(kb, self.g.x, {K: kb.add(k0, r)}) for r in range(count)]
        splats = [kb.add_op(vector.BroadcastOp(x, self.vtype())).results[0] for x in xs]
        wide = kb.round_down(extent, vectors * vl)
        self.strips(kb, k0, splats, 0, wide, vectors)
        whole = kb.round_down(extent, vl)
        if vectors > 1:
            self.strips(kb, k0, splats, wide, whole, 1)
        self.columns(kb, k0, xs, whole, extent)
        kb.yield_()

    def along_p(self, b: Builder, vectors: int) -> None:
        extent, depth = self.extents[P], self.extents[K]
        if isinstance(extent, int):
            vectors = max(1, min(vectors, extent // self.vl))
        grouped = b.round_down(depth, STREAMED_ROWS)
        self.row_block(b, 0, grouped, STREAMED_ROWS, vectors)
        self.row_block(b, grouped, depth, 1, vectors)

    def rows(self, b: Builder, lo: Bound, hi: Bound, count: int) -> None:
        """``y[p + r] += dot(a[p + r, :], x)`` for ``count`` rows at a time from ``lo`` to ``hi``."""
        g, vl = self.g, self.vl
        if _never(lo, hi):
            return
        _, rb, p0, _ = b.for_(lo, hi, count)
        whole = rb.round_down(self.extents[K], vl)
        zero = rb.constants.splat(0.0, self.vtype())
        loop, kb, k0, accs = rb.for_(0, whole, vl, [zero] * count)
        xs = self.vload(kb, g.x, {K: k0})
        kb.yield_(*[
            self.fma(kb, self.vload(kb, g.a, {P: kb.add(p0, r), K: k0}), xs, acc)
            for r, acc in enumerate(accs)
        ])  # fmt: skip
        sums = [rb.add_op(_sum(total, g.element)).results[0] for total in loop.results]
        tail, tb, k, carried = rb.for_(whole, self.extents[K], 1, sums)
        xk = self.load(tb, g.x, {K: k})
        tb.yield_(*[self.fma(tb, self.load(tb, g.a, {P: tb.add(p0, r), K: k}), xk, acc)
                    for r, acc in enumerate(carried)])  # fmt: skip
        for r, total in enumerate(tail.results):
            self.accumulate(rb, rb.add(p0, r), total)
        rb.yield_()

    def along_k(self, b: Builder) -> None:
        extent = self.extents[P]
        grouped = b.round_down(extent, ROWS)
        self.rows(b, 0, grouped, ROWS)
        self.rows(b, grouped, extent, 1)


def emit_gemv(rewriter: PatternRewriter, g: Gemv, vl: int, registers: int) -> None:
    """Replace ``g.op`` by its vector loops (``vl`` lanes, ``registers`` vector registers)."""
    b = Builder(Block(), Constants())
    extents = {P: g.y.extent(b, P), K: g.x.extent(b, K)}
    emitter = _Emitter(g, vl, extents)
    if g.along == P:
        emitter.along_p(b, max(1, min(4, registers // 4)))
    else:
        emitter.along_k(b)
    insert_built(rewriter, b, g.op, g.op)
    rewriter.erase(g.op)
