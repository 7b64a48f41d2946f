"""LLVM calls, returns and branches.

Replaces xDSL's versions: xDSL's ``llvm.call`` has no indirect or ``vararg``
form and no operand bundles, and it has no ``llvm.switch``; the properties
(``operandSegmentSizes``, ``CConv``, ``TailCallKind``, ``op_bundle_sizes``)
follow upstream, defaults included.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, FunctionType
from xdsl.dialects.builtin import IntegerType, StringAttr, SymbolRefAttr, VectorType, i32
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.irdl import AnyAttr, AttrSizedOperandSegments, IRDLOperation
from xdsl.irdl import irdl_op_definition, operand_def, opt_operand_def, opt_prop_def, prop_def
from xdsl.irdl import successor_def, traits_def, var_operand_def, var_result_def, var_successor_def
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, irdl_custom_directive
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.cf import BranchWeights, verify_branch_weights
from mlkit.dialects.llvm.attrs import CALLING_CONVENTIONS, NO_FASTMATH, TAIL_CALL_KINDS, CConvAttr
from mlkit.dialects.llvm.attrs import FastMathAttr, TailCallKindAttr
from mlkit.dialects.llvm.call_checks import verify_call
from mlkit.dialects.llvm.interfaces import LLVMOp, PureOp
from mlkit.dialects.llvm.symbols import FuncOp
from mlkit.dialects.llvm.types import LLVMFunctionType, LLVMVoidType
from mlkit.dialects.utils.attr_dict import print_attr_dict, split_attr_dict

_EMPTY_BUNDLES = DenseArrayBase.from_list(i32, [])

# the properties upstream's call ops share besides their own
_CALL_EXTRA_PROPS = (
    "arg_attrs res_attrs branch_weights memory_effects convergent no_unwind will_return "
    "access_groups alias_scopes noalias_scopes tbaa no_inline always_inline inline_hint "
    "op_bundle_tags"
).split()


@irdl_op_definition
class ReturnOp(IRDLOperation):
    name = "llvm.return"
    arg = opt_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "($arg^ `:` type($arg))? attr-dict"

    def __init__(self, value: SSAValue | None = None) -> None:
        super().__init__(operands=[[value] if value is not None else []])

    def verify_(self) -> None:
        """Upstream's ``ReturnOp::verify``: the value must be what the enclosing
        ``llvm.func`` returns (none for ``void``), else translation to LLVM IR
        would build an ill-typed ``ret``."""
        func = self.parent_op()
        while func is not None and not isinstance(func, FuncOp):
            func = func.parent_op()
        if func is None:
            return
        expected = func.function_type.output
        if isinstance(expected, LLVMVoidType):
            if self.arg is not None:
                raise VerifyException("expected no operands")
        elif self.arg is None:
            raise VerifyException("expected 1 operand")
        elif self.arg.type != expected:
            raise VerifyException("mismatching result types")


@irdl_op_definition
class UnreachableOp(IRDLOperation):
    name = "llvm.unreachable"
    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict"


@irdl_op_definition
class BrOp(PureOp):
    name = "llvm.br"
    destOperands = var_operand_def()
    dest = successor_def()
    loop_annotation = opt_prop_def(AnyAttr())
    traits = traits_def(IsTerminator())
    assembly_format = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict"

    def __init__(self, dest: Block, *operands: SSAValue) -> None:
        super().__init__(operands=[operands], successors=[dest])


@irdl_op_definition
class CondBrOp(PureOp):
    name = "llvm.cond_br"
    condition = operand_def(IntegerType(1))
    trueDestOperands = var_operand_def()
    falseDestOperands = var_operand_def()
    trueDest = successor_def()
    falseDest = successor_def()
    branch_weights = opt_prop_def(DenseArrayBase)
    loop_annotation = opt_prop_def(AnyAttr())
    traits = traits_def(IsTerminator())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    custom_directives = (BranchWeights,)
    assembly_format = (
        "$condition custom<BranchWeights>($branch_weights) `,`"
        " $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,`"
        " $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict"
    )

    def __init__(
        self,
        cond: SSAValue,
        then_block: Block,
        then_ops: Sequence[SSAValue],
        else_block: Block,
        else_ops: Sequence[SSAValue],
    ) -> None:
        super().__init__(
            operands=[cond, then_ops, else_ops], successors=[then_block, else_block]
        )

    def verify_(self) -> None:
        verify_branch_weights(self, self.branch_weights)  # pyright: ignore[reportArgumentType]


@irdl_op_definition
class SwitchOp(PureOp):
    """``llvm.switch %v : i32, ^default [ 1: ^bb1(%x : i32), 2: ^bb2 ]``."""

    name = "llvm.switch"
    value = operand_def(IntegerType)
    defaultOperands = var_operand_def()
    caseOperands = var_operand_def()
    defaultDestination = successor_def()
    caseDestinations = var_successor_def()
    case_values = opt_prop_def(DenseIntOrFPElementsAttr)
    case_operand_segments = prop_def(DenseArrayBase)
    branch_weights = opt_prop_def(DenseArrayBase)
    traits = traits_def(IsTerminator())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        at = parser.pos
        value_type = parser.parse_type()
        (value_v,) = parser.resolve_operands([value], [value_type], at)
        parser.parse_punctuation(",")
        default, default_ops = cls._parse_destination(parser)
        values: list[int] = []
        dests: list[Block] = []
        case_ops: list[list[SSAValue]] = []

        def case() -> None:
            negative = parser.parse_optional_punctuation("-") is not None
            number = parser.parse_integer(allow_negative=False)
            values.append(-number if negative else number)
            parser.parse_punctuation(":")
            dest, ops = cls._parse_destination(parser)
            dests.append(dest)
            case_ops.append(ops)

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, case)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props["case_operand_segments"] = DenseArrayBase.from_list(i32, [len(o) for o in case_ops])
        if values:
            assert isinstance(value_type, IntegerType)
            props["case_values"] = DenseIntOrFPElementsAttr.from_list(
                VectorType(value_type, [len(values)]), values
            )
        return cls.create(
            operands=[value_v, *default_ops, *(v for ops in case_ops for v in ops)],
            properties=props
            | {
                "operandSegmentSizes": DenseArrayBase.from_list(
                    i32, [1, len(default_ops), sum(len(o) for o in case_ops)]
                )
            },
            attributes=attrs,
            successors=[default, *dests],
        )

    @staticmethod
    def _parse_destination(parser: Parser) -> tuple[Block, list[SSAValue]]:
        dest = parser.parse_successor()
        operands: list[SSAValue] = []
        if parser.parse_optional_punctuation("(") is not None:
            names: list[UnresolvedOperand] = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            at = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            operands = parser.resolve_operands(names, types, at)
        return dest, operands

    @staticmethod
    def _print_destination(printer: Printer, dest: Block, operands: Sequence[SSAValue]) -> None:
        printer.print_block_name(dest)
        if operands:
            printer.print_string("(")
            printer.print_list(operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([o.type for o in operands], printer.print_attribute)
            printer.print_string(")")

    def case_operands_per_case(self) -> list[Sequence[SSAValue]]:
        assert isinstance(self.case_operand_segments, DenseArrayBase)
        out: list[Sequence[SSAValue]] = []
        start = 0
        for size in self.case_operand_segments.iter_values():
            out.append(self.caseOperands[start : start + int(size)])
            start += int(size)
        return out

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        self._print_destination(printer, self.defaultDestination, self.defaultOperands)
        printer.print_string(" [")
        values = (
            list(self.case_values.get_values()) if self.case_values is not None else []
        )
        with printer.indented():
            for i, (value, dest, ops) in enumerate(
                zip(values, self.caseDestinations, self.case_operands_per_case())
            ):
                printer.print_string("," if i else "")
                printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
                printer.print_string(f"{int(value)}: ")
                self._print_destination(printer, dest, ops)
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
        printer.print_string("]")
        print_attr_dict(
            printer, self, ("case_values", "case_operand_segments", "operandSegmentSizes")
        )

    def verify_(self) -> None:
        verify_branch_weights(self, self.branch_weights)  # pyright: ignore[reportArgumentType]
        values = list(self.case_values.get_values()) if self.case_values is not None else []
        if len(values) != len(self.caseDestinations):
            raise VerifyException("expects number of case values to match number of case destinations")
        assert isinstance(self.case_operand_segments, DenseArrayBase)
        if len(tuple(self.case_operand_segments.iter_values())) != len(self.caseDestinations):
            raise VerifyException(
                "expects number of case operand segments to match number of case destinations"
            )


def _parse_call_args(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)


class _CallBase(LLVMOp):
    callee_operands = var_operand_def()
    op_bundle_operands = var_operand_def()
    result = var_result_def()
    fastmathFlags = prop_def(FastMathAttr, default_value=NO_FASTMATH)
    op_bundle_sizes = prop_def(DenseArrayBase, default_value=_EMPTY_BUNDLES)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class CallOp(_CallBase):
    """``llvm.call @f(%x) : (i32) -> i32``, or indirect through a pointer:
    ``llvm.call %fp(%x) : !llvm.ptr, (i32) -> i32``."""

    name = "llvm.call"
    callee = opt_prop_def(SymbolRefAttr)
    var_callee_type = opt_prop_def(LLVMFunctionType)
    CConv = prop_def(CConvAttr, default_value=CConvAttr())
    TailCallKind = prop_def(TailCallKindAttr, default_value=TailCallKindAttr())

    for _name in _CALL_EXTRA_PROPS:
        locals()[_name] = opt_prop_def(AnyAttr())
    del _name

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        args: Sequence[SSAValue],
        result_types: Sequence[Attribute] = (),
        *,
        var_callee_type: LLVMFunctionType | None = None,
    ) -> None:
        props: dict[str, Attribute] = {
            "callee": SymbolRefAttr(callee) if isinstance(callee, str) else callee
        }
        if var_callee_type is not None:
            props["var_callee_type"] = var_callee_type
        super().__init__(operands=[args, []], result_types=[result_types], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        props: dict[str, Attribute] = {}
        if (cconv := parser.parse_optional_keyword_in(CALLING_CONVENTIONS)) is not None:
            props["CConv"] = CConvAttr(cconv)
        if (kind := parser.parse_optional_keyword_in(TAIL_CALL_KINDS)) is not None:
            props["TailCallKind"] = TailCallKindAttr(kind)
        callee_ptr = None
        if (symbol := parser.parse_optional_symbol_name()) is not None:
            props["callee"] = SymbolRefAttr(symbol)
        else:
            callee_ptr = parser.parse_unresolved_operand()
        args = _parse_call_args(parser)
        if parser.parse_optional_keyword("vararg") is not None:
            parser.parse_punctuation("(")
            props["var_callee_type"] = parser.parse_type()
            parser.parse_punctuation(")")
        extra, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        colon = parser.pos  # upstream reports the signature's errors at the colon
        parser.parse_punctuation(":")
        at = parser.pos
        operand_names = args
        if callee_ptr is not None:
            ptr_type = parser.parse_type()
            if parser.parse_optional_punctuation(",") is None:
                parser.raise_error("expected indirect call to have 2 trailing types", colon)
            operand_names = [callee_ptr, *args]
        fn = parser.parse_function_type()
        if len(fn.outputs.data) > 1:
            parser.raise_error("expected function with 0 or 1 result", colon)
        if fn.outputs.data and isinstance(fn.outputs.data[0], LLVMVoidType):
            parser.raise_error("expected a non-void result type", colon)
        types = [*([ptr_type] if callee_ptr is not None else []), *fn.inputs.data]
        if len(types) != len(operand_names):
            parser.raise_error(
                f"expected {len(operand_names)} operand types, found {len(types)}", at
            )
        operands = parser.resolve_operands(operand_names, types, at)
        props |= extra
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(operands), 0])
        return cls.create(
            operands=operands, result_types=fn.outputs.data, properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        cconv = self.CConv
        assert isinstance(cconv, CConvAttr) and isinstance(self.TailCallKind, TailCallKindAttr)
        if cconv.cconv.data != "ccc":
            printer.print_string(f" {cconv.cconv.data}")
        if self.TailCallKind.kind.data != "none":
            printer.print_string(f" {self.TailCallKind.kind.data}")
        printer.print_string(" ")
        args = list(self.callee_operands)
        if self.callee is not None:
            printer.print_symbol_name(self.callee.root_reference.data)
        else:
            printer.print_operand(args.pop(0))
        printer.print_string("(")
        printer.print_list(args, printer.print_operand)
        printer.print_string(")")
        if self.var_callee_type is not None:
            printer.print_string(" vararg(")
            printer.print_attribute(self.var_callee_type)
            printer.print_string(")")
        print_attr_dict(
            printer,
            self,
            ("callee", "var_callee_type", "CConv", "TailCallKind", "operandSegmentSizes"),
        )
        printer.print_string(" : ")
        if self.callee is None:
            printer.print_attribute(self.callee_operands[0].type)
            printer.print_string(", ")
        printer.print_attribute(FunctionType.from_lists([a.type for a in args], [r.type for r in self.result]))

    def verify_(self) -> None:
        verify_call(self)


@irdl_op_definition
class CallIntrinsicOp(_CallBase):
    """``llvm.call_intrinsic "llvm.smax"(%a, %b) : (i32, i32) -> i32``."""

    name = "llvm.call_intrinsic"
    intrin = prop_def(StringAttr)
    arg_attrs = opt_prop_def(AnyAttr())
    res_attrs = opt_prop_def(AnyAttr())
    op_bundle_tags = opt_prop_def(AnyAttr())

    @classmethod
    def parse(cls, parser: Parser) -> CallIntrinsicOp:
        intrin = parser.parse_str_literal()
        args = _parse_call_args(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        at = parser.pos
        fn = parser.parse_function_type()
        operands = parser.resolve_operands(args, fn.inputs.data, at)
        props |= {
            "intrin": StringAttr(intrin),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(operands), 0]),
        }
        return cls.create(
            operands=operands, result_types=fn.outputs.data, properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.intrin.data)
        printer.print_string("(")
        printer.print_list(self.callee_operands, printer.print_operand)
        printer.print_string(")")
        print_attr_dict(printer, self, ("intrin", "operandSegmentSizes"))
        printer.print_string(" : ")
        printer.print_attribute(
            FunctionType.from_lists(
                [a.type for a in self.callee_operands], [r.type for r in self.result]
            )
        )


def result_types_of(fn: LLVMFunctionType) -> list[Attribute]:
    """The op results a call of ``fn`` has: none for ``void``."""
    return [] if isinstance(fn.output, LLVMVoidType) else [fn.output]


CONTROL_OPS = [ReturnOp, UnreachableOp, BrOp, CondBrOp, SwitchOp, CallOp, CallIntrinsicOp]
