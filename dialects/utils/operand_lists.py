"""Upstream's operand lists with their types: ``%a, %b : t1, t2`` (one type
list after the operands) and ``%a : t1, %b : t2`` (each operand typed).

The first is how ``linalg``'s ``ins(...)``/``outs(...)`` and ``llvm.switch``'s
successor operands are written, as ``parseOperandList`` and
``parseColonTypeList`` read them; the second is how ``gpu.launch_func``'s
``args(...)`` and ``linalg.pack``'s ``padding_value(...)`` are.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer


def parse_colon_typed_operands(
    parser: Parser,
) -> tuple[list[UnresolvedOperand], list[Attribute]]:
    """``%a, %b : t1, t2``, unresolved; the counts are the caller's to check."""
    names = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    return names, types


def print_colon_typed_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    """``%a, %b : t1, t2``."""
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)


def parse_typed_operand(parser: Parser) -> tuple[UnresolvedOperand, Attribute]:
    """``%v : t``, unresolved."""
    name = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    return name, parser.parse_type()


def print_typed_value(printer: Printer, value: SSAValue) -> None:
    """``%v : t``."""
    printer.print_operand(value)
    printer.print_string(" : ")
    printer.print_attribute(value.type)


def parse_leading_operand(parser: Parser, present: bool) -> UnresolvedOperand | None:
    """``%v,``: the operand a store or an insert writes before the others; None
    for an op without one (``present`` false)."""
    if not present:
        return None
    value = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    return value


def print_leading_operand(printer: Printer, value: SSAValue | None) -> None:
    """``%v, `` when there is such an operand."""
    if value is not None:
        printer.print_operand(value)
        printer.print_string(", ")
