"""Enums that several dialects store or write alike.

``arith::AtomicRMWKind`` (``ArithBase.td``) names the reductions of
``affine.parallel`` and the operations of ``memref.atomic_rmw``; both store a
kind as its position in this tuple. :class:`AngleBracketedEnum` writes an enum
attribute as upstream's ``EnumAttr`` with assembly format `` `<` $value `>` ``
does (linalg's function kinds, gpu's address spaces and barrier scopes).
"""

from __future__ import annotations

from types import new_class
from typing import ClassVar, Literal

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

ATOMIC_RMW_KINDS: tuple[str, ...] = (
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
)  # fmt: skip
"""``arith::AtomicRMWKind`` in enum order: a kind is stored as its index."""


class AngleBracketedEnum:
    """Mixin, listed before ``EnumAttribute[...]``: the value in angle brackets,
    ``#linalg.type_fn<cast_signed>``, ``#gpu.address_space<workgroup>`` (xDSL's
    enum attributes print it bare)."""

    enum_type: ClassVar[type[StrEnum]]
    data: StrEnum

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


def enum_attribute(
    name: str,
    class_name: str,
    enum: type[StrEnum],
    syntax: Literal["angle", "opaque"],
    doc: str | None = None,
) -> type[EnumAttribute]:
    """An enum attribute that differs from its siblings only in name and enum:
    one table row instead of a class body each. ``angle`` writes
    ``#dialect.name<value>`` (:class:`AngleBracketedEnum`); ``opaque`` writes
    ``#dialect<name value>`` and the value bare inside ops."""

    def body(namespace: dict[str, object]) -> None:
        # the class lives in the dialect module that defines its enum
        namespace.update(name=name, __doc__=doc, __module__=enum.__module__)
        namespace.update(__qualname__=class_name)

    base = EnumAttribute[enum]  # type: ignore[valid-type]
    bases = (AngleBracketedEnum, base) if syntax == "angle" else (base, SpacedOpaqueSyntaxAttribute)
    return irdl_attr_definition(new_class(class_name, bases, exec_body=body))
