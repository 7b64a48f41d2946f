"""``tensor.extract_slice``, ``tensor.insert_slice`` and ``parallel_insert_slice``
(which xDSL lacks): xDSL's ops (fields and
syntax agree with upstream) with upstream's verifier, which xDSL lacks: offset,
size and stride list checks, the result type against the static sizes
(rank-reducing allowed) and static in-bounds checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import DenseArrayBase, IndexType, TensorType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, VarConstraint, base, operand_def
from xdsl.irdl import prop_def, result_def
from xdsl.irdl import var_operand_def
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.tensor.common import RANKED_TENSOR, compute_rank_reduction_mask, is_dynamic
from mlkit.dialects.utils.dynamic_sizes import DynamicIndexList, verify_dynamic_entries
from mlkit.dialects.utils.ods import DeclarativeSyntax, VARIADIC_INDEX, type_str, upstream_op
from mlkit.dialects.utils.ods import verify_that

_LISTS = (("offset", "offsets"), ("size", "sizes"), ("stride", "strides"))


def _static(op: IRDLOperation, plural: str) -> tuple[int, ...]:
    attr = getattr(op, f"static_{plural}")
    assert isinstance(attr, DenseArrayBase)
    return tuple(attr.get_values())


def mixed_values(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    """Static entries as ints and dynamic ones as the SSA values they stand for
    (upstream's ``getMixedOffsets`` and friends)."""
    values = iter(dynamic)
    return [next(values) if is_dynamic(s) else s for s in static]


def verify_offset_size_stride(op: IRDLOperation, max_rank: int | tuple[int, int, int]) -> None:
    """Upstream's ``OffsetSizeAndStrideOpInterface`` checks, in its order;
    ``max_rank`` is one rank for all three lists, or one each (a
    ``reinterpret_cast`` takes one offset)."""
    ranks = max_rank if isinstance(max_rank, tuple) else (max_rank,) * 3
    statics = {plural: _static(op, plural) for _, plural in _LISTS}
    for _, plural in _LISTS:
        verify_dynamic_entries(plural, len(getattr(op, plural)), statics[plural])
    offsets, sizes, strides = statics["offsets"], statics["sizes"], statics["strides"]
    if not (len(offsets) == 1 and ranks[0] == 1) and len(offsets) != len(sizes):
        raise VerifyException(
            f"expected mixed offsets rank to match mixed sizes rank ({len(offsets)} vs "
            f"{len(sizes)}) so the rank of the result type is well-formed."
        )
    if len(sizes) != len(strides):
        raise VerifyException(
            f"expected mixed sizes rank to match mixed strides rank ({len(sizes)} vs "
            f"{len(strides)}) so the rank of the result type is well-formed."
        )
    for (singular, plural), rank in zip(_LISTS, ranks):
        if len(statics[plural]) != rank:
            raise VerifyException(
                f"expected {rank} {singular} values, got {len(statics[plural])}"
            )
    for singular, plural in _LISTS[:2]:
        for value in statics[plural]:
            if value < 0 and not is_dynamic(value):
                raise VerifyException(
                    f"expected {plural} to be non-negative, but got {value}"
                )


def verify_slice_type(expected: TensorType[Attribute], candidate: Attribute) -> None:
    """``candidate`` must be ``expected`` or a rank reduction of it (upstream's
    ``isRankReducedType`` with ``produceSliceErrorMsg``'s wording)."""
    assert isinstance(candidate, TensorType)
    original, reduced = expected.get_shape(), candidate.get_shape()
    if len(reduced) > len(original):
        raise VerifyException("expected rank to be smaller or equal to the other rank. ")
    if compute_rank_reduction_mask(original, reduced) is None:
        raise VerifyException(
            f"expected type to be {type_str(expected)} or a rank-reduced version. "
            "(size mismatch) "
        )
    if expected.element_type != candidate.element_type:
        raise VerifyException(f"expected element type to be '{expected.element_type}'")


def verify_in_bounds(
    shape: Sequence[int], offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> None:
    """Upstream's ``verifyInBoundsSlice`` on the static entries."""
    for i, dim in enumerate(shape):
        if is_dynamic(dim) or is_dynamic(offsets[i]):
            continue
        if offsets[i] >= dim:
            raise VerifyException(f"offset {i} is out-of-bounds: {offsets[i]} >= {dim}")
        if is_dynamic(sizes[i]) or is_dynamic(strides[i]):
            continue
        last = offsets[i] + (sizes[i] - 1) * strides[i]
        if last >= dim:
            raise VerifyException(
                f"slice along dimension {i} runs out-of-bounds: {last} >= {dim}"
            )


def infer_slice_type(source: TensorType[Attribute], sizes: Sequence[int]) -> TensorType[Attribute]:
    """The non-rank-reduced slice type: static sizes over the source's elements."""
    return TensorType(source.element_type, list(sizes))


class _SliceMixin(IRDLOperation):
    """The offsets, sizes and strides both slice ops take after their tensor
    operands, the accessors later passes need for them, and the verifier."""

    WHOLE: ClassVar[str]  # the field of the tensor the slice is taken from or put into
    SLICE: ClassVar[str]  # the field typed as the slice, possibly rank-reduced

    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "offsets": VARIADIC_INDEX,
        "sizes": VARIADIC_INDEX,
        "strides": VARIADIC_INDEX,
    }

    def mixed_offsets(self) -> list[int | SSAValue]:
        return mixed_values(_static(self, "offsets"), getattr(self, "offsets"))

    def mixed_sizes(self) -> list[int | SSAValue]:
        return mixed_values(_static(self, "sizes"), getattr(self, "sizes"))

    def mixed_strides(self) -> list[int | SSAValue]:
        return mixed_values(_static(self, "strides"), getattr(self, "strides"))

    def _types(self) -> tuple[TensorType[Attribute], TensorType[Attribute]]:
        """The whole tensor's type and the slice's."""
        return getattr(self, self.WHOLE).type, getattr(self, self.SLICE).type

    def dropped_dims(self) -> set[int]:
        """Dimensions of the slice that a rank-reduced slice type drops."""
        mask = compute_rank_reduction_mask(_static(self, "sizes"), self._types()[1].get_shape())
        return mask or set()

    def verify_(self) -> None:
        whole, slice_type = self._types()
        verify_offset_size_stride(self, whole.get_num_dims())
        sizes = _static(self, "sizes")
        verify_slice_type(infer_slice_type(whole, sizes), slice_type)
        offsets, strides = _static(self, "offsets"), _static(self, "strides")
        verify_in_bounds(whole.get_shape(), offsets, sizes, strides)


@upstream_op
class ExtractSliceOp(DeclarativeSyntax, _SliceMixin, xtensor.ExtractSliceOp):
    """xDSL's op with upstream's verifier."""

    name = "tensor.extract_slice"

    source = operand_def(TensorType)
    result = result_def(TensorType)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": RANKED_TENSOR,
        **_SliceMixin.CONSTRAINT_TEXT,
        "result": RANKED_TENSOR,
    }
    WHOLE: ClassVar[str] = "source"
    SLICE: ClassVar[str] = "result"
    custom_directives = (DynamicIndexList,)


