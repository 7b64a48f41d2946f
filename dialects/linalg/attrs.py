"""linalg's enum attributes, spelled as upstream spells them.

``#linalg.iterator_type<parallel>`` is xDSL's ``IteratorTypeAttr`` (it agrees
with upstream). The function enums that parametrize named ops (``#linalg.type_fn``,
``#linalg.unary_fn``, ``#linalg.binary_fn``, ``#linalg.ternary_fn``) and the kind of
``linalg.elementwise`` (``#linalg.elementwise_kind``) are missing from xDSL.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum

from mlkit.dialects.utils.enums import AngleBracketedEnum

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


class UnaryFn(StrEnum):
    EXP = auto()
    LOG = auto()
    ABS = auto()
    CEIL = auto()
    FLOOR = auto()
    NEGF = auto()
    RECIPROCAL = auto()
    ROUND = auto()
    SQRT = auto()
    RSQRT = auto()
    SQUARE = auto()
    TANH = auto()
    ERF = auto()


class BinaryFn(StrEnum):
    ADD = auto()
    SUB = auto()
    MUL = auto()
    DIV = auto()
    DIV_UNSIGNED = auto()
    MAX_SIGNED = auto()
    MIN_SIGNED = auto()
    MAX_UNSIGNED = auto()
    MIN_UNSIGNED = auto()
    POWF = auto()


class TernaryFn(StrEnum):
    SELECT = auto()


ElementwiseKind = StrEnum(  # type: ignore[misc]
    "ElementwiseKind",
    [(f.name, f.value) for fn in (UnaryFn, BinaryFn, TernaryFn) for f in fn],
)
"""Every unary, binary and ternary function, as ``linalg.elementwise`` names them."""


@irdl_attr_definition
class TypeFnAttr(AngleBracketedEnum, EnumAttribute[TypeFn]):
    name = "linalg.type_fn"


@irdl_attr_definition
class UnaryFnAttr(AngleBracketedEnum, EnumAttribute[UnaryFn]):
    name = "linalg.unary_fn"


@irdl_attr_definition
class BinaryFnAttr(AngleBracketedEnum, EnumAttribute[BinaryFn]):
    name = "linalg.binary_fn"


@irdl_attr_definition
class TernaryFnAttr(AngleBracketedEnum, EnumAttribute[TernaryFn]):
    name = "linalg.ternary_fn"


@irdl_attr_definition
class ElementwiseKindAttr(AngleBracketedEnum, EnumAttribute[ElementwiseKind]):
    name = "linalg.elementwise_kind"
