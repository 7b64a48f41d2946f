"""``vector.extract`` and ``vector.insert``: xDSL's, with upstream's
position checks.

xDSL 0.75 checks only the number of positions, so ``vector.extract %v[7]`` of a
``vector<4xf32>`` verified and was lowered to an out-of-bounds access; a static
position of 2^63 also wrapped to the dynamic marker. Those two ops are
subclassed here (passes match xDSL's classes with isinstance).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloatConstr, ArrayAttr, DenseArrayBase
from xdsl.dialects.builtin import IndexType, IndexTypeConstr, IntAttr, IntegerType, VectorType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import AtLeast, AttrConstraint, IRDLOperation, MessageConstraint, RangeOf, base
from xdsl.irdl import operand_def
from xdsl.irdl import VarConstraint, prop_def, result_def, var_operand_def
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.scf.common import xdsl_own_verify
from mlkit.dialects.utils.dynamic_sizes import DynamicIndexList, count_dynamic
from mlkit.dialects.utils.ods import DeclarativeSyntax, upstream_op

POISON_INDEX = -1
"""Upstream's ``kPoisonIndex``: a static position that makes the result poison."""

_ELEMENT = base(IntegerType) | base(IndexType) | AnyFloatConstr
_EXTRACT_VERIFY = xdsl_own_verify(xvector.ExtractOp)
_INSERT_VERIFY = xdsl_own_verify(xvector.InsertOp)


def _vector_or_scalar(element: AttrConstraint, message: str) -> AttrConstraint:
    """xDSL's constraint on the extracted or inserted value: a scalar of the
    element type or a non-0-d vector of it."""
    dims = ArrayAttr.constr(RangeOf(base(IntAttr)).of_length(AtLeast(1)))
    shape = MessageConstraint(dims, message)
    return VectorType.constr(element, shape=shape) | element


def verify_positions(
    static: Sequence[int], dynamic: Sequence[SSAValue], vector_type: Attribute, of: str
) -> None:
    """Upstream's checks of a static position list against the ``of`` vector
    (``vector`` or ``dest vector``): one value per dynamic entry, no more
    positions than dimensions, and each static one in bounds or poison."""
    if count_dynamic(static) != len(dynamic):
        raise VerifyException(
            "mismatch between dynamic and static positions (kDynamic marker but no "
            "corresponding dynamic position) -- this can only happen due to an "
            "incorrect fold/rewrite"
        )
    if not isinstance(vector_type, VectorType):
        return  # its own constraint reports it
    shape = vector_type.get_shape()
    if len(static) > len(shape):
        raise VerifyException(f"expected position attribute of rank no greater than {of} rank")
    for index, (position, size) in enumerate(zip(static, shape)):
        if position == DYNAMIC_INDEX or position == POISON_INDEX:
            continue
        if not 0 <= position < size:
            # upstream words the insert case without "or poison", yet accepts -1
            poison = " or poison (-1)" if of == "vector" else ""
            raise VerifyException(
                f"expected position attribute #{index + 1} to be a non-negative integer "
                f"smaller than the corresponding {of} dimension{poison}"
            )


# the element type (T) and vector type (V) the op's operand and result share
_T = VarConstraint("T", _ELEMENT)
_V = VarConstraint("V", VectorType.constr(_T))


class _Positioned(IRDLOperation):
    """What ``vector.extract`` and ``vector.insert`` share: the static position
    list, its syntax, and upstream's checks of it against the ``POSITIONED``
    operand (``OF`` names it in the messages)."""

    static_position = prop_def(DenseArrayBase.constr(i64))
    custom_directives = (DynamicIndexList,)
    POSITIONED: ClassVar[str]
    OF: ClassVar[str]
    XDSL_VERIFY: ClassVar[Callable[[IRDLOperation], None]]

    def verify_(self) -> None:
        static = tuple(self.static_position.get_values())
        vector = getattr(self, self.POSITIONED).type
        verify_positions(static, self.dynamic_position, vector, self.OF)
        try:
            type(self).XDSL_VERIFY(self)
        except VerifyException as err:
            if not str(err).startswith("Expected position attribute rank"):
                raise
            raise VerifyException(self._rank_mismatch(len(static), vector)) from None

    def _rank_mismatch(self, count: int, vector: VectorType) -> str:
        """Upstream's words for xDSL's check of the position count."""
        if self.OF == "vector":  # extract: upstream infers the result type from it
            shape = vector.get_shape()[count:]
            inferred = VectorType(vector.element_type, shape) if shape else vector.element_type
            actual = self.results[0].type
            return (
                f"inferred type(s) '{inferred}' are incompatible with return type(s) of "
                f"operation '{actual}'"
            )
        if isinstance(self.operands[0].type, VectorType):  # the inserted value
            return "expected position attribute rank + source rank to match dest vector rank"
        return "expected position attribute rank to match the dest vector rank"


@upstream_op
class ExtractOp(DeclarativeSyntax, _Positioned, xvector.ExtractOp):
    """xDSL's op with upstream's position checks."""

    name = "vector.extract"

    vector = operand_def(_V)
    dynamic_position = var_operand_def(IndexTypeConstr)
    result = result_def(_vector_or_scalar(_T, "Cannot extract 0d vector."))
    traits = xvector.ExtractOp.traits
    POSITIONED: ClassVar[str] = "vector"
    OF: ClassVar[str] = "vector"
    XDSL_VERIFY: ClassVar = staticmethod(_EXTRACT_VERIFY)


@upstream_op
class InsertOp(DeclarativeSyntax, _Positioned, xvector.InsertOp):
    """xDSL's op with upstream's position checks."""

    name = "vector.insert"

    source = operand_def(_vector_or_scalar(_T, "Cannot insert 0d vector."))
    dest = operand_def(_V)
    dynamic_position = var_operand_def(IndexTypeConstr)
    result = result_def(_V)
    traits = xvector.InsertOp.traits
    POSITIONED: ClassVar[str] = "dest"
    OF: ClassVar[str] = "dest vector"
    XDSL_VERIFY: ClassVar = staticmethod(_INSERT_VERIFY)

