"""Syntax the ``gpu`` ops share: async dependencies and memory attributions.

* ``async [%dep, ...]``: upstream's ``custom<AsyncDependencies>`` of the ops
  implementing ``GPU_AsyncOpInterface``, which also return an optional
  ``!gpu.async.token``; :class:`AsyncOp` gives them both.
* ``workgroup(%a : memref<...>, ...)`` and ``private(...)``: the memory
  attributions of ``gpu.func`` and ``gpu.launch``, extra entry-block arguments
  written inside the op's own syntax, which the declarative format cannot
  express; these follow upstream's ``parseAttributions``/``printAttributions``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.irdl import IRDLOperation, opt_result_def
from xdsl.irdl.declarative_assembly_format import ParsingState, TypeDirective
from xdsl.irdl.declarative_assembly_format import VariadicOperandVariable, irdl_custom_directive
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from mlkit.dialects.utils.directives import SpacedDirective
from mlkit.dialects.utils.operand_lists import print_typed_value
from mlkit.dialects.utils.signatures import attrs_at, dict_array, print_attr_dict_if_any


def parse_async_dependencies(parser: Parser) -> tuple[bool, list[UnresolvedOperand]]:
    """``(`async`)? (`[` ssa-id-list `]`)?``: whether ``async`` is written, and the
    dependencies."""
    pos = parser.pos
    is_async = parser.parse_optional_keyword("async") is not None
    named = getattr(parser, "results_named", None)  # mlkit's located parser knows
    if is_async and named is not None and named() is False:
        parser.raise_error("needs to be named when marked 'async'", pos)
    deps = parser.parse_optional_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    return is_async, deps or []


def print_async_dependencies(
    printer: Printer, is_async: bool, deps: Sequence[SSAValue]
) -> None:
    """``async [%dep, ...]``, either part left out when empty."""
    if is_async:
        printer.print_string("async")
    if deps:
        if is_async:
            printer.print_string(" ")
        with printer.in_square_brackets():
            printer.print_list(deps, printer.print_operand)


@irdl_custom_directive
class AsyncDependencies(SpacedDirective):
    """Upstream's ``custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)``."""

    token_type: TypeDirective
    dependencies: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        is_async, deps = parse_async_dependencies(parser)
        self.token_type.set(state, [AsyncTokenType()] if is_async else [])
        self.dependencies.set(state, deps)
        self.dependencies.set_types(state, [AsyncTokenType()] * len(deps))

    def print_body(self, printer: Printer, op: IRDLOperation) -> None:
        print_async_dependencies(printer, bool(self.token_type.get(op)), self.dependencies.get(op))


ASYNC_FORMAT = "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)"
"""The start of an async op's assembly format."""


class AsyncOp(IRDLOperation):
    """An op of ``GPU_AsyncOpInterface``: an optional ``!gpu.async.token`` as its
    last result, its dependencies written with :class:`AsyncDependencies`.
    (The ``asyncDependencies`` operand stays in each op, as its first operand.)"""

    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)


# ---------------------------------------------------------------------------
# Memory attributions
# ---------------------------------------------------------------------------


def parse_typed_args(parser: Parser, args: list[Parser.Argument]) -> list[dict[str, Attribute]]:
    """``(%a : type {attrs}?, ...)``, appended to ``args``; the attributes of each."""
    attrs: list[dict[str, Attribute]] = []

    def element() -> None:
        args.append(parser.parse_argument())
        attrs.append(parser.parse_optional_dictionary_attr_dict())

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, element)
    return attrs


def parse_attributions(
    parser: Parser, keyword: str, args: list[Parser.Argument]
) -> tuple[int, ArrayAttr[DictionaryAttr] | None]:
    """``keyword(%a : type, ...)`` when present: how many, and their attributes."""
    if parser.parse_optional_keyword(keyword) is None:
        return 0, None
    attrs = parse_typed_args(parser, args)
    return len(attrs), dict_array(attrs)


def print_attributions(
    printer: Printer,
    keyword: str,
    values: Sequence[BlockArgument],
    attrs: ArrayAttr[DictionaryAttr] | None,
) -> None:
    """`` keyword(%a : type {attrs}, ...)``; nothing when there are none."""
    if not values:
        return
    printer.print_string(f" {keyword}(")

    def element(pair: tuple[int, BlockArgument]) -> None:
        i, v = pair
        print_typed_value(printer, v)
        print_attr_dict_if_any(printer, attrs_at(attrs, i))

    printer.print_list(list(enumerate(values)), element)
    printer.print_string(")")