@upstream_op
class InsertSliceOp(DeclarativeSyntax, _SliceMixin, xtensor.InsertSliceOp):
    """xDSL's op with upstream's verifier."""

    name = "tensor.insert_slice"

    DEST_TYPE: ClassVar = VarConstraint("DEST_TYPE", base(TensorType))
    source = operand_def(TensorType)
    dest = operand_def(DEST_TYPE)
    result = result_def(DEST_TYPE)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": RANKED_TENSOR,
        "dest": RANKED_TENSOR,
        **_SliceMixin.CONSTRAINT_TEXT,
        "result": RANKED_TENSOR,
    }
    WHOLE: ClassVar[str] = "dest"
    SLICE: ClassVar[str] = "source"
    custom_directives = (DynamicIndexList,)

    def verify_relations_(self) -> None:
        if isinstance(self.dest.type, TensorType):
            verify_that(self.result.type == self.dest.type, "expected result type to match dest type")


@upstream_op
class ParallelInsertSliceOp(_SliceMixin):
    """``tensor.parallel_insert_slice %tile into %out[..] [..] [..]``: one thread's
    tile of an ``scf.forall`` shared output, in its ``scf.forall.in_parallel``."""

    name = "tensor.parallel_insert_slice"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": RANKED_TENSOR,
        "dest": RANKED_TENSOR,
        **_SliceMixin.CONSTRAINT_TEXT,
    }
    WHOLE: ClassVar[str] = "dest"
    SLICE: ClassVar[str] = "source"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$source `into` $dest ``custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `into` type($dest)"
    )
    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None or parent.name != "scf.forall.in_parallel":
            raise VerifyException(
                f"expected InParallelOpInterface parent, got:{parent.name if parent else ''}"
            )
        super().verify_()
