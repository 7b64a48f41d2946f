"""Upstream MLIR's textual forms for affine expressions, maps and integer sets.

xDSL prints affine expressions fully parenthesised (``((d0 + 1) * 2)``) and
reads every SSA id in ``%m[%i + 3]`` as a symbol, while upstream prints with
minimal parentheses and subtraction sugar (``d0 - s0 - 1``) and reads a plain
``%i`` as a dimension and ``symbol(%n)`` as a symbol. The affine ops use the
helpers here so their custom forms read and print exactly as upstream's do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.parser.affine_parser import AffineParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind

from mlkit.syntax.affine_text import canonical_set, emit_affine_expr, format_affine_map
from mlkit.syntax.affine_text import format_affine_set
from mlkit.syntax.printer import MLIRPrinter

_T = TypeVar("_T")


def print_map_attr(printer: Printer, attr: AffineMapAttr) -> None:
    if isinstance(printer, MLIRPrinter):  # it prints the map or its alias
        printer.print_attribute(attr)
    else:
        printer.print_string(format_affine_map(attr.data))


def print_set_attr(printer: Printer, attr: AffineSetAttr) -> None:
    if isinstance(printer, MLIRPrinter):
        printer.print_attribute(attr)
    else:
        printer.print_string(format_affine_set(attr.data))


def print_expr_of_ssa_ids(
    printer: Printer,
    expr: AffineExpr,
    dims: Sequence[SSAValue],
    syms: Sequence[SSAValue],
) -> None:
    """An affine expression over SSA values: dimensions print as ``%v`` and
    symbols as ``symbol(%v)``."""

    def emit_id(pos: int, is_symbol: bool) -> None:
        if is_symbol:
            printer.print_string("symbol(")
            printer.print_ssa_value(syms[pos])
            printer.print_string(")")
        else:
            printer.print_ssa_value(dims[pos])

    emit_affine_expr(expr, printer.print_string, emit_id)


def print_map_of_ssa_ids(printer: Printer, amap: AffineMap, operands: Sequence[SSAValue]) -> None:
    """The results of ``amap`` over ``operands`` (dims then symbols), comma separated."""
    dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
    for i, expr in enumerate(amap.results):
        if i:
            printer.print_string(", ")
        print_expr_of_ssa_ids(printer, expr, dims, syms)


def print_dim_and_symbol_list(printer: Printer, operands: Sequence[SSAValue], num_dims: int) -> None:
    """``(%d0, %d1)[%s0]``; the symbol list is left out when empty."""
    printer.print_string("(")
    printer.print_list(operands[:num_dims], printer.print_ssa_value)
    printer.print_string(")")
    if len(operands) > num_dims:
        printer.print_string("[")
        printer.print_list(operands[num_dims:], printer.print_ssa_value)
        printer.print_string("]")


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


class MapOfSSAIds(NamedTuple):
    """An affine map parsed from SSA ids and the operands it is applied to,
    dimensions first, then symbols."""

    map: AffineMap
    operands: list[UnresolvedOperand]


def _is_symbolic_or_constant(expr: AffineExpr) -> bool:
    return not any(isinstance(e, AffineDimExpr) for e in expr.dfs())


def upstream_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs * rhs`` simplified as upstream's ``simplifyMul`` does. Unlike
    xDSL's ``*`` it never distributes over ``+``: upstream keeps
    ``(d0 + 2) * 3`` as written, and so must the IR read from its text."""
    if isinstance(lhs, AffineConstantExpr) and isinstance(rhs, AffineConstantExpr):
        return AffineExpr.constant(lhs.value * rhs.value)
    if not _is_symbolic_or_constant(rhs) or isinstance(lhs, AffineConstantExpr):
        lhs, rhs = rhs, lhs
    if isinstance(rhs, AffineConstantExpr):
        if rhs.value == 1:
            return lhs
        if rhs.value == 0:
            return rhs
    if (
        isinstance(lhs, AffineBinaryOpExpr)
        and lhs.kind == AffineBinaryOpKind.Mul
        and isinstance(lhs.rhs, AffineConstantExpr)
    ):
        if isinstance(rhs, AffineConstantExpr):
            return upstream_mul(lhs.lhs, AffineExpr.constant(lhs.rhs.value * rhs.value))
        return upstream_mul(upstream_mul(lhs.lhs, rhs), lhs.rhs)
    return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, lhs, rhs)


