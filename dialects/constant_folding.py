"""Reading and building the constants folders work on, as upstream's
``CommonFolders.h`` and ``Matchers.h`` do: scalar ``IntegerAttr``/``FloatAttr``
or dense elements (splat or not), folded element by element.

Integers are handled unsigned, in their type's width (``index`` is 64 bits,
as upstream stores it): signless values have no sign until an op gives them one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, FloatAttr, IndexType
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i1
from xdsl.ir import Attribute, Operation
from xdsl.traits import ConstantLike

__all__ = [
    "Constant",
    "Rule",
    "bool_attr",
    "element_type",
    "fold_elementwise",
    "int_or_splat",
    "is_splat",
    "operand_constants",
    "signed",
    "width",
]

Scalar = float | int
# An element rule: the operands' values (floats, or integers read unsigned) and
# the first operand's element type; the result's value, or None to leave the op.
Rule = Callable[..., Scalar | None]
Constant = FloatAttr | IntegerAttr | DenseIntOrFPElementsAttr


def width(type_: Attribute) -> int:
    """The bit width of an integer or ``index`` type."""
    return 64 if isinstance(type_, IndexType) else type_.width.data  # type: ignore[attr-defined]


def signed(value: int, bits: int) -> int:
    """``value`` (unsigned, ``bits`` wide) read as two's complement."""
    return value - (1 << bits) if value >> (bits - 1) & 1 else value


def element_type(attr: Constant) -> Attribute:
    return attr.get_element_type() if isinstance(attr, DenseIntOrFPElementsAttr) else attr.type


def _values(attr: Constant) -> Sequence[Scalar] | None:
    """The elements' values: floats, or integers read unsigned."""
    element = element_type(attr)
    if not isinstance(element, IntegerType | IndexType | AnyFloat):
        return None
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values: Sequence[Scalar] = attr.get_values()  # type: ignore[assignment]
    else:
        values = [attr.value.data]
    if isinstance(element, AnyFloat):
        return values
    mask = (1 << width(element)) - 1
    return [int(v) & mask for v in values]


def is_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    """Upstream's splat: every element has the same bits (so ``[0.0, -0.0]``
    is none, and ``[nan, nan]`` is one)."""
    size = len(attr.data.data) // max(len(attr), 1)
    data = attr.data.data
    return data == data[:size] * len(attr)


def int_or_splat(attr: Attribute | None) -> int | None:
    """Upstream's ``m_Zero``/``m_One`` view of a constant: the unsigned value
    of an integer scalar or integer splat; None for anything else."""
    if isinstance(attr, DenseIntOrFPElementsAttr) and is_splat(attr):
        values = _values(attr)
    elif isinstance(attr, IntegerAttr):
        values = _values(attr)
    else:
        return None
    if values is None or not values or isinstance(values[0], float):
        return None
    return int(values[0])


def _build(like: Constant, type_: Attribute, values: Sequence[Scalar]) -> Attribute:
    """A constant of ``type_`` (dense if ``like`` is) holding ``values``."""
    if isinstance(like, DenseIntOrFPElementsAttr):
        element = type_.get_element_type()  # type: ignore[attr-defined]
        if not isinstance(element, AnyFloat):
            values = [signed(int(v) & ((1 << width(element)) - 1), width(element)) for v in values]
        return DenseIntOrFPElementsAttr.from_list(type_, values)  # type: ignore[arg-type]
    if isinstance(type_, AnyFloat):
        return FloatAttr(float(values[0]), type_)
    bits = width(type_)
    return IntegerAttr(signed(int(values[0]) & ((1 << bits) - 1), bits), type_)  # type: ignore[arg-type]


def bool_attr(type_: Attribute, value: bool) -> Attribute:
    """Upstream's ``getBoolAttribute``: ``true``/``false``, or a splat of it
    for a shaped ``i1`` type."""
    if type_ == i1:
        return IntegerAttr(int(value), 1)
    return DenseIntOrFPElementsAttr.from_list(type_, [int(value)])  # type: ignore[arg-type]


def fold_elementwise(
    rule: Rule, operands: Sequence[Attribute | None], result_type: Attribute
) -> Attribute | None:
    """Upstream's ``constFold{Unary,Binary}OpConditional`` and
    ``constFoldCastOp``: ``rule`` on each element of constants of one kind (all
    scalars, or all dense of one shape), a constant of ``result_type``; None
    where an operand is no such constant or any element is refused."""
    if not all(isinstance(a, Constant) for a in operands):
        return None
    constants: list[Constant] = list(operands)  # type: ignore[arg-type]
    first = constants[0]
    dense = isinstance(first, DenseIntOrFPElementsAttr)
    if any(isinstance(c, DenseIntOrFPElementsAttr) != dense for c in constants):
        return None
    if dense and any(c.type.get_shape() != first.type.get_shape() for c in constants):  # type: ignore[union-attr]
        return None
    columns = [_values(c) for c in constants]
    if any(column is None for column in columns):
        return None
    element = element_type(first)
    results: list[Scalar] = []
    memo: dict[tuple[object, ...], Scalar | None] = {}  # a splat computes once
    for row in zip(*columns, strict=True):  # type: ignore[call-overload]
        key = tuple((v, math.copysign(1.0, v)) if isinstance(v, float) else v for v in row)
        if key not in memo:
            memo[key] = rule(*row, element)
        if (value := memo[key]) is None:
            return None
        results.append(value)
    return _build(first, result_type, results)


def operand_constants(op: Operation) -> list[Attribute | None]:
    """The constant each operand of ``op`` is defined by, or None."""
    return [ConstantLike.get_constant_value(value) for value in op.operands]
