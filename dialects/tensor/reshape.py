"""``tensor.reshape``, ``tensor.expand_shape`` and ``tensor.collapse_shape``.

They subclass xDSL's ops. xDSL's ``reshape`` only takes ranked tensors and
prints its attribute dictionary in the wrong place; its ``expand_shape`` has a
hand-written syntax and ``collapse_shape`` no verifier. Here the syntax is
upstream's declarative format and the reassociation checks follow upstream's
``verifyReshapeLikeTypes`` with its wording (xDSL's reassociation constraint
would reject a non-contiguous map first, in other words).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, I64, ArrayAttr, DenseArrayBase, IndexType
from xdsl.dialects.builtin import IntegerAttr, IntegerType, Signedness, TensorType
from xdsl.dialects.builtin import UnrankedTensorType, i64
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, base, operand_def, prop_def, result_def, var_operand_def
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, irdl_custom_directive
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.tensor.common import ANY_TENSOR, RANKED_TENSOR, element_type_of, is_dynamic
from mlkit.dialects.tensor.common import shape_of
from mlkit.dialects.utils.dynamic_sizes import DynamicIndexList, count_dynamic
from mlkit.dialects.utils.dynamic_sizes import verify_dynamic_size_count
from mlkit.dialects.utils.ods import VARIADIC_INDEX, DeclarativeSyntax, type_str, upstream_op

_SHAPE_OPERAND = "1D tensor of signless integer or index values"


@upstream_op
class ReshapeOp(DeclarativeSyntax, xtensor.ReshapeOp):
    """Upstream's fields (ranked or unranked source and result) and syntax."""

    name = "tensor.reshape"

    source = operand_def(base(TensorType) | base(UnrankedTensorType))
    shape = operand_def(TensorType)
    result = result_def(base(TensorType) | base(UnrankedTensorType))

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": ANY_TENSOR,
        "shape": _SHAPE_OPERAND,
        "result": ANY_TENSOR,
    }
    assembly_format = (
        "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)"
    )

    def verify_relations_(self) -> None:
        shape = self.shape.type
        if isinstance(shape, TensorType):
            element = shape.element_type
            signless = (
                isinstance(element, IntegerType)
                and element.signedness.data == Signedness.SIGNLESS
            )
            if shape.get_num_dims() != 1 or not (signless or isinstance(element, IndexType)):
                raise VerifyException(
                    f"operand #1 must be {_SHAPE_OPERAND}, but got {type_str(shape)}"
                )

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        if element_type_of(source) != element_type_of(result):
            raise VerifyException(
                "element types of source and destination tensor types should be the same"
            )
        result_shape = shape_of(result)
        if result_shape is None:
            return
        source_shape = shape_of(source)
        if (
            source_shape is not None
            and count_dynamic(source_shape) == 0
            and count_dynamic(result_shape) == 0
            and prod(source_shape) != prod(result_shape)
        ):
            raise VerifyException(
                "source and destination tensor should have the same number of elements"
            )
        length = self.shape.type.get_shape()[0]
        if is_dynamic(length):
            raise VerifyException(
                "cannot use shape operand with dynamic length to reshape to "
                "statically-ranked tensor type"
            )
        if length != len(result_shape):
            raise VerifyException(
                "length of shape operand differs from the result's tensor rank"
            )


def reassociation_indices(attr: ArrayAttr[ArrayAttr[IntegerAttr]]) -> list[list[int]]:
    return [[i.value.data for i in group.data] for group in attr.data]


def infer_collapsed_shape(expanded: Sequence[int], groups: Sequence[Sequence[int]]) -> list[int]:
    """The collapsed shape: each group's product, dynamic if any member is."""
    return [
        DYNAMIC_INDEX if any(is_dynamic(expanded[i]) for i in g) else prod(expanded[i] for i in g)
        for g in groups
    ]


def _verify_reassociation(groups: list[list[int]], expanded_rank: int) -> None:
    """Upstream's map checks: every map spans ``max index + 1`` dims (computed
    on unsigned 32-bit positions, as upstream does) and maps are contiguous."""
    if not groups:
        return
    num_dims = (max(i & 0xFFFFFFFF for g in groups for i in g) + 1) & 0xFFFFFFFF
    if num_dims != expanded_rank:
        raise VerifyException(
            "expected reassociation map #0 to have size equal to the expanded rank "
            f"({expanded_rank}), but it is  {num_dims}."
        )
    expected = 0
    for index, group in enumerate(groups):
        for dim in group:
            if dim != expected:
                raise VerifyException(
                    f"expected reassociation map #{index} to be valid and contiguous."
                )
            expected += 1
    if expected != num_dims:
        raise VerifyException(
            f"expected reassociation map #{len(groups) - 1} to be valid and contiguous."
        )


