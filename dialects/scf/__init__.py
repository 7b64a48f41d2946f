"""The ``scf`` dialect with upstream's syntax where xDSL's differs.

xDSL 0.75's ``scf`` disagrees with upstream MLIR:
- ``scf.if %c -> index`` and ``scf.for ... -> tensor<?xf32>`` (one result type
  without parentheses) are rejected;
- ``scf.for unsigned`` (upstream's ``unsignedCmp`` property) is missing;
- ``scf.execute_region`` prints ``-> (i32)`` where upstream prints ``-> i32`` and
  lacks the ``no_inline`` property;
- ``scf.parallel`` has no custom syntax at all.
These ops are subclassed here (passes match xDSL's classes with isinstance);
every other op is xDSL's.
"""

from __future__ import annotations

from typing import ClassVar

from mlkit.dialects.scf.canonicalization import add_scf_canonicalizations
from mlkit.dialects.scf.common import block_arg_types, check_edge, check_loop_carried
from mlkit.dialects.scf.common import check_yields_to_parent
from mlkit.dialects.scf.common import ParentOneOf, check_parent_first, expect_terminator
from mlkit.dialects.scf.common import op_name_offset
from mlkit.dialects.scf.common import parent_name, set_traits, terminators, xdsl_own_verify
from mlkit.dialects.scf.forall import ForallOp, InParallelOp
from mlkit.dialects.utils.dialects import op_lookup, with_replacements
from mlkit.dialects.utils.ods import DeclarativeSyntax, upstream_op, verify_that
from mlkit.dialects.utils.regions import ensure_implicit_terminator, ensure_implicit_terminators
from mlkit.dialects.utils.regions import print_then_else
from mlkit.dialects.utils.type_lists import parse_optional_arrow_type_list
from mlkit.diagnostics.verifier import ErrorAt
from mlkit.dialects.utils.type_lists import print_arrow_paren_type_list
from mlkit.dialects.utils.type_lists import print_optional_arrow_type_list
from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import DenseArrayBase, IndexType, IndexTypeConstr, IntegerAttr
from xdsl.dialects.builtin import SignlessIntegerConstraint, UnitAttr, i1, i64
from xdsl.dialects.utils import parse_assignment, print_assignment
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, prop_def, region_def
from xdsl.irdl import var_operand_def, var_region_def, var_result_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, HasParent, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException


_PARALLEL_VERIFY = xdsl_own_verify(xscf.ParallelOp)
_SIGNLESS_OR_INDEX = SignlessIntegerConstraint | IndexTypeConstr  # AnySignlessIntegerOrIndex


