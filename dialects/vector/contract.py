"""``vector.contract`` and ``vector.outerproduct``, which xDSL 0.75 lacks,
with upstream's custom syntax and verifier wording.

A contraction writes its iterator types as strings in the custom form
(``iterator_types = ["parallel", "reduction"]``) and as
``#vector.iterator_type<...>`` in the generic one, as upstream does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ArrayAttr, IntegerType, Signedness, StringAttr
from xdsl.dialects.builtin import VectorType
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import IRDLOperation, operand_def, opt_operand_def
from xdsl.irdl import opt_prop_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mlkit.dialects.utils.attr_dict import add_attr_dict, print_attr_dict
from mlkit.dialects.utils.enums import enum_attribute
from mlkit.dialects.utils.ods import upstream_op


class IteratorType(StrEnum):
    """``vector::IteratorType``: how a contraction walks one dimension."""

    PARALLEL = "parallel"
    REDUCTION = "reduction"


IteratorTypeAttr = enum_attribute("vector.iterator_type", "IteratorTypeAttr", IteratorType, "angle")

_FLOAT_KINDS = {"add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"}
_INT_KINDS = {"add", "mul", "minsi", "minui", "maxsi", "maxui", "and", "or", "xor"}


def kind_supports(kind: str, element: Attribute) -> bool:
    """Upstream's ``isSupportedCombiningKind``: float kinds on floats,
    integer kinds on integers and index."""
    if isinstance(element, AnyFloat):
        return kind in _FLOAT_KINDS
    return kind in _INT_KINDS


def _shape(type: Attribute) -> tuple[int, ...]:
    return tuple(type.get_shape()) if isinstance(type, VectorType) else ()


def _element(type: Attribute) -> Attribute:
    return type.element_type if isinstance(type, VectorType) else type


_VECTOR = "vector of non-zero-bitwidth type values"


@upstream_op
class ContractionOp(IRDLOperation):
    """A contraction of two vectors into an accumulator along indexing maps."""

    name = "vector.contract"

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"lhs": _VECTOR, "rhs": _VECTOR}

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def()
    result = result_def()
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[Attribute])
    kind = prop_def(CombiningKindAttr)
    fastmath = opt_prop_def(FastMathFlagsAttr)
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue, rhs: SSAValue, acc: SSAValue,
                 maps: Sequence[AffineMap], iterators: Sequence[str],
                 kind: str = "add") -> None:
        super().__init__(
            operands=[lhs, rhs, acc],
            result_types=[acc.type],
            properties={
                "indexing_maps": ArrayAttr([AffineMapAttr(m) for m in maps]),
                "iterator_types": ArrayAttr([IteratorTypeAttr(IteratorType(i)) for i in iterators]),
                "kind": CombiningKindAttr(CombiningKindFlag(kind)),
            },
        )

    @property
    def maps(self) -> list[AffineMap]:
        return [m.data for m in self.indexing_maps.data]

    @property
    def iterators(self) -> list[str]:
        return [str(i.data.value) for i in self.iterator_types.data]  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, parser: Parser) -> ContractionOp:
        attrs_pos = parser.pos
        attrs = parser.parse_optional_attr_dict()
        operands_pos = parser.pos
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        extra = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_type = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        if len(operands) != 3:
            parser.raise_error("expected 3 operands", operands_pos)
        attrs = {**attrs, **extra}
        iterators = attrs.get("iterator_types")
        if isinstance(iterators, ArrayAttr):
            converted: list[Attribute] = []
            for item in iterators.data:
                if isinstance(item, StringAttr):
                    if item.data not in ("parallel", "reduction"):
                        parser.raise_error(f"unknown iterator type '{item.data}'", attrs_pos)
                    item = IteratorTypeAttr(IteratorType(item.data))
                converted.append(item)
            attrs["iterator_types"] = ArrayAttr(converted)
        for required in ("indexing_maps", "iterator_types"):
            if required not in attrs:
                parser.raise_error(f"expected '{required}' attribute", attrs_pos)
        attrs.setdefault("kind", CombiningKindAttr(CombiningKindFlag.ADD))
        op = cls.__new__(cls)
        IRDLOperation.__init__(
            op,
            operands=[parser.resolve_operand(o, t)
                      for o, t in zip(operands, (lhs_type, rhs_type, result_type))],
            result_types=[result_type],
        )
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" {")
        entries: list[tuple[str, Attribute | str]] = [("indexing_maps", self.indexing_maps)]
        names = ", ".join(f'"{i}"' for i in self.iterators)
        entries.append(("iterator_types", f"[{names}]"))
        entries.append(("kind", self.kind))
        for name, value in self.attributes.items():
            entries.append((name, value))
        for index, (name, value) in enumerate(entries):
            if index:
                printer.print_string(", ")
            printer.print_string(f"{name} = ")
            if isinstance(value, str):
                printer.print_string(value)
            else:
                printer.print_attribute(value)
        printer.print_string("} ")
        printer.print_list(self.operands, printer.print_operand)
        if self.fastmath is not None and self.fastmath.data:
            printer.print_string(" {fastmath = ")
            printer.print_attribute(self.fastmath)
            printer.print_string("}")
        printer.print_string(" : ")
        printer.print_list([self.lhs.type, self.rhs.type], printer.print_attribute)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)

    def extents(self) -> dict[int, int]:
        """Iteration dimension -> its size, from the operands' shapes."""
        sizes: dict[int, int] = {}
        for map_, type in zip(self.maps, (self.lhs.type, self.rhs.type, self.acc.type)):
            for expr, size in zip(map_.results, _shape(type)):
                if isinstance(expr, AffineDimExpr):
                    sizes.setdefault(expr.position, size)
        return sizes

    def verify_(self) -> None:
        if self.acc.type != self.result.type:
            raise VerifyException("failed to verify that result type matches type of acc")
        lhs_element = _element(self.lhs.type)
        if isinstance(lhs_element, IntegerType) and lhs_element.signedness.data != Signedness.SIGNLESS:
            raise VerifyException("only supports signless integer types")
        maps = self.maps
        if len(maps) != 3:
            raise VerifyException("expected an indexing map for each vector operand")
        count = len(self.iterator_types.data)
        if not all(isinstance(i, IteratorTypeAttr) for i in self.iterator_types.data):
            raise VerifyException("expected iterator_types to be #vector.iterator_type attributes")
        for index, (map_, operand) in enumerate(zip(maps, self.operands)):
            if map_.num_symbols:
                raise VerifyException(f"expected indexing map {index} to have no symbols")
            if map_.num_dims != count:
                raise VerifyException(
                    f"expected indexing map {index} to have {count} number of inputs"
                )
            rank = len(_shape(operand.type))
            if len(map_.results) != rank:
                raise VerifyException(
                    f"expected indexing map {index} to have {rank} number of outputs"
                )
            if not map_.is_projected_permutation():
                raise VerifyException(
                    f"expected indexing map {index} to be a projected permutation of its inputs"
                )
        self._verify_dims(maps)
        kind = str(self.kind.data.value)
        if not kind_supports(kind, _element(self.result.type)):
            raise VerifyException("unsupported contraction type")

    def _verify_dims(self, maps: list[AffineMap]) -> None:
        def dims(map_: AffineMap) -> list[int]:
            return [e.position for e in map_.results if isinstance(e, AffineDimExpr)]

        lhs_dims, rhs_dims, acc_dims = (dims(m) for m in maps)
        iterators = self.iterators
        reductions = [d for d, kind in enumerate(iterators) if kind == "reduction"]
        if not any(d in lhs_dims and d in rhs_dims for d in reductions):
            raise VerifyException("expected at least one contracting dimension pair")
        lhs_shape, rhs_shape = _shape(self.lhs.type), _shape(self.rhs.type)
        for d in range(len(iterators)):
            if d in lhs_dims and d in rhs_dims:
                if lhs_shape[lhs_dims.index(d)] != rhs_shape[rhs_dims.index(d)]:
                    raise VerifyException(
                        "invalid contracting dimension map" if iterators[d] == "reduction"
                        else "invalid batch dimension map"
                    )
            elif d not in lhs_dims and d not in rhs_dims:
                raise VerifyException("expected all dimensions to be either a LHS or a RHS dimension")
        if any(iterators[d] == "reduction" for d in acc_dims) or any(
            iterators[d] == "parallel" and d not in acc_dims for d in range(len(iterators))
        ):
            raise VerifyException("invalid accumulator/result vector shape")
        extents = self.extents()
        expected = tuple(extents[d] for d in acc_dims)
        if _shape(self.acc.type) != expected:
            element = _element(self.acc.type)
            text = f"vector<{'x'.join(map(str, expected))}x{element}>" if expected else str(element)
            raise VerifyException(f"invalid accumulator/result vector shape, expected: {text}")