def verify_reshape_like(
    expanded_type: TensorType[Attribute],
    collapsed_type: TensorType[Attribute],
    groups: list[list[int]],
) -> None:
    """Upstream's ``verifyTensorReshapeOp`` for expand_shape and collapse_shape."""
    expanded, collapsed = expanded_type.get_shape(), collapsed_type.get_shape()
    if len(expanded) < len(collapsed):
        raise VerifyException(
            f"expected the expanded type, {type_str(expanded_type)} to have a higher "
            f"(or same) rank than the collapsed type, {type_str(collapsed_type)}."
        )
    if len(collapsed) != len(groups):
        raise VerifyException(
            f"expected collapsed rank ({len(collapsed)}) to equal the number of "
            f"reassociation maps ({len(groups)})."
        )
    if any(not g for g in groups):
        raise VerifyException("reassociation indices must not be empty")
    _verify_reassociation(groups, len(expanded))
    start = 0
    for index, group in enumerate(groups):
        members = expanded[start : start + len(group)]
        if any(is_dynamic(s) for s in members):
            if not is_dynamic(collapsed[index]):
                raise VerifyException(
                    f"expected dimension {index} of collapsed type to be dynamic since "
                    "one or more of the corresponding dimensions in the expanded type "
                    "is dynamic"
                )
        elif collapsed[index] != prod(members):
            raise VerifyException(
                f"expected dimension {index} of collapsed type to be static value of "
                f"{prod(members)}"
            )
        start += len(group)
    if count_dynamic(expanded) == 0 and count_dynamic(collapsed) == 0:
        if prod(expanded) != prod(collapsed):
            raise VerifyException(
                "number of elements must be preserved: "
                f"{prod(expanded)} != {prod(collapsed)}"
            )
    inferred = TensorType(expanded_type.element_type, infer_collapsed_shape(expanded, groups))
    if inferred.get_shape() != collapsed or inferred.element_type != collapsed_type.element_type:
        raise VerifyException(
            f"expected collapsed type to be {type_str(inferred)}, but got "
            f"{type_str(collapsed_type)}"
        )


@irdl_custom_directive
class Reassociation(CustomDirective):
    """The reassociation list as upstream prints it, ``[[0, 1], [2]]``: xDSL
    would print each index with its ``: i64`` type, which upstream elides in arrays."""

    reassociation: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.reassociation.set(state, parser.parse_attribute())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        attr = self.reassociation.get(op)
        assert isinstance(attr, ArrayAttr)
        groups = reassociation_indices(attr)  # type: ignore[arg-type]
        printer.print_string(
            "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
        )


# Upstream's IndexListArrayAttr; contiguity is the verifier's job, in upstream's words.
_REASSOCIATION = ArrayAttr[ArrayAttr[IntegerAttr[I64]]]


@upstream_op
class ExpandShapeOp(DeclarativeSyntax, xtensor.ExpandShapeOp):
    """xDSL's fields with upstream's declarative syntax and verifier."""

    name = "tensor.expand_shape"

    src = operand_def(TensorType)
    dynamic_output_shape = var_operand_def(IndexType)
    reassociation = prop_def(_REASSOCIATION)
    static_output_shape = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "src": RANKED_TENSOR,
        "dynamic_output_shape": VARIADIC_INDEX,
        "result": RANKED_TENSOR,
    }
    custom_directives = (DynamicIndexList, Reassociation)
    assembly_format = (
        "$src custom<Reassociation>($reassociation) `output_shape` "
        "custom<DynamicIndexList>($dynamic_output_shape, $static_output_shape) "
        "attr-dict `:` type($src) `into` type($result)"
    )

    def reassociation_indices(self) -> list[list[int]]:
        return reassociation_indices(self.reassociation)

    def verify_(self) -> None:
        result = self.result.type
        static = tuple(self.static_output_shape.get_values())
        shape = result.get_shape()
        if len(static) != len(shape):
            raise VerifyException(
                "expected number of static shape dims to be equal to the output rank "
                f"({len(shape)}) but found {len(static)} inputs instead"
            )
        values = len(self.dynamic_output_shape)
        if values != count_dynamic(static):
            raise VerifyException(
                "mismatch in dynamic dims in output_shape and static_output_shape: "
                f"static_output_shape has {count_dynamic(static)} dynamic dims while "
                f"output_shape has {values} values"
            )
        verify_dynamic_size_count(result, values)
        for pos, (size, given) in enumerate(zip(shape, static)):
            if not is_dynamic(size) and size != given:
                raise VerifyException(f"invalid output shape provided at pos {pos}")
        verify_reshape_like(result, self.src.type, self.reassociation_indices())


@upstream_op
class CollapseShapeOp(DeclarativeSyntax, xtensor.CollapseShapeOp):
    """xDSL's op with upstream's verifier (xDSL has none)."""

    name = "tensor.collapse_shape"

    src = operand_def(TensorType)
    result = result_def(TensorType)
    reassociation = prop_def(_REASSOCIATION)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"src": RANKED_TENSOR, "result": RANKED_TENSOR}
    custom_directives = (Reassociation,)
    assembly_format = (
        "$src custom<Reassociation>($reassociation) attr-dict `:` type($src) `into` type($result)"
    )

    def reassociation_indices(self) -> list[list[int]]:
        return reassociation_indices(self.reassociation)

    def verify_(self) -> None:
        verify_reshape_like(self.src.type, self.result.type, self.reassociation_indices())
