r"""A lexer for MLIR text that never backtracks.

xDSL 0.75 lexes string literals with one regular expression of the shape
``"(?:[^"\\]+|\\escape)*"``: the ``+`` inside the ``*`` can split a run of plain
characters in exponentially many ways, so on an unterminated string ``re``
tries them all (28 characters took 12 s, 40 never finished) before it fails.
:class:`LinearLexer` scans strings as upstream's ``Lexer::lexString`` does, one
pass left to right, and reports upstream's messages at upstream's positions.

It also lexes the common tokens (identifiers, punctuation, ``->``) and the
whitespace before them with one regular expression match, where xDSL's lexer
slices the input a character at a time and makes several calls per token: a
fifth of parsing a large file went to lexing. Every other token (numbers,
strings, ``@`` names, ``...``, file metadata, anything not ASCII) is lexed by
xDSL's code, so the tokens are the same.
"""

from __future__ import annotations

import re

from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Position, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind, StringLiteral

_PLAIN = re.compile(r'[^"\\\n\v\f]*')
_HEX = "0123456789abcdefABCDEF"
_SIMPLE_ESCAPES = '"\\nt'


_K = MLIRTokenKind
_FAST = re.compile(
    r"(?://[^\n]*\n?|\s+)*"  # xDSL's whitespace and comments
    r"(?:(?P<bare>[a-zA-Z_][a-zA-Z0-9_$.]*)"
    r"|(?P<prefixed>(?:[%^!]|#(?!-}))(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))"
    r"|(?P<arrow>->)"
    r"|(?P<punct>[-:,()}\[\]<>=+/*?|]|\{(?!-#)))?",
    re.ASCII,
)
_PUNCTUATION = {
    ":": _K.COLON, ",": _K.COMMA, "(": _K.L_PAREN, ")": _K.R_PAREN, "}": _K.R_BRACE,
    "[": _K.L_SQUARE, "]": _K.R_SQUARE, "<": _K.LESS, ">": _K.GREATER, "=": _K.EQUAL,
    "+": _K.PLUS, "/": _K.SLASH, "*": _K.STAR, "?": _K.QUESTION, "|": _K.VERTICAL_BAR,
    "-": _K.MINUS, "{": _K.L_BRACE,
}  # fmt: skip
_PREFIXES = {"%": _K.PERCENT_IDENT, "^": _K.CARET_IDENT, "#": _K.HASH_IDENT, "!": _K.EXCLAMATION_IDENT}


class LinearLexer(MLIRLexer):
    """xDSL's MLIR lexer with a linear-time string literal scanner and a
    one-match path for the common tokens."""

    def lex(self) -> MLIRToken:
        """The next token: the common ones in one match, the rest by xDSL."""
        match = _FAST.match(self.input.content, self.pos)
        assert match is not None  # every part of the pattern is optional
        group = match.lastgroup
        if group is None:
            return super().lex()
        start, end = match.span(group)
        self.pos = end
        if group == "bare":
            kind = _K.BARE_IDENT
        elif group == "prefixed":
            kind = _PREFIXES[self.input.content[start]]
        elif group == "arrow":
            kind = _K.ARROW
        else:
            kind = _PUNCTUATION[self.input.content[start]]
        return Token(kind, Span(start, end, self.input))

    def _lex_string_literal(self, start_pos: Position) -> MLIRToken:
        """Lex ``"..."`` starting at the quote at ``start_pos``; STRING_LIT, or
        BYTES_LIT when the escapes spell bytes that are not ASCII (as xDSL)."""
        text = self.input.content
        end = len(text)
        pos = start_pos + 1
        has_escape = False
        while True:
            match = _PLAIN.match(text, pos)
            assert match is not None  # the pattern matches the empty string
            pos = match.end()
            char = text[pos] if pos < end else ""
            if char == '"':
                pos += 1
                break
            if char == "\\":
                nxt = text[pos + 1 : pos + 3]
                if nxt[:1] and nxt[0] in _SIMPLE_ESCAPES:
                    pos += 2
                elif len(nxt) == 2 and nxt[0] in _HEX and nxt[1] in _HEX:
                    pos += 3
                else:
                    raise ParseError(
                        Span(pos, pos + 1, self.input), "unknown escape in string literal"
                    )
                has_escape = True
                continue
            # a newline, vertical tab, form feed or the end of the input
            raise ParseError(Span(pos, pos + 1, self.input), "expected '\"' in string literal")
        self.pos = pos
        literal = StringLiteral(start_pos, pos, self.input)
        if has_escape and not literal.bytes_contents.isascii():
            return Token(MLIRTokenKind.BYTES_LIT, literal)
        return Token(MLIRTokenKind.STRING_LIT, literal)
