"""The tensor ops with a body: ``tensor.generate``, ``tensor.pad`` and their
terminator ``tensor.yield``.

All three are defined here rather than subclassed: xDSL lacks ``generate``, its
``yield`` takes any number of values (upstream's takes exactly one and prints
``tensor.yield %v : f32``), and its ``pad`` names xDSL's yield as its implicit
terminator, a trait a subclass cannot drop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, TensorType, UnitAttr
from xdsl.dialects.builtin import i64
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import AnyAttr, AttrSizedOperandSegments, IRDLOperation, operand_def, opt_prop_def
from xdsl.irdl import prop_def, region_def, result_def, traits_def, var_operand_def
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect, ReturnLike
from xdsl.traits import SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.tensor.common import RANKED_TENSOR, is_dynamic
from mlkit.dialects.utils.dynamic_sizes import DynamicIndexList, verify_dynamic_entries
from mlkit.dialects.utils.dynamic_sizes import verify_dynamic_size_count
from mlkit.dialects.utils.ods import VARIADIC_INDEX, type_str, upstream_op


@upstream_op
class YieldOp(IRDLOperation):
    """Yields one element from a ``generate`` or ``pad`` body."""

    name = "tensor.yield"

    value = operand_def(AnyAttr())

    traits = traits_def(IsTerminator(), Pure(), ReturnLike())
    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue) -> None:
        super().__init__(operands=[value])

    def verify_(self) -> None:
        # Upstream's HasParent<GenerateOp, PadOp>, in its wording.
        parent = self.parent_op()
        if not isinstance(parent, GenerateOp | PadOp):
            raise VerifyException(
                "expects parent op to be one of 'tensor.generate, tensor.pad'"
            )


def _yielded_type(region: Region) -> Attribute | None:
    last = region.block.last_op if region.blocks else None
    return last.value.type if isinstance(last, YieldOp) else None


@upstream_op
class GenerateOp(IRDLOperation):
    """Builds a tensor element by element from its body; xDSL lacks it."""

    name = "tensor.generate"

    dynamic_extents = var_operand_def(IndexType)
    body = region_def("single_block")
    result = result_def(TensorType)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "dynamic_extents": VARIADIC_INDEX,
        "result": RANKED_TENSOR,
    }
    traits = traits_def(RecursiveMemoryEffect(), SingleBlockImplicitTerminator(YieldOp))
    assembly_format = "$dynamic_extents $body attr-dict `:` type($result)"

    def __init__(
        self, result_type: TensorType[Attribute], dynamic_extents: Sequence[SSAValue], body: Region
    ) -> None:
        super().__init__(operands=[dynamic_extents], result_types=[result_type], regions=[body])

    def verify_(self) -> None:
        result = self.result.type
        verify_dynamic_size_count(result, len(self.dynamic_extents))
        args = self.body.block.args
        if len(args) != result.get_num_dims():
            raise VerifyException("must have one body argument per input dimension")
        if any(not isinstance(a.type, IndexType) for a in args):
            raise VerifyException("all body arguments must be index")
        yielded = _yielded_type(self.body)
        # another terminator is the nested op's error to report first, as
        # upstream checks the yield in verifyRegions, after the body's ops
        if yielded is not None and yielded != result.element_type:
            raise VerifyException(
                "body must be terminated with a `yield` operation of the tensor element type"
            )


def infer_pad_shape(
    source: Sequence[int], low: Sequence[int], high: Sequence[int]
) -> list[int] | None:
    """Upstream's ``PadOp::inferResultType`` shape: each static dimension grows by
    its static pads; None when the pad lists do not match the source rank."""
    if len(low) != len(source) or len(high) != len(source):
        return None
    return [
        DYNAMIC_INDEX if any(is_dynamic(x) for x in (s, lo, hi)) else s + lo + hi
        for s, lo, hi in zip(source, low, high)
    ]


@upstream_op
class PadOp(IRDLOperation):
    """Pads a tensor with the value its body yields (upstream's fields and
    syntax; see the module docstring for why it is not xDSL's class)."""

    name = "tensor.pad"

    source = operand_def(TensorType)
    low = var_operand_def(IndexType)
    high = var_operand_def(IndexType)
    static_low = prop_def(DenseArrayBase.constr(i64))
    static_high = prop_def(DenseArrayBase.constr(i64))
    nofold = opt_prop_def(UnitAttr)
    region = region_def("single_block")
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": RANKED_TENSOR,
        "low": VARIADIC_INDEX,
        "high": VARIADIC_INDEX,
        "result": RANKED_TENSOR,
    }
    traits = traits_def(Pure(), SingleBlockImplicitTerminator(YieldOp))
    custom_directives = (DynamicIndexList,)
    assembly_format = (
        "$source (`nofold` $nofold^)? "
        "`low` `` custom<DynamicIndexList>($low, $static_low) "
        "`high` `` custom<DynamicIndexList>($high, $static_high) "
        "$region attr-dict `:` type($source) `to` type($result)"
    )

    def __init__(
        self,
        source: SSAValue,
        low: Sequence[SSAValue],
        high: Sequence[SSAValue],
        static_low: Sequence[int],
        static_high: Sequence[int],
        region: Region,
        result_type: TensorType[Attribute],
        nofold: bool = False,
    ) -> None:
        super().__init__(
            operands=[source, low, high],
            result_types=[result_type],
            properties={
                "static_low": DenseArrayBase.from_list(i64, static_low),
                "static_high": DenseArrayBase.from_list(i64, static_high),
                "nofold": UnitAttr() if nofold else None,
            },
            regions=[region],
        )

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        low = tuple(self.static_low.get_values())
        high = tuple(self.static_high.get_values())
        # Upstream has no such check and then misreads the pads; a static pad
        # of kDynamic (-2^63) would leave a value missing.
        verify_dynamic_entries("low", len(self.low), low)
        verify_dynamic_entries("high", len(self.high), high)
        inferred = infer_pad_shape(source.get_shape(), low, high)
        if inferred is None:
            raise VerifyException(
                f"failed to infer expectedType from sourceType {type_str(source)}, "
                f"specified resultType is {type_str(result)}"
            )
        shape = result.get_shape()
        # Where the inferred size is dynamic, the result may state any size.
        if len(shape) != len(inferred) or any(
            got != want and not is_dynamic(want) for got, want in zip(shape, inferred)
        ):
            expected = TensorType(source.element_type, inferred)
            raise VerifyException(
                f"specified type {type_str(result)} does not match the inferred type "
                f"{type_str(expected)}"
            )
        # Upstream's region verifier.
        args = self.region.block.args
        if len(args) != len(shape):
            raise VerifyException(f"expected the block to have {len(shape)} arguments")
        for i, arg in enumerate(args):
            if not isinstance(arg.type, IndexType):
                raise VerifyException(f"expected block argument {i + 1} to be an index")
        if _yielded_type(self.region) != result.element_type:
            raise VerifyException("expected yield type to match shape element type")
