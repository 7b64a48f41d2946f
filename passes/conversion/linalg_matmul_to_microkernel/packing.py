"""Packing a block of A or B into the micro-kernel's layout.

A block of ``extent`` rows (A: along m) or columns (B: along n) by ``kc``
along k becomes slivers of ``width`` (``MR`` or ``NR``) in a buffer
``dst[sliver][k * width + j]``: the ``width`` values the kernel needs at one
k, side by side, one sliver after another. The last sliver of a block that
does not fill it is padded with zeros, so the kernel never needs a mask.

How a whole sliver is read depends on the source's layout:

- contiguous along the sliver (B row-major, A column-major): each k is one
  contiguous row, copied with ``vector.load``/``vector.store``;
- contiguous along k (A row-major, B column-major), ``width`` a power of two:
  ``width`` rows of one vector each are loaded and interleaved with
  ``vector.shuffle`` (a transpose by log2(width) rounds of zips), then stored
  whole; the last ``kc mod VL`` values of k are copied one by one;
- a convolution's image along its output pixels (NCHW, stride 1): one
  contiguous run per output row the sliver spans, at each k
  (:meth:`Packer.runs`);
- anything else element by element.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mlkit.passes.conversion.linalg_matmul_to_microkernel.builder import Bound, Builder
from mlkit.passes.conversion.linalg_matmul_to_microkernel.contraction import K, Access
from mlkit.passes.conversion.linalg_matmul_to_microkernel.conv import Gather
from xdsl.dialects import memref, vector
from xdsl.dialects.builtin import DenseArrayBase, VectorType, i64
from xdsl.ir import Attribute, SSAValue

__all__ = ["Packer", "interleave"]


def interleave(b: Builder, streams: list[list[SSAValue]], vl: int) -> list[SSAValue]:
    """The elements of ``streams`` (equally long lists of ``vl``-lane vectors)
    taken one from each in turn, as vectors: with rows of a matrix as streams,
    its transpose. Interleaving ``2^t`` streams zips the interleaving of the
    even ones with that of the odd ones."""
    if len(streams) == 1:
        return streams[0]
    evens = interleave(b, streams[0::2], vl)
    odds = interleave(b, streams[1::2], vl)
    out: list[SSAValue] = []
    for x, y in zip(evens, odds):
        for half in (0, vl // 2):
            mask = [half + i // 2 + (i % 2) * vl for i in range(vl)]
            op = vector.ShuffleOp(
                x, y, DenseArrayBase.from_list(i64, mask), result_type=x.type  # type: ignore[arg-type]
            )
            out.append(b.add_op(op).results[0])
    return out


def _empty(lo: Bound, hi: Bound) -> bool:
    if isinstance(lo, int) and isinstance(hi, int):
        return hi <= lo
    return lo is hi


def _is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


@dataclass
class Packer:
    """Packs blocks of the operands of one matmul."""

    vl: int
    element: Attribute
    at: Mapping[str, SSAValue]  # batch indices

    def vector(self, lanes: int) -> VectorType:
        return VectorType(self.element, [lanes])

    def indices(self, b: Builder, src: Access, **at: Bound) -> list[SSAValue]:
        return src.locate(b, {**self.at, **at})

    def pack(
        self, b: Builder, src: Access, role: str, start: Bound, extent: Bound,
        pc: Bound, kc: Bound, width: int, dst: SSAValue, always_full: bool,
        parallel: bool = False,
    ) -> None:
        """``dst[s][k * width + j] = src[role = start + s*width + j, k = pc + k]``
        over the block, zero where ``s*width + j`` reaches ``extent``; the
        slivers in an ``scf.parallel`` with ``parallel`` (each writes its own)."""
        if parallel:
            body, offset = b.parallel_(0, extent, width)
        else:
            _, body, offset, _ = b.for_(0, extent, width)
        sliver = body.div(offset, width)
        base = body.add(start, offset)
        if always_full:
            self.sliver(body, src, role, base, width, width, pc, kc, dst, sliver)
        else:
            valid = body.sub(extent, offset)
            full = body.less_equal(width, valid)
            assert isinstance(full, SSAValue)
            _, then, other = body.if_(full)
            self.sliver(then, src, role, base, width, width, pc, kc, dst, sliver)
            then.yield_()
            self.sliver(other, src, role, base, valid, width, pc, kc, dst, sliver)
            other.yield_()
        body.yield_()

    def sliver(
        self, b: Builder, src: Access, role: str, base: Bound, valid: Bound, width: int,
        pc: Bound, kc: Bound, dst: SSAValue, sliver: Bound,
    ) -> None:
        full = valid == width
        if isinstance(src, Gather) and src.runs_along(role):
            self.runs(b, src, role, base, valid, width, pc, kc, dst, sliver)
            if not full:
                self.scalars(b, None, role, base, valid, width, pc, 0, kc, width, dst, sliver)
        elif full and src.contiguous(role):
            self.rows(b, src, role, base, width, pc, kc, dst, sliver)
        elif full and src.contiguous(K, self.vl) and _is_power_of_two(width) and self.vl > 1:
            whole = b.round_down(kc, self.vl)
            self.transposed(b, src, role, base, width, pc, whole, dst, sliver)
            self.scalars(b, src, role, base, 0, width, pc, whole, kc, width, dst, sliver)
        else:
            self.scalars(b, src, role, base, 0, valid, pc, 0, kc, width, dst, sliver)
            if not full:
                self.scalars(b, None, role, base, valid, width, pc, 0, kc, width, dst, sliver)

    def rows(
        self, b: Builder, src: Access, role: str, base: Bound, width: int,
        pc: Bound, kc: Bound, dst: SSAValue, sliver: Bound,
    ) -> None:
        """One contiguous run of ``width`` per k, in whole vectors and a shorter last one."""
        _, kb, k, _ = b.for_(0, kc, 1)
        row, out = kb.add(pc, k), kb.mul(k, width)
        offset = 0
        while offset < width:
            lanes = min(self.vl, width - offset)
            at = {role: kb.add(base, offset), K: row}
            load = kb.add_op(vector.LoadOp(src.buffer, self.indices(kb, src, **at), self.vector(lanes)))
            position = kb.value(kb.add(out, offset))
            kb.add_op(vector.StoreOp(load.results[0], dst, [kb.value(sliver), position]))
            offset += lanes
        kb.yield_()

    def runs(
        self, b: Builder, src: Gather, role: str, base: Bound, valid: Bound, width: int,
        pc: Bound, kc: Bound, dst: SSAValue, sliver: Bound,
    ) -> None:
        """A convolution's columns (NCHW, stride 1): the part of the sliver in
        one output row is, at each k, one run of the image, copied in whole
        vectors and a scalar rest; a sliver spans a row or a few."""
        part = src.part(role)
        row = part.access.size(b, part.access.dims_of(role)[-1])
        first = b.rem(base, row)
        count = b.div(b.sub(b.add(b.add(first, valid), row), 1), row)
        _, sb, segment, _ = b.for_(0, count, 1)
        lo = sb.max(0, sb.sub(sb.mul(segment, row), first))
        hi = sb.min(valid, sb.sub(sb.mul(sb.add(segment, 1), row), first))
        length = sb.sub(hi, lo)
        whole = sb.round_down(length, self.vl)
        _, kb, k, _ = sb.for_(0, kc, 1)
        start = self.indices(kb, src, **{role: kb.add(base, lo), K: kb.add(pc, k)})
        out = kb.add(kb.mul(k, width), lo)
        for step, lo_j, hi_j in ((self.vl, 0, whole), (1, whole, length)):
            _, jb, j, _ = kb.for_(lo_j, hi_j, step)
            at = [*start[:-1], jb.value(jb.add(start[-1], j))]
            where = [jb.value(sliver), jb.value(jb.add(out, j))]
            if step > 1:
                value = jb.add_op(vector.LoadOp(src.buffer, at, self.vector(step))).results[0]
                jb.add_op(vector.StoreOp(value, dst, where))
            else:
                value = jb.add_op(memref.LoadOp.get(src.buffer, at)).results[0]
                jb.add_op(memref.StoreOp.get(value, dst, where))
            jb.yield_()
        kb.yield_()
        sb.yield_()

    def transposed(
        self, b: Builder, src: Access, role: str, base: Bound, width: int,
        pc: Bound, whole: Bound, dst: SSAValue, sliver: Bound,
    ) -> None:
        """``width`` runs along k of one vector each, interleaved, per ``VL`` of k."""
        vl = self.vl
        _, kb, k0, _ = b.for_(0, whole, vl)
        row = kb.add(pc, k0)
        streams = [
            [kb.add_op(vector.LoadOp(
                src.buffer, self.indices(kb, src, **{role: kb.add(base, j), K: row}), self.vector(vl)
            )).results[0]]
            for j in range(width)
        ]  # fmt: skip
        out = kb.mul(k0, width)
        for q, packed in enumerate(interleave(kb, streams, vl)):
            position = kb.value(kb.add(out, q * vl))
            kb.add_op(vector.StoreOp(packed, dst, [kb.value(sliver), position]))
        kb.yield_()

    def scalars(
        self, b: Builder, src: Access | None, role: str, base: Bound, lo: Bound, hi: Bound,
        pc: Bound, k_lo: Bound, k_hi: Bound, width: int, dst: SSAValue, sliver: Bound,
    ) -> None:
        """Element by element over ``[lo, hi)`` of the sliver and ``[k_lo, k_hi)``
        of k, walking the source along its innermost dimension; zeros without a source."""
        k_inner = src is None or src.roles[-1] == K
        outer, inner = ((lo, hi), (k_lo, k_hi)) if k_inner else ((k_lo, k_hi), (lo, hi))
        if _empty(*outer) or _empty(*inner):
            return
        _, ob, i, _ = b.for_(*outer, 1)
        _, ib, j, _ = ob.for_(*inner, 1)
        column, k = (i, j) if k_inner else (j, i)
        if src is None:
            value = ib.constants.float(0.0, self.element)
        else:
            at = {role: ib.add(base, column), K: ib.add(pc, k)}
            value = ib.add_op(memref.LoadOp.get(src.buffer, self.indices(ib, src, **at))).results[0]
        position = ib.value(ib.add(ib.mul(k, width), column))
        ib.add_op(memref.StoreOp.get(value, dst, [ib.value(sliver), position]))
        ib.yield_()
        ob.yield_()