@upstream_op
class OuterProductOp(IRDLOperation):
    """The outer product of two 1-D vectors, or a vector times a scalar
    (AXPY), optionally combined into an accumulator by ``kind``."""

    name = "vector.outerproduct"

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"lhs": _VECTOR, "acc": _VECTOR, "result": _VECTOR}

    lhs = operand_def(VectorType)
    rhs = operand_def()
    acc = opt_operand_def(VectorType)
    result = result_def(VectorType)
    kind = prop_def(CombiningKindAttr, default_value=CombiningKindAttr(CombiningKindFlag.ADD))
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue, rhs: SSAValue, acc: SSAValue | None = None,
                 kind: str = "add") -> None:
        super().__init__(
            operands=[lhs, rhs, acc],
            result_types=[self.infer_type(lhs.type, rhs.type)],
            properties={"kind": CombiningKindAttr(CombiningKindFlag(kind))},
        )

    @staticmethod
    def infer_type(lhs: Attribute, rhs: Attribute) -> Attribute:
        """``vector<Mxt>`` for a scalar ``rhs``, else ``vector<MxNxt>``."""
        if not isinstance(lhs, VectorType):
            return lhs
        shape = list(lhs.get_shape())
        if isinstance(rhs, VectorType):
            shape += list(rhs.get_shape())
        return VectorType(lhs.element_type, shape)

    @classmethod
    def parse(cls, parser: Parser) -> OuterProductOp:
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        pos = parser.pos
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_type = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_type = parser.parse_type()
        if len(operands) < 2:
            parser.raise_error("expected at least 2 operands", pos)
        if len(operands) > 3:
            parser.raise_error("expected 2 or 3 operands", pos)
        if not isinstance(lhs_type, VectorType):
            parser.raise_error("expected vector type for operand #1", pos)
        result_type = cls.infer_type(lhs_type, rhs_type)
        resolved = [parser.resolve_operand(operands[0], lhs_type),
                    parser.resolve_operand(operands[1], rhs_type)]
        if len(operands) == 3:
            resolved.append(parser.resolve_operand(operands[2], result_type))
        attrs.setdefault("kind", CombiningKindAttr(CombiningKindFlag.ADD))
        op = cls.__new__(cls)
        IRDLOperation.__init__(
            op, operands=[resolved[0], resolved[1], resolved[2:]], result_types=[result_type]
        )
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        # upstream spells the kind only beside an accumulator
        print_attr_dict(printer, self, () if self.acc is not None else ("kind",))
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)

    def verify_(self) -> None:
        lhs, rhs, result = self.lhs.type, self.rhs.type, self.result.type
        assert isinstance(lhs, VectorType) and isinstance(result, VectorType)
        if lhs.get_num_dims() != 1:
            raise VerifyException("expected 1-d vector for operand #1")
        if isinstance(rhs, VectorType):
            if rhs.get_num_dims() != 1:
                raise VerifyException("expected 1-d vector for operand #2")
            if result.get_num_dims() != 2:
                raise VerifyException("expected 2-d vector result")
            if lhs.get_shape()[0] != result.get_shape()[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
            if rhs.get_shape()[0] != result.get_shape()[1]:
                raise VerifyException("expected #2 operand dim to match result dim #2")
        else:
            if result.get_num_dims() != 1:
                raise VerifyException("expected 1-d vector result")
            if lhs.get_shape()[0] != result.get_shape()[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
            if rhs != lhs.element_type:
                raise VerifyException("expected operand #2 to be the element type of operand #1")
        if self.acc is not None and self.acc.type != result:
            raise VerifyException("expected operand #3 of same type as result type")
        if not kind_supports(str(self.kind.data.value), result.element_type):
            raise VerifyException("unsupported outerproduct type")


__all__ = ["ContractionOp", "IteratorType", "IteratorTypeAttr", "OuterProductOp", "kind_supports"]
