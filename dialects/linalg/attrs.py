"""linalg's enum attributes, spelled as upstream spells them.

``#linalg.iterator_type<parallel>`` is xDSL's ``IteratorTypeAttr`` (it agrees
with upstream). The function enums that parametrize named ops (``#linalg.type_fn``,
``#linalg.unary_fn``, ``#linalg.binary_fn``, ``#linalg.ternary_fn``) and the kind of
``linalg.elementwise`` (``#linalg.elementwise_kind``) are missing from xDSL.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.utils.str_enum import StrEnum

from mlkit.dialects.utils.enums import enum_attribute

__all__ = [
    "BinaryFn",
    "BinaryFnAttr",
    "ElementwiseKind",
    "ElementwiseKindAttr",
    "IteratorType",
    "IteratorTypeAttr",
    "TernaryFn",
    "TernaryFnAttr",
    "TypeFn",
    "TypeFnAttr",
    "UnaryFn",
    "UnaryFnAttr",
]


class TypeFn(StrEnum):
    """How an operand is converted to the type an op computes in."""

    CAST_SIGNED = auto()
    CAST_UNSIGNED = auto()


def _function_enum(name: str, words: str) -> type[StrEnum]:
    """An enum of upstream's function names, each spelled as its value."""
    return StrEnum(name, [(word.upper(), word) for word in words.split()])  # type: ignore[return-value]


UnaryFn = _function_enum(
    "UnaryFn", "exp log abs ceil floor negf reciprocal round sqrt rsqrt square tanh erf"
)
BinaryFn = _function_enum(
    "BinaryFn",
    "add sub mul div div_unsigned max_signed min_signed max_unsigned min_unsigned powf",
)


class TernaryFn(StrEnum):
    SELECT = auto()


ElementwiseKind = StrEnum(  # type: ignore[misc]
    "ElementwiseKind",
    [(f.name, f.value) for fn in (UnaryFn, BinaryFn, TernaryFn) for f in fn],
)
"""Every unary, binary and ternary function, as ``linalg.elementwise`` names them."""


TypeFnAttr = enum_attribute("linalg.type_fn", "TypeFnAttr", TypeFn, "angle")
UnaryFnAttr = enum_attribute("linalg.unary_fn", "UnaryFnAttr", UnaryFn, "angle")
BinaryFnAttr = enum_attribute("linalg.binary_fn", "BinaryFnAttr", BinaryFn, "angle")
TernaryFnAttr = enum_attribute("linalg.ternary_fn", "TernaryFnAttr", TernaryFn, "angle")
ElementwiseKindAttr = enum_attribute(
    "linalg.elementwise_kind", "ElementwiseKindAttr", ElementwiseKind, "angle"
)
