"""Upstream's errors for ``affine_map`` and ``affine_set`` text.

xDSL's :class:`AffineParser` names no context in its list errors (``'('
expected``), reports a bad constraint operator two tokens late and says
``Expected primary expression`` also where an operator lacks its right
operand. Its list and constraint methods are replaced here, process-wide, by
ones that raise what upstream's ``AffineParser`` does; the words of the rest
are in :mod:`mlkit.syntax.parse_errors`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRTokenKind

BareId = Callable[[], AffineExpr | None]

_xdsl_binop_rhs = AffineParser._parse_binop_rhs  # pyright: ignore[reportPrivateUsage]
_xdsl_parse_primary = AffineParser._parse_primary  # pyright: ignore[reportPrivateUsage]
_MISSING = "Expected primary expression"


def _parse_primary(self: AffineParser, parse_optional_bare_id: BareId) -> AffineExpr:
    """xDSL's, saying what upstream says of an operator without an operand."""
    try:
        return _xdsl_parse_primary(self, parse_optional_bare_id)
    except ParseError as err:
        if err.msg != _MISSING or not getattr(self, "_after_binop", False):
            raise
        raise ParseError(err.span, "missing right operand of binary operator") from None


def _parse_binop_rhs(self: AffineParser, lhs: AffineExpr, prec: int, bare_id: BareId) -> AffineExpr:
    outer = getattr(self, "_after_binop", False)
    self._after_binop = True  # pyright: ignore[reportAttributeAccessIssue]
    try:
        return _xdsl_binop_rhs(self, lhs, prec, bare_id)
    finally:
        self._after_binop = outer  # pyright: ignore[reportAttributeAccessIssue]


def _parse_affine_expr(self: AffineParser, bare_id: BareId) -> AffineExpr:
    outer = getattr(self, "_after_binop", False)
    self._after_binop = False  # pyright: ignore[reportAttributeAccessIssue]
    try:
        lhs = self._parse_primary(bare_id)  # pyright: ignore[reportPrivateUsage]
    finally:
        self._after_binop = outer  # pyright: ignore[reportAttributeAccessIssue]
    return self._parse_binop_rhs(lhs, 0, bare_id)  # pyright: ignore[reportPrivateUsage]


def _parse_multi_affine_expr(self: AffineParser, bare_id: BareId) -> list[AffineExpr]:
    return self.parse_comma_separated_list(
        self.Delimiter.PAREN,
        lambda: self._parse_affine_expr(bare_id),  # pyright: ignore[reportPrivateUsage]
        " in affine map range",
    )


_CONSTRAINT_KINDS = {kind.value: kind for kind in AffineConstraintKind}
BAD_CONSTRAINT = "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"


def _parse_affine_constraint(self: AffineParser, bare_id: BareId) -> AffineConstraintExpr:
    lhs = self._parse_affine_expr(bare_id)  # pyright: ignore[reportPrivateUsage]
    first = self._current_token
    if first.kind in (MLIRTokenKind.GREATER, MLIRTokenKind.EQUAL, MLIRTokenKind.LESS):
        self._consume_token()
        second = self._current_token
        kind = _CONSTRAINT_KINDS.get(first.text + second.text)
        if kind is not None and second.kind is MLIRTokenKind.EQUAL:
            self._consume_token()
            rhs = self._parse_affine_expr(bare_id)  # pyright: ignore[reportPrivateUsage]
            return AffineConstraintExpr(kind, lhs, rhs)
    raise ParseError(self._current_token.span, BAD_CONSTRAINT)


def _parse_multi_affine_constraint(self: AffineParser, bare_id: BareId) -> list[AffineConstraintExpr]:
    return self.parse_comma_separated_list(
        self.Delimiter.PAREN,
        lambda: _parse_affine_constraint(self, bare_id),
        " in integer set constraint list",
    )


def _parse_affine_space(self: AffineParser) -> tuple[list[str], list[str]]:
    def parse_id() -> str:
        return self._parse_token(MLIRTokenKind.BARE_IDENT, "Expected identifier").text

    dims = self.parse_comma_separated_list(
        self.Delimiter.PAREN, parse_id, " in dimensional identifier list"
    )
    syms: list[str] = []
    if self._current_token.kind == MLIRTokenKind.L_SQUARE:
        syms = self.parse_comma_separated_list(self.Delimiter.SQUARE, parse_id, " in symbol list")
    return dims, syms


AffineParser._parse_primary = _parse_primary  # pyright: ignore[reportPrivateUsage]
AffineParser._parse_binop_rhs = _parse_binop_rhs  # pyright: ignore[reportPrivateUsage]
AffineParser._parse_affine_expr = _parse_affine_expr  # pyright: ignore[reportPrivateUsage]
AffineParser._parse_multi_affine_expr = _parse_multi_affine_expr  # pyright: ignore[reportPrivateUsage]
AffineParser._parse_affine_constraint = _parse_affine_constraint  # pyright: ignore[reportPrivateUsage]
AffineParser._parse_multi_affine_constaint = _parse_multi_affine_constraint  # pyright: ignore[reportPrivateUsage]
AffineParser._parse_affine_space = _parse_affine_space  # pyright: ignore[reportPrivateUsage]
