"""Warp-level matrix ops of mlkit's ``gpu`` dialect: ``!gpu.mma_matrix`` and the
``gpu.subgroup_mma_*`` ops, with upstream's syntax and verifiers.

xDSL 0.75 has neither the type nor the ops. A ``!gpu.mma_matrix`` is opaque:
each thread of a subgroup holds an unspecified part of it, so the ops only
load, store, fill, multiply-accumulate and map it elementwise as a whole.
Verifier messages are upstream's (``GPUDialect.cpp``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, Float16Type, Float32Type, IndexType, IntAttr
from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType, Signedness, StringAttr
from xdsl.dialects.builtin import UnitAttr, VectorType
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import IRDLOperation, VarConstraint, base, irdl_attr_definition, operand_def
from xdsl.irdl import ParsePropInAttrDict, opt_prop_def
from xdsl.irdl import prop_def, result_def, traits_def, var_operand_def
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mlkit.dialects.utils.enums import enum_attribute
from mlkit.dialects.utils.ods import upstream_op, verify_that
from mlkit.dialects.utils.strided_layout import strides_and_offset

MMA_OPERANDS = ("AOp", "BOp", "COp")


def is_mma_element_type(t: Attribute) -> bool:
    """Upstream's ``MMAMatrixType::isValidElementType``: f16, f32, si8, ui8, i32."""
    if isinstance(t, Float16Type | Float32Type):
        return True
    if not isinstance(t, IntegerType):
        return False
    width, sign = t.width.data, t.signedness.data
    return (width == 8 and sign != Signedness.SIGNLESS) or (
        width == 32 and sign == Signedness.SIGNLESS
    )


def mma_matrix_error(shape: Sequence[int], element_type: Attribute, operand: str) -> str | None:
    """Upstream's ``MMAMatrixType::verifyInvariants``, in its order."""
    if operand not in MMA_OPERANDS:
        return "operand expected to be one of AOp, BOp or COp"
    if len(shape) != 2:
        return "MMAMatrixType must have exactly two dimensions"
    if not is_mma_element_type(element_type):
        return "MMAMatrixType elements must be SI8, UI8, I32, F16, or F32"
    return None


@irdl_attr_definition
class MMAMatrixType(ParametrizedAttribute, TypeAttribute):
    """``!gpu.mma_matrix<16x16xf16, "AOp">``: a matrix spread over a subgroup's
    threads, as the A, B or C operand of a multiply-accumulate."""

    name = "gpu.mma_matrix"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    operand: StringAttr

    def __init__(self, shape: Sequence[int], element_type: Attribute, operand: str) -> None:
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), element_type, StringAttr(operand))

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        # errors at the type's start, as upstream's getChecked reports them
        pos = parser.pos
        with parser.in_angle_brackets():
            dims, element_type = parser.parse_ranked_shape()
            parser.parse_punctuation(",")
            operand = parser.parse_str_literal()
        if any(d < 0 for d in dims):
            parser.raise_error("expected static shape", pos)
        if (message := mma_matrix_error(dims, element_type, operand)) is not None:
            parser.raise_error(message, pos)
        return (ArrayAttr([IntAttr(d) for d in dims]), element_type, StringAttr(operand))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("".join(f"{d}x" for d in self.get_shape()))
            printer.print_attribute(self.element_type)
            printer.print_string(f', "{self.operand.data}"')

    def verify(self) -> None:
        message = mma_matrix_error(self.get_shape(), self.element_type, self.operand.data)
        if message is not None:
            raise VerifyException(message)


class MMAElementwiseOp(StrEnum):
    """Upstream's ``MMAElementwiseOp`` cases."""

    ADDF = "addf"
    MULF = "mulf"
    SUBF = "subf"
    MAXF = "maxf"
    MINF = "minf"
    DIVF = "divf"
    ADDI = "addi"
    MULI = "muli"
    SUBI = "subi"
    DIVS = "divs"
    DIVU = "divu"
    NEGATEF = "negatef"
    NEGATES = "negates"
    EXTF = "extf"


