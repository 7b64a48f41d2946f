"""The ``cf`` dialect: xDSL's, with upstream's branch weights on ``cf.cond_br``.

xDSL 0.75's ``cf.cond_br`` has no ``branch_weights`` property, so upstream's
``cf.cond_br %c weights([60, 40]), ^bb1, ^bb2`` does not parse. The op is
subclassed (passes match xDSL's class with isinstance) with the property, its
syntax and upstream's ``WeightedBranchOpInterface`` checks; every other op is
xDSL's. The weights directive and checks serve ``llvm.cond_br`` too.

xDSL prints the first case of ``cf.switch`` at the op's own indentation, the
others one level in; its cases directive is patched here to indent all of them
as upstream does (the op itself cannot be subclassed through mlkit's
declarative syntax, which lacks the ``ref(...)`` its format uses).
"""

from __future__ import annotations

from xdsl.dialects import cf as xcf
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, i32
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def
from xdsl.irdl import opt_prop_def, successor_def, var_operand_def
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, irdl_custom_directive
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.utils.dialects import op_lookup, with_replacements
from mlkit.dialects.utils.ods import DeclarativeSyntax


@irdl_custom_directive
class BranchWeights(CustomDirective):
    """`` weights([3, 5])`` when the branch has weights."""

    weights: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_keyword("weights") is not None:
            parser.parse_punctuation("(")
            values = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_integer
            )
            parser.parse_punctuation(")")
            self.weights.set(state, DenseArrayBase.from_list(i32, values))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        weights = self.weights.get(op)
        if isinstance(weights, DenseArrayBase):
            state.print_whitespace(printer)
            values = ", ".join(str(int(v)) for v in weights.iter_values())
            printer.print_string(f"weights([{values}])")


def verify_branch_weights(op: IRDLOperation, weights: DenseArrayBase | None) -> None:
    """Upstream's ``WeightedBranchOpInterface`` checks: one weight per
    successor, not all zero."""
    if weights is None:
        return
    values = list(weights.iter_values())
    if len(values) != len(op.successors):
        raise VerifyException(
            "expects number of branch weights to match number of successors: "
            f"{len(values)} vs {len(op.successors)}"
        )
    if not any(values):
        raise VerifyException("branch weights cannot all be zero")


@irdl_op_definition
class ConditionalBranchOp(DeclarativeSyntax, xcf.ConditionalBranchOp):
    """xDSL's op with upstream's optional ``branch_weights``."""

    name = "cf.cond_br"

    cond = operand_def(IntegerType(1))
    then_arguments = var_operand_def()
    else_arguments = var_operand_def()
    then_block = successor_def()
    else_block = successor_def()
    branch_weights = opt_prop_def(DenseArrayBase.constr(i32))
    traits = xcf.ConditionalBranchOp.traits
    custom_directives = (BranchWeights,)

    assembly_format = (
        "$cond custom<BranchWeights>($branch_weights) `,`"
        " $then_block (`(` $then_arguments^ `:` type($then_arguments) `)`)? `,`"
        " $else_block (`(` $else_arguments^ `:` type($else_arguments) `)`)? attr-dict"
    )

    def verify_(self) -> None:
        verify_branch_weights(self, self.branch_weights)


_print_switch_cases = xcf.SwitchOpCases.print


def _print_switch_cases_indented(
    self: xcf.SwitchOpCases, printer: Printer, state: PrintingState, op: IRDLOperation
) -> None:
    printer.print_string(" " * printer.indent_num_spaces)
    _print_switch_cases(self, printer, state, op)


xcf.SwitchOpCases.print = _print_switch_cases_indented


Cf = with_replacements(xcf.Cf, {xcf.ConditionalBranchOp: ConditionalBranchOp}, [])

__getattr__ = op_lookup(__name__, lambda: Cf)
