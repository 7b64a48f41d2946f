"""Upstream's words and positions for the parse errors xDSL raises.

xDSL words its parser errors its own way (``Expected ':'``, ``operand
expected``, ``Expected region!``); upstream's parser says ``expected ':'``,
``expected SSA operand``, ``expected '{' to begin a region``. Upstream also
places two kinds of error differently:

* a missing token (``Parser::parseToken``, ``emitWrongTokenError``) is reported
  at the end of the previous token, across blank lines and comments, not at the
  token that is there instead (so it lands on the line that lacks it);
* an error raised through a custom op's ``OpAsmParser`` (a keyword, an integer,
  the op's own checks) starts with ``custom op 'NAME' ``; those of the core
  parser (types, attributes, operands, regions) do not.

:func:`upstream_parse_error` applies both to an error that reaches
``parse_module``: one table, by xDSL's message, for the whole parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.utils.exceptions import ParseError

_Template = str | Callable[[re.Match[str]], str]


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    template: _Template
    wrong_token: bool = False
    """Upstream reports it where the expected token should have been."""
    custom: bool = True
    """Upstream raises it through ``OpAsmParser`` (prefixed inside a custom form)."""


def _rule(pattern: str, template: _Template, *, wrong_token: bool = False, custom: bool = True):
    return _Rule(re.compile(pattern, re.S), template, wrong_token, custom)


def _bind_count(m: re.Match[str]) -> str:
    if m.group(1) == "0":
        return "cannot name an operation with no results"
    return f"operation defines {m.group(1)} results but was provided {m.group(2)} to bind"


_PUNCT = r"([^\w\s'`]+)"
_RULES = (
    # punctuation: Parser::parseToken
    _rule(r"^Expected `(?:->|:)`$", "expected '->' or ':'", wrong_token=True, custom=False),
    _rule(rf"^Expected [`']{_PUNCT}[`'](.*)$", r"expected '\1'\2", wrong_token=True, custom=False),
    _rule(rf"^'{_PUNCT}' expected(.*)$", r"expected '\1'\2", wrong_token=True, custom=False),
    _rule(r"^Expected 'x' in shape delimiter, got .*$", "expected 'x' in dimension list",
          wrong_token=True, custom=False),
    # keywords: OpAsmParser::parseKeyword
    _rule(r"^Expected '(\w+)'(.*)$", r"expected '\1'\2"),
    _rule(r"^(?:operand expected|Expected an operand\.|Expected block argument!)$",
          "expected SSA operand", wrong_token=True, custom=False),
    _rule(r"^(?:attribute expected|expected attribute value)$", "expected attribute value",
          wrong_token=True, custom=False),
    _rule(r"^type expected$", "expected non-function type", wrong_token=True, custom=False),
    _rule(r"^Expected integer literal(?: after '-')?.*$", "expected integer value"),
    _rule(r"^Expected float literal(?: after '-')?$", "expected floating point literal"),
    _rule(r"^string literal expected.*$", "expected string"),
    _rule(r"^identifier expected.*$", "expected valid keyword"),
    _rule(r"^expect symbol name$", "expected valid '@'-identifier for symbol name"),
    _rule(r"^Expected region!$", "expected '{' to begin a region", wrong_token=True, custom=False),
    _rule(r"^expected (\d+) operand types but had (\d+)$",
          r"number of operands and types do not match: got \2 operands and \1 types"),
    _rule(r"^expected operation name in quotes$", r"\g<0>", wrong_token=True, custom=False),
    _rule(r"^Operation has (\d+) results, but was given (\d+) to bind\.$", _bind_count,
          custom=False),
    _rule(r"^Shape mismatch in dense literal\. Expected (\[.*\]) shape from the type, "
          r"but got (\[.*\]) shape\.$",
          r"inferred shape of elements literal (\2) does not match type (\1)", custom=False),
    _rule(r"^@ identifier expected to start with letter, '_', or '\"'\.$",
          "@ identifier expected to start with letter or '_'", custom=False),
    # the affine parser (see mlkit.syntax.affine_errors for the rest)
    _rule(r"^Identifier not in space .*$", "use of undeclared identifier",
          wrong_token=True, custom=False),
    _rule(r"^Expected primary expression$", "expected affine expression", custom=False),
    _rule(r"^Expected identifier$", "expected bare identifier", wrong_token=True, custom=False),
    # anything else xDSL capitalises
    _rule(r"^Expected (.*?)!?$", r"expected \1"),
)

_CORE_MODULES = ("xdsl.parser", "xdsl.utils", "mlkit.syntax")
_HELPER_MODULES = ("xdsl.parser.generic_parser", "xdsl.parser.base_parser")
"""The token helpers (``parse_keyword``, ``parse_integer``, ...): upstream's
``OpAsmParser`` methods when a dialect calls them."""
_HELPER_METHODS = frozenset(("resolve_operands", "parse_symbol_name"))
"""The core parser's methods that are ``OpAsmParser`` methods upstream."""


class CoreParseError(ParseError):
    """An error an op's parse code raises in the words of upstream's core
    parser (``expected attribute value``), which takes no ``custom op`` prefix."""


def raised_by_core(exc: ParseError) -> bool:
    """Whether the code that raised (the innermost frame outside xDSL's token
    helpers) is the core parser rather than an op's own parse code."""
    if isinstance(exc, CoreParseError):
        return True
    tb = exc.__traceback__
    frames: list[tuple[str, str]] = []
    while tb is not None:
        frame = tb.tb_frame
        frames.append((frame.f_globals.get("__name__", ""), frame.f_code.co_name))
        tb = tb.tb_next
    for module, function in reversed(frames):
        if module not in _HELPER_MODULES and function not in _HELPER_METHODS:
            return module.startswith(_CORE_MODULES)
    return True


def wrong_token_offset(text: str, offset: int) -> int:
    """Upstream's ``Parser::emitWrongTokenError`` position: the end of what
    precedes ``offset``, skipping blanks, line ends and ``//`` comments."""
    if offset >= len(text):
        offset = max(len(text) - 1, 0)  # at the end of the input: one character back
    before = text[:offset]
    while True:
        before = before.rstrip(" \t")
        if not before:
            return offset
        if before[-1] not in "\n\r":
            return len(before)
        before = before[:-1]
        line_start = max(before.rfind("\n"), before.rfind("\r"))
        line = before[line_start:] if line_start >= 0 else before
        comment = line.find("//")
        if comment >= 0:
            before = before[: len(before) - (len(line) - comment)]


def upstream_parse_error(
    msg: str, offset: int, text: str, custom_op: str | None, core: bool
) -> tuple[str, int]:
    """Upstream's message and offset for xDSL's parse error ``msg`` at ``offset``.

    ``custom_op`` names the custom-form op whose parsing raised it (None
    outside one); ``core`` says whether the core parser raised it."""
    stripped = msg.strip()
    rule = next((r for r in _RULES if r.pattern.match(stripped)), None)
    if rule is not None:
        template = rule.template
        stripped = (
            rule.pattern.sub(template, stripped, count=1)
            if isinstance(template, str)
            else template(rule.pattern.match(stripped))  # type: ignore[arg-type]
        )
        if rule.wrong_token:
            offset = wrong_token_offset(text, offset)
    if custom_op is not None and not core and (rule is None or rule.custom):
        stripped = f"custom op '{custom_op}' {stripped}"
    return (stripped if stripped != msg.strip() else msg), offset
