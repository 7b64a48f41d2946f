"""Printing IR as upstream MLIR does.

Upstream's attribute dictionaries are always sorted by name (``DictionaryAttr``
keeps its entries sorted), so its output never depends on construction order;
xDSL prints in insertion order. This printer sorts, so mlkit's output matches
upstream's byte for byte where the syntax agrees.
"""

from __future__ import annotations

from collections.abc import Mapping
from io import StringIO

from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer


class MLIRPrinter(Printer):
    """xDSL's printer with upstream's sorted attribute dictionaries."""

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))


def print_op(op: Operation, *, generic: bool = False, debuginfo: bool = False) -> str:
    """The text of ``op`` and everything nested in it."""
    out = StringIO()
    printer = MLIRPrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.print_op(op)
    return out.getvalue()