MMAElementwiseOpAttr = enum_attribute(
    "gpu.mma_element_wise", "MMAElementwiseOpAttr", MMAElementwiseOp, "opaque",
    """``#gpu<mma_element_wise addf>``; inside ops printed bare (``addf``).""",
)


# ODS descriptions of the constraints, for upstream's wording of failures
_ELEMENTS = "8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float"
_MMA_MEMREF = f"memref of {_ELEMENTS} or vector of {_ELEMENTS} values of ranks 1 values"
_MMA_MATRIX = (
    "gpu.mma_matrix of 8-bit signed integer or 8-bit unsigned integer or 32-bit signless "
    "integer or 16-bit float or 32-bit float values"
)


def _is_mma_memref(t: Attribute) -> bool:
    """Upstream's ``GPU_MMAMemRef``: i8, i32, f16, f32 or rank-1 vectors of them."""

    def scalar(e: Attribute) -> bool:
        if isinstance(e, Float16Type | Float32Type):
            return True
        return (
            isinstance(e, IntegerType)
            and e.width.data in (8, 32)
            and e.signedness.data == Signedness.SIGNLESS
        )

    if not isinstance(t, MemRefType):
        return False
    e = t.element_type
    if isinstance(e, VectorType):
        return e.get_num_dims() == 1 and scalar(e.element_type)
    return scalar(e)


def _check_mma_memref(value: SSAValue, index: int) -> MemRefType:
    if not _is_mma_memref(value.type):
        raise VerifyException(f"operand #{index} must be {_MMA_MEMREF}, but got '{value.type}'")
    assert isinstance(value.type, MemRefType)
    return value.type  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]


def _last_dim_unit_stride(t: MemRefType) -> bool:
    """Upstream's ``MemRefType::isLastDimUnitStride``."""
    strided = strides_and_offset(t)
    if strided is None:
        return False
    strides, _ = strided
    return not strides or strides[-1] == 1


def _matrix(value: SSAValue) -> MMAMatrixType:
    assert isinstance(value.type, MMAMatrixType)
    return value.type


@upstream_op
class SubgroupMmaLoadMatrixOp(IRDLOperation):
    """``%m = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = 32 : index}
    : memref<...> -> !gpu.mma_matrix<...>``: a subgroup loads a matrix together."""

    name = "gpu.subgroup_mma_load_matrix"

    srcMemref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    leadDimension = prop_def(IntegerAttr[IndexType])
    transpose = opt_prop_def(UnitAttr)
    res = result_def(MMAMatrixType)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "srcMemref": _MMA_MEMREF, "indices": "variadic of index", "res": "MMAMatrix type",
    }  # fmt: skip

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$srcMemref `[` $indices `]` attr-dict `:` type($srcMemref) `->` type($res)"
    )

    def verify_(self) -> None:
        src = _check_mma_memref(self.srcMemref, 0)
        if not _last_dim_unit_stride(src):
            raise VerifyException("expected source memref most minor dim must have unit stride")
        if _matrix(self.res).operand.data not in MMA_OPERANDS:
            raise VerifyException("only AOp, BOp and COp can be loaded")


@upstream_op
class SubgroupMmaStoreMatrixOp(IRDLOperation):
    """``gpu.subgroup_mma_store_matrix %m, %dst[%i, %j] {leadDimension = 32 : index}
    : !gpu.mma_matrix<...>, memref<...>``: a subgroup stores an accumulator."""

    name = "gpu.subgroup_mma_store_matrix"

    src = operand_def(MMAMatrixType)
    dstMemref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    leadDimension = prop_def(IntegerAttr[IndexType])
    transpose = opt_prop_def(UnitAttr)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "src": _MMA_MATRIX, "dstMemref": _MMA_MEMREF, "indices": "variadic of index",
    }  # fmt: skip

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$src `,` $dstMemref `[` $indices `]` attr-dict `:` type($src) `,` type($dstMemref)"
    )

    def verify_(self) -> None:
        dst = _check_mma_memref(self.dstMemref, 1)
        if not _last_dim_unit_stride(dst):
            raise VerifyException(
                "expected destination memref most minor dim must have unit stride"
            )
        if _matrix(self.src).operand.data != "COp":
            raise VerifyException(
                "expected the operand matrix being stored to have 'COp' operand type"
            )


