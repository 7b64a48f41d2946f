"""LLVM aggregate and vector element ops, and the ops that make constants.

Replaces xDSL's versions: xDSL has no ``llvm.mlir.poison`` or
``llvm.extractelement``, and infers no result types for ``extractvalue`` and
``shufflevector``, whose upstream syntax leaves them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, IndexType, DenseArrayBase, FloatAttr, IntegerAttr
from xdsl.dialects.builtin import IntegerType, SymbolRefAttr, VectorType, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import AnyAttr, IRDLOperation, irdl_op_definition, operand_def
from xdsl.irdl import prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure, SymbolTable
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.llvm.constants import verify_constant
from mlkit.dialects.llvm.interfaces import PureOp
from mlkit.dialects.llvm.types import LLVMArrayType, LLVMPointerType, LLVMStructType
from mlkit.dialects.utils.attr_dict import add_attr_dict, print_attr_dict
from mlkit.dialects.utils.ods import verify_that
from mlkit.dialects.utils.op_classes import define_op
from mlkit.dialects.utils.operand_lists import parse_leading_operand, parse_typed_operand
from mlkit.dialects.utils.operand_lists import print_leading_operand, print_typed_value


def element_at(container: Attribute, position: Sequence[int]) -> Attribute:
    """The type at ``position`` inside a struct or array type, as upstream's
    ``getInsertExtractValueElementType`` finds it."""
    type = container
    for index in position:
        if isinstance(type, LLVMArrayType):
            if index < 0 or index >= type.size.data:
                raise VerifyException(f"position out of bounds: {index}")
            type = type.type
        elif isinstance(type, LLVMStructType):
            if index < 0 or index >= len(type.types):
                raise VerifyException(f"position out of bounds: {index}")
            type = type.types.data[index]
        else:
            raise VerifyException(f"expected LLVM IR Dialect type, got {type}")
    return type


def _integers(op: Operation, prop: str = "position") -> list[int]:
    array = op.properties[prop]
    assert isinstance(array, DenseArrayBase)
    return [int(i) for i in array.iter_values()]


def _parse_integers_and_type(
    parser: Parser,
) -> tuple[list[int], dict[str, Attribute], int, Attribute]:
    """``[0, 1] {attrs} : type``: the integers, the dictionary, where the type
    starts and the type."""
    integers = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    return integers, attrs, parser.pos, parser.parse_type()


def _print_integers_and_type(printer: Printer, op: Operation, prop: str, type: Attribute) -> None:
    """``[0, 1] {attrs} : type``, the integers being the property ``prop``."""
    printer.print_string(f"[{', '.join(map(str, _integers(op, prop)))}]")
    print_attr_dict(printer, op, (prop,))
    printer.print_string(" : ")
    printer.print_attribute(type)


class _AggregateOp(PureOp):
    """``[%value,] %container[0, 1] {attrs} : !llvm.struct<...>``: the types of
    the result or value follow from the container type and the position."""

    INSERTS: ClassVar[bool] = False  # the inserted value is written first

    @staticmethod
    def _position_property(position: Sequence[int]) -> dict[str, Attribute]:
        return {"position": DenseArrayBase.from_list(i64, position)}

    def _element(self) -> Attribute:
        """The type at the position inside the container."""
        return element_at(self.operands[0].type, _integers(self))

    @classmethod
    def parse(cls, parser: Parser) -> _AggregateOp:
        value = parse_leading_operand(parser, cls.INSERTS)
        container = parser.parse_unresolved_operand()
        position, attrs, at, type = _parse_integers_and_type(parser)
        if value is None:
            (container_v,) = parser.resolve_operands([container], [type], at)
        try:
            element = element_at(type, position)
        except VerifyException as exc:
            parser.raise_error(str(exc), at)
        if value is None:
            op = cls(container_v, position)
        else:
            container_v, value_v = parser.resolve_operands([container, value], [type, element], at)
            op = cls(container_v, value_v, position)
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        container = self.operands[0]
        printer.print_string(" ")
        print_leading_operand(printer, self.operands[1] if self.INSERTS else None)
        printer.print_operand(container)
        _print_integers_and_type(printer, self, "position", container.type)


@irdl_op_definition
class ExtractValueOp(_AggregateOp):
    """``llvm.extractvalue %s[0, 1] : !llvm.struct<...>``."""

    name = "llvm.extractvalue"
    container = operand_def()
    res = result_def()
    position = prop_def(DenseArrayBase)

    def __init__(self, container: SSAValue, position: Sequence[int]) -> None:
        super().__init__(
            operands=[container],
            result_types=[element_at(container.type, position)],
            properties=self._position_property(position),
        )

    def verify_(self) -> None:
        expected = self._element()
        if expected != self.res.type:
            raise VerifyException(
                f"Type mismatch: extracting from '{self.container.type}' should produce "
                f"'{expected}' but this op returns '{self.res.type}'"
            )


@irdl_op_definition
class InsertValueOp(_AggregateOp):
    """``llvm.insertvalue %v, %s[0] : !llvm.struct<...>``."""

    name = "llvm.insertvalue"
    container = operand_def()
    value = operand_def()
    res = result_def()
    position = prop_def(DenseArrayBase)
    INSERTS: ClassVar[bool] = True

    def __init__(self, container: SSAValue, value: SSAValue, position: Sequence[int]) -> None:
        super().__init__(
            operands=[container, value],
            result_types=[container.type],
            properties=self._position_property(position),
        )

    def verify_(self) -> None:
        if self._element() != self.value.type:
            raise VerifyException(
                f"Type mismatch: cannot insert '{self.value.type}' into '{self.container.type}'"
            )
        if self.res.type != self.container.type:
            raise VerifyException("result type must match the container type")


def _vector_element(parser: Parser, type: Attribute, at: int) -> Attribute:
    if not isinstance(type, VectorType):
        parser.raise_error("expected LLVM dialect-compatible vector type for operand #0", at)
    return type.element_type


class _VectorElementOp(PureOp):
    """``[%value,] %vector[%position : i32] {attrs} : vector<...>``."""

    INSERTS: ClassVar[bool] = False  # the inserted value is written first
    MISMATCH: ClassVar[str]  # the error when the scalar is not of the element type

    @classmethod
    def parse(cls, parser: Parser) -> _VectorElementOp:
        value = parse_leading_operand(parser, cls.INSERTS)
        vector = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        position, position_type = parse_typed_operand(parser)
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        type = parser.parse_type()
        element = _vector_element(parser, type, at)
        names, types = [vector, position], [type, position_type]
        if value is not None:
            names.insert(1, value)
            types.insert(1, element)
        op = cls(*parser.resolve_operands(names, types, at))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        vector, position = self.operands[0], self.operands[-1]
        printer.print_string(" ")
        print_leading_operand(printer, self.operands[1] if self.INSERTS else None)
        printer.print_operand(vector)
        printer.print_string("[")
        print_typed_value(printer, position)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(vector.type)

    def verify_(self) -> None:
        vector = self.operands[0].type
        assert isinstance(vector, VectorType)
        scalar = self.operands[1] if self.INSERTS else self.results[0]
        if scalar.type != vector.element_type:
            raise VerifyException(self.MISMATCH)


@irdl_op_definition
class ExtractElementOp(_VectorElementOp):
    """``llvm.extractelement %v[%i : i32] : vector<4xf32>``."""

    name = "llvm.extractelement"
    vector = operand_def(VectorType)
    position = operand_def(IntegerType)
    res = result_def()
    MISMATCH: ClassVar[str] = "Type mismatch: extract element result type"

    def __init__(self, vector: SSAValue, position: SSAValue) -> None:
        assert isinstance(vector.type, VectorType)
        super().__init__(operands=[vector, position], result_types=[vector.type.element_type])


@irdl_op_definition
class InsertElementOp(_VectorElementOp):
    """``llvm.insertelement %x, %v[%i : i32] : vector<4xf32>``."""

    name = "llvm.insertelement"
    vector = operand_def(VectorType)
    value = operand_def()
    position = operand_def(IntegerType)
    res = result_def(VectorType)
    INSERTS: ClassVar[bool] = True
    MISMATCH: ClassVar[str] = "Type mismatch: inserted value must match the vector element type"

    def __init__(self, vector: SSAValue, value: SSAValue, position: SSAValue) -> None:
        super().__init__(operands=[vector, value, position], result_types=[vector.type])


@irdl_op_definition
class ShuffleVectorOp(PureOp):
    """``llvm.shufflevector %a, %b [0, 1, -1] : vector<4xf32>``: the result
    has the operands' element type and one element per mask entry."""

    name = "llvm.shufflevector"
    v1 = operand_def(VectorType)
    v2 = operand_def(VectorType)
    res = result_def(VectorType)
    mask = prop_def(DenseArrayBase)

    def __init__(self, v1: SSAValue, v2: SSAValue, mask: Sequence[int]) -> None:
        assert isinstance(v1.type, VectorType)
        super().__init__(
            operands=[v1, v2],
            result_types=[VectorType(v1.type.element_type, [len(mask)])],
            properties={"mask": DenseArrayBase.from_list(i32, mask)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ShuffleVectorOp:
        v1 = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        v2 = parser.parse_unresolved_operand()
        mask, attrs, at, type = _parse_integers_and_type(parser)
        _vector_element(parser, type, at)
        v1_v, v2_v = parser.resolve_operands([v1, v2], [type, type], at)
        op = cls(v1_v, v2_v, mask)
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.v1)
        printer.print_string(", ")
        printer.print_operand(self.v2)
        printer.print_string(" ")
        _print_integers_and_type(printer, self, "mask", self.v1.type)

    def verify_(self) -> None:
        verify_that(self.v1.type == self.v2.type, "all of {v1, v2} have same type")


@irdl_op_definition
class ConstantOp(PureOp):
    """``llvm.mlir.constant(42 : i64) : i64``; an untyped integer or float
    takes the result type, as upstream's parser does."""

    name = "llvm.mlir.constant"
    res = result_def()
    value = prop_def(AnyAttr())
    traits = traits_def(ConstantLike())

    def __init__(self, value: Attribute, type: Attribute | None = None) -> None:
        if type is None:
            type = getattr(value, "type")
        super().__init__(result_types=[type], properties={"value": value})

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        parser.parse_punctuation("(")
        untyped: int | float | None = None
        is_hex = parser._current_token.text[:2] in ("0x", "0X")  # pyright: ignore[reportPrivateUsage]
        if (number := parser.parse_optional_number()) is not None and parser.parse_optional_punctuation(":") is None:
            untyped = number
            value: Attribute | None = None
        elif number is not None:
            number_type = parser.parse_type()
            if isinstance(number_type, IntegerType | IndexType):
                value = IntegerAttr(int(number), number_type)
            elif is_hex and isinstance(number_type, AnyFloat):
                # `0xff800000 : f32` is a bit pattern (-inf), as in upstream
                raw = int(number).to_bytes(number_type.compile_time_size, "little")
                value = FloatAttr(next(number_type.iter_unpack(raw)), number_type)
            else:
                value = FloatAttr(float(number), number_type)  # type: ignore[arg-type]
        else:
            value = parser.parse_attribute()
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        if value is None:
            value = (
                IntegerAttr(int(untyped), type)  # type: ignore[arg-type]
                if isinstance(type, IntegerType) and isinstance(untyped, int)
                else FloatAttr(float(untyped), type)  # type: ignore[arg-type]
            )
        op = cls(value, type)
        add_attr_dict(op, attrs, ("value",))
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_attribute(self.value)
        printer.print_string(")")
        print_attr_dict(printer, self, ("value",))
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        verify_constant(self.value, self.res.type)


class _ValueOp(IRDLOperation):
    res = result_def()
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, type: Attribute) -> None:
        super().__init__(result_types=[type])


