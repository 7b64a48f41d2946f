"""Helpers shared by the hand-written parsers and printers of LLVM ops.

Upstream's custom syntax puts inherent attributes (properties) and discardable
ones in the same trailing ``{...}`` dictionary; these split and merge them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation
from xdsl.printer import Printer


def split_attr_dict(
    op_type: type[IRDLOperation], attrs: Mapping[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """(properties, attributes): names the op defines as properties go first."""
    props_def = op_type.get_irdl_definition().properties
    props = {k: v for k, v in attrs.items() if k in props_def}
    return props, {k: v for k, v in attrs.items() if k not in props_def}


def print_attr_dict(
    printer: Printer, op: Operation, elided: Iterable[str] = ()
) -> None:
    """The trailing dictionary: attributes and the properties not printed
    elsewhere, leaving out the ones equal to their default."""
    skip = set(elided)
    merged: dict[str, Attribute] = dict(op.attributes)
    definition = op.get_irdl_definition() if isinstance(op, IRDLOperation) else None
    for name, value in op.properties.items():
        if name in skip:
            continue
        if definition is not None and name in definition.properties:
            default = definition.properties[name].default_value
            if default is not None and value == default:
                continue
        merged[name] = value
    printer.print_op_attributes(merged)