@upstream_op
class IfOp(xscf.IfOp):
    """xDSL's op; parsing also takes one result type without parentheses."""

    name = "scf.if"
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"cond": "1-bit signless integer"}

    output = var_result_def()
    cond = operand_def(i1)
    true_region = region_def("single_block")
    false_region = region_def()
    traits = xscf.IfOp.traits

    def verify_(self) -> None:
        for i, region in enumerate(self.regions):  # upstream's NoRegionArguments
            if region.blocks and region.blocks[0].args:
                raise VerifyException(f"region #{i} should have no arguments")
        if self.output and not self.false_region.blocks:
            raise VerifyException("must have an else block if defining values")
        check_yields_to_parent(self, self.true_region)
        check_yields_to_parent(self, self.false_region)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.parse_operand(i1)
        return_types = parse_optional_arrow_type_list(parser) or []
        then_region = _region_with_yield(parser)
        else_region = (
            _region_with_yield(parser)
            if parser.parse_optional_keyword("else")
            else Region()
        )
        attrs = parser.parse_optional_attr_dict()
        return cls(cond, return_types, then_region, else_region, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        if self.output:  # upstream always parenthesizes scf.if's result types
            print_arrow_paren_type_list(printer, self.output.types)
        print_then_else(printer, self.true_region, self.false_region, bool(self.output))
        printer.print_op_attributes(self.attributes)


def _region_with_yield(parser: Parser) -> Region:
    """A region with upstream's implicit ``scf.yield``."""
    region = parser.parse_region()
    ensure_implicit_terminator(region, xscf.YieldOp)
    return region


@upstream_op
class ForOp(xscf.ForOp):
    """xDSL's op with upstream's ``unsigned`` keyword (``unsignedCmp``) and one
    result type accepted without parentheses."""

    name = "scf.for"

    T: ClassVar = xscf.ForOp.T
    lb = operand_def(T)
    ub = operand_def(T)
    step = operand_def(T)
    iter_args = var_operand_def()
    unsignedCmp = opt_prop_def(UnitAttr)
    res = var_result_def()
    body = region_def("single_block")
    traits = xscf.ForOp.traits

    def verify_relations_(self) -> None:
        for index, bound in enumerate((self.lb, self.ub, self.step)):
            if not _SIGNLESS_OR_INDEX.verifies(bound.type):
                raise VerifyException(
                    f"operand #{index} must be signless integer or index, but got "
                    f"'{bound.type}'"
                )
        verify_that(
            self.lb.type == self.ub.type == self.step.type,
            "all of {lowerBound, upperBound, step} have same type",
        )

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None or not block.args:
            raise VerifyException("expected body first argument to be the induction variable")
        if block.args[0].type != self.lb.type:
            raise VerifyException("expected induction variable to be same type as bounds and step")
        check_loop_carried(self, self.iter_args, self.res, block_arg_types(self.body, skip=1))

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        name_pos = op_name_offset(parser, cls.name)
        unsigned = parser.parse_optional_keyword("unsigned") is not None
        unresolved_indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        ub = parser.parse_unresolved_operand()
        parser.parse_keyword("step")
        step = parser.parse_unresolved_operand()
        pos = parser.pos
        unresolved_iter_args: list[Parser.UnresolvedArgument] = []
        iter_operands: list[UnresolvedOperand] = []
        iter_types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args"):
            for iter_arg, operand in parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            ):
                unresolved_iter_args.append(iter_arg)
                iter_operands.append(operand)
            iter_types = parse_optional_arrow_type_list(parser) or []
            if len(iter_types) != len(iter_operands):
                parser.raise_error(
                    "mismatch in number of loop-carried values and defined values",
                    name_pos,
                    name_pos + len(cls.name),
                )
        iter_values = parser.resolve_operands(iter_operands, iter_types, pos)
        iter_args = [arg.resolve(t) for arg, t in zip(unresolved_iter_args, iter_types)]
        indvar_type = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
        indvar = unresolved_indvar.resolve(indvar_type)
        body = parser.parse_region((indvar, *iter_args))
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            parser.resolve_operand(lb, indvar_type),
            parser.resolve_operand(ub, indvar_type),
            parser.resolve_operand(step, indvar_type),
            iter_values,
            body,
        )
        if unsigned:
            op.properties["unsignedCmp"] = UnitAttr()
        op.attributes |= attrs
        if not iter_args:
            ensure_implicit_terminators(op)
        return op

    def print(self, printer: Printer) -> None:
        indvar, *iter_args = self.body.block.args
        if self.unsignedCmp is not None:
            printer.print_string(" unsigned")
        printer.print_string(" ")
        printer.print_operand(indvar)
        printer.print_string(" = ")
        printer.print_operand(self.lb)
        printer.print_string(" to ")
        printer.print_operand(self.ub)
        printer.print_string(" step ")
        printer.print_operand(self.step)
        if iter_args:
            printer.print_string(" iter_args(")
            printer.print_list(
                zip(iter_args, self.iter_args), lambda pair: print_assignment(printer, *pair)
            )
            printer.print_string(")")
            print_arrow_paren_type_list(printer, self.res.types)
        if not isinstance(indvar.type, IndexType):
            printer.print_string(" : ")
            printer.print_attribute(indvar.type)
        printer.print_string(" ")
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_empty_block=False,
            print_block_terminators=bool(self.iter_args),
        )
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ExecuteRegionOp(xscf.ExecuteRegionOp):
    """xDSL's op with upstream's ``-> i32`` result syntax and ``no_inline``."""

    name = "scf.execute_region"

    outs = var_result_def()
    region = region_def()
    no_inline = opt_prop_def(UnitAttr)
    traits = xscf.ExecuteRegionOp.traits

    def verify_(self) -> None:
        if self.region.first_block is None:
            raise VerifyException("region needs to have at least one block")
        if self.region.first_block.args:
            raise VerifyException("region cannot have any arguments")
        check_yields_to_parent(self, self.region)

    @classmethod
    def parse(cls, parser: Parser) -> ExecuteRegionOp:
        result_types = parse_optional_arrow_type_list(parser) or []
        no_inline = parser.parse_optional_keyword("no_inline") is not None
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        op = cls(result_types, region)
        if no_inline:
            op.properties["no_inline"] = UnitAttr()
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_optional_arrow_type_list(printer, self.outs.types)
        if self.no_inline is not None:
            printer.print_string(" no_inline")
        printer.print_string(" ")
        printer.print_region(self.region, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ParallelOp(xscf.ParallelOp):
    """xDSL's op with upstream's custom syntax
    ``scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 {...}``."""

    name = "scf.parallel"

    lowerBound = var_operand_def(IndexType)
    upperBound = var_operand_def(IndexType)
    step = var_operand_def(IndexType)
    initVals = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")
    traits = xscf.ParallelOp.traits

    def verify_(self) -> None:
        steps = len(self.step)
        if not steps:
            raise VerifyException(
                "needs at least one tuple element for lowerBound, upperBound and step"
            )
        for step in self.step:
            value = getattr(step.owner, "value", None)
            if (
                isinstance(step.owner, Operation)
                and step.owner.has_trait(ConstantLike)
                and isinstance(value, IntegerAttr)
                and value.value.data <= 0
            ):
                raise VerifyException("constant step operand must be positive")
        args = self.body.block.args
        if len(args) != steps:
            raise VerifyException(
                f"expects the same number of induction variables: {len(args)} as bound and "
                f"step values: {steps}"
            )
        if not all(isinstance(a.type, IndexType) for a in args):
            raise VerifyException(
                "expects arguments for the induction variable to be of index type"
            )
        reduce_op = expect_terminator(
            self, self.body, xscf.ReduceOp, "expects body to terminate with 'scf.reduce'"
        )
        assert isinstance(reduce_op, xscf.ReduceOp)
        if len(self.res) != len(reduce_op.args):
            raise VerifyException(
                f"expects number of results: {len(self.res)} to be the same as number of "
                f"reductions: {len(reduce_op.args)}"
            )
        for i, (res, operand) in enumerate(zip(self.res, reduce_op.args)):
            if res.type != operand.type:
                raise ErrorAt(
                    reduce_op,
                    f"expects type of {i}-th reduction operand: '{operand.type}' to be the "
                    f"same as the {i}-th result type: '{res.type}'",
                )
        _PARALLEL_VERIFY(self)  # xDSL's remaining checks (bound counts, init types)

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")

        def operands(count_pos: int) -> list[SSAValue]:
            values = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
            if len(values) != len(ivs):
                parser.raise_error(
                    f"expected {len(ivs)} operands", count_pos, parser.pos
                )
            return [parser.resolve_operand(v, IndexType()) for v in values]

        lbs = operands(parser.pos)
        parser.parse_keyword("to")
        ubs = operands(parser.pos)
        parser.parse_keyword("step")
        steps = operands(parser.pos)
        init_pos = parser.pos
        inits: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("init") is not None:
            inits = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        result_types = parse_optional_arrow_type_list(parser) or []
        init_values = parser.resolve_operands(inits, result_types, init_pos)
        body = parser.parse_region([iv.resolve(IndexType()) for iv in ivs])
        attrs = parser.parse_optional_attr_dict()
        op = cls(lbs, ubs, steps, body, init_values)
        op.attributes |= attrs
        ensure_implicit_terminators(op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(self.body.block.args, printer.print_operand)
        for keyword, values in (
            (" = ", self.lowerBound),
            (" to ", self.upperBound),
            (" step ", self.step),
        ):
            printer.print_string(keyword)
            with printer.in_parens():
                printer.print_list(values, printer.print_operand)
        if self.initVals:
            printer.print_string(" init ")
            with printer.in_parens():
                printer.print_list(self.initVals, printer.print_operand)
        print_optional_arrow_type_list(printer, self.res.types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class IndexSwitchOp(xscf.IndexSwitchOp):
    """xDSL's op; like upstream, parsing gives an empty region (``default {}``)
    its implicit ``scf.yield``, which xDSL leaves out and then fails to verify."""

    name = "scf.index_switch"

    arg = operand_def(IndexType)
    cases = prop_def(DenseArrayBase.constr(i64))
    output = var_result_def()
    default_region = region_def("single_block")
    case_regions = var_region_def("single_block")
    traits = xscf.IndexSwitchOp.traits

    def verify_(self) -> None:
        values = list(self.cases.iter_values())
        if len(values) != len(self.case_regions):
            raise VerifyException(
                f"has {len(self.case_regions)} case regions but {len(values)} case values"
            )
        seen: set[int] = set()
        for value in values:
            if value in seen:
                raise VerifyException(f"has duplicate case value: {value}")
            seen.add(value)
        for name, region in (
            ("default region", self.default_region),
            *((f"case region #{i}", r) for i, r in enumerate(self.case_regions)),
        ):
            yield_op = region.block.last_op if region.blocks else None
            if not isinstance(yield_op, xscf.YieldOp):
                found = yield_op.name if yield_op is not None else "nothing"
                raise VerifyException(
                    f"expected region to end with scf.yield, but got {found}"
                )
            if len(yield_op.operands) != len(self.output):
                raise ErrorAt(
                    None,
                    f"expected each region to return {len(self.output)} values, but {name} "
                    f"returns {len(yield_op.operands)}",
                    [(yield_op, "see yield operation here")],
                )
            for i, (value, res) in enumerate(zip(yield_op.operands, self.output)):
                if value.type != res.type:
                    raise ErrorAt(
                        None,
                        f"expected result #{i} of each region to be '{res.type}'",
                        [(yield_op, f"{name} returns '{value.type}' here")],
                    )

    @classmethod
    def parse(cls, parser: Parser) -> IndexSwitchOp:
        op = super().parse(parser)
        for region in op.regions:
            if not region.blocks:
                region.add_block(Block())
        ensure_implicit_terminators(op)
        return op


@irdl_op_definition
class ReduceOp(DeclarativeSyntax, xscf.ReduceOp):
    """xDSL's op with upstream's verifier wording."""

    name = "scf.reduce"

    args = var_operand_def()
    reductions = var_region_def("single_block")
    traits = xscf.ReduceOp.traits

    assembly_format = "(`(` $args^ `:` type($args) `)`)? $reductions attr-dict"

    def verify_(self) -> None:
        if len(self.args) != len(self.reductions):
            raise VerifyException(
                f"expects number of reduction regions: {len(self.reductions)} to be the same "
                f"as number of reduction operands: {len(self.args)}"
            )
        for i, (region, operand) in enumerate(zip(self.reductions, self.args)):
            types = [a.type for a in region.block.args]
            if types != [operand.type, operand.type]:
                raise VerifyException(
                    f"expected two block arguments with type '{operand.type}' in the "
                    f"{i}-th reduction region"
                )
            last = region.block.last_op
            if last is not None and not isinstance(last, xscf.ReduceReturnOp):
                # (an empty body is the block verifier's to report, as upstream's is)
                raise VerifyException(
                    "reduction bodies must be terminated with an 'scf.reduce.return' op"
                )


# no implicit terminator (upstream's bodies end in an explicit
# scf.reduce.return), and the parent checked first, as upstream's order has it
set_traits(ReduceOp, (HasParent(xscf.ParallelOp), RecursiveMemoryEffect(), IsTerminator()))
check_parent_first(ReduceOp)


@irdl_op_definition
class ReduceReturnOp(DeclarativeSyntax, xscf.ReduceReturnOp):
    """xDSL's op with upstream's check of the returned type."""

    name = "scf.reduce.return"

    result = operand_def()
    traits = xscf.ReduceReturnOp.traits

    assembly_format = "$result attr-dict `:` type($result)"

    def verify_(self) -> None:
        block = self.parent_block()
        if block is None or not block.args:
            return
        expected = block.args[0].type
        if self.result.type != expected:
            raise VerifyException(
                f"must have type '{expected}' (the type of the reduction inputs)"
            )


check_parent_first(ReduceReturnOp)


@irdl_op_definition
class YieldOp(DeclarativeSyntax, xscf.YieldOp):
    """xDSL's op; its parent check in upstream's words (``ParentOneOf``)."""

    name = "scf.yield"

    arguments = var_operand_def()
    traits = xscf.YieldOp.traits

    assembly_format = "attr-dict ($arguments^ `:` type($arguments))?"


set_traits(
    YieldOp,
    (
        Pure(),
        IsTerminator(),
        ParentOneOf(
            xscf.ExecuteRegionOp, xscf.ForOp, xscf.IfOp, xscf.IndexSwitchOp, xscf.WhileOp
        ),
    ),
)


@irdl_op_definition
class WhileOp(xscf.WhileOp):
    """xDSL's op with upstream's syntax (the ``(%a = %init)`` list is optional:
    ``scf.while : () -> () {...} do {...}``), verified in upstream's order and
    words (xDSL raises a plain ``Exception`` for a bad block argument)."""

    name = "scf.while"

    arguments = var_operand_def()
    res = var_result_def()
    before_region = region_def()  # SizedRegion<1>, checked below in upstream's words
    after_region = region_def()
    traits = xscf.WhileOp.traits

    def verify_(self) -> None:
        for index, (kind, region) in enumerate(
            (("before", self.before_region), ("after", self.after_region))
        ):
            if len(region.blocks) != 1:
                raise VerifyException(
                    f"region #{index} ('{kind}') failed to verify constraint: region with 1 blocks"
                )
        for region in self.regions:  # upstream's SingleBlock trait
            if region.blocks and region.block.first_op is None:
                raise VerifyException("expects a non-empty block")
        condition = expect_terminator(
            self, self.before_region, xscf.ConditionOp,
            "expects the 'before' region to terminate with 'scf.condition'",
        )
        expect_terminator(
            self, self.after_region, xscf.YieldOp,
            "expects the 'after' region to terminate with 'scf.yield'",
        )
        # then RegionBranchOpInterface's edges
        before = block_arg_types(self.before_region)
        after = block_arg_types(self.after_region)
        check_edge("parent", "Region #0", [v.type for v in self.arguments], before)
        assert isinstance(condition, xscf.ConditionOp)
        passed = [v.type for v in condition.args]
        check_edge("Operation scf.condition", parent_name(self), passed, [r.type for r in self.res])
        check_edge("Operation scf.condition", "Region #1", passed, after)
        for yield_op in terminators(self.after_region, "scf.yield"):
            check_edge("Operation scf.yield", "Region #0", [v.type for v in yield_op.operands], before)

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        assignments: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        if parser.parse_optional_punctuation("(") is not None:
            if parser.parse_optional_punctuation(")") is None:
                assignments = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, lambda: parse_assignment(parser)
                )
                parser.parse_punctuation(")")
        type_pos = parser.pos
        parser.parse_punctuation(":")
        function_type = parser.parse_function_type()
        inputs = function_type.inputs.data
        if len(inputs) != len(assignments):
            parser.raise_error(
                f"expected as many input types as operands (expected {len(assignments)} "
                f"got {len(inputs)})",
                type_pos,
                parser.pos,
            )
        operands = parser.resolve_operands([o for _, o in assignments], inputs, parser.pos)
        args = [a.resolve(t) for (a, _), t in zip(assignments, inputs)]
        before = parser.parse_region(args or None)  # ``{}`` without arguments has no block
        parser.parse_keyword("do")
        after = parser.parse_region()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(operands, function_type.outputs.data, before, after)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        if self.arguments:
            printer.print_string(" (")
            printer.print_list(
                zip(self.before_region.block.args, self.arguments),
                lambda pair: print_assignment(printer, *pair),
            )
            printer.print_string(")")
        printer.print_string(" : ")
        printer.print_operation_type(self)
        printer.print_string(" ")
        printer.print_region(self.before_region, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.after_region)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)


_REPLACED: dict[type, type] = {
    xscf.IfOp: IfOp,
    xscf.ForOp: ForOp,
    xscf.ExecuteRegionOp: ExecuteRegionOp,
    xscf.ParallelOp: ParallelOp,
    xscf.IndexSwitchOp: IndexSwitchOp,
    xscf.ReduceOp: ReduceOp,
    xscf.WhileOp: WhileOp,
    xscf.ReduceReturnOp: ReduceReturnOp,
    xscf.YieldOp: YieldOp,
}

add_scf_canonicalizations(_REPLACED)
Scf = with_replacements(xscf.Scf, _REPLACED, [ForallOp, InParallelOp])

__getattr__ = op_lookup(__name__, lambda: Scf)
