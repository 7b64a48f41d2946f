"""``arith.constant`` and ``arith.addui_extended``: xDSL's ops, verified as
upstream verifies them.

* ``constant``: xDSL's parser refuses ``0 : ui32`` while reading it
  (``Expected attribute #builtin.signedness<signless>``) and its verifier
  names IRDL's type variable (``attribute f32 expected from variable 'T'``);
  upstream parses both and reports ``integer return type must be signless``
  and ``failed to verify that all of {value, result} have same type``.
* ``addui_extended``: upstream's ``Elementwise`` trait and operand
  descriptions (``result #1 must be bool-like``), where xDSL checks the
  overflow type against one it infers.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DenseResourceAttr
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType, NoneType
from xdsl.dialects.builtin import Signedness, StringAttr, TensorType, UnrankedTensorType
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute
from xdsl.irdl import AnyAttr, ParamAttrConstraint, VarConstraint, operand_def, prop_def
from xdsl.irdl import result_def
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.arith.shapes import mappable, verify_elementwise
from mlkit.dialects.utils.ods import DeclarativeSyntax, upstream_op, verify_that


def _typed_value_type(value: Attribute) -> Attribute | None:
    """The type of a ``TypedAttr`` (None for an attribute without one)."""
    if isinstance(value, StringAttr):
        return NoneType()
    if isinstance(value, IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr | DenseResourceAttr):
        return value.get_type()
    return None


@upstream_op
class ConstantOp(DeclarativeSyntax, xarith.ConstantOp):
    """xDSL's op; an integer of any signedness parses, as upstream's does."""

    name = "arith.constant"
    _T: ClassVar = VarConstraint("T", AnyAttr())
    result = result_def(_T)
    value = prop_def(
        IntegerAttr.constr(_T)
        | ParamAttrConstraint(FloatAttr, (AnyAttr(), _T))
        | ParamAttrConstraint(DenseIntOrFPElementsAttr, (_T, AnyAttr()))
        | ParamAttrConstraint(DenseResourceAttr, (AnyAttr(), _T))
    )

    assembly_format = "attr-dict $value"

    def verify_relations_(self) -> None:
        value = self.properties.get("value")
        if value is None:
            raise VerifyException("requires attribute 'value'")
        value_type = _typed_value_type(value)
        if value_type is None:
            raise VerifyException(
                "attribute 'value' failed to satisfy constraint: TypedAttr instance"
            )
        verify_that(value_type == self.result.type, "all of {value, result} have same type")
        type_ = self.result.type
        if isinstance(type_, IntegerType) and type_.signedness.data != Signedness.SIGNLESS:
            raise VerifyException("integer return type must be signless")
        if isinstance(value, StringAttr):
            raise VerifyException("value must be an integer, float, or elements attribute")

    def verify_(self) -> None:
        pass


_INT_LIKE_TEXT = "signless-integer-like"


@upstream_op
class AddUIExtendedOp(DeclarativeSyntax, xarith.AddUIExtendedOp):
    """xDSL's op with upstream's checks and words."""

    name = "arith.addui_extended"
    T: ClassVar = VarConstraint("T", xarith.signlessIntegerLike)
    lhs = operand_def(T)
    rhs = operand_def(T)
    sum = result_def(T)
    overflow = result_def(xarith.boolLike)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "lhs": _INT_LIKE_TEXT, "rhs": _INT_LIKE_TEXT, "sum": _INT_LIKE_TEXT,
        "overflow": "bool-like",
    }  # fmt: skip
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)"

    def verify_relations_(self) -> None:
        for index, value in enumerate((self.lhs, self.rhs)):
            if not _signless_integer_like(value.type):
                raise VerifyException(
                    f"operand #{index} must be {_INT_LIKE_TEXT}, but got '{value.type}'"
                )
        for index, (value, text, check) in enumerate(
            (
                (self.sum, _INT_LIKE_TEXT, _signless_integer_like),
                (self.overflow, "bool-like", _bool_like),
            )
        ):
            if not check(value.type):
                raise VerifyException(f"result #{index} must be {text}, but got '{value.type}'")
        verify_that(
            self.lhs.type == self.rhs.type == self.sum.type, "all of {lhs, rhs, sum} have same type"
        )
        verify_elementwise(
            [self.lhs.type, self.rhs.type], [self.sum.type, self.overflow.type]
        )

    def verify_(self) -> None:
        pass


def _element(type_: Attribute) -> Attribute:
    return type_.element_type if mappable(type_) else type_  # type: ignore[attr-defined]


def _signless_integer_like(type_: Attribute) -> bool:
    element = _element(type_)
    return isinstance(element, IndexType) or (
        isinstance(element, IntegerType) and element.signedness.data == Signedness.SIGNLESS
    )


def _bool_like(type_: Attribute) -> bool:
    element = _element(type_)
    return isinstance(element, IntegerType) and element == IntegerType(1)

