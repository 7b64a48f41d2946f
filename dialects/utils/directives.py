"""Custom directives printed the way upstream prints ``custom<...>``.

Upstream's declarative printer always writes a space before a custom directive,
even one that prints nothing, and spaces the next element after it. xDSL's
format printer leaves spacing to each directive, so each would repeat that;
:class:`SpacedDirective` does it once.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import CustomDirective, PrintingState
from xdsl.printer import Printer


class SpacedDirective(CustomDirective):
    """A directive whose text (:meth:`print_body`) upstream spaces as above.

    It is always present (the space is printed regardless); a subclass whose
    presence decides an optional group overrides :meth:`is_present`."""

    def print_body(self, printer: Printer, op: IRDLOperation) -> None:
        raise NotImplementedError

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_string(" ")
        self.print_body(printer, op)
        state.should_emit_space = True
        state.last_was_punctuation = False

    def is_present(self, op: IRDLOperation) -> bool:
        return True
