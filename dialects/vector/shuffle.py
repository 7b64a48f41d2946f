"""``vector.broadcast`` and ``vector.shuffle``: xDSL's ops, checked as
upstream checks them.

xDSL's ``broadcast`` only compares element types, so a source of higher rank
or with a mismatched dimension verified (and lowered to wrong code). xDSL's
``shuffle`` binds its types with IRDL variables, so its parser refuses mixed
element types (``attribute f32 expected from variable 'T'``) and its
verifier words every check its own way. Both are subclassed (passes match
xDSL's classes with isinstance) with upstream's ``verify()`` and words.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerType, VectorType, i64
from xdsl.dialects.builtin import AnyFloat, ContainerType
from xdsl.ir import Attribute
from xdsl.irdl import AnyAttr, base, operand_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.utils.kinds import parse_type_of
from mlkit.dialects.utils.ods import DeclarativeSyntax, upstream_op, verify_that

_VECTOR_TEXT = "vector of any type values"


def _element_or_self(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, ContainerType) else type_


def _dim(vector: VectorType, index: int) -> tuple[int, bool]:
    return vector.get_shape()[index], bool(vector.get_scalable_dims()[index])


def broadcast_error(source: Attribute, result: VectorType) -> str | None:
    """Upstream's ``isBroadcastableTo`` failure, worded as ``BroadcastOp::verify``."""
    if isinstance(source, IntegerType | IndexType | AnyFloat):
        return None if source == result.element_type else "source type is not a vector"
    if not isinstance(source, VectorType):
        return "source type is not a vector"
    lead = result.get_num_dims() - source.get_num_dims()
    if lead < 0:
        return "source rank higher than destination rank"
    for index in range(source.get_num_dims()):
        (src, src_scalable), (dst, dst_scalable) = _dim(source, index), _dim(result, lead + index)
        mismatch = (src != 1 and src != dst) or (src == 1 and src_scalable and dst != 1)
        mismatch = mismatch or (src_scalable != dst_scalable and (src != 1 or src_scalable))
        if mismatch:
            left = f"[{src}]" if src_scalable else str(src)
            right = f"[{dst}]" if dst_scalable else str(dst)
            return f"dimension mismatch ({left} vs. {right})"
    return None


@upstream_op
class BroadcastOp(DeclarativeSyntax, xvector.BroadcastOp):
    """xDSL's op with upstream's broadcastability check."""

    name = "vector.broadcast"
    assembly_format = "$source attr-dict `:` type($source) `to` type($vector)"
    source = operand_def(AnyAttr())
    vector = result_def(VectorType)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"vector": _VECTOR_TEXT}

    def verify_(self) -> None:
        source, result = self.source.type, self.vector.type
        assert isinstance(result, VectorType)
        verify_that(
            _element_or_self(source) == result.element_type,
            "source operand and result have same element type",
        )
        if (error := broadcast_error(source, result)) is not None:
            raise VerifyException(error)


def shuffle_result_type(v1: VectorType, mask_length: int) -> VectorType:
    """Upstream's ``ShuffleOp::inferReturnTypes``."""
    shape = [max(1, mask_length), *v1.get_shape()[1:]]
    return VectorType(v1.element_type, shape)


@upstream_op
class ShuffleOp(xvector.ShuffleOp):
    """xDSL's op with upstream's result type inference and checks."""

    name = "vector.shuffle"
    v1 = operand_def(base(VectorType))
    v2 = operand_def(base(VectorType))
    mask = prop_def(DenseArrayBase.constr(i64))
    result = result_def(base(VectorType))
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "v1": "fixed-length vector of any type values",
        "v2": "fixed-length vector of any type values",
        "result": _VECTOR_TEXT,
    }
    assembly_format: ClassVar[str | None] = None

    def verify_(self) -> None:
        v1, v2, result = self.v1.type, self.v2.type, self.result.type
        assert isinstance(v1, VectorType) and isinstance(v2, VectorType)
        assert isinstance(result, VectorType)
        verify_that(
            v1.element_type == result.element_type,
            "first operand v1 and result have same element type",
        )
        verify_that(
            v2.element_type == result.element_type,
            "second operand v2 and result have same element type",
        )
        ranks = v1.get_num_dims(), v2.get_num_dims(), result.get_num_dims()
        if ranks != (0, 0, 1) and not ranks[0] == ranks[1] == ranks[2]:
            raise VerifyException("rank mismatch")
        for r in range(1, ranks[0]):
            if not result.get_shape()[r] == v1.get_shape()[r] == v2.get_shape()[r]:
                raise VerifyException("dimension mismatch")
        mask = self.mask.get_values()
        if not mask:
            raise VerifyException("invalid mask length")
        if len(mask) != result.get_shape()[0]:
            raise VerifyException("mask length mismatch")
        size = sum(1 if not t.get_shape() else t.get_shape()[0] for t in (v1, v2))
        for index, position in enumerate(mask):
            if position != -1 and not 0 <= position < size:
                raise VerifyException(f"mask index #{index + 1} out of range")

    @classmethod
    def parse(cls, parser: Parser) -> ShuffleOp:
        v1 = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        v2 = parser.parse_unresolved_operand()
        mask = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parse_type_of(parser, VectorType)]
        parser.parse_punctuation(",")
        types.append(parse_type_of(parser, VectorType))
        operands = parser.resolve_operands([v1, v2], types, parser.pos)
        v1_type = types[0]
        return cls.create(
            operands=operands,
            result_types=[shuffle_result_type(v1_type, len(mask))],
            properties={"mask": DenseArrayBase.from_list(i64, mask)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f" [{', '.join(map(str, self.mask.get_values()))}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list((o.type for o in self.operands), printer.print_attribute)