class _SSAIdAffineParser(AffineParser):
    """xDSL's affine expression parser, reading ``%v`` as a dimension and
    ``symbol(%v)`` as a symbol, with upstream's rules for semi-affine terms."""

    def __init__(self, parser: Parser) -> None:
        super().__init__(parser._parser_state)  # pyright: ignore[reportPrivateUsage]
        self._outer = parser
        self.dims: list[UnresolvedOperand] = []
        self.syms: list[UnresolvedOperand] = []
        self._seen: dict[tuple[str, int], AffineExpr] = {}

    def _use(self, operand: UnresolvedOperand, is_symbol: bool) -> AffineExpr:
        key = (operand.operand_name, operand.index)
        if (known := self._seen.get(key)) is not None:
            return known
        if is_symbol:
            expr: AffineExpr = AffineExpr.symbol(len(self.syms))
            self.syms.append(operand)
        else:
            expr = AffineExpr.dimension(len(self.dims))
            self.dims.append(operand)
        self._seen[key] = expr
        return expr

    def parse_optional_id(self) -> AffineExpr | None:
        outer = self._outer
        if (operand := outer.parse_optional_unresolved_operand()) is not None:
            return self._use(operand, False)
        token = self._current_token
        if token.kind == MLIRTokenKind.BARE_IDENT and token.text == "symbol":
            self._consume_token()
            outer.parse_punctuation("(", " at start of SSA symbol")
            operand = outer.parse_unresolved_operand("expected SSA operand")
            outer.parse_punctuation(")", " at end of SSA symbol")
            return self._use(operand, True)
        return None

    def _parse_primary(self, parse_optional_bare_id: Callable[[], AffineExpr | None]) -> AffineExpr:
        if self._parse_optional_token(MLIRTokenKind.MINUS) is not None:
            return upstream_mul(self._parse_primary(parse_optional_bare_id), AffineExpr.constant(-1))
        return super()._parse_primary(parse_optional_bare_id)

    def _create_binop_expr(self, lhs: AffineExpr, rhs: AffineExpr, binop: MLIRToken) -> AffineExpr:
        if binop.text == "-":
            return lhs + upstream_mul(rhs, AffineExpr.constant(-1))
        kinds = {
            "*": AffineBinaryOpKind.Mul,
            "floordiv": AffineBinaryOpKind.FloorDiv,
            "ceildiv": AffineBinaryOpKind.CeilDiv,
            "mod": AffineBinaryOpKind.Mod,
        }
        kind = kinds.get(binop.text)
        if kind is None:
            return super()._create_binop_expr(lhs, rhs, binop)
        if kind == AffineBinaryOpKind.Mul:
            if not _is_symbolic_or_constant(lhs) and not _is_symbolic_or_constant(rhs):
                raise ParseError(
                    binop.span,
                    "non-affine expression: at least one of the multiply operands "
                    "has to be either a constant or symbolic",
                )
            if _is_symbolic_or_constant(lhs) and not _is_symbolic_or_constant(rhs):
                lhs, rhs = rhs, lhs
        elif not _is_symbolic_or_constant(rhs):
            raise ParseError(
                binop.span,
                f"non-affine expression: right operand of {binop.text} has to be "
                "either a constant or symbolic",
            )
        if kind == AffineBinaryOpKind.Mul:
            return upstream_mul(lhs, rhs)
        if isinstance(rhs, AffineConstantExpr) or isinstance(lhs, AffineConstantExpr):
            return super()._create_binop_expr(lhs, rhs, binop)
        # A semi-affine term (by a symbol), which xDSL's operators refuse to build.
        return AffineBinaryOpExpr(kind, lhs, rhs)

    def parse_expr(self) -> AffineExpr:
        return self._parse_affine_expr(self.parse_optional_id)


def parse_map_of_ssa_ids(parser: Parser, delimiter: Parser.Delimiter) -> MapOfSSAIds:
    """``[%i + 3, symbol(%n)]`` (or in parentheses) as upstream's
    ``parseAffineMapOfSSAIds``: repeated ids share one dimension or symbol."""
    ids = _SSAIdAffineParser(parser)
    left, right = delimiter.value
    if parser.parse_optional_characters(left) is None:
        parser.raise_error(f"expected '{left}' in affine map")
    exprs: list[AffineExpr] = []
    if parser.parse_optional_characters(right) is None:
        exprs = parser.parse_comma_separated_list(Parser.Delimiter.NONE, ids.parse_expr)
        parser.parse_characters(right, " in affine map")
    amap = AffineMap(len(ids.dims), len(ids.syms), tuple(exprs))
    return MapOfSSAIds(amap, [*ids.dims, *ids.syms])


def parse_expr_of_ssa_ids(parser: Parser) -> MapOfSSAIds:
    """One affine expression over SSA ids, as a single-result map."""
    ids = _SSAIdAffineParser(parser)
    expr = ids.parse_expr()
    return MapOfSSAIds(AffineMap(len(ids.dims), len(ids.syms), (expr,)), [*ids.dims, *ids.syms])


def parse_dim_and_symbol_list(parser: Parser) -> tuple[list[SSAValue], int]:
    """``(%d...)`` then an optional ``[%s...]``, resolved as index values;
    returns the operands and the number of dimensions."""
    index = IndexType()
    dims = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(index)
    )
    syms = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_operand(index)
    )
    return [*dims, *(syms or ())], len(dims)


def _parse_kind(parser: Parser, parse: Callable[[], object], kind: type[_T], what: str) -> _T:
    """What ``parse`` reads, which must be of class ``kind``: upstream's
    ``parseType<T>``/``parseAttribute<T>`` and their wording."""
    pos = parser.pos
    parsed = parse()
    if not isinstance(parsed, kind):
        parser.raise_error(f"invalid kind of {what} specified", pos)
    return parsed


def parse_type_of(parser: Parser, kind: type[_T]) -> _T:
    return _parse_kind(parser, parser.parse_type, kind, "type")


def _parse_attr_of(parser: Parser, kind: type[_T]) -> _T:
    return _parse_kind(parser, parser.parse_attribute, kind, "attribute")


def parse_map_attr(parser: Parser) -> AffineMapAttr:
    return _parse_attr_of(parser, AffineMapAttr)


def parse_set_attr(parser: Parser) -> AffineSetAttr:
    return AffineSetAttr(canonical_set(_parse_attr_of(parser, AffineSetAttr).data))


def parse_operands_of(
    parser: Parser, what: str, num_dims: int, num_symbols: int, pos: int
) -> list[SSAValue]:
    """``(%d...)[%s...]`` for a map or set (``what``) of ``num_dims`` dimensions
    and ``num_symbols`` symbols, with upstream's count checks."""
    operands, dims = parse_dim_and_symbol_list(parser)
    if dims != num_dims:
        parser.raise_error(f"dim operand count and {what} dim count must match", pos)
    if dims + num_symbols != len(operands):
        parser.raise_error(f"symbol operand count and {what} symbol count must match", pos)
    return operands
