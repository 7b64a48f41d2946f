"""Upstream's result type lists: ``-> t`` and ``-> (t, u)``.

Upstream's ``parseOptionalArrowTypeList``/``printOptionalArrowTypeList`` serve
many dialects' custom forms (scf, affine, linalg); xDSL has no such helpers.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FunctionType
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer


def parse_arrow_type_list(parser: Parser) -> list[Attribute]:
    """``t`` or ``(t, ...)``, after an arrow already read."""
    types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    return types if types is not None else [parser.parse_type()]


def parse_optional_arrow_type_list(parser: Parser) -> list[Attribute] | None:
    """Upstream's ``parseOptionalArrowTypeList``: ``-> t`` or ``-> (t, ...)``;
    None without the arrow."""
    if parser.parse_optional_punctuation("->") is None:
        return None
    return parse_arrow_type_list(parser)


def single_bare(types: Sequence[Attribute]) -> bool:
    """One type that prints without parentheses (a function type needs them)."""
    return len(types) == 1 and not isinstance(types[0], FunctionType)


def print_optional_arrow_type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    """Upstream's ``printOptionalArrowTypeList``: parentheses unless exactly one
    type that is not a function type."""
    if not types:
        return
    printer.print_string(" -> ")
    if single_bare(types):
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def print_arrow_paren_type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    """`` -> (t, ...)``, parenthesized even for one type, as loop ops print."""
    printer.print_string(" -> (")
    printer.print_list(types, printer.print_attribute)
    printer.print_string(")")
