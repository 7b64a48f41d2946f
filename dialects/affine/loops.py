"""affine.for and affine.if with upstream's syntax and verifiers.

They subclass xDSL's ops (same property names as upstream) but replace their
syntax and checks: xDSL cannot read ``affine.if`` in custom form at all, has
no implicit ``affine.yield`` terminator trait and none of upstream's
dimension/symbol checks.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType, IntegerAttr
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, prop_def, region_def, traits_def, var_operand_def
from xdsl.irdl import var_result_def
from xdsl.dialects.utils import parse_assignment, print_assignment
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect, RecursivelySpeculatable
from xdsl.traits import SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Span

from mlkit.dialects.affine.ops import YieldOp
from mlkit.dialects.affine.scope import verify_dims_and_symbols
from mlkit.dialects.affine.syntax import parse_operands_of, parse_set_attr
from mlkit.dialects.affine.syntax import print_dim_and_symbol_list, print_map_attr, print_set_attr
from mlkit.syntax.parse_errors import CoreParseError
from mlkit.dialects.utils.regions import ensure_implicit_terminator, print_then_else
from mlkit.dialects.utils.type_lists import parse_arrow_type_list, parse_optional_arrow_type_list
from mlkit.dialects.utils.type_lists import print_arrow_paren_type_list
from mlkit.dialects.utils.type_lists import print_optional_arrow_type_list


def ensure_yield(region: Region) -> None:
    """An omitted ``affine.yield`` is implicit."""
    ensure_implicit_terminator(region, YieldOp.create)


# ---------------------------------------------------------------------------
# affine.for
# ---------------------------------------------------------------------------


def _parse_bound(parser: Parser, lower: bool) -> tuple[AffineMapAttr, list[SSAValue]]:
    """Upstream's ``parseBound``: ``%ssa``, an integer, or ``max``/``min`` map(dims)[syms]."""
    keyword = "max" if lower else "min"
    used_prefix = parser.parse_optional_keyword(keyword) is not None
    if (operand := parser.parse_optional_operand(IndexType())) is not None:
        return AffineMapAttr(AffineMap(0, 1, (AffineExpr.symbol(0),))), [operand]
    pos = parser.pos
    if (value := parser.parse_optional_integer(allow_boolean=False)) is not None:
        if not -(1 << 63) <= value < 1 << 63:  # upstream reads it as an index attribute
            raise CoreParseError(
                Span(pos, pos + 1, parser.lexer.input), "integer constant out of range for attribute"
            )
        return AffineMapAttr(AffineMap.constant_map(value)), []
    attr = parser.parse_attribute()
    if not isinstance(attr, AffineMapAttr):
        parser.raise_error("expected valid affine map representation for loop bounds", pos)
    m = attr.data
    operands = parse_operands_of(parser, "affine map", m.num_dims, m.num_symbols, pos)
    if len(m.results) > 1 and not used_prefix:
        bound = "lower" if lower else "upper"
        parser.raise_error(
            f"{bound} loop bound affine map with multiple results requires '{keyword}' prefix",
            pos,
        )
    return attr, operands


def _print_bound(printer: Printer, attr: AffineMapAttr, operands: Sequence[SSAValue], prefix: str) -> None:
    """Upstream's ``printBound``: constants and single symbols in short form."""
    m = attr.data
    if len(m.results) == 1:
        expr = m.results[0]
        if m.num_dims == 0 and m.num_symbols == 0 and isinstance(expr, AffineConstantExpr):
            printer.print_string(str(expr.value))
            return
        if m.num_dims == 0 and m.num_symbols == 1 and len(operands) == 1 and expr == AffineExpr.symbol(0):
            printer.print_ssa_value(operands[0])
            return
    else:
        printer.print_string(f"{prefix} ")
    print_map_attr(printer, attr)
    print_dim_and_symbol_list(printer, operands, m.num_dims)


def _parse_step(parser: Parser) -> int:
    """The step, which upstream reads as an attribute (of index type)."""
    negative = parser.parse_optional_punctuation("-") is not None
    step = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
    if step is None:
        raise CoreParseError(
            parser._current_token.span,  # pyright: ignore[reportPrivateUsage]
            "expected constant integer or floating point value"
            if negative
            else "expected attribute value",
        )
    return -step if negative else step


