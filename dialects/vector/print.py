"""``vector.print`` with upstream's syntax: xDSL's op has no custom form and
no punctuation or string, so ``vector.print %v : vector<4xf32>``,
``vector.print punctuation <comma>`` and ``vector.print str "..."`` did not
parse."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.vector import PrintOp as XPrintOp
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_operand_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mlkit.dialects.utils.attr_dict import add_attr_dict, print_attr_dict
from mlkit.dialects.utils.enums import enum_attribute


class PrintPunctuation(StrEnum):
    """``vector::PrintPunctuation``: what a print writes after its value."""

    NO_PUNCTUATION = "no_punctuation"
    NEWLINE = "newline"
    COMMA = "comma"
    OPEN = "open"
    CLOSE = "close"


PrintPunctuationAttr = enum_attribute(
    "vector.punctuation", "PrintPunctuationAttr", PrintPunctuation, "angle"
)


@irdl_op_definition
class PrintOp(XPrintOp):
    """Prints a scalar or vector, a string, or only punctuation."""

    name = "vector.print"

    source = opt_operand_def()
    punctuation = prop_def(PrintPunctuationAttr, default_value=PrintPunctuationAttr(PrintPunctuation.NEWLINE))
    stringLiteral = opt_prop_def(StringAttr)

    def __init__(self, source: SSAValue | None = None, punctuation: str = "newline",
                 string: str | None = None) -> None:
        props = {"punctuation": PrintPunctuationAttr(PrintPunctuation(punctuation))}
        if string is not None:
            props["stringLiteral"] = StringAttr(string)  # type: ignore[assignment]
        IRDLOperation.__init__(self, operands=[[source] if source is not None else []],
                               properties=props)

    @property
    def punctuation_value(self) -> str:
        return str(self.punctuation.data.value)  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        source = None
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            parser.parse_punctuation(":")
            source = parser.resolve_operand(operand, parser.parse_type())
        punctuation, string = "newline", None
        while True:
            if parser.parse_optional_keyword("str"):
                string = parser.parse_str_literal()
            elif parser.parse_optional_keyword("punctuation"):
                with parser.in_angle_brackets():
                    punctuation = parser.parse_str_enum(PrintPunctuation).value
            else:
                break
        attrs = parser.parse_optional_attr_dict()
        op = cls(source, punctuation, string)
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.source is not None:
            printer.print_string(" ")
            printer.print_operand(self.source)
            printer.print_string(" : ")
            printer.print_attribute(self.source.type)
        if self.stringLiteral is not None:
            printer.print_string(" str ")
            printer.print_attribute(self.stringLiteral)
        if self.punctuation_value != "newline":
            printer.print_string(f" punctuation <{self.punctuation_value}>")
        print_attr_dict(printer, self, ("punctuation", "stringLiteral"))

    def verify_(self) -> None:
        if self.stringLiteral is not None and (
            self.source is not None or self.punctuation_value != "newline"
        ):
            raise VerifyException(
                "failed to verify that `source` or `punctuation` are not set when printing strings"
            )
