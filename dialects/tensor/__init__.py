"""The ``tensor`` dialect, as upstream MLIR defines it.

Where xDSL's op agrees with upstream in fields and syntax, mlkit subclasses it
(so xDSL's own rewrites still recognise it) and replaces its verifier with
upstream's checks and wording. Ops whose fields, syntax or traits differ are
defined here or in the part modules (:mod:`.gather`, :mod:`.region`,
:mod:`.reshape`, :mod:`.slices`); each class says why.

A subclass restates every field of its xDSL parent, in the parent's order:
IRDL does not inherit fields from an already-defined op (it finds accessors
there), and restating only some would reorder the operands.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, I64, IndexType, IntegerAttr, TensorType
from xdsl.dialects.builtin import UnrankedTensorType
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import AnyAttr, VarConstraint, IRDLOperation, base, operand_def, prop_def
from xdsl.irdl import result_def, traits_def, var_operand_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.tensor.common import ANY_TENSOR, RANKED_TENSOR, STATIC_TENSOR, bit_width
from mlkit.dialects.tensor.common import element_type_of, is_dynamic, shape_of, shapes_compatible
from mlkit.dialects.tensor.common import verify_element_type_match
from mlkit.dialects.tensor.gather import GatherOp, ScatterOp
from mlkit.dialects.tensor.region import GenerateOp, PadOp, YieldOp
from mlkit.dialects.tensor.reshape import CollapseShapeOp, ExpandShapeOp, ReshapeOp
from mlkit.dialects.tensor.slices import ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp
from mlkit.dialects.utils.dynamic_sizes import verify_dynamic_size_count
from mlkit.dialects.utils.ods import DeclarativeSyntax, INDEX, VARIADIC_INDEX, type_str
from mlkit.dialects.utils.ods import upstream_op, verify_cast_compatible, verify_that
from mlkit.dialects.utils.dialects import op_lookup

_INT_OR_FLOAT_TENSOR = (
    "tensor of signless integer or unsigned integer or signed integer or floating-point values"
)


@upstream_op
class BitcastOp(IRDLOperation):
    """Reinterprets elements as another type of the same width; xDSL lacks it."""

    name = "tensor.bitcast"

    source = operand_def(base(TensorType) | base(UnrankedTensorType))
    dest = result_def(base(TensorType) | base(UnrankedTensorType))

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": _INT_OR_FLOAT_TENSOR,
        "dest": _INT_OR_FLOAT_TENSOR,
    }
    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def __init__(self, source: SSAValue, dest_type: Attribute) -> None:
        super().__init__(operands=[source], result_types=[dest_type])

    def verify_relations_(self) -> None:
        # Upstream's element constraint (integer or float, not index).
        for kind, value in (("operand", self.source), ("result", self.dest)):
            type_ = value.type
            if isinstance(type_, TensorType | UnrankedTensorType):
                if bit_width(type_.element_type) is None:
                    raise VerifyException(
                        f"{kind} #0 must be {_INT_OR_FLOAT_TENSOR}, but got {type_str(type_)}"
                    )

    def verify_(self) -> None:
        source, dest = self.source.type, self.dest.type
        compatible = bit_width(element_type_of(source)) == bit_width(element_type_of(dest))
        verify_cast_compatible(compatible and shapes_compatible(source, dest), source, dest)


@upstream_op
class CastOp(DeclarativeSyntax, xtensor.CastOp):
    """xDSL's op with upstream's check: same element type and compatible shapes
    (xDSL ignores the element type and words its errors differently)."""

    name = "tensor.cast"

    source = operand_def(base(TensorType) | base(UnrankedTensorType))
    dest = result_def(base(TensorType) | base(UnrankedTensorType))
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"source": ANY_TENSOR, "dest": ANY_TENSOR}

    def verify_(self) -> None:
        source, dest = self.source.type, self.dest.type
        compatible = element_type_of(source) == element_type_of(dest)
        verify_cast_compatible(compatible and shapes_compatible(source, dest), source, dest)


@upstream_op
class ConcatOp(DeclarativeSyntax, xtensor.ConcatOp):
    """xDSL's op with plain ranked-tensor fields: upstream checks ranks and
    element types in its verifier, with its own words, not by type variables."""

    name = "tensor.concat"

    inputs = var_operand_def(TensorType)
    dim = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "inputs": "variadic of " + RANKED_TENSOR,
        "result": RANKED_TENSOR,
    }

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("requires at least one input")
        shapes = [shape_of(v.type) or () for v in self.inputs]
        result_type = self.result.type
        result_shape = shape_of(result_type) or ()
        rank = len(result_shape)
        if any(len(s) != rank for s in shapes):
            raise VerifyException("rank of concatenated inputs must match result rank")
        element = element_type_of(result_type)
        if any(element_type_of(v.type) != element for v in self.inputs):
            raise VerifyException("inputs and result element type must match")
        dim = self.dim.value.data
        if dim >= rank or dim < 0:
            raise VerifyException("concatenation dim must be less than the tensor rank")
        inferred = list(shapes[0])
        for i in range(rank):
            if i == dim:
                continue
            static = {s[i] for s in shapes if not is_dynamic(s[i])}
            if len(static) > 1:
                raise VerifyException(
                    "static concatenation size mismatch along non-concatenated "
                    f"dimension {i}"
                )
            inferred[i] = static.pop() if static else DYNAMIC_INDEX
        along = [s[dim] for s in shapes]
        inferred[dim] = DYNAMIC_INDEX if any(is_dynamic(s) for s in along) else sum(along)
        for got, want in zip(result_shape, inferred):
            if not is_dynamic(got) and not is_dynamic(want) and got != want:
                inferred_type = TensorType(element_type_of(self.inputs[0].type), inferred)
                raise VerifyException(
                    f"result type {type_str(result_type)}does not match inferred shape "
                    f"{type_str(inferred_type)} static sizes"
                )


@upstream_op
class DimOp(DeclarativeSyntax, xtensor.DimOp):
    """xDSL's op; upstream rejects a 0-d source as a type-constraint failure."""

    name = "tensor.dim"

    source = operand_def(base(TensorType) | base(UnrankedTensorType))
    index = operand_def(IndexType)
    result = result_def(IndexType)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": "non-0-ranked or unranked tensor",
        "index": INDEX,
        "result": INDEX,
    }

    def verify_relations_(self) -> None:
        shape = shape_of(self.source.type) if isinstance(
            self.source.type, TensorType | UnrankedTensorType
        ) else None
        if shape == ():
            raise VerifyException(
                "operand #0 must be non-0-ranked or unranked tensor, but got "
                f"{type_str(self.source.type)}"
            )

    def verify_(self) -> None:
        pass


