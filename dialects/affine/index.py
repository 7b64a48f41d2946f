"""affine.delinearize_index and affine.linearize_index (missing from xDSL).

Both take a mixed static/dynamic basis written ``(%b, 16)`` as upstream's
``custom<DynamicIndexList>`` with parentheses; ``static_basis`` holds
``ShapedType::kDynamic`` where an SSA value stands.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, BoolAttr, DenseArrayBase, IndexType, IntegerAttr
from xdsl.dialects.builtin import IntegerType, UnitAttr, i64
from xdsl.dialects.utils.dynamic_index_list import print_dynamic_index_list
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def
from xdsl.irdl import opt_prop_def, prop_def, result_def, traits_def, var_operand_def
from xdsl.irdl import var_result_def
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, VariadicOperandVariable
from xdsl.irdl.declarative_assembly_format import irdl_custom_directive
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.utils.dynamic_sizes import count_dynamic, parse_index_list


@irdl_custom_directive
class ParenDynamicIndexList(CustomDirective):
    """Upstream's ``custom<DynamicIndexList>(..., Paren)``: ``(%a, 4, %b)``;
    xDSL's directive only knows square brackets."""

    dynamic_position: VariadicOperandVariable
    static_position: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        dynamic, static = parse_index_list(parser, Parser.Delimiter.PAREN)
        self.dynamic_position.set(state, dynamic)
        self.static_position.set(state, DenseArrayBase.from_list(i64, static))
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        static = self.static_position.get(op)
        assert isinstance(static, DenseArrayBase)
        print_dynamic_index_list(
            printer,
            DYNAMIC_INDEX,
            self.dynamic_position.get(op),
            static.get_values(),  # pyright: ignore[reportUnknownArgumentType]
            delimiter=Parser.Delimiter.PAREN,
        )


def _verify_basis(
    static: Sequence[int],
    dynamic: Sequence[SSAValue],
    indices: Sequence[SSAValue],
    count_error: str,
) -> None:
    """The checks both ops make of their basis: one index per basis element
    and possibly one more (else ``count_error``), one value per dynamic entry."""
    if len(indices) not in (len(static), len(static) + 1):
        raise VerifyException(count_error)
    if count_dynamic(static) != len(dynamic):
        raise VerifyException(
            "mismatch between dynamic and static basis (kDynamic marker but no "
            "corresponding dynamic basis entry) -- this can only happen due to an "
            "incorrect fold/rewrite"
        )


@irdl_op_definition
class DelinearizeIndexOp(IRDLOperation):
    """``affine.delinearize_index %i into (%b, 16) : index, index``."""

    name = "affine.delinearize_index"
    linear_index = operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    static_basis = prop_def(DenseArrayBase.constr(i64))
    multi_index = var_result_def(IndexType)
    traits = traits_def(Pure())
    custom_directives = (ParenDynamicIndexList,)
    assembly_format = (
        "$linear_index `into` custom<ParenDynamicIndexList>($dynamic_basis, $static_basis) "
        "attr-dict `:` type($multi_index)"
    )

    def verify_(self) -> None:
        static = self.static_basis.get_values()
        _verify_basis(
            static,
            self.dynamic_basis,
            self.multi_index,
            "should return an index for each basis element and up to one extra index",
        )
        if any(v <= 0 and v != DYNAMIC_INDEX for v in static):
            raise VerifyException("no basis element may be statically non-positive")


@irdl_op_definition
class LinearizeIndexOp(IRDLOperation):
    """``affine.linearize_index disjoint [%a, %b] by (%n, 4) : index``.

    ``disjoint`` is an upstream ``UnitProp``: the generic form writes it as a
    unit entry when set and may spell the unset case ``disjoint = false``.
    """

    name = "affine.linearize_index"
    multi_index = var_operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    static_basis = prop_def(DenseArrayBase.constr(i64))
    disjoint = opt_prop_def(UnitAttr | BoolAttr)
    linear_index = result_def(IndexType)
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @property
    def is_disjoint(self) -> bool:
        flag = self.disjoint
        return isinstance(flag, UnitAttr) or (isinstance(flag, IntegerAttr) and bool(flag.value.data))

    @classmethod
    def parse(cls, parser: Parser) -> LinearizeIndexOp:
        disjoint = parser.parse_optional_keyword("disjoint") is not None
        index = IndexType()
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_operand(index)
        )
        parser.parse_keyword("by")
        dynamic, static = parse_index_list(parser, Parser.Delimiter.PAREN)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        props: dict[str, Attribute] = {"static_basis": DenseArrayBase.from_list(i64, static)}
        if disjoint:
            props["disjoint"] = UnitAttr()
        return cls.create(
            operands=[*operands, *(parser.resolve_operand(d, index) for d in dynamic)],
            result_types=[result_type],
            properties=props
            | {"operandSegmentSizes": DenseArrayBase.from_list(IntegerType(32), [len(operands), len(dynamic)])},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        if self.is_disjoint:
            printer.print_string(" disjoint")
        printer.print_string(" [")
        printer.print_list(self.multi_index, printer.print_ssa_value)
        printer.print_string("] by ")
        print_dynamic_index_list(
            printer,
            DYNAMIC_INDEX,
            self.dynamic_basis,
            self.static_basis.get_values(),  # pyright: ignore[reportUnknownArgumentType]
            delimiter=Parser.Delimiter.PAREN,
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.linear_index.type)

    def verify_(self) -> None:
        _verify_basis(
            self.static_basis.get_values(),
            self.dynamic_basis,
            self.multi_index,
            "should be passed a basis element for each index except possibly the first",
        )
