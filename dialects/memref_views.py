"""``memref.reinterpret_cast`` and ``memref.expand_shape`` with upstream's verifiers.

xDSL's ``reinterpret_cast`` takes only ranked sources and checks the result
sizes alone (with the source's rank in its message), so an offset list of the
wrong length or a result type whose offset or strides disagree with the
operands verified; its ``expand_shape`` checks nothing. These subclasses (so
passes matching xDSL's classes keep matching) follow upstream's
``ReinterpretCastOp::verify``, ``ExpandShapeOp::verify`` and
``verifyCollapsedShape``, with their messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import I64, ArrayAttr, DenseArrayBase, IndexType, IntegerAttr, MemRefType
from xdsl.dialects.builtin import NoneAttr, StridedLayoutAttr, UnrankedMemRefType, i64
from xdsl.irdl import base, operand_def, prop_def, result_def
from xdsl.irdl import var_operand_def
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.tensor.common import is_dynamic
from mlkit.dialects.tensor.reshape import reassociation_indices
from mlkit.dialects.tensor.slices import verify_offset_size_stride
from mlkit.dialects.utils.dynamic_sizes import DynamicIndexList, count_dynamic
from mlkit.dialects.utils.dynamic_sizes import verify_dynamic_size_count
from mlkit.dialects.utils.ods import VARIADIC_INDEX, DeclarativeSyntax, type_str, upstream_op
from mlkit.dialects.utils.strided_layout import has_identity_layout, saturated_mul, strided_form

_ANY_MEMREF_TEXT = "ranked or unranked memref of any non-token type values"
_STRIDED_TEXT = "strided memref of any non-token type values"


def _static_text(value: int | None) -> str:
    return "dynamic" if value is None or is_dynamic(value) else str(value)


@upstream_op
class ReinterpretCastOp(DeclarativeSyntax, xmemref.ReinterpretCastOp):
    """xDSL's op taking an unranked source too, with upstream's verifier."""

    name = "memref.reinterpret_cast"

    source = operand_def(base(MemRefType) | base(UnrankedMemRefType))
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)
    traits = xmemref.ReinterpretCastOp.traits
    custom_directives = (DynamicIndexList,)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": _ANY_MEMREF_TEXT,
        "offsets": VARIADIC_INDEX,
        "sizes": VARIADIC_INDEX,
        "strides": VARIADIC_INDEX,
        "result": _STRIDED_TEXT,
    }

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType | UnrankedMemRefType) and isinstance(result, MemRefType)
        layout = strided_form(result)
        if layout is None:
            raise VerifyException(f"result #0 must be {_STRIDED_TEXT}, but got {type_str(result)}")
        rank = result.get_num_dims()
        verify_offset_size_stride(self, (1, rank, rank))
        if source.memory_space != result.memory_space:
            raise VerifyException(
                f"different memory spaces specified for source type {type_str(source)} and "
                f"result memref type {type_str(result)}"
            )
        if source.element_type != result.element_type:
            raise VerifyException(
                f"source element type ('{source.element_type}') does not match result element "
                f"type ('{result.element_type}')"
            )
        for dim, (actual, expected) in enumerate(zip(result.get_shape(), self.static_sizes.get_values())):
            if not is_dynamic(actual) and actual != expected:
                raise VerifyException(
                    f"expected result type with size = {_static_text(expected)} instead of "
                    f"{actual} in dim = {dim}"
                )
        strides, offset = layout
        expected_offset = self.static_offsets.get_values()[0]
        if offset is not None and not is_dynamic(offset) and offset != expected_offset:
            raise VerifyException(
                f"expected result type with offset = {_static_text(expected_offset)} instead of {offset}"
            )
        for dim, (actual, expected) in enumerate(zip(strides, self.static_strides.get_values())):
            if actual is not None and not is_dynamic(actual) and actual != expected:
                raise VerifyException(
                    f"expected result type with stride = {_static_text(expected)} instead of "
                    f"{actual} in dim = {dim}"
                )


def verify_collapsed_shape(
    collapsed: Sequence[int], expanded: Sequence[int], groups: Sequence[Sequence[int]]
) -> None:
    """Upstream's ``verifyCollapsedShape`` for memrefs (several dynamic sizes
    per group allowed)."""
    if len(collapsed) != len(groups):
        raise VerifyException(
            f"invalid number of reassociation groups: found {len(groups)}, expected {len(collapsed)}"
        )
    next_dim = 0
    for index, group in enumerate(groups):
        found_dynamic = False
        for dim in group:
            if dim != next_dim:
                raise VerifyException("reassociation indices must be contiguous")
            next_dim += 1
            if dim >= len(expanded):
                raise VerifyException(f"reassociation index {dim} is out of bounds")
            found_dynamic |= is_dynamic(expanded[dim])
        if is_dynamic(collapsed[index]) != found_dynamic:
            raise VerifyException(
                f"collapsed dim ({index}) must be dynamic if and only if reassociation group is "
                "dynamic"
            )
        if not found_dynamic:
            size = prod(expanded[dim] for dim in group)
            if size != collapsed[index]:
                raise VerifyException(
                    f"collapsed dim size ({collapsed[index]}) must equal reassociation group "
                    f"size ({size})"
                )
    if not collapsed:
        if any(d != 1 for d in expanded):
            raise VerifyException("rank 0 memrefs can only be extended/collapsed with/from ones")
    elif next_dim != len(expanded):
        raise VerifyException(
            f"expanded rank ({len(expanded)}) inconsistent with number of reassociation "
            f"indices ({next_dim})"
        )


def expanded_type(
    source: MemRefType, shape: Sequence[int], groups: Sequence[Sequence[int]]
) -> MemRefType | None:
    """Upstream's ``ExpandShapeOp::computeExpandedType``: contiguous stays
    contiguous, else each source stride expands over its group; None when the
    source layout is not strided."""
    if has_identity_layout(source):
        return MemRefType(source.element_type, shape, NoneAttr(), source.memory_space)
    form = strided_form(source)
    if form is None:
        return None
    source_strides, offset = form
    reversed_strides: list[int | None] = []
    at = len(shape) - 1
    for group, stride in reversed(list(zip(groups, source_strides))):
        for _ in group:
            reversed_strides.append(stride)
            stride = saturated_mul(stride, shape[at])
            at -= 1
    strides = list(reversed(reversed_strides)) + [1] * (len(shape) - len(reversed_strides))
    layout = StridedLayoutAttr(strides, offset)
    return MemRefType(source.element_type, shape, layout, source.memory_space)


@upstream_op
class ExpandShapeOp(DeclarativeSyntax, xmemref.ExpandShapeOp):
    """xDSL's op with upstream's verifier."""

    name = "memref.expand_shape"

    src = operand_def(MemRefType)
    output_shape = var_operand_def(IndexType)
    static_output_shape = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)
    # xDSL's constraint would reject a non-contiguous map first, in its words
    reassociation = prop_def(ArrayAttr[ArrayAttr[IntegerAttr[I64]]])
    traits = xmemref.ExpandShapeOp.traits
    custom_directives = (DynamicIndexList,)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "src": _STRIDED_TEXT,
        "output_shape": VARIADIC_INDEX,
        "result": _STRIDED_TEXT,
    }

    def verify_(self) -> None:
        source, result = self.src.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        if strided_form(source) is None:
            raise VerifyException(f"operand #0 must be {_STRIDED_TEXT}, but got {type_str(source)}")
        if source.get_num_dims() > result.get_num_dims():
            r0, r1 = source.get_num_dims(), result.get_num_dims()
            raise VerifyException(
                f"has source rank {r0} and result rank {r1}. This is not an expansion ({r0} > {r1})."
            )
        groups = reassociation_indices(self.reassociation)  # pyright: ignore[reportArgumentType]
        shape = result.get_shape()
        verify_collapsed_shape(source.get_shape(), shape, groups)
        expected = expanded_type(source, shape, groups)
        if expected is None:
            raise VerifyException("invalid source layout map")
        if expected != result:
            raise VerifyException(
                f"expected expanded type to be {type_str(expected)} but found {type_str(result)}"
            )
        static = self.static_output_shape.get_values()
        if len(static) != len(shape):
            raise VerifyException(
                "expected number of static shape bounds to be equal to the output rank "
                f"({len(shape)}) but found {len(static)} inputs instead"
            )
        if len(self.output_shape) != count_dynamic(static):
            raise VerifyException(
                "mismatch in dynamic dims in output_shape and static_output_shape: "
                f"static_output_shape has {count_dynamic(static)} dynamic dims while "
                f"output_shape has {len(self.output_shape)} values"
            )
        verify_dynamic_size_count(result, len(self.output_shape))
        for pos, (size, bound) in enumerate(zip(shape, static)):
            if not is_dynamic(size) and size != bound:
                raise VerifyException(f"invalid output shape provided at pos {pos}")


VIEW_OPS = (ReinterpretCastOp, ExpandShapeOp)
