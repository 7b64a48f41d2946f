"""Printing the regions of upstream's structured control flow.

``scf.if`` and ``affine.if`` print their regions the same way: the then
region, `` else `` and the else region when it has a block, entry arguments
never shown and terminators only when the op yields values (upstream's
``printRegion`` with ``printBlockTerminators = hasResults``).
"""

from __future__ import annotations

from xdsl.ir import Region
from xdsl.printer import Printer


def print_then_else(printer: Printer, then: Region, otherwise: Region, terminators: bool) -> None:
    """`` {then} else {otherwise}``; the else part only when it has a block."""
    printer.print_string(" ")
    printer.print_region(then, print_entry_block_args=False, print_block_terminators=terminators)
    if otherwise.blocks:
        printer.print_string(" else ")
        printer.print_region(
            otherwise, print_entry_block_args=False, print_block_terminators=terminators
        )