UndefOp = define_op(_ValueOp, "llvm.mlir.undef", "UndefOp")
PoisonOp = define_op(_ValueOp, "llvm.mlir.poison", "PoisonOp")
ZeroOp = define_op(_ValueOp, "llvm.mlir.zero", "ZeroOp")


@irdl_op_definition
class AddressOfOp(PureOp):
    """``llvm.mlir.addressof @g : !llvm.ptr``: a pointer to a global or function."""

    name = "llvm.mlir.addressof"
    global_name = prop_def(SymbolRefAttr)
    res = result_def(LLVMPointerType)
    assembly_format = "$global_name attr-dict `:` type($res)"

    def __init__(self, symbol: str | SymbolRefAttr, type: Attribute | None = None) -> None:
        super().__init__(
            result_types=[type or LLVMPointerType()],
            properties={"global_name": SymbolRefAttr(symbol) if isinstance(symbol, str) else symbol},
        )

    def verify_(self) -> None:
        assert isinstance(self.global_name, SymbolRefAttr)
        target = SymbolTable.lookup_symbol(self, self.global_name)
        if target is None or target.name not in (
            "llvm.mlir.global", "llvm.func", "llvm.mlir.alias", "llvm.mlir.ifunc"
        ):
            raise VerifyException(
                "must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' "
                "or 'llvm.func' or 'llvm.mlir.ifunc'"
            )


VALUE_OPS = [
    ExtractValueOp, InsertValueOp, ExtractElementOp, InsertElementOp, ShuffleVectorOp,
    ConstantOp, UndefOp, PoisonOp, ZeroOp, AddressOfOp,
]  # fmt: skip
