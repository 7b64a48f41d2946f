"""Function signatures in upstream's custom forms: arguments and results,
each with an optional attribute dictionary.

``func.func``, ``gpu.func`` and ``llvm.func`` all print their signature the way
upstream's ``function_interface_impl`` does, and keep per-argument and
per-result attributes as ``arg_attrs``/``res_attrs`` arrays of dictionaries
that exist only when some entry is non-empty.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr
from xdsl.ir import Attribute, BlockArgument
from xdsl.parser import Parser
from xdsl.printer import Printer

from mlkit.dialects.utils.type_lists import single_bare


def dict_array(dicts: Sequence[dict[str, Attribute]]) -> ArrayAttr[DictionaryAttr] | None:
    """Per-argument attributes as upstream stores them: absent unless any is set."""
    if not any(dicts):
        return None
    return ArrayAttr(DictionaryAttr(d) for d in dicts)


def attrs_at(attrs: ArrayAttr[DictionaryAttr] | None, index: int) -> dict[str, Attribute]:
    """Entry ``index`` of an ``arg_attrs``/``res_attrs`` array; empty when absent."""
    if attrs is None or index >= len(attrs.data):
        return {}
    return dict(attrs.data[index].data)


def print_function_inputs(
    printer: Printer,
    entry_args: Sequence[BlockArgument] | None,
    types: Sequence[Attribute],
    attrs: ArrayAttr[DictionaryAttr] | None,
    variadic: bool = False,
) -> None:
    """``(%a: t {attrs}, ...)`` with a body's entry arguments, ``(t {attrs}, ...)``
    for a declaration; ``variadic`` adds ``...``."""
    printer.print_string("(")
    for i, type_ in enumerate(types):
        if i:
            printer.print_string(", ")
        if entry_args is not None:
            printer.print_block_argument(entry_args[i])
        else:
            printer.print_attribute(type_)
        print_attr_dict_if_any(printer, attrs_at(attrs, i))
    if variadic:
        printer.print_string(", ..." if types else "...")
    printer.print_string(")")


def parse_function_results(parser: Parser) -> tuple[list[Attribute], list[dict[str, Attribute]]]:
    """A signature's ``-> t`` or ``-> (t {attrs}, ...)``: the result types and
    one attribute dictionary each; nothing without the arrow."""
    if parser.parse_optional_punctuation("->") is None:
        return [], []
    types: list[Attribute] = []
    attrs: list[dict[str, Attribute]] = []

    def element() -> None:
        types.append(parser.parse_type())
        attrs.append(parser.parse_optional_dictionary_attr_dict())

    if parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, element) is None:
        return [parser.parse_type()], [{}]
    return types, attrs


def print_attr_dict_if_any(printer: Printer, attrs: dict[str, Attribute]) -> None:
    """`` {attrs}`` after an argument or result type; nothing when empty."""
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(attrs)


def print_function_results(
    printer: Printer, types: Sequence[Attribute], attrs: Sequence[dict[str, Attribute]]
) -> None:
    """`` -> t`` or `` -> (t {attrs}, ...)``; parentheses unless one type
    without attributes that is not a function type. ``attrs`` may be shorter."""
    if not types:
        return
    printer.print_string(" -> ")
    dicts = [attrs[i] if i < len(attrs) else {} for i in range(len(types))]
    if single_bare(types) and not dicts[0]:
        printer.print_attribute(types[0])
        return

    def element(i: int) -> None:
        printer.print_attribute(types[i])
        print_attr_dict_if_any(printer, dicts[i])

    printer.print_string("(")
    printer.print_list(range(len(types)), element)
    printer.print_string(")")
