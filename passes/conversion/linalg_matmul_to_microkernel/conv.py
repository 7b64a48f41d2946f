"""Convolutions as matmuls over an implicit im2col.

A convolution (``linalg.conv_2d_nhwc_hwcf``, ``conv_2d_nchw_fchw``, any
strides and dilations, or the ``linalg.generic`` they generalize to) is a
matmul once its loops are grouped (upstream's ``inferConvolutionDims``):

- the output channel ``f``: read by the filter and the output;
- the output pixels (``n, oh, ow``): read by the image and the output;
- the reduction ``k`` (``kh, kw, c`` in the filter's order): read by the
  image and the filter.

The filter is then a plain matrix ``[k][f]`` (HWCF, the rhs) or ``[f][k]``
(FCHW, the lhs), and the output ``[pixels][f]`` or, with pixels after ``f``
(NCHW), ``[n][f][oh*ow]`` with ``n`` a batch loop: each flat role index walks
its dimensions row-major (:class:`.contraction.Access`). The image is the
other matmul operand, a :class:`Gather`: its element at a (pixel, k) pair is
``image[n, oh*s + kh*d, ow*s + kw*d, c]``, computed where the packing step
reads it, so the ``KH*KW``-fold im2col matrix is never materialised. With the
channels innermost and a multiple of the vector length (NHWC), a run of k is
contiguous and the A panel is packed with whole-vector loads and shuffles,
as a row-major A is; other images are gathered element by element.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.passes.conversion.linalg_matmul_to_microkernel.blocking import Blocking
from mlkit.passes.conversion.linalg_matmul_to_microkernel.builder import Bound, Builder
from mlkit.passes.conversion.linalg_matmul_to_microkernel.contraction import (
    K,
    M,
    N,
    Access,
    Contraction,
    multiply_add,
    permutation_dims,
)
from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

__all__ = ["Gather", "conv_blocking", "match_convolution"]


@dataclass(frozen=True)
class Part:
    """The op loops a role flattens: the plain operand whose dimensions
    ``dims`` (outermost first) give their sizes and order, and the loop each is."""

    role: str
    access: Access
    loops: tuple[int, ...]


@dataclass(frozen=True)
class Gather(Access):
    """A convolution's image as a matmul operand: ``exprs`` per image
    dimension over the op's loops, and how each role's flat index splits
    into those loops. ``roles`` names, per dimension, the role of its first
    loop, so that the innermost one says which role walks memory."""

    exprs: tuple[AffineExpr, ...] = ()
    parts: tuple[Part, ...] = ()
    plain: ClassVar[bool] = False

    def locate(self, b: Builder, at: Mapping[str, Bound]) -> list:
        loops: dict[int, Bound] = {}
        for part in self.parts:
            for dim, index in part.access.delinearize(b, part.role, at[part.role]).items():
                loops[part.loops[part.access.dims_of(part.role).index(dim)]] = index
        return [b.value(_evaluate(b, e, loops)) for e in self.exprs]

    def contiguous(self, role: str, lanes: int = 1) -> bool:
        """Whether the innermost image dimension is ``role``'s innermost loop
        alone, with unit stride, in runs of whole ``lanes`` (runs of one
        ``kh, kw`` position over all of ``c``)."""
        inner = self.exprs[-1] if self.exprs else None
        part = next((p for p in self.parts if p.role == role), None)
        if part is None or not isinstance(inner, AffineDimExpr) or inner.position != part.loops[-1]:
            return False
        layout = self.type.layout
        strides = self.type.get_strides()
        if not isinstance(layout, NoneAttr) and (strides is None or strides[-1] != 1):
            return False
        size = part.access.type.get_shape()[part.access.dims_of(role)[-1]]
        return lanes == 1 or (size > 0 and size % lanes == 0)


    def part(self, role: str) -> Part:
        return next(p for p in self.parts if p.role == role)

    def runs_along(self, role: str) -> bool:
        """Whether, at one k, consecutive values of ``role`` within one run of
        its innermost loop (one output row) are consecutive in memory: the
        innermost image dimension is that loop with stride 1 plus k loops
        (NCHW, stride 1), with unit stride."""
        part = next((p for p in self.parts if p.role == role), None)
        if part is None or not self.exprs:
            return False
        terms = _coefficients(self.exprs[-1])
        inner = part.loops[-1]
        if terms is None or terms.get(inner) != 1:
            return False
        pixels = {loop for other in self.parts if other.role != K for loop in other.loops}
        if any(loop in terms for loop in pixels - {inner}):
            return False
        layout, strides = self.type.layout, self.type.get_strides()
        return isinstance(layout, NoneAttr) or (strides is not None and strides[-1] == 1)


def _coefficients(expr: AffineExpr) -> dict[int, int] | None:
    """``{loop: factor}`` of a sum of loops times constants, else None."""
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        lhs, rhs = _coefficients(expr.lhs), _coefficients(expr.rhs)
        if lhs is None or rhs is None:
            return None
        return {d: lhs.get(d, 0) + rhs.get(d, 0) for d in lhs.keys() | rhs.keys()}
    if expr.kind == AffineBinaryOpKind.Mul:
        for term, factor in ((expr.lhs, expr.rhs), (expr.rhs, expr.lhs)):
            inner = _coefficients(term)
            if isinstance(factor, AffineConstantExpr) and factor.value >= 0 and inner is not None:
                return {d: c * factor.value for d, c in inner.items()}
    return None


def _evaluate(b: Builder, expr: AffineExpr, loops: Mapping[int, Bound]) -> Bound:
    if isinstance(expr, AffineDimExpr):
        return loops[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = _evaluate(b, expr.lhs, loops), _evaluate(b, expr.rhs, loops)
    if expr.kind == AffineBinaryOpKind.Add:
        return b.add(lhs, rhs)
    return b.mul(lhs, rhs) if isinstance(rhs, int) else b.mul(rhs, lhs)  # type: ignore[arg-type]


def _identity_layout(value_type: Attribute) -> bool:
    return isinstance(value_type, MemRefType) and isinstance(value_type.layout, NoneAttr)


def match_convolution(op: Operation) -> Contraction | None:
    """The matmul a convolution ``op`` on buffers is, or None when it is not one."""
    found = multiply_add(op)
    if found is None:
        return None
    operands, element, maps = found.operands, found.element, found.maps
    out_dims = permutation_dims(maps[2])
    orders = [permutation_dims(m) for m in maps[:2]]
    if out_dims is None or (orders[0] is None) == (orders[1] is None):
        return None
    f_at = 0 if orders[0] is not None else 1
    filter_dims, image_map = orders[f_at], maps[1 - f_at]
    assert filter_dims is not None
    image_loops: set[int] = set()
    for expr in image_map.results:
        terms = _coefficients(expr)
        if terms is None:
            return None
        image_loops |= set(terms)
    kinds = found.kinds
    f_loops, pixels, reductions = [], [], []
    for loop, kind in enumerate(kinds):
        key = (kind == IteratorType.REDUCTION, loop in image_loops, loop in filter_dims, loop in out_dims)
        if key == (False, False, True, True):
            f_loops.append(loop)
        elif key == (False, True, False, True):
            pixels.append(loop)
        elif key == (True, True, True, False):
            reductions.append(loop)
        else:
            return None  # a depthwise channel, a loop of one operand only...
    if len(f_loops) != 1 or not pixels or not reductions:
        return None
    (f,) = f_loops
    # the filter and the output are viewed through their own layouts
    filter_value, image_value, out_value = operands[f_at], operands[1 - f_at], operands[2]
    if not (_identity_layout(filter_value.type) and _identity_layout(out_value.type)):
        return None
    f_role = N if filter_dims[-1] == f else M
    pixel_role = M if f_role == N else N
    split = out_dims.index(f)
    before, after = out_dims[:split], out_dims[split + 1 :]
    batch_loops, group = (before, after) if after else ([], before)
    role_of = {f: f_role, **{loop: pixel_role for loop in group}}
    role_of.update({loop: f"b{i}" for i, loop in enumerate(batch_loops)})
    role_of.update({loop: K for loop in reductions})
    out = Access(out_value, tuple(role_of[d] for d in out_dims))
    filt = Access(filter_value, tuple(role_of[d] for d in filter_dims))
    parts = [Part(pixel_role, out, tuple(group)), Part(K, filt, tuple(d for d in filter_dims if d != f))]
    parts += [Part(role_of[loop], out, (loop,)) for loop in batch_loops]
    image_roles = tuple(role_of[_leading_loop(e)] for e in image_map.results)
    image = Gather(image_value, image_roles, tuple(image_map.results), tuple(parts))
    lhs, rhs = (image, filt) if f_role == N else (filt, image)
    batch = tuple(role_of[loop] for loop in batch_loops)
    return Contraction(op, lhs, rhs, out, element, batch)  # type: ignore[arg-type]


def _leading_loop(expr: AffineExpr) -> int:
    """The first loop of a sum like ``oh * 2 + kh``, left to right."""
    while isinstance(expr, AffineBinaryOpExpr):
        expr = expr.rhs if isinstance(expr.lhs, AffineConstantExpr) else expr.lhs
    assert isinstance(expr, AffineDimExpr)
    return expr.position


def conv_blocking(c: Contraction, p: Blocking) -> Blocking:
    """``p``, for an image read along k (NHWC) with KC a multiple of the
    channel count (or, when that is longer, of the vector length), so that
    every KC slice starts a whole run of channels and the packing's vector
    loads never cross from one window position to the next."""
    image = c.lhs if not c.lhs.plain else c.rhs
    if not image.contiguous(K):
        return p
    filt = c.extent_access(K)
    size = filt.type.get_shape()[filt.dims_of(K)[-1]]
    if 0 < size <= p.kc:
        return replace(p, kc=p.kc // size * size)
    return replace(p, kc=max(p.vl, p.kc // p.vl * p.vl))
