"""Parser and printer for MLIR's textual pass pipeline syntax.

Accepts what ``mlir-opt --pass-pipeline=...`` accepts (see upstream
``TextualPipeline`` in mlir/lib/Pass/PassRegistry.cpp), e.g.::

    builtin.module(func.func(cse,canonicalize),p{opt=1 flag list=1,2,3 s="a b"})

The parser only builds a syntax tree; resolving names to passes and option
values to typed fields happens elsewhere (see :mod:`mlkit.pipeline.options`).
Every error carries the 0-based offset of the offending character so the
driver can point a caret at it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "OpPipeline",
    "PassSpec",
    "PipelineElement",
    "PipelineSyntaxError",
    "format_pass_options",
    "format_pipeline",
    "parse_pass_options",
    "parse_pipeline",
]

Options = dict[str, list[str] | None]
_NAME_CHARS = frozenset(string.ascii_letters + string.digits + "_.-")
_NAME_RE = re.compile(r"[A-Za-z0-9_.\-]+")
_WS = " \t\r\n"


@dataclass
class PassSpec:
    """One pass occurrence: ``name`` or ``name{options}``.

    ``options`` maps each key to its raw comma-split values (quotes removed,
    nested ``{...}`` kept verbatim), or to ``None`` for a bare flag.
    """

    name: str
    options: Options = field(default_factory=lambda: {})
    offset: int = 0


@dataclass
class OpPipeline:
    """A nested pipeline anchored on an op: ``func.func(...)`` or ``any(...)``."""

    anchor: str
    elements: list[PipelineElement] = field(default_factory=lambda: [])
    offset: int = 0


PipelineElement = PassSpec | OpPipeline


class PipelineSyntaxError(Exception):
    """A malformed pipeline; ``offset`` is the 0-based char offset in the text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def __str__(self) -> str:
        return self.message


def _skip_quote(text: str, i: int, base: int) -> int:
    """Return the index just past the quoted string starting at ``text[i]``."""
    end = text.find(text[i], i + 1)
    if end < 0:
        raise PipelineSyntaxError("unterminated string", base + i)
    return end + 1


def _skip_braces(text: str, i: int, base: int, what: str) -> int:
    """Return the index just past the balanced ``{...}`` starting at ``text[i]``.

    Quotes inside are honoured, so ``{s="}"}`` is one group (upstream's brace
    matcher ignores quotes there; being stricter only accepts more input).
    """
    depth, j = 0, i
    while j < len(text):
        c = text[j]
        if c in "\"'":
            j = _skip_quote(text, j, base)
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise PipelineSyntaxError(f"missing closing '}}' while processing {what}", base + i)


def _parse_value(text: str, i: int, base: int) -> tuple[list[str], int]:
    """Parse an option value starting at ``text[i]`` up to whitespace or end."""
    start, items, cur = i, [], []
    while i < len(text) and text[i] not in _WS:
        c = text[i]
        if c == ",":
            items.append("".join(cur))
            cur = []
            i += 1
        elif c in "\"'":
            end = _skip_quote(text, i, base)
            cur.append(text[i + 1 : end - 1])
            i = end
        elif c == "{":
            end = _skip_braces(text, i, base, "option value")
            cur.append(text[i:end])
            i = end
        elif c == "}":
            raise PipelineSyntaxError("unbalanced '}' in pass options", base + i)
        else:
            cur.append(c)
            i += 1
    if i == start:
        return [], i
    items.append("".join(cur))
    return items, i


def _parse_options(text: str, base: int) -> Options:
    """Parse whitespace-separated ``key`` / ``key=value`` items; see parse_pass_options."""
    options: Options = {}
    i = 0
    while True:
        while i < len(text) and text[i] in _WS:
            i += 1
        if i == len(text):
            return options
        key_start = i
        while i < len(text) and text[i] in _NAME_CHARS:
            i += 1
        key = text[key_start:i]
        if i < len(text) and text[i] not in _WS and text[i] != "=":
            if not key:
                raise PipelineSyntaxError(
                    f"expected option name, found '{text[i]}'", base + i
                )
            raise PipelineSyntaxError(
                f"invalid character '{text[i]}' in option name", base + i
            )
        if not key:
            raise PipelineSyntaxError("expected option name before '='", base + i)
        value: list[str] | None = None
        if i < len(text) and text[i] == "=":
            value, i = _parse_value(text, i + 1, base)
        old = options.get(key, [])
        if key in options and (old is None or value is None):
            raise PipelineSyntaxError(
                f"flag option '{key}' specified more than once", base + key_start
            )
        options[key] = value if old is None or value is None else old + value


def parse_pass_options(text: str) -> Options:
    """Parse the inside of a pass's ``{...}`` (also LLVM-style ``-pass="..."`` flags).

    Items are whitespace separated; a repeated ``key=v`` appends its values,
    like an LLVM list option does.  ``key=`` yields ``[]``, ``key=""`` ``[""]``.
    """
    return _parse_options(text, 0)


