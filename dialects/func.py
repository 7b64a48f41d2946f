"""The ``func`` dialect with upstream's syntax, properties and verifier wording.

xDSL 0.75's ``func`` disagrees with upstream in ways round trips notice:
- a declaration prints ``func.func private @f(memref<*xf32>) -> ()`` (upstream
  omits ``-> ()``) and loses the argument attributes of declarations
  (``@f(i32 {llvm.noundef})``);
- ``func.call`` has no ``no_inline``/``arg_attrs``/``res_attrs`` properties, so
  ``no_inline`` becomes a discardable attribute;
- ``func.constant`` and ``func.call_indirect`` do not exist.
The three xDSL ops are subclassed (passes match them with isinstance) and the two
missing ones are defined here.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func as xfunc
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FlatSymbolRefAttrConstr, FunctionType
from xdsl.dialects.builtin import StringAttr, SymbolNameConstraint, SymbolRefAttr, UnitAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def
from xdsl.irdl import opt_prop_def, prop_def, region_def, result_def, traits_def, var_operand_def
from xdsl.irdl import var_result_def
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, HasParent, IsolatedFromAbove
from xdsl.traits import IsTerminator, NoMemoryEffect, ReturnLike
from xdsl.traits import SymbolTable, SymbolUserOpInterface
from xdsl.utils.exceptions import VerifyException

from mlkit.diagnostics.verifier import ErrorAt
from mlkit.dialects.utils.attr_dict import print_attr_dict
from mlkit.dialects.utils.dialects import op_lookup, with_replacements
from mlkit.dialects.utils.ods import DeclarativeSyntax, verify_that
from mlkit.dialects.utils.signatures import attrs_at, dict_array, parse_function_results
from mlkit.dialects.utils.signatures import print_function_inputs, print_function_results
from mlkit.dialects.utils.symbols import UpstreamSymbol

# Properties the custom syntax of func.func spells out; the rest go in `attributes`.
_FUNC_SYNTAX = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


def verify_dialect_attrs(arg_attrs: ArrayAttr | None, res_attrs: ArrayAttr | None) -> None:
    """Upstream's function-interface rule: argument and result attributes
    must be dialect attributes (their names have a dialect prefix)."""
    for what, attrs in (("arguments", arg_attrs), ("results", res_attrs)):
        for entry in attrs.data if attrs is not None else ():
            if isinstance(entry, DictionaryAttr) and any("." not in k for k in entry.data):
                raise VerifyException(f"{what} may only have dialect attributes")


@irdl_op_definition
class FuncOp(xfunc.FuncOp):
    """xDSL's op with upstream's function syntax and verifier."""

    name = "func.func"

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    traits = traits_def(IsolatedFromAbove(), UpstreamSymbol(), xfunc.FuncOpCallableInterface())

    def verify_(self) -> None:
        inputs = self.function_type.inputs.data
        verify_dialect_attrs(self.arg_attrs, self.res_attrs)
        for what, attrs, count in (
            ("argument", self.arg_attrs, len(inputs)),
            ("result", self.res_attrs, len(self.function_type.outputs.data)),
        ):
            # upstream stores an empty array as no array, so never rejects one
            if attrs is not None and attrs.data and len(attrs.data) != count:
                raise VerifyException(
                    f"expects {what} attribute array to have the same number of elements "
                    f"as the number of function {what}s, got {len(attrs.data)}, but "
                    f"expected {count}"
                )
        if not self.body.blocks:
            visibility = self.sym_visibility.data if self.sym_visibility else "public"
            if visibility == "public":
                raise VerifyException("symbol declaration cannot have public visibility")
            return
        entry = self.body.blocks.first
        assert entry is not None
        if len(entry.args) != len(inputs):
            raise VerifyException(
                f"entry block must have {len(inputs)} arguments to match function signature"
            )
        for i, (arg, expected) in enumerate(zip(entry.args, inputs)):
            if arg.type != expected:
                raise VerifyException(
                    f"type of entry block argument #{i}('{arg.type}') must match the type "
                    f"of the corresponding argument in function signature('{expected}')"
                )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name = parser.parse_symbol_name()
        entry_args: list[Parser.Argument] = []
        types: list[Attribute] = []
        arg_dicts: list[dict[str, Attribute]] = []

        def parse_input() -> None:
            arg = parser.parse_optional_argument()
            if arg is None:
                if entry_args:
                    parser.raise_error("expected SSA identifier")
                types.append(parser.parse_type())
            else:
                if types and not entry_args:
                    parser.raise_error("expected type instead of SSA identifier")
                entry_args.append(arg)
                types.append(arg.type)
            arg_dicts.append(parser.parse_optional_dictionary_attr_dict())
            if (loc := parser.parse_optional_location()) is not None and arg is not None:
                arg.location = loc

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_input)
        outputs, res_dicts = parse_function_results(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        extra = dict(attrs.data) if attrs is not None else {}
        body_at = parser.pos
        region = parser.parse_optional_region(entry_args if entry_args or not types else None)
        if region is None:
            region = Region()
        elif (block := region.first_block) is not None and block is region.last_block and (
            block.first_op is None and not block.args
        ):
            parser.raise_error("expected non-empty function body", body_at)  # upstream's words
        # like upstream, inherent attributes written in `attributes {...}` are
        # properties; the signature's own argument/result attributes win
        arg_attrs = dict_array(arg_dicts) or extra.pop("arg_attrs", None)
        res_attrs = dict_array(res_dicts) or extra.pop("res_attrs", None)
        op = cls(name.data, (types, outputs), region, visibility)
        for key, value in (("arg_attrs", arg_attrs), ("res_attrs", res_attrs)):
            if value is not None:
                op.properties[key] = value
        op.attributes |= extra
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        entry = self.body.blocks.first
        inputs = self.function_type.inputs.data
        print_function_inputs(printer, entry.args if entry else None, inputs, self.arg_attrs)
        outputs = self.function_type.outputs.data
        res_dicts = [attrs_at(self.res_attrs, i) for i in range(len(outputs))]
        print_function_results(printer, outputs, res_dicts)
        print_attr_dict(printer, self, _FUNC_SYNTAX, keyword=True, properties_first=True)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body, False, False)


class _CallSymbolUser(SymbolUserOpInterface):
    """Upstream's ``CallOp::verifySymbolUses`` wording."""

    def verify(self, op: IRDLOperation) -> None:
        assert isinstance(op, xfunc.CallOp)
        callee = SymbolTable.lookup_symbol(op, op.callee)
        if not isinstance(callee, xfunc.FuncOp):
            raise VerifyException(
                f"'{op.callee.string_value()}' does not reference a valid function"
            )
        fn_type = callee.function_type
        if len(fn_type.inputs.data) != len(op.arguments):
            raise VerifyException("incorrect number of operands for callee")
        for i, (expected, arg) in enumerate(zip(fn_type.inputs.data, op.arguments)):
            if expected != arg.type:
                raise VerifyException(
                    f"operand type mismatch: expected operand type '{expected}', but "
                    f"provided '{arg.type}' for operand number {i}"
                )
        if len(fn_type.outputs.data) != len(op.res):
            raise VerifyException("incorrect number of results for callee")
        for i, (expected, res) in enumerate(zip(fn_type.outputs.data, op.res)):
            if expected != res.type:
                ours = ", ".join(f"'{r.type}'" for r in op.res)
                theirs = ", ".join(f"'{t}'" for t in fn_type.outputs.data)
                raise ErrorAt(
                    None,
                    f"result type mismatch at index {i}",
                    [(op, f"op result types: {ours}"), (op, f"function result types: {theirs}")],
                )


