"""Upstream's shape checks shared by arith's ops: ``verifyCompatibleShape(s)``,
the ``Elementwise`` trait and the ``*-like`` type constraints.

Upstream tells a scalable vector (``vector<[4]xf32>``) from a fixed one
(``vector<4xf32>``) in the checks over many types (``SameOperandsAndResultShape``,
``Elementwise``), but not in the check of one type against another (a cast's
``areCastCompatible``); both are here, named apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import MemRefType, TensorType, UnrankedTensorType, VectorType
from xdsl.dialects.builtin import container_of
from xdsl.ir import Attribute
from xdsl.irdl import AttrConstraint, IRDLAttrConstraint, ParamAttrConstraint
from xdsl.irdl import irdl_to_attr_constraint
from xdsl.utils.exceptions import VerifyException


def tensor_like_of(constr: IRDLAttrConstraint) -> AttrConstraint:
    """Upstream's ``*-like`` constraints: a scalar, or a vector or tensor of
    one; a tensor may be unranked (xDSL's ``container_of`` lacks those)."""
    unranked = ParamAttrConstraint(UnrankedTensorType, (irdl_to_attr_constraint(constr),))
    return container_of(constr) | unranked


_SHAPED = (VectorType, TensorType, UnrankedTensorType, MemRefType)


def _scalable(type_: Attribute) -> bool:
    return isinstance(type_, VectorType) and any(type_.get_scalable_dims())


def compatible_shapes(types: Sequence[Attribute]) -> bool:
    """Upstream's ``verifyCompatibleShapes`` over ``types``: all scalars, or
    all shaped with equal ranks, equal static sizes (a dynamic size matches
    any) and either all or none scalable vectors; unranked tensors match any.

    Upstream asks only whether a vector has some scalable dimension, not
    which: ``vector<[4]x4xf32>`` and ``vector<4x[4]xf32>`` pass this check."""
    shaped = [isinstance(t, _SHAPED) for t in types]
    if not all(shaped):
        return not any(shaped)
    scalable = [_scalable(t) for t in types]
    if any(scalable) and not all(scalable):
        return False
    shapes = [tuple(t.get_shape()) for t in types if not isinstance(t, UnrankedTensorType)]
    if not shapes:
        return True
    if any(len(shape) != len(shapes[0]) for shape in shapes):
        return False
    return all(len({size for size in sizes if size >= 0}) <= 1 for sizes in zip(*shapes))


def compatible_shape(a: Attribute, b: Attribute) -> bool:
    """Upstream's ``verifyCompatibleShape(a, b)``: as :func:`compatible_shapes`
    but blind to scalable dimensions (``vector<[4]xf32>`` matches ``vector<4xf32>``)."""
    if not isinstance(a, _SHAPED) or not isinstance(b, _SHAPED):
        return not isinstance(a, _SHAPED) and not isinstance(b, _SHAPED)
    if isinstance(a, UnrankedTensorType) or isinstance(b, UnrankedTensorType):
        return True
    sa, sb = a.get_shape(), b.get_shape()
    return len(sa) == len(sb) and all(x == y or x < 0 or y < 0 for x, y in zip(sa, sb))


def mappable(type_: Attribute) -> bool:
    """What ``Elementwise`` maps over: vectors and (ranked or unranked) tensors."""
    return isinstance(type_, VectorType | TensorType | UnrankedTensorType)


def verify_elementwise(operands: list[Attribute], results: list[Attribute]) -> None:
    """Upstream's ``Elementwise`` trait (``OpTrait::impl::verifyElementwise``)."""
    mapped_operands = [t for t in operands if mappable(t)]
    mapped_results = [t for t in results if mappable(t)]
    if not mapped_operands and not mapped_results:
        return
    if not mapped_operands:
        raise VerifyException(
            "if a result is non-scalar, then at least one operand must be non-scalar"
        )
    if not mapped_results:
        raise VerifyException(
            "if an operand is non-scalar, then there must be at least one non-scalar result"
        )
    if len(mapped_results) != len(results):
        raise VerifyException("if an operand is non-scalar, then all results must be non-scalar")
    types = mapped_operands + mapped_results
    # one base type (upstream's TypeID: vector, ranked and unranked tensor differ)
    if not all(type(t) is type(types[0]) for t in types) or not compatible_shapes(types):
        raise VerifyException(
            "all non-scalar operands/results must have the same shape and base type"
        )
