"""The trailing ``{...}`` attribute dictionary of upstream's custom op syntax.

Upstream's custom forms put inherent attributes (xDSL's properties) and
discardable ones in the same dictionary: a parser sorts them back by the op's
definition, a printer merges them and leaves out what the syntax already
spelled. xDSL's ``print_op_attributes`` only knows the discardable ones.
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


def add_attr_dict(
    op: IRDLOperation, attrs: Mapping[str, Attribute], elided: Iterable[str] = ()
) -> None:
    """Adds a parsed dictionary to ``op``, sorted by :func:`split_attr_dict`,
    leaving out the names in ``elided`` (which the syntax spelled elsewhere)."""
    skip = set(elided)
    props, rest = split_attr_dict(type(op), {k: v for k, v in attrs.items() if k not in skip})
    op.properties |= props
    op.attributes |= rest


def print_attr_dict(
    printer: Printer,
    op: Operation,
    elided: Iterable[str] = (),
    *,
    keyword: bool = False,
    properties_first: bool = False,
    skip_defaults: bool = True,
) -> None:
    """The trailing dictionary: the op's attributes and the properties not
    printed elsewhere (``elided``), leaving out, with ``skip_defaults``, the
    properties equal to their default. ``keyword`` writes it after
    ``attributes``, as function-like ops do."""
    skip = set(elided)
    definition = op.get_irdl_definition() if isinstance(op, IRDLOperation) else None
    props: dict[str, Attribute] = {}
    for name, value in op.properties.items():
        if name in skip:
            continue
        if skip_defaults and definition is not None and name in definition.properties:
            default = definition.properties[name].default_value
            if default is not None and value == default:
                continue
        props[name] = value
    attrs = {k: v for k, v in op.attributes.items() if k not in skip}
    merged = {**props, **attrs} if properties_first else {**attrs, **props}
    printer.print_op_attributes(merged, print_keyword=keyword)