@irdl_op_definition
class CallOp(DeclarativeSyntax, xfunc.CallOp):
    """xDSL's op with upstream's ``no_inline``, ``arg_attrs`` and ``res_attrs``
    properties and upstream's symbol-use wording."""

    name = "func.call"

    arguments = var_operand_def()
    callee = prop_def(FlatSymbolRefAttrConstr)
    no_inline = opt_prop_def(UnitAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res = var_result_def()
    traits = traits_def(_CallSymbolUser())
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$callee `(` $arguments `)` attr-dict `:` functional-type($arguments, $res)"

    def verify_(self) -> None:
        """Nothing beyond IRDL's checks; defined so IRDL checks this class's
        properties, not xDSL's parent's (which lacks ``no_inline``)."""


@irdl_op_definition
class ReturnOp(DeclarativeSyntax, xfunc.ReturnOp):
    """xDSL's op with upstream's verifier wording."""

    name = "func.return"

    arguments = var_operand_def()
    traits = traits_def(HasParent(xfunc.FuncOp), IsTerminator(), ReturnLike())

    assembly_format = "attr-dict ($arguments^ `:` type($arguments))?"

    def verify_(self) -> None:
        func_op = self.parent_op()
        assert isinstance(func_op, xfunc.FuncOp)
        results = func_op.function_type.outputs.data
        name = func_op.sym_name.data
        if len(results) != len(self.arguments):
            raise VerifyException(
                f"has {len(self.arguments)} operands, but enclosing function (@{name}) "
                f"returns {len(results)}"
            )
        for i, (expected, arg) in enumerate(zip(results, self.arguments)):
            if expected != arg.type:
                raise VerifyException(
                    f"type of return operand {i} ('{arg.type}') doesn't match function "
                    f"result type ('{expected}') in function @{name}"
                )


class _ConstantSymbolUser(SymbolUserOpInterface):
    def verify(self, op: IRDLOperation) -> None:
        assert isinstance(op, ConstantOp)
        fn = SymbolTable.lookup_symbol(op, op.value)
        if not isinstance(fn, xfunc.FuncOp):
            raise VerifyException(
                f"reference to undefined function '{op.value.string_value()}'"
            )
        if fn.function_type != op.result.type:
            raise VerifyException("reference to function with mismatched type")


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """``func.constant @f : (i32) -> i32``: a function as an SSA value (missing in xDSL)."""

    name = "func.constant"

    value = prop_def(FlatSymbolRefAttrConstr)
    result = result_def(FunctionType)
    traits = traits_def(NoMemoryEffect(), _ConstantSymbolUser())

    assembly_format = "attr-dict $value `:` type(results)"

    def __init__(self, value: str | SymbolRefAttr, type_: FunctionType) -> None:
        super().__init__(properties={"value": SymbolRefAttr.get(value)}, result_types=[type_])


class IndirectCallToDirectCall(RewritePattern):
    """Upstream's canonicalization: ``call_indirect`` of a ``func.constant`` is a ``call``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, CallIndirectOp) or not isinstance(constant := op.callee.owner, ConstantOp):
            return
        call = CallOp.create(
            operands=list(op.callee_operands),
            result_types=list(op.results_.types),
            properties={"callee": constant.value, **op.properties},
        )
        rewriter.replace(op, call)


class _CallIndirectCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (IndirectCallToDirectCall(),)


@irdl_op_definition
class CallIndirectOp(IRDLOperation):
    """``func.call_indirect %f(%x) : (i32) -> i32`` (missing in xDSL)."""

    name = "func.call_indirect"

    callee = operand_def(FunctionType)
    callee_operands = var_operand_def()
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    results_ = var_result_def()
    traits = traits_def(_CallIndirectCanonicalization())

    def __init__(self, callee: SSAValue, arguments: Sequence[SSAValue]) -> None:
        fn_type = callee.type
        assert isinstance(fn_type, FunctionType)
        super().__init__(operands=[callee, arguments], result_types=[fn_type.outputs.data])

    @classmethod
    def parse(cls, parser: Parser) -> CallIndirectOp:
        # The result types come from the callee's type, which the declarative
        # format cannot derive; the operand list is resolved against it too.
        callee = parser.parse_unresolved_operand()
        args = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        fn_type = parser.parse_type()
        if not isinstance(fn_type, FunctionType):
            parser.raise_error("expected function type", pos, parser.pos)
        if len(args) != len(fn_type.inputs.data):
            parser.raise_error(
                f"{len(args)} operands present, but expected {len(fn_type.inputs.data)}"
            )
        operands = [parser.resolve_operand(a, t) for a, t in zip(args, fn_type.inputs.data)]
        props = {k: attrs.pop(k) for k in ("arg_attrs", "res_attrs") if k in attrs}
        return cls.create(
            operands=[parser.resolve_operand(callee, fn_type), *operands],
            result_types=list(fn_type.outputs.data),
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.callee)
        with printer.in_parens():
            printer.print_list(self.callee_operands, printer.print_operand)
        print_attr_dict(printer, self, properties_first=True)
        printer.print_string(" : ")
        printer.print_attribute(self.callee.type)

    def verify_(self) -> None:
        fn_type = self.callee.type
        assert isinstance(fn_type, FunctionType)
        verify_that(
            tuple(fn_type.inputs.data) == tuple(self.callee_operands.types),
            "callee input types match argument types",
        )
        verify_that(
            tuple(fn_type.outputs.data) == tuple(self.results_.types),
            "callee result types match result types",
        )


_REPLACED: dict[type, type] = {
    xfunc.FuncOp: FuncOp,
    xfunc.CallOp: CallOp,
    xfunc.ReturnOp: ReturnOp,
}

Func = with_replacements(xfunc.Func, _REPLACED, [ConstantOp, CallIndirectOp])

__getattr__ = op_lookup(__name__, lambda: Func)
