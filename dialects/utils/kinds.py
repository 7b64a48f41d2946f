"""Upstream's ``invalid kind of type specified`` for a custom form's types.

Where an ODS operand, result or property has a C++ class (``VectorType``,
``MemRefType``, ``SymbolRefAttr``), upstream's generated parser reads it with
``parseType<T>``/``parseAttribute<T>`` and refuses another kind on the spot:
``custom op 'vector.broadcast' invalid kind of type specified: expected
builtin.vector, but found 'f32'``, at the type. xDSL's declarative parser
checks the constraints after reading the whole op (``f32 should be of base
attribute vector``). :func:`invalid_kind_error` finds what upstream would have
refused, for ``mlkit.dialects.utils.ods`` to raise instead.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import TypeVar

from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import AttrConstraint, OpDef, RangeOf
from xdsl.irdl.constraints import RangeLengthConstraint
from xdsl.irdl.declarative_assembly_format import FormatProgram, ParsingState
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span

_T = TypeVar("_T", bound=Attribute)
_parsing = threading.local()  # .parsers: the parsers of the formats being read, innermost last
_SCALARS = (IntegerType, IndexType, AnyFloat)
"""Type classes upstream's constraints name by predicate (``AnyInteger``,
``SignlessIntegerLike``), not by C++ class: no kind check for them."""

_xdsl_format_parse = FormatProgram.parse


def _parse(self: FormatProgram, parser: Parser, op_type: type) -> object:
    stack: list[Parser] = getattr(_parsing, "parsers", None) or []
    _parsing.parsers = stack
    stack.append(parser)
    try:
        return _xdsl_format_parse(self, parser, op_type)  # type: ignore[arg-type]
    finally:
        stack.pop()


FormatProgram.parse = _parse  # pyright: ignore[reportAttributeAccessIssue]


def _bases(constr: object) -> set[type[Attribute]] | None:
    """The classes an operand, result or property definition's constraint
    admits (IRDL wraps an operand's in a length and a range constraint)."""
    if isinstance(constr, RangeLengthConstraint):
        constr = constr.constraint
    if isinstance(constr, RangeOf):
        constr = constr.constr
    return constr.get_bases() if isinstance(constr, AttrConstraint) else None


def _builtin_kind(base: type[Attribute]) -> bool:
    """A builtin type class an upstream constraint names as its C++ class.
    (Dialect types are left out: their ops' upstream parsers are often
    hand-written and read any type, leaving the kind to the verifier.)"""
    return (
        issubclass(base, TypeAttribute)
        and base.__module__ == "xdsl.dialects.builtin"
        and not issubclass(base, _SCALARS)
    )


def _kind_name(base: type[Attribute]) -> str:
    name = getattr(base, "name", "")
    return name if "." in name else f"builtin.{name}"


def kind_message(what: str, kinds: set[type[Attribute]] | tuple[type[Attribute], ...], found: Attribute) -> str:
    """Upstream's ``parseType<T>``/``parseAttribute<T>`` error: the class is
    named (``expected builtin.vector, but found 'f32'``) only for types, and
    only when there is one."""
    message = f"invalid kind of {what} specified"
    if what == "type" and len(kinds) == 1:
        message += f": expected {_kind_name(next(iter(kinds)))}, but found '{found}'"
    return message


def parse_type_of(parser: Parser, kind: type[_T]) -> _T:
    """A type of class ``kind``, or upstream's error for another kind there."""
    pos = parser.pos
    parsed = parser.parse_type()
    if not isinstance(parsed, kind):
        parser.raise_error(kind_message("type", (kind,), parsed), pos)
    return parsed


def _candidates(state: ParsingState, op_def: OpDef) -> Iterator[tuple[Attribute, set[type], bool]]:
    """(value, bases, is_type) of each parsed type and property."""
    for defs, parsed in (
        (op_def.operands, state.operand_types),
        (op_def.results, state.result_types),
    ):
        for (_, arg), types in zip(defs, parsed, strict=True):
            bases = _bases(arg.constr)
            if types is None or not bases:
                continue
            group: Sequence[Attribute] = (types,) if isinstance(types, Attribute) else types
            for type_ in group:
                yield type_, bases, True
    for name, prop in op_def.properties.items():
        value = state.properties.get(name)
        bases = _bases(prop.constr)
        if value is not None and bases:
            yield value, bases, False


def invalid_kind_error(state: ParsingState, op_def: OpDef) -> ParseError | None:
    """The first (in the text) type or property of another kind than its
    constraint's C++ class, as upstream's parser reports it; None if none."""
    parsers: list[Parser] = getattr(_parsing, "parsers", None) or []
    if not parsers:
        return None
    parser = parsers[-1]
    text = parser.lexer.input.content
    end = parser.pos
    found: list[tuple[int, str]] = []
    for value, bases, is_type in _candidates(state, op_def):
        if isinstance(value, tuple(bases)):
            continue
        if is_type and not all(_builtin_kind(b) for b in bases):
            continue
        message = kind_message("type" if is_type else "attribute", bases, value)
        at = text.rfind(str(value), 0, end)
        found.append((at if at >= 0 else end, message))
    if not found:
        return None
    at, message = min(found)
    return ParseError(Span(at, at + 1, parser.lexer.input), message)
