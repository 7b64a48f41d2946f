"""Printing the regions of upstream's structured control flow, and the
implicit terminators their parsers add.

``scf.if`` and ``affine.if`` print their regions the same way: the then
region, `` else `` and the else region when it has a block, entry arguments
never shown and terminators only when the op yields values (upstream's
``printRegion`` with ``printBlockTerminators = hasResults``).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Block, Operation, OpTraits, Region
from xdsl.irdl import IRDLOperation
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, SingleBlockImplicitTerminator


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


def ensure_implicit_terminators(op: Operation) -> None:
    """:func:`ensure_implicit_terminator` for every region of an op with the
    ``SingleBlockImplicitTerminator`` trait. Unlike xDSL's ``ensure_terminator``
    it refuses no other terminator: upstream's parser leaves that to the
    verifier (which reports the nested op's own errors first)."""
    for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
        for region in op.regions:
            ensure_implicit_terminator(region, trait.op_type.create)


def drop_implicit_terminator(op_class: type[IRDLOperation]) -> None:
    """Remove the ``SingleBlockImplicitTerminator`` trait an op class inherits
    from an xDSL op whose upstream counterpart has none (IRDL merges the
    traits of every class along the MRO, so a subclass cannot leave it out)."""
    op_def = op_class.get_irdl_definition()
    kept = tuple(t for t in op_def.traits if not isinstance(t, SingleBlockImplicitTerminator))
    op_def.traits = op_class.traits = OpTraits(lambda: kept)  # type: ignore[misc]