@upstream_op
class EmptyOp(DeclarativeSyntax, xtensor.EmptyOp):
    """xDSL's op with upstream's declarative syntax (xDSL's hand-written
    parser drops the attribute dictionary) and the dynamic-size count check."""

    name = "tensor.empty"

    dynamic_sizes = var_operand_def(IndexType)
    tensor = result_def(TensorType)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "dynamic_sizes": VARIADIC_INDEX,
        "tensor": RANKED_TENSOR,
    }
    assembly_format = "`(`$dynamic_sizes`)` attr-dict `:` type($tensor)"

    def verify_(self) -> None:
        verify_dynamic_size_count(self.tensor.type, len(self.dynamic_sizes))


@upstream_op
class ExtractOp(DeclarativeSyntax, xtensor.ExtractOp):
    """xDSL's op with upstream's index-count check and wording."""

    name = "tensor.extract"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())
    tensor = operand_def(TensorType.constr(ELEMENT))
    indices = var_operand_def(IndexType)
    result = result_def(ELEMENT)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "tensor": RANKED_TENSOR,
        "indices": VARIADIC_INDEX,
    }

    def verify_relations_(self) -> None:
        verify_element_type_match(
            self.result, self.tensor.type, "result type matches element type of tensor"
        )

    def verify_(self) -> None:
        if len(self.indices) != self.tensor.type.get_num_dims():
            raise VerifyException("incorrect number of indices for extract_element")


