"""Affine sums in upstream's canonical order.

Upstream's ``simplifyAdd`` puts a term without dimensions on the right of one
with them (``s0 - d0`` is built, and printed, as ``-d0 + s0``; ``s0 + d0 * 2``
as ``d0 * 2 + s0``), besides moving constants right as xDSL already does.
xDSL keeps the written order, so maps built or parsed here printed differently
from upstream's and FileCheck lines written against upstream failed. This
wraps xDSL's ``AffineExpr.__add__`` with that one swap.
"""

from __future__ import annotations

from xdsl.ir.affine.affine_expr import AffineConstantExpr, AffineDimExpr, AffineExpr

_XDSL_ADD = AffineExpr.__add__


def _has_dims(expr: AffineExpr) -> bool:
    return any(isinstance(e, AffineDimExpr) for e in expr.dfs())


def _add(self: AffineExpr, other: AffineExpr | int) -> AffineExpr:
    if isinstance(other, int):
        other = AffineExpr.constant(other)
    if not isinstance(self, AffineConstantExpr) and not _has_dims(self) and _has_dims(other):
        self, other = other, self
    return _XDSL_ADD(self, other)


AffineExpr.__add__ = _add  # type: ignore[method-assign]
AffineExpr.__radd__ = _add  # type: ignore[method-assign]