@upstream_op
class SubgroupMmaComputeOp(IRDLOperation):
    """``%d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<..., "AOp">,
    !gpu.mma_matrix<..., "BOp"> -> !gpu.mma_matrix<..., "COp">``: ``C + A * B``;
    the accumulator's type is the result's."""

    name = "gpu.subgroup_mma_compute"

    # upstream's AllTypesMatch<["opC", "res"]>: the format names only the result's
    T: ClassVar = VarConstraint("T", base(MMAMatrixType))

    opA = operand_def(MMAMatrixType)
    opB = operand_def(MMAMatrixType)
    opC = operand_def(T)
    a_transpose = opt_prop_def(UnitAttr)
    b_transpose = opt_prop_def(UnitAttr)
    res = result_def(T)

    traits = traits_def(Pure())
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "opA": _MMA_MATRIX, "opB": _MMA_MATRIX, "opC": _MMA_MATRIX, "res": "MMAMatrix type",
    }  # fmt: skip

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$opA `,` $opB `,` $opC attr-dict `:` type($opA) `,` type($opB) `->` type($res)"
    )

    def verify_relations_(self) -> None:
        verify_that(self.opC.type == self.res.type, "all of {opC, res} have same type")

    def verify_(self) -> None:
        a, b, c = _matrix(self.opA), _matrix(self.opB), _matrix(self.opC)
        if (a.operand.data, b.operand.data, c.operand.data) != MMA_OPERANDS:
            raise VerifyException("operands must be in the order AOp, BOp, COp")
        (m, k), (k2, n), (m2, n2) = a.get_shape(), b.get_shape(), c.get_shape()
        if k != k2 or m != m2 or n != n2:
            raise VerifyException("operand shapes do not satisfy matmul constraints")


@upstream_op
class SubgroupMmaConstantMatrixOp(IRDLOperation):
    """``%m = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<...>``: every
    element set to the scalar ``%v`` (the layout being opaque, one value for all)."""

    name = "gpu.subgroup_mma_constant_matrix"

    value = operand_def()
    res = result_def(MMAMatrixType)

    traits = traits_def(Pure())
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"res": "MMAMatrix type"}

    @classmethod
    def parse(cls, parser: Parser) -> SubgroupMmaConstantMatrixOp:
        """The scalar's type is the matrix's element type (upstream's TypesMatchWith)."""
        value = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        res = parser.parse_type()
        if not isinstance(res, MMAMatrixType):
            parser.raise_error(f"result #0 must be MMAMatrix type, but got '{res}'", pos)
        operand = parser.resolve_operand(value, res.element_type)
        return cls.create(operands=[operand], result_types=[res], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        t = self.value.type
        if not is_mma_element_type(t):
            raise VerifyException(
                "operand #0 must be 8-bit signed integer or 8-bit unsigned integer or "
                f"32-bit signless integer or 16-bit float or 32-bit float, but got '{t}'"
            )
        verify_that(
            _matrix(self.res).element_type == t,
            "value type matches element type of mma_matrix",
        )


@upstream_op
class SubgroupMmaElementwiseOp(IRDLOperation):
    """``%r = gpu.subgroup_mma_elementwise addf %a, %b : (...) -> ...``: an
    elementwise op on whole matrices, whose layouts must therefore agree."""

    name = "gpu.subgroup_mma_elementwise"

    args = var_operand_def(MMAMatrixType)
    opType = prop_def(MMAElementwiseOpAttr)
    res = result_def(MMAMatrixType)

    traits = traits_def(Pure())
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "args": "variadic of MMAMatrix type", "res": "MMAMatrix type",
    }  # fmt: skip

    # upstream's AllTypesMatch<["args"]> names one variadic and so checks nothing
    assembly_format = "$opType $args attr-dict `:` functional-type($args, $res)"


MMA_OPS: tuple[type[IRDLOperation], ...] = (
    SubgroupMmaLoadMatrixOp,
    SubgroupMmaStoreMatrixOp,
    SubgroupMmaComputeOp,
    SubgroupMmaConstantMatrixOp,
    SubgroupMmaElementwiseOp,
)
