"""linalg.pack, linalg.unpack and linalg.softmax: the non-structured ops.

pack tiles chosen dimensions of a tensor or memref into trailing inner tiles
(``inner_dims_pos``, ``inner_tiles``, optionally permuting the outer dimensions
with ``outer_dims_perm`` and padding with ``padding_value``); unpack undoes it.
Neither has a region. Tile sizes mix constants and SSA values, stored as
upstream does: ``static_inner_tiles`` with a dynamic marker per SSA tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, IntegerAttr, ShapedType
from xdsl.dialects.builtin import TensorType, i32, i64
from xdsl.dialects.utils.dynamic_index_list import get_dynamic_index_list
from xdsl.dialects.utils.dynamic_index_list import parse_dynamic_index_list_without_types
from xdsl.dialects.utils.dynamic_index_list import print_dynamic_index_list
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def
from xdsl.irdl import opt_operand_def, opt_prop_def, prop_def, var_operand_def, var_result_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.linalg.base import parse_ins_outs, print_ins_outs, verify_destination_style
from mlkit.dialects.linalg.structural import parse_dense_i64_keyword, parse_dense_i64_value
from mlkit.dialects.utils.operand_lists import parse_typed_operand, print_typed_value
from mlkit.dialects.utils.type_lists import parse_optional_arrow_type_list
from mlkit.dialects.utils.type_lists import print_optional_arrow_type_list

__all__ = ["PackOp", "SoftmaxOp", "UnPackOp"]

# Upstream marks a dynamic size in a static list with int64's minimum.
_DYNAMIC = -(2**63)


def _shape(t: Attribute) -> list[int]:
    return list(t.get_shape()) if isinstance(t, ShapedType) else []


def _shape_str(t: Attribute) -> str:
    return "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in _shape(t))


def _is_permutation_prefix(values: Sequence[int], rank: int) -> bool:
    return len(set(values)) == len(values) and all(0 <= v < rank for v in values)


class _RelayoutOp(IRDLOperation):
    """What pack and unpack share: syntax, tile handling and the verifier."""

    HAS_PADDING: ClassVar[bool]
    RESULT_NAME: ClassVar[str]

    def asm_result_name(self) -> str | None:
        """Upstream's ``getAsmResultNames``: ``%mapped``, ``%transposed``, ``%pack``..."""
        return self.RESULT_NAME or None

    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))

    def mixed_tiles(self) -> list[int | SSAValue]:
        return get_dynamic_index_list(
            self.static_inner_tiles.get_values(), self.inner_tiles, _DYNAMIC  # type: ignore[attr-defined]
        )

    def _packed_and_unpacked(self) -> tuple[Attribute, Attribute]:
        raise NotImplementedError

    @classmethod
    def parse(cls, parser: Parser) -> _RelayoutOp:
        pos = parser.pos
        src_name = parser.parse_unresolved_operand()
        padding: tuple[UnresolvedOperand, Attribute] | None = None
        if (
            cls.HAS_PADDING
            and parser.parse_optional_keyword("padding_value") is not None
        ):
            parser.parse_punctuation("(")
            padding = parse_typed_operand(parser)
            parser.parse_punctuation(")")
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("outer_dims_perm") is not None:
            props["outer_dims_perm"] = parse_dense_i64_value(parser)
        props["inner_dims_pos"] = parse_dense_i64_keyword(parser, "inner_dims_pos")
        parser.parse_keyword("inner_tiles")
        parser.parse_punctuation("=")
        dynamic_names, static = parse_dynamic_index_list_without_types(parser, _DYNAMIC)
        props["static_inner_tiles"] = DenseArrayBase.from_list(i64, static)
        parser.parse_keyword("into")
        dest_name = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        dest_type = parser.parse_type()
        source = parser.resolve_operand(src_name, src_type)
        dest = parser.resolve_operand(dest_name, dest_type)
        tiles = parser.resolve_operands(
            dynamic_names, [IndexType()] * len(dynamic_names), pos
        )
        results = [dest_type] if isinstance(dest_type, TensorType) else []
        if cls.HAS_PADDING:
            pad = [parser.resolve_operand(*padding)] if padding is not None else []
            operands: list[SSAValue | list[SSAValue]] = [source, dest, pad, tiles]
        else:
            operands = [source, dest, tiles]
            # Upstream's unpack parser records four operand segments as a
            # discardable attribute (its format is shared with pack); keep it
            # so the generic form reads the same.
            attrs.setdefault(
                "operandSegmentSizes",
                DenseArrayBase.from_list(i32, [1, 1, 0, len(tiles)]),
            )
        op = cls.build(
            operands=operands,
            result_types=[results],
            properties=props,
            attributes=attrs,
        )
        for r in op.results:
            r.name_hint = cls.RESULT_NAME
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        padding = getattr(self, "padding_value", None)
        if padding is not None:
            printer.print_string(" padding_value(")
            print_typed_value(printer, padding)
            printer.print_string(")")
        if self.outer_dims_perm is not None:
            printer.print_string(
                f" outer_dims_perm = [{', '.join(map(str, self.outer_dims_perm.get_values()))}]"
            )
        printer.print_string(
            f" inner_dims_pos = [{', '.join(map(str, self.inner_dims_pos.get_values()))}]"
        )
        printer.print_string(" inner_tiles = ")
        print_dynamic_index_list(
            printer, _DYNAMIC, self.inner_tiles, self.static_inner_tiles.get_values()  # type: ignore[attr-defined]
        )
        printer.print_string(" into ")
        printer.print_operand(self.dest)
        printer.print_op_attributes(
            {k: v for k, v in self.attributes.items() if k != "operandSegmentSizes"}
        )
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        verify_destination_style(self, [self.dest])
        packed, unpacked = self._packed_and_unpacked()
        tiles = list(self.static_inner_tiles.get_values())
        if 0 in tiles:
            raise VerifyException("invalid zero tile factor")
        rank = len(_shape(unpacked))
        inner = list(self.inner_dims_pos.get_values())
        outer = list(self.outer_dims_perm.get_values()) if self.outer_dims_perm else []
        if not _is_permutation_prefix(inner, rank):
            raise VerifyException("invalid inner_dims_pos vector")
        if not _is_permutation_prefix(outer, rank):
            raise VerifyException("invalid outer_dims_perm vector")
        if outer and len(outer) != rank:
            raise VerifyException("outer_dims_perm must be a permutation or empty")
        if len(tiles) > rank:
            raise VerifyException(
                "tiling factors must be less than or equal to the input rank for pack or "
                "output rank for unpack"
            )
        if len(tiles) != len(inner):
            raise VerifyException(
                "tiling factors must equal the number of dimensions to tile"
            )
        packed_shape = _shape(packed)
        if len(packed_shape) != rank + len(tiles):
            raise VerifyException(
                "packed rank != (unpacked rank + num tiling factors), got "
                f"{len(packed_shape)} != {rank + len(tiles)}"
            )
        for index, (size, t) in enumerate(zip(packed_shape[rank:], tiles)):
            ok = size == DYNAMIC_INDEX if t == _DYNAMIC else size == t
            if not ok:
                got = _DYNAMIC if size == DYNAMIC_INDEX else size
                raise VerifyException(
                    "mismatch in inner tile sizes specified and shaped of tiled dimension in "
                    f"the packed type at index {index}: got {got} != {t}"
                )
        expected = self.infer_packed_shape(_shape(unpacked), tiles, inner, outer)
        compatible = all(
            e == DYNAMIC_INDEX or p == DYNAMIC_INDEX or e == p
            for e, p in zip(expected, packed_shape)
        )
        if not compatible:
            dims = "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in expected)
            kind = "tensor" if isinstance(packed, TensorType) else "memref"
            elem = packed.get_element_type()  # type: ignore[attr-defined]
            raise VerifyException(
                f"expected '{kind}<{dims}x{elem}>' for the packed domain value, got '{packed}'"
            )

    @staticmethod
    def infer_packed_shape(
        shape: Sequence[int],
        tiles: Sequence[int],
        inner: Sequence[int],
        outer: Sequence[int],
    ) -> list[int]:
        """Upstream's ``inferPackedType``: each tiled dimension divided (rounding
        up) by its tile, outer dimensions permuted, then the tiles."""
        outer_shape = list(shape)
        for pos, t in zip(inner, tiles):
            if outer_shape[pos] == DYNAMIC_INDEX or t == _DYNAMIC:
                outer_shape[pos] = DYNAMIC_INDEX
            else:
                outer_shape[pos] = -(-outer_shape[pos] // t)
        if outer:
            outer_shape = [outer_shape[p] for p in outer]
        return outer_shape + [DYNAMIC_INDEX if t == _DYNAMIC else t for t in tiles]


@irdl_op_definition
class PackOp(_RelayoutOp):
    name = "linalg.pack"
    HAS_PADDING: ClassVar[bool] = True
    RESULT_NAME: ClassVar[str] = "pack"

    source = operand_def(ShapedType)
    dest = operand_def(ShapedType)
    padding_value = opt_operand_def()
    inner_tiles = var_operand_def(IndexType)
    result = var_result_def(ShapedType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def _packed_and_unpacked(self) -> tuple[Attribute, Attribute]:
        return self.dest.type, self.source.type


@irdl_op_definition
class UnPackOp(_RelayoutOp):
    name = "linalg.unpack"
    HAS_PADDING: ClassVar[bool] = False
    RESULT_NAME: ClassVar[str] = "unpack"

    source = operand_def(ShapedType)
    dest = operand_def(ShapedType)
    inner_tiles = var_operand_def(IndexType)
    result = var_result_def(ShapedType)

    def _packed_and_unpacked(self) -> tuple[Attribute, Attribute]:
        return self.source.type, self.dest.type


@irdl_op_definition
class SoftmaxOp(IRDLOperation):
    """``softmax(x)`` along ``dimension``; lowered by decomposition, so no body."""

    name = "linalg.softmax"

    input = operand_def(ShapedType)
    output = operand_def(ShapedType)
    result = var_result_def(TensorType)
    dimension = prop_def(IntegerAttr[i64] | IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> SoftmaxOp:
        attrs = parser.parse_optional_attr_dict()
        parser.parse_keyword("dimension")
        parser.parse_punctuation("(")
        dimension = parser.parse_integer()
        parser.parse_punctuation(")")
        inputs, outputs = parse_ins_outs(parser)
        if len(inputs) != 1 or len(outputs) != 1:
            parser.raise_error("'linalg.softmax' expects one input and one output")
        results = parse_optional_arrow_type_list(parser) or []
        return cls.build(
            operands=[inputs[0], outputs[0]],
            result_types=[results],
            properties={"dimension": IntegerAttr(dimension, i64)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" dimension({self.dimension.value.data})")
        print_ins_outs(printer, [self.input], [self.output])
        print_optional_arrow_type_list(printer, self.result.types)

    def verify_(self) -> None:
        verify_destination_style(self, [self.output])
        in_shape, out_shape = _shape(self.input.type), _shape(self.output.type)
        compatible = len(in_shape) == len(out_shape) and all(
            a == b or DYNAMIC_INDEX in (a, b) for a, b in zip(in_shape, out_shape)
        )
        if not compatible:
            raise VerifyException("incompatible output shape")
        d = self.dimension.value.data
        if d < 0 or d >= len(in_shape):
            raise VerifyException("incorrect dimension specified")