@irdl_op_definition
class ForOp(xaffine.ForOp):
    """``affine.for %i = lb to ub step s iter_args(...) -> (...) { ... }``."""

    name = "affine.for"
    lowerBoundOperands = var_operand_def(IndexType)
    upperBoundOperands = var_operand_def(IndexType)
    inits = var_operand_def()
    res = var_result_def()
    lowerBoundMap = prop_def(AffineMapAttr)
    upperBoundMap = prop_def(AffineMapAttr)
    step = prop_def(IntegerAttr[IndexType])
    body = region_def()
    # operandSegmentSizes (a property, as upstream) comes with xDSL's definition.
    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        iv = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb_map, lb_operands = _parse_bound(parser, True)
        parser.parse_keyword("to", " between bounds")
        ub_map, ub_operands = _parse_bound(parser, False)
        step = 1
        if parser.parse_optional_keyword("step") is not None:
            pos = parser.pos
            step = _parse_step(parser)
            if step <= 0:
                parser.raise_error("expected step to be representable as a positive signed integer", pos)
        iter_args: list[Parser.Argument] = []
        inits: list[SSAValue] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:
            pos = parser.pos

            pairs = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            parser.parse_punctuation("->")
            types = parse_arrow_type_list(parser)
            if len(types) != len(pairs):
                parser.raise_error("mismatch between the number of loop-carried values and results", pos)
            inits = [parser.resolve_operand(v, t) for (_, v), t in zip(pairs, types)]
            iter_args = [a.resolve(t) for (a, _), t in zip(pairs, types)]
        body = parser.parse_region([iv.resolve(IndexType()), *iter_args])
        ensure_yield(body)
        attrs = parser.parse_optional_attr_dict()
        return cls.build(
            operands=[lb_operands, ub_operands, inits],
            result_types=[types],
            properties={
                "lowerBoundMap": lb_map,
                "upperBoundMap": ub_map,
                "step": IntegerAttr.from_index_int_value(step),
            },
            attributes=attrs,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_block_argument(self.body.block.args[0], print_type=False)
        printer.print_string(" = ")
        _print_bound(printer, self.lowerBoundMap, self.lowerBoundOperands, "max")
        printer.print_string(" to ")
        _print_bound(printer, self.upperBoundMap, self.upperBoundOperands, "min")
        if self.step.value.data != 1:
            printer.print_string(f" step {self.step.value.data}")
        if self.inits:
            printer.print_string(" iter_args(")
            pairs = zip(self.body.block.args[1:], self.inits)
            printer.print_list(pairs, lambda pair: print_assignment(printer, *pair))
            printer.print_string(")")
            print_arrow_paren_type_list(printer, self.result_types)
        printer.print_string(" ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_block_terminators=bool(self.inits)
        )
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if (step := self.step.value.data) <= 0:
            raise VerifyException(f"expected step to be a positive integer, got {step}")
        for bound, amap in (("lower", self.lowerBoundMap), ("upper", self.upperBoundMap)):
            if not amap.data.results:
                raise VerifyException(f"expected {bound} bound map to have at least one result")
        args = self.body.block.args if self.body.blocks else ()
        if not args or not isinstance(args[0].type, IndexType):
            raise VerifyException("expected body to have an index argument for the induction variable")
        iter_args = args[1:]
        if len(self.inits) != len(iter_args):
            raise VerifyException(
                f"different number of inits and region iter_args: {len(self.inits)} != {len(iter_args)}"
            )
        for i, (init, arg) in enumerate(zip(self.inits, iter_args)):
            if init.type != arg.type:
                raise VerifyException(
                    f"along control flow edge from parent to Region #0: successor operand type #{i} "
                    f"'{init.type}' should match successor input type #{i} '{arg.type}'"
                )
        last = self.body.block.last_op
        if isinstance(last, YieldOp) and len(last.arguments) != len(iter_args):
            raise VerifyException(
                "along control flow edge from Operation affine.yield to Region #0: region branch "
                f"point has {len(last.arguments)} operands, but region successor needs "
                f"{len(iter_args)} inputs"
            )
        for amap, operands in (
            (self.lowerBoundMap, self.lowerBoundOperands),
            (self.upperBoundMap, self.upperBoundOperands),
        ):
            verify_dims_and_symbols(self, operands, amap.data.num_dims)
        if self.res and len(self.inits) != len(self.res):
            raise VerifyException("mismatch between the number of loop-carried values and results")


# ---------------------------------------------------------------------------
# affine.if
# ---------------------------------------------------------------------------


@irdl_op_definition
class IfOp(xaffine.IfOp):
    """``affine.if #set(%d)[%s] -> types { ... } else { ... }``."""

    name = "affine.if"
    args = var_operand_def(IndexType)
    res = var_result_def()
    condition = prop_def(AffineSetAttr)
    then_region = region_def("single_block")
    else_region = region_def()
    traits = traits_def(
        SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect(), RecursivelySpeculatable()
    )

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        pos = parser.pos
        condition = parse_set_attr(parser)
        s = condition.data
        operands = parse_operands_of(parser, "integer set", s.num_dims, s.num_symbols, pos)
        types = parse_optional_arrow_type_list(parser) or []
        then_region = parser.parse_region()
        ensure_yield(then_region)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = parser.parse_region()
            ensure_yield(else_region)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=operands,
            result_types=types,
            properties={"condition": condition},
            attributes=attrs,
            regions=[then_region, else_region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_set_attr(printer, self.condition)
        print_dim_and_symbol_list(printer, self.args, self.condition.data.num_dims)
        print_optional_arrow_type_list(printer, self.result_types)
        print_then_else(printer, self.then_region, self.else_region, bool(self.res))
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        for i, region in enumerate(self.regions):
            if region.blocks and region.block.args:
                raise VerifyException(f"region #{i} should have no arguments")
        s = self.condition.data
        if len(self.args) != s.num_dims + s.num_symbols:
            raise VerifyException(
                "operand count and condition integer set dimension and symbol count must match"
            )
        verify_dims_and_symbols(self, self.args, s.num_dims)
