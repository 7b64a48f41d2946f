"""Upstream's ``LLVM::ConstantOp::verify``: the value attribute of an
``llvm.mlir.constant`` must fit its result type, with upstream's messages.

Without it, a constant whose attribute and type disagree (``1.0 : bf16`` as an
``f16``, a two-element ``dense`` as a ``vector<5xf64>``) verifies and breaks
translation to LLVM IR later, far from where it was written.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import AnyFloat, ArrayAttr, DenseIntOrFPElementsAttr, DenseResourceAttr
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType, StringAttr
from xdsl.dialects.builtin import SymbolRefAttr, TensorType, VectorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.llvm.types import LLVMArrayType, LLVMPointerType, LLVMStructType

_ZERO_OR_UNDEF = ("llvm.zero", "llvm.undef")


def _num_elements(type: Attribute) -> int:
    """Elements of a vector or array type, nested ones included; 1 for a scalar."""
    if isinstance(type, VectorType):
        return prod(type.get_shape()) * _num_elements(type.element_type)
    if isinstance(type, LLVMArrayType):
        return type.size.data * _num_elements(type.type)
    return 1


def _element_type(type: Attribute) -> Attribute:
    while isinstance(type, LLVMArrayType):
        type = type.type
    if isinstance(type, VectorType | TensorType):
        return type.element_type
    return type


def _has_scalable_vector(type: Attribute) -> bool:
    if isinstance(type, VectorType):
        return any(type.get_scalable_dims()) or _has_scalable_vector(type.element_type)
    if isinstance(type, LLVMArrayType):
        return _has_scalable_vector(type.type)
    return False


def _verify_float_semantics(attr_type: AnyFloat, type: Attribute) -> None:
    """The float attribute's type and the constant's element type agree: the
    same float type, or an integer of the float's width."""
    if isinstance(type, AnyFloat):
        if type != attr_type:
            raise VerifyException("attribute and type have different float semantics")
    elif isinstance(type, IntegerType) and type.width.data != attr_type.bitwidth:
        raise VerifyException(f"expected integer type of width {attr_type.bitwidth}")


def _verify_array(array_type: LLVMArrayType, value: ArrayAttr, dim: int) -> None:
    """Upstream's ``verifyStructArrayConstant``."""
    if array_type.size.data != len(value.data):
        raise VerifyException(
            f"array attribute size does not match array type size in dimension {dim}: "
            f"{len(value.data)} vs. {array_type.size.data}"
        )
    element = array_type.type
    if isinstance(element, LLVMArrayType):
        for i, sub in enumerate(value.data):
            if sub.name in _ZERO_OR_UNDEF:
                continue
            if not isinstance(sub, ArrayAttr):
                raise VerifyException(
                    f"nested attribute for sub-array in dimension {dim} at index {i} must be "
                    "a zero, or undef, or array attribute"
                )
            _verify_array(element, sub, dim + 1)
        return
    if isinstance(element, LLVMPointerType):
        for i, sub in enumerate(value.data):
            if not isinstance(sub, SymbolRefAttr) and sub.name not in (*_ZERO_OR_UNDEF, "llvm.poison"):
                raise VerifyException(
                    f"pointer array element at index {i} must be a flat symbol reference, "
                    "zero, undef, or poison"
                )
        return
    if not isinstance(element, LLVMStructType):
        raise VerifyException("for array with an array attribute must have a struct element type")
    size = len(element.types.data)
    for i, sub in enumerate(value.data):
        if sub.name in _ZERO_OR_UNDEF:
            continue
        if not isinstance(sub, ArrayAttr):
            raise VerifyException(
                f"nested attribute for struct element at index {i} must be a zero, or undef, "
                "or array attribute"
            )
        if len(sub.data) != size:
            raise VerifyException(
                f"nested array attribute size for struct element at index {i} must match "
                f"struct size: {len(sub.data)} vs. {size}"
            )


def _verify_struct(struct: LLVMStructType, value: Attribute) -> None:
    if not isinstance(value, ArrayAttr):
        raise VerifyException("expected array attribute for struct type")
    types = struct.types.data
    if len(value.data) != len(types):
        raise VerifyException(f"expected array attribute of size {len(types)}")
    for i, (attr, type) in enumerate(zip(value.data, types)):
        if not isinstance(type, IntegerType | IndexType | AnyFloat):
            raise VerifyException(
                "expected struct element types to be floating point type or integer type"
            )
        if not isinstance(attr, FloatAttr | IntegerAttr):
            raise VerifyException(
                "expected element of array attribute to be floating point or integer"
            )
        if attr.type != type:
            raise VerifyException(f"struct element at index {i} is of wrong type")


def verify_constant(value: Attribute, type: Attribute) -> None:
    """Raise upstream's error when ``value`` cannot be a constant of ``type``."""
    if isinstance(value, StringAttr):
        size = len(value.data.encode("latin-1", "replace"))
        if not (
            isinstance(type, LLVMArrayType)
            and type.size.data == size
            and type.type == IntegerType(8)
        ):
            raise VerifyException(f"expected array type of {size} i8 elements for the string constant")
        return
    if isinstance(type, LLVMStructType):
        _verify_struct(type, value)
    elif isinstance(value, IntegerAttr):
        if not isinstance(type, IntegerType):
            raise VerifyException("expected integer type")
    elif isinstance(value, FloatAttr):
        _verify_float_semantics(value.type, type)
    elif isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr):
        if _has_scalable_vector(type):
            if not (isinstance(value, DenseIntOrFPElementsAttr) and value.is_splat()):
                raise VerifyException("scalable vector type requires a splat attribute")
            return
        if not isinstance(type, VectorType | LLVMArrayType):
            raise VerifyException("expected vector or array type")
        shaped = value.type
        count = prod(shaped.get_shape()) if isinstance(shaped, VectorType | TensorType) else 1
        if _num_elements(type) != count:
            raise VerifyException(
                "type and attribute have a different number of elements: "
                f"{_num_elements(type)} vs. {count}"
            )
        attr_element, element = _element_type(shaped), _element_type(type)
        if isinstance(attr_element, AnyFloat):
            _verify_float_semantics(attr_element, element)
        elif isinstance(attr_element, IntegerType) and not isinstance(element, IntegerType):
            raise VerifyException("expected integer element type for integer elements attribute")
    elif isinstance(value, ArrayAttr):
        if not isinstance(type, LLVMArrayType):
            raise VerifyException("expected array or struct type for array attribute")
        _verify_array(type, value, 0)
    else:
        raise VerifyException("only supports integer, float, string or elements attributes")
