"""Printing IR as upstream MLIR does.

Upstream's attribute dictionaries are always sorted by name (``DictionaryAttr``
keeps its entries sorted), so its output never depends on construction order;
xDSL prints in insertion order. Inside arrays upstream also elides the type of
``i64`` integers and ``f64`` floats (``[[0, 1], [2]]``), which are the parser's
defaults there, and prints affine maps and sets with minimal parentheses.
This printer does all three, so mlkit's output matches upstream's
byte for byte where the syntax agrees.
"""

from __future__ import annotations

from collections.abc import Mapping
from io import StringIO

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    f64,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from mlkit.affine_text import format_affine_map, format_affine_set


class MLIRPrinter(Printer):
    """xDSL's printer with upstream's sorted attribute dictionaries."""

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, ArrayAttr):
            with self.in_square_brackets():
                self.print_list(attribute.data, self._print_array_element)
            return
        if isinstance(attribute, AffineMapAttr):
            self.print_string(format_affine_map(attribute.data))
            return
        if isinstance(attribute, AffineSetAttr):
            self.print_string(format_affine_set(attribute.data))
            return
        super().print_attribute(attribute)

    def _print_array_element(self, attribute: Attribute) -> None:
        if isinstance(attribute, IntegerAttr) and attribute.type == i64:
            self.print_int(attribute.value.data, attribute.type)
        elif isinstance(attribute, FloatAttr) and attribute.type == f64:
            attribute.print_without_type(self)
        else:
            self.print_attribute(attribute)


def print_op(op: Operation, *, generic: bool = False, debuginfo: bool = False) -> str:
    """The text of ``op`` and everything nested in it."""
    out = StringIO()
    printer = MLIRPrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.print_op(op)
    return out.getvalue()
