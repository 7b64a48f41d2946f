"""The tiling ops of the ``transform`` dialect: ``structured.fuse`` (missing
from xDSL), ``structured.tile_using_forall`` (xDSL's has neither upstream's
operands nor its syntax) and ``structured.tile_using_for`` (xDSL's, with
upstream's verifier wording)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeVar

from xdsl.dialects import transform as xtransform
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, FunctionType, UnitAttr, i1, i32, i64
from xdsl.dialects.transform import AnyOpType, TransformHandleType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.utils.ods import DeclarativeSyntax

__all__ = ["FuseOp", "TileUsingForOp", "TileUsingForallOp", "static_values"]

_OpT = TypeVar("_OpT", bound=IRDLOperation)


def static_values(attr: DenseArrayBase | None) -> tuple[int, ...]:
    """The integers of an optional dense i64 array property; () when absent."""
    return tuple(attr.get_values()) if attr is not None else ()  # pyright: ignore


def _parse_target_and_lists(
    parser: Parser, lists: Sequence[tuple[str, str]]
) -> tuple[UnresolvedOperand, dict[str, Attribute]]:
    """``%target kw [1, 2] kw [..]``: the operand, then each optional keyword list."""
    target = parser.parse_unresolved_operand()
    props: dict[str, Attribute] = {}
    for keyword, prop in lists:
        if parser.parse_optional_keyword(keyword) is not None:
            values = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
            )
            props[prop] = DenseArrayBase.from_list(i64, values)
    return target, props


def _finish_parse(
    cls: type[_OpT], parser: Parser, target: UnresolvedOperand, props: dict[str, Attribute]
) -> _OpT:
    """``attr-dict : (operand types) -> (result types)`` and the op."""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    at = parser.pos
    function_type = parser.parse_function_type()
    if len(function_type.inputs.data) != 1:
        parser.raise_error("expected one operand type", at, parser.pos)
    operand = parser.resolve_operand(target, function_type.inputs.data[0])
    for name in ("apply_cleanup", "use_forall"):
        if name in attrs:
            props[name] = attrs.pop(name)
    segments = [1, 0, 0, 0, 0] if cls is TileUsingForallOp else [1, 0, 0, 0]
    return cls.create(
        operands=[operand],
        result_types=list(function_type.outputs.data),
        properties={**props, "operandSegmentSizes": DenseArrayBase.from_list(i32, segments)},
        attributes=attrs,
    )


def _print_target_and_lists(
    op: IRDLOperation, printer: Printer, lists: Sequence[tuple[str, str]]
) -> None:
    printer.print_string(" ")
    printer.print_operand(op.operands[0])
    for keyword, prop in lists:
        values = op.properties.get(prop)
        if isinstance(values, DenseArrayBase):
            printer.print_string(f" {keyword} [{', '.join(map(str, values.get_values()))}]")


def _print_rest(op: IRDLOperation, printer: Printer) -> None:
    units = {
        name: op.properties[name]
        for name in ("apply_cleanup", "use_forall")
        if name in op.properties
    }
    printer.print_op_attributes({**units, **op.attributes})
    printer.print_string(" : ")
    printer.print_attribute(
        FunctionType.from_lists([o.type for o in op.operands], [r.type for r in op.results])
    )


@irdl_op_definition
class TileUsingForallOp(IRDLOperation):
    """``transform.structured.tile_using_forall %t tile_sizes [..] (mapping = [..])``:
    tile the target into one ``scf.forall`` (upstream's ``TileUsingForallOp``)."""

    name = "transform.structured.tile_using_forall"

    target = operand_def(TransformHandleType)
    num_threads = var_operand_def(TransformHandleType)
    tile_sizes = var_operand_def(TransformHandleType)
    packed_num_threads = opt_operand_def(TransformHandleType)
    packed_tile_sizes = opt_operand_def(TransformHandleType)
    static_num_threads = opt_prop_def(DenseArrayBase.constr(i64))
    static_tile_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(ArrayAttr)

    tiled_op = result_def(TransformHandleType)
    forall_op = result_def(TransformHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    LISTS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("num_threads", "static_num_threads"),
        ("tile_sizes", "static_tile_sizes"),
    )

    @classmethod
    def parse(cls, parser: Parser) -> TileUsingForallOp:
        target, props = _parse_target_and_lists(parser, cls.LISTS)
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_keyword("mapping")
            parser.parse_punctuation("=")
            props["mapping"] = parser.parse_attribute()
            parser.parse_punctuation(")")
        return _finish_parse(cls, parser, target, props)

    def print(self, printer: Printer) -> None:
        _print_target_and_lists(self, printer, self.LISTS)
        if self.mapping is not None:
            printer.print_string("(mapping = ")
            printer.print_attribute(self.mapping)
            printer.print_string(")")
        _print_rest(self, printer)

    def __init__(
        self,
        target: SSAValue,
        *,
        tile_sizes: Sequence[int] | None = None,
        num_threads: Sequence[int] | None = None,
        mapping: ArrayAttr | None = None,
    ) -> None:
        props: dict[str, Attribute | None] = {
            "static_tile_sizes": None
            if tile_sizes is None
            else DenseArrayBase.from_list(i64, tile_sizes),
            "static_num_threads": None
            if num_threads is None
            else DenseArrayBase.from_list(i64, num_threads),
            "mapping": mapping,
        }
        super().__init__(
            operands=[target, [], [], None, None],
            properties=props,
            result_types=[AnyOpType(), AnyOpType()],
        )

    def verify_(self) -> None:
        if self.static_num_threads is None and self.static_tile_sizes is None:
            raise VerifyException("either (packed_)num_threads or (packed_)tile_sizes must be specified")
        if self.num_threads or self.tile_sizes or self.packed_num_threads or self.packed_tile_sizes:
            raise VerifyException("dynamic num_threads or tile_sizes are not supported yet")


@irdl_op_definition
class FuseOp(IRDLOperation):
    """``transform.structured.fuse %t tile_sizes [..] interchange [..]``: tile the
    target and fuse the producers of its operands into the tiles, greedily
    (upstream's ``FuseOp``)."""

    name = "transform.structured.fuse"

    target = operand_def(TransformHandleType)
    tile_sizes = var_operand_def(TransformHandleType)
    tile_interchange = var_operand_def(TransformHandleType)
    packed_tile_sizes = opt_operand_def(TransformHandleType)
    static_tile_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    static_tile_interchange = opt_prop_def(DenseArrayBase.constr(i64))
    apply_cleanup = opt_prop_def(UnitAttr)
    use_forall = opt_prop_def(UnitAttr)

    transformed = result_def(TransformHandleType)
    loops = var_result_def(TransformHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    LISTS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("tile_sizes", "static_tile_sizes"),
        ("interchange", "static_tile_interchange"),
    )

    @classmethod
    def parse(cls, parser: Parser) -> FuseOp:
        target, props = _parse_target_and_lists(parser, cls.LISTS)
        return _finish_parse(cls, parser, target, props)

    def print(self, printer: Printer) -> None:
        _print_target_and_lists(self, printer, self.LISTS)
        _print_rest(self, printer)

    def __init__(
        self,
        target: SSAValue,
        tile_sizes: Sequence[int],
        interchange: Sequence[int] = (),
    ) -> None:
        num_loops = sum(1 for size in tile_sizes if size != 0)
        super().__init__(
            operands=[target, [], [], None],
            properties={
                "static_tile_sizes": DenseArrayBase.from_list(i64, tile_sizes),
                "static_tile_interchange": DenseArrayBase.from_list(i64, interchange)
                if interchange
                else None,
            },
            result_types=[AnyOpType(), [AnyOpType()] * num_loops],
        )

    def verify_(self) -> None:
        sizes = static_values(self.static_tile_sizes)
        expected = 1 if self.use_forall is not None else sum(1 for s in sizes if s != 0)
        if len(self.loops) != expected:
            raise VerifyException(f"expects {expected} loop results")
        if self.tile_sizes or self.tile_interchange or self.packed_tile_sizes:
            raise VerifyException("dynamic tile sizes or interchange are not supported yet")
        seen: set[int] = set()
        for value in static_values(self.static_tile_interchange):
            if value in seen:
                raise VerifyException(f"found duplicate interchange value: {value}")
            seen.add(value)


@irdl_op_definition
class TileUsingForOp(DeclarativeSyntax, xtransform.TileOp):
    """xDSL's op with upstream's verifier wording."""

    name = "transform.structured.tile_using_for"

    target = operand_def(TransformHandleType)
    dynamic_sizes = var_operand_def(TransformHandleType)
    static_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    interchange = opt_prop_def(DenseArrayBase.constr(i64))
    scalable_sizes = opt_prop_def(DenseArrayBase.constr(i1))
    tiled_linalg_op = result_def(AnyOpType)
    loops = var_result_def(AnyOpType)
    assembly_format = xtransform.TileOp.assembly_format
    custom_directives = xtransform.TileOp.custom_directives

    def verify_(self) -> None:
        sizes = static_values(self.static_sizes)
        expected = sum(1 for size in sizes if size != 0)
        if len(self.loops) != expected:
            raise VerifyException(
                f"expected number of loops to tile ({expected}) to match number of "
                f"`loops` results ({len(self.loops)})"
            )
        super().verify_()
