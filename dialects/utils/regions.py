"""Printing the regions of upstream's structured control flow, and the
implicit terminators their parsers add.

``scf.if`` and ``affine.if`` print their regions the same way: the then
region, `` else `` and the else region when it has a block, entry arguments
never shown and terminators only when the op yields values (upstream's
``printRegion`` with ``printBlockTerminators = hasResults``).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Block, Operation, Region
from xdsl.printer import Printer
from xdsl.traits import IsTerminator


def print_then_else(printer: Printer, then: Region, otherwise: Region, terminators: bool) -> None:
    """`` {then} else {otherwise}``; the else part only when it has a block."""
    printer.print_string(" ")
    printer.print_region(then, print_entry_block_args=False, print_block_terminators=terminators)
    if otherwise.blocks:
        printer.print_string(" else ")
        printer.print_region(
            otherwise, print_entry_block_args=False, print_block_terminators=terminators
        )


def ensure_implicit_terminator(region: Region, make: Callable[[], Operation]) -> None:
    """Upstream's ``ensureTerminator``: a block not ending in a terminator gets
    ``make()`` (an omitted ``scf.yield``/``affine.yield``). An unregistered
    last op is no terminator, as upstream's ``hasTrait`` says; xDSL counts it."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks.last
    assert block is not None
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
        block.add_op(make())