@upstream_op
class InsertOp(DeclarativeSyntax, xtensor.InsertOp):
    """xDSL's op with upstream's index-count check and wording."""

    name = "tensor.insert"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())
    TENSOR: ClassVar = VarConstraint("TENSOR", TensorType.constr(ELEMENT))
    scalar = operand_def(ELEMENT)
    dest = operand_def(TENSOR)
    indices = var_operand_def(IndexType)
    result = result_def(TENSOR)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "dest": RANKED_TENSOR,
        "indices": VARIADIC_INDEX,
        "result": RANKED_TENSOR,
    }

    def verify_relations_(self) -> None:
        dest = self.dest.type
        if isinstance(dest, TensorType):
            verify_that(self.result.type == dest, "result type matches type of dest")
        verify_element_type_match(self.scalar, dest, "scalar type matches element type of dest")

    def verify_(self) -> None:
        if len(self.indices) != self.dest.type.get_num_dims():
            raise VerifyException("incorrect number of indices")


@upstream_op
class FromElementsOp(DeclarativeSyntax, xtensor.FromElementsOp):
    """xDSL's op; upstream also requires a static shape and one operand per element."""

    name = "tensor.from_elements"

    ELEMENT_TYPE: ClassVar = VarConstraint("ELEMENT_TYPE", AnyAttr())
    elements = var_operand_def(ELEMENT_TYPE)
    result = result_def(TensorType.constr(ELEMENT_TYPE))
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"result": STATIC_TENSOR}

    def verify_relations_(self) -> None:
        type_ = self.result.type
        if not isinstance(type_, TensorType):
            return
        shape = type_.get_shape()
        if any(is_dynamic(s) for s in shape):
            raise VerifyException(
                f"result #0 must be {STATIC_TENSOR}, but got {type_str(type_)}"
            )
        count = 1
        for s in shape:
            count *= s
        verify_that(
            len(self.elements) == count
            and all(e.type == type_.element_type for e in self.elements),
            "operand types match result element type",
        )

    def verify_(self) -> None:
        pass


@upstream_op
class RankOp(IRDLOperation):
    """The rank of a ranked or unranked tensor; xDSL lacks it."""

    name = "tensor.rank"

    tensor = operand_def(base(TensorType) | base(UnrankedTensorType))
    result = result_def(IndexType)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"tensor": ANY_TENSOR, "result": INDEX}
    traits = traits_def(Pure())
    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue) -> None:
        super().__init__(operands=[tensor], result_types=[IndexType()])


@upstream_op
class SplatOp(DeclarativeSyntax, xtensor.SplatOp):
    """xDSL's op with upstream's wording for its checks."""

    name = "tensor.splat"

    SPLAT_TYPE: ClassVar = VarConstraint("SPLAT_TYPE", AnyAttr())
    input = operand_def(SPLAT_TYPE)
    dynamicSizes = var_operand_def(IndexType)
    result = result_def(TensorType.constr(SPLAT_TYPE))
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "dynamicSizes": VARIADIC_INDEX,
        "result": RANKED_TENSOR,
    }

    def verify_relations_(self) -> None:
        verify_element_type_match(
            self.input, self.result.type, "operand type matches element type of result"
        )

    def verify_(self) -> None:
        verify_dynamic_size_count(self.result.type, len(self.dynamicSizes))


Tensor = Dialect(
    "tensor",
    [
        BitcastOp,
        CastOp,
        CollapseShapeOp,
        ConcatOp,
        DimOp,
        EmptyOp,
        ExpandShapeOp,
        ExtractOp,
        ExtractSliceOp,
        FromElementsOp,
        GatherOp,
        GenerateOp,
        InsertOp,
        InsertSliceOp,
        PadOp,
        ParallelInsertSliceOp,
        RankOp,
        ReshapeOp,
        ScatterOp,
        SplatOp,
        YieldOp,
    ],
    [],
)

__getattr__ = op_lookup(__name__, lambda: Tensor)
