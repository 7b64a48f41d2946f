"""linalg's elementwise named ops: fill, copy, add ... select, and linalg.elementwise.

All are rank-polymorphic: one parallel loop per dimension of the init, identity
maps for shaped operands and ``() `` maps for scalars. Their bodies apply one
OpDSL function with no casts, except copy, which casts to the init's element
type with its ``cast`` property, and fill, which yields its value as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ShapedType
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.linalg.attrs import BinaryFn, ElementwiseKind, ElementwiseKindAttr
from mlkit.dialects.linalg.attrs import IteratorType, TernaryFn, TypeFn, TypeFnAttr, UnaryFn
from mlkit.dialects.linalg.body import BodyBuilder, element_type
from mlkit.dialects.linalg.named_base import NamedStructuredOp, maps_array, parse_maps_keyword
from mlkit.dialects.linalg.named_base import print_maps_keyword, rank_of

__all__ = [
    "ELEMENTWISE_OPS",
    "AbsOp",
    "AddOp",
    "CeilOp",
    "CopyOp",
    "DivOp",
    "DivUnsignedOp",
    "ElementwiseOp",
    "ErfOp",
    "ExpOp",
    "FillOp",
    "FloorOp",
    "LogOp",
    "MaxOp",
    "MinOp",
    "MulOp",
    "NegFOp",
    "PowFOp",
    "ReciprocalOp",
    "RoundOp",
    "RsqrtOp",
    "SelectOp",
    "SqrtOp",
    "SquareOp",
    "SubOp",
    "TanhOp",
]


def _type_fn(props: Mapping[str, Attribute]) -> TypeFn:
    attr = props.get("cast")
    return attr.data if isinstance(attr, TypeFnAttr) else TypeFn.CAST_SIGNED


class _RankPolymorphicOp(NamedStructuredOp):
    """One parallel loop per dimension of the (first) init."""

    def _loop_rank(self) -> int:
        return rank_of(self.outputs[0]) if self.outputs else 0

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        rank = self._loop_rank()
        return [
            AffineMap.identity(rank)
            if isinstance(v.type, ShapedType)
            else AffineMap(rank, 0, ())
            for v in self.operands
        ]

    def iterator_kinds(self) -> list[IteratorType]:
        return [IteratorType.PARALLEL] * self._loop_rank()


class UnaryElementwiseOp(_RankPolymorphicOp):
    FN: ClassVar[UnaryFn]
    NUM_REGION_ARGS: ClassVar[int | None] = 2

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        b.yield_(b.unary(cls.FN, b.args[0]))


class BinaryElementwiseOp(_RankPolymorphicOp):
    FN: ClassVar[BinaryFn]
    NUM_REGION_ARGS: ClassVar[int | None] = 3

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        b.yield_(b.binary(cls.FN, b.args[0], b.args[1]))


@irdl_op_definition
class FillOp(_RankPolymorphicOp):
    """Writes one scalar to every element of the init."""

    name = "linalg.fill"
    NUM_REGION_ARGS: ClassVar[int | None] = 2

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        b.yield_(b.args[0])

    def verify_op(self) -> None:
        if not self.inputs or not self.outputs:
            return
        value_type = self.inputs[0].type
        out_type = element_type(self.outputs[0].type)
        if value_type != out_type:
            raise VerifyException(
                f"expected fill value type ('{value_type}') to match output element type "
                f"('{out_type}')"
            )


@irdl_op_definition
class CopyOp(_RankPolymorphicOp):
    """Copies the input to the init, converting elements with ``cast``."""

    name = "linalg.copy"
    NUM_REGION_ARGS: ClassVar[int | None] = 2

    cast = opt_prop_def(TypeFnAttr)

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        out_type = b.args[-1].type
        b.yield_(b.cast(out_type, b.args[0], _type_fn(props)))


@irdl_op_definition
class ExpOp(UnaryElementwiseOp):
    name = "linalg.exp"
    FN: ClassVar[UnaryFn] = UnaryFn.EXP


@irdl_op_definition
class LogOp(UnaryElementwiseOp):
    name = "linalg.log"
    FN: ClassVar[UnaryFn] = UnaryFn.LOG


@irdl_op_definition
class AbsOp(UnaryElementwiseOp):
    name = "linalg.abs"
    FN: ClassVar[UnaryFn] = UnaryFn.ABS


@irdl_op_definition
class CeilOp(UnaryElementwiseOp):
    name = "linalg.ceil"
    FN: ClassVar[UnaryFn] = UnaryFn.CEIL


@irdl_op_definition
class FloorOp(UnaryElementwiseOp):
    name = "linalg.floor"
    FN: ClassVar[UnaryFn] = UnaryFn.FLOOR


@irdl_op_definition
class NegFOp(UnaryElementwiseOp):
    name = "linalg.negf"
    FN: ClassVar[UnaryFn] = UnaryFn.NEGF


@irdl_op_definition
class ReciprocalOp(UnaryElementwiseOp):
    name = "linalg.reciprocal"
    FN: ClassVar[UnaryFn] = UnaryFn.RECIPROCAL


@irdl_op_definition
class RoundOp(UnaryElementwiseOp):
    name = "linalg.round"
    FN: ClassVar[UnaryFn] = UnaryFn.ROUND


@irdl_op_definition
class SqrtOp(UnaryElementwiseOp):
    name = "linalg.sqrt"
    FN: ClassVar[UnaryFn] = UnaryFn.SQRT


@irdl_op_definition
class RsqrtOp(UnaryElementwiseOp):
    name = "linalg.rsqrt"
    FN: ClassVar[UnaryFn] = UnaryFn.RSQRT


@irdl_op_definition
class SquareOp(UnaryElementwiseOp):
    name = "linalg.square"
    FN: ClassVar[UnaryFn] = UnaryFn.SQUARE


@irdl_op_definition
class TanhOp(UnaryElementwiseOp):
    name = "linalg.tanh"
    FN: ClassVar[UnaryFn] = UnaryFn.TANH


@irdl_op_definition
class ErfOp(UnaryElementwiseOp):
    name = "linalg.erf"
    FN: ClassVar[UnaryFn] = UnaryFn.ERF


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    name = "linalg.add"
    FN: ClassVar[BinaryFn] = BinaryFn.ADD


@irdl_op_definition
class SubOp(BinaryElementwiseOp):
    name = "linalg.sub"
    FN: ClassVar[BinaryFn] = BinaryFn.SUB


@irdl_op_definition
class MulOp(BinaryElementwiseOp):
    name = "linalg.mul"
    FN: ClassVar[BinaryFn] = BinaryFn.MUL


@irdl_op_definition
class DivOp(BinaryElementwiseOp):
    name = "linalg.div"
    FN: ClassVar[BinaryFn] = BinaryFn.DIV


@irdl_op_definition
class DivUnsignedOp(BinaryElementwiseOp):
    name = "linalg.div_unsigned"
    FN: ClassVar[BinaryFn] = BinaryFn.DIV_UNSIGNED


@irdl_op_definition
class MaxOp(BinaryElementwiseOp):
    name = "linalg.max"
    FN: ClassVar[BinaryFn] = BinaryFn.MAX_SIGNED


@irdl_op_definition
class MinOp(BinaryElementwiseOp):
    name = "linalg.min"
    FN: ClassVar[BinaryFn] = BinaryFn.MIN_SIGNED


@irdl_op_definition
class PowFOp(BinaryElementwiseOp):
    name = "linalg.powf"
    FN: ClassVar[BinaryFn] = BinaryFn.POWF


@irdl_op_definition
class SelectOp(_RankPolymorphicOp):
    name = "linalg.select"
    NUM_REGION_ARGS: ClassVar[int | None] = 4

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        b.yield_(b.ternary(TernaryFn.SELECT, b.args[0], b.args[1], b.args[2]))


_UNARY_KINDS = {k for k in ElementwiseKind if k.value in UnaryFn.__members__.values()}
_TERNARY_KINDS = {ElementwiseKind.SELECT}


def _arity(kind: ElementwiseKind) -> int:
    if kind in _UNARY_KINDS:
        return 1
    return 3 if kind in _TERNARY_KINDS else 2


@irdl_op_definition
class ElementwiseOp(NamedStructuredOp):
    """``linalg.elementwise kind=#linalg.elementwise_kind<add> [indexing_maps = [...]]``:
    one function of the inputs, with identity maps unless given."""

    name = "linalg.elementwise"

    kind = prop_def(ElementwiseKindAttr)
    indexing_maps = opt_prop_def(ArrayAttr[AffineMapAttr])

    ELIDED: ClassVar[tuple[str, ...]] = ("kind", "indexing_maps")

    def _loop_rank(self) -> int:
        return rank_of(self.outputs[0]) if self.outputs else 0

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return [AffineMap.identity(self._loop_rank())] * len(self.operands)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        if self.indexing_maps is not None:
            return self.indexing_maps
        return maps_array(self.get_default_indexing_maps())

    def iterator_kinds(self) -> list[IteratorType]:
        return [IteratorType.PARALLEL] * self._loop_rank()

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        kind_attr = props.get("kind")
        assert isinstance(kind_attr, ElementwiseKindAttr)
        kind = kind_attr.data
        arity = _arity(kind)
        if len(b.args) != arity + 1:
            b.yield_()
            return
        if arity == 1:
            b.yield_(b.unary(UnaryFn(kind.value), b.args[0]))
        elif arity == 2:
            b.yield_(b.binary(BinaryFn(kind.value), b.args[0], b.args[1]))
        else:
            b.yield_(b.ternary(TernaryFn(kind.value), b.args[0], b.args[1], b.args[2]))

    @classmethod
    def num_region_args(cls, props: Mapping[str, Attribute]) -> int | None:
        kind = props.get("kind")
        return _arity(kind.data) + 1 if isinstance(kind, ElementwiseKindAttr) else None

    @classmethod
    def default_properties(
        cls, operand_types: Sequence[Attribute], props: Mapping[str, Attribute]
    ) -> dict[str, Attribute]:
        rank = (
            len(operand_types[-1].get_shape())
            if operand_types and isinstance(operand_types[-1], ShapedType)
            else 0
        )
        return {
            "indexing_maps": maps_array([AffineMap.identity(rank)] * len(operand_types))
        }

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_keyword("kind")
        parser.parse_punctuation("=")
        pos = parser.pos
        kind = parser.parse_attribute()
        if not isinstance(kind, ElementwiseKindAttr):
            parser.raise_error(
                "expected #linalg.elementwise_kind attribute", pos, parser.pos
            )
        props: dict[str, Attribute] = {"kind": kind}
        maps = parse_maps_keyword(parser)
        if maps is not None:
            props["indexing_maps"] = maps
        return props

    def print_prefix(self, printer: Printer) -> None:
        printer.print_string(" kind=")
        printer.print_attribute(self.kind)
        maps = self.get_indexing_maps()
        if list(maps.data) != list(maps_array(self.get_default_indexing_maps()).data):
            print_maps_keyword(printer, maps)

    def verify_op(self) -> None:
        arity = _arity(self.kind.data)
        if len(self.inputs) != arity:
            raise VerifyException(
                f"{self.kind.data.value} expects {arity} input(s), but got {len(self.inputs)}"
            )


ELEMENTWISE_OPS: tuple[type[NamedStructuredOp], ...] = (
    FillOp,
    CopyOp,
    ExpOp,
    LogOp,
    AbsOp,
    CeilOp,
    FloorOp,
    NegFOp,
    ReciprocalOp,
    RoundOp,
    SqrtOp,
    RsqrtOp,
    SquareOp,
    TanhOp,
    ErfOp,
    AddOp,
    SubOp,
    MulOp,
    DivOp,
    DivUnsignedOp,
    MaxOp,
    MinOp,
    PowFOp,
    SelectOp,
    ElementwiseOp,
)
