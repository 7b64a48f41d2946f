"""Upstream MLIR's text for affine expressions, maps and integer sets.

xDSL prints affine expressions fully parenthesised (``((d0 + 1) * 2)``);
upstream prints with minimal parentheses and subtraction sugar
(``d0 - s0 - 1``). Both the core printer (for ``affine_map``/``affine_set``
attributes anywhere) and the affine ops' custom forms use these functions.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineDimExpr, AffineExpr
from xdsl.ir.affine import AffineMap, AffineSet, AffineSymExpr

Emit = Callable[[str], None]
EmitId = Callable[[int, bool], None]
"""Prints dimension (``False``) or symbol (``True``) number ``pos``."""

_SPELLING = {
    AffineBinaryOpKind.Add: " + ",
    AffineBinaryOpKind.Mul: " * ",
    AffineBinaryOpKind.FloorDiv: " floordiv ",
    AffineBinaryOpKind.CeilDiv: " ceildiv ",
    AffineBinaryOpKind.Mod: " mod ",
}


def emit_affine_expr(expr: AffineExpr, out: Emit, emit_id: EmitId, strong: bool = False) -> None:
    """Print ``expr`` as upstream's ``printAffineExprInternal`` does: binary ops
    other than ``+`` bind strongly, ``x * -1`` is ``-x`` and adding a negative
    term or constant is printed as a subtraction."""

    def wrap(body: Callable[[], None]) -> None:
        if strong:
            out("(")
        body()
        if strong:
            out(")")

    if isinstance(expr, AffineConstantExpr):
        out(str(expr.value))
        return
    if isinstance(expr, AffineDimExpr):
        emit_id(expr.position, False)
        return
    if isinstance(expr, AffineSymExpr):
        emit_id(expr.position, True)
        return
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs, kind = expr.lhs, expr.rhs, expr.kind

    if kind != AffineBinaryOpKind.Add:

        def tight() -> None:
            if (
                kind == AffineBinaryOpKind.Mul
                and isinstance(rhs, AffineConstantExpr)
                and rhs.value == -1
            ):
                out("-")
                emit_affine_expr(lhs, out, emit_id, True)
                return
            emit_affine_expr(lhs, out, emit_id, True)
            out(_SPELLING[kind])
            emit_affine_expr(rhs, out, emit_id, True)

        wrap(tight)
        return

    def add() -> None:
        if (
            isinstance(rhs, AffineBinaryOpExpr)
            and rhs.kind == AffineBinaryOpKind.Mul
            and isinstance(rhs.rhs, AffineConstantExpr)
        ):
            factor = rhs.rhs.value
            if factor == -1:
                emit_affine_expr(lhs, out, emit_id, False)
                out(" - ")
                nested_add = (
                    isinstance(rhs.lhs, AffineBinaryOpExpr)
                    and rhs.lhs.kind == AffineBinaryOpKind.Add
                )
                emit_affine_expr(rhs.lhs, out, emit_id, nested_add)
                return
            if factor < -1:
                emit_affine_expr(lhs, out, emit_id, False)
                out(" - ")
                emit_affine_expr(rhs.lhs, out, emit_id, True)
                out(f" * {-factor}")
                return
        if isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
            emit_affine_expr(lhs, out, emit_id, False)
            out(f" - {-rhs.value}")
            return
        emit_affine_expr(lhs, out, emit_id, False)
        out(" + ")
        emit_affine_expr(rhs, out, emit_id, False)

    wrap(add)


def _plain_ids(out: Emit) -> EmitId:
    return lambda pos, is_symbol: out(f"{'s' if is_symbol else 'd'}{pos}")


def _emit_space(num_dims: int, num_symbols: int, out: Emit) -> None:
    out("(" + ", ".join(f"d{i}" for i in range(num_dims)) + ")")
    if num_symbols:
        out("[" + ", ".join(f"s{i}" for i in range(num_symbols)) + "]")


def format_affine_map(amap: AffineMap) -> str:
    """``affine_map<...>`` as upstream prints it."""
    parts: list[str] = ["affine_map<"]
    out = parts.append
    _emit_space(amap.num_dims, amap.num_symbols, out)
    out(" -> (")
    for i, expr in enumerate(amap.results):
        if i:
            out(", ")
        emit_affine_expr(expr, out, _plain_ids(out))
    out(")>")
    return "".join(parts)


def canonical_set(aset: AffineSet) -> AffineSet:
    """The set with only ``e >= 0`` and ``e == 0`` constraints, as upstream
    stores it (xDSL keeps ``e <= 0`` as written)."""
    constraints = tuple(
        AffineConstraintExpr(AffineConstraintKind.ge, -(c.lhs - c.rhs), AffineExpr.constant(0))
        if c.kind == AffineConstraintKind.le
        else c
        for c in aset.constraints
    )
    return AffineSet(aset.num_dims, aset.num_symbols, constraints)


def format_affine_set(aset: AffineSet) -> str:
    """``affine_set<...>`` as upstream prints it; an empty set is ``(0 == 0)``."""
    parts: list[str] = ["affine_set<"]
    out = parts.append
    _emit_space(aset.num_dims, aset.num_symbols, out)
    out(" : (")
    if not aset.constraints:
        out("0 == 0")
    for i, constraint in enumerate(aset.constraints):
        if i:
            out(", ")
        # Upstream keeps only `e >= 0` and `e == 0`; xDSL also keeps `e <= 0`.
        lhs, kind = constraint.lhs - constraint.rhs, constraint.kind
        if kind == AffineConstraintKind.le:
            lhs, kind = -lhs, AffineConstraintKind.ge
        emit_affine_expr(lhs, out, _plain_ids(out))
        out(f" {kind.value} 0")
    out(")>")
    return "".join(parts)