class _Parser:
    """Recursive-descent parser over the whole pipeline string."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0  # number of currently open '('
        self.had_braces = False  # whether the last pass had a `{...}` block

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _WS:
            self.pos += 1

    def error(self, message: str, offset: int | None = None) -> PipelineSyntaxError:
        return PipelineSyntaxError(message, self.pos if offset is None else offset)

    def parse_elements(self, open_paren: int | None) -> list[PipelineElement]:
        """Parse a comma list up to the ``)`` matching ``open_paren`` (or the end)."""
        elements: list[PipelineElement] = []
        if open_paren is not None and self.peek() == ")":
            return elements  # `builtin.module()` is an empty nested pipeline
        while True:
            elements.append(self.parse_element())
            c = self.peek()
            if c == ",":
                self.pos += 1
            elif c == ")":
                if open_paren is None:
                    raise self.error(
                        "encountered extra closing ')' creating unbalanced "
                        "parentheses while parsing pipeline"
                    )
                return elements
            elif c == "":
                if open_paren is not None:
                    raise self.error(
                        "encountered unbalanced parentheses while parsing pipeline",
                        open_paren,
                    )
                return elements
            elif c == "}":
                raise self.error("unbalanced '}' while parsing pipeline")
            elif c not in _NAME_CHARS and c not in "{(":
                raise self.error(f"invalid character '{c}' in pass pipeline")
            elif isinstance(elements[-1], OpPipeline):
                raise self.error("expected ',' after parsing pipeline")
            else:
                what = "pass options" if self.had_braces else f"'{elements[-1].name}'"
                close = "" if open_paren is None else " or ')'"
                raise self.error(f"expected ','{close} after {what}")

    def parse_element(self) -> PipelineElement:
        c = self.peek()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _NAME_CHARS:
            self.pos += 1
        name = self.text[start : self.pos]
        self.had_braces = False
        if not name:
            if c == ")" and self.depth == 0:
                raise self.error(
                    "encountered extra closing ')' creating unbalanced "
                    "parentheses while parsing pipeline"
                )
            if c in ("", ",", ")"):
                raise self.error("empty element in pass pipeline")
            if c == "{":
                raise self.error("missing pass name before '{'")
            if c == "(":
                raise self.error("missing anchor operation name before '('")
            if c == "}":
                raise self.error("unbalanced '}' while parsing pipeline")
            raise self.error(f"invalid character '{c}' in pass pipeline")
        c = self.peek()
        if c == "{":
            brace = self.pos
            end = _skip_braces(self.text, brace, 0, "pass options")
            options = _parse_options(self.text[brace + 1 : end - 1], brace + 1)
            self.pos = end
            self.had_braces = True
            return PassSpec(name, options, start)
        if c == "(":
            if "." not in name and name != "any":
                raise self.error(
                    f"invalid anchor '{name}': expected an operation name "
                    "like 'func.func' or 'any'",
                    start,
                )
            paren = self.pos
            self.pos += 1
            self.depth += 1
            elements = self.parse_elements(paren)
            self.depth -= 1
            self.pos += 1  # the closing ')', checked by parse_elements
            return OpPipeline(name, elements, start)
        return PassSpec(name, {}, start)


def parse_pipeline(text: str) -> list[PipelineElement]:
    """Parse a textual pass pipeline; ``""`` (or only whitespace) is empty."""
    parser = _Parser(text)
    if parser.peek() == "":
        return []
    return parser.parse_elements(None)


def _format_value(value: str) -> str:
    """Print one list item so that it parses back to exactly ``value``."""
    if value:
        try:
            if _parse_value(value, 0, 0) == ([value], len(value)):
                return value
        except PipelineSyntaxError:
            pass
    for quote in "\"'":
        if quote not in value:
            return f"{quote}{value}{quote}"
    raise ValueError(f"option value {value!r} contains both quote kinds")


def format_pass_options(options: Options) -> str:
    """Print options as ``a=1,2 flag s="x y"`` (the inside of ``{...}``)."""
    items: list[str] = []
    for key, values in options.items():
        if values is None:
            items.append(key)
        else:
            items.append(f"{key}=" + ",".join(_format_value(v) for v in values))
    return " ".join(items)


def _format_element(element: PipelineElement) -> str:
    if isinstance(element, OpPipeline):
        return f"{element.anchor}({format_pipeline(element.elements)})"
    if not _NAME_RE.fullmatch(element.name):
        raise ValueError(f"invalid pass name {element.name!r}")
    if not element.options:
        return element.name
    return f"{element.name}{{{format_pass_options(element.options)}}}"


def format_pipeline(elements: Sequence[PipelineElement] | PipelineElement) -> str:
    """Print the canonical form, e.g. ``builtin.module(func.func(cse),p{a=1 b})``.

    ``parse_pipeline(format_pipeline(x))`` equals ``x`` up to offsets.
    """
    if isinstance(elements, PassSpec | OpPipeline):
        return _format_element(elements)
    return ",".join(_format_element(e) for e in elements)
