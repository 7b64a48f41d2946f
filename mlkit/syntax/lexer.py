r"""A lexer for MLIR text that never backtracks.

xDSL 0.75 lexes string literals with one regular expression of the shape
``"(?:[^"\\]+|\\escape)*"``: the ``+`` inside the ``*`` can split a run of plain
characters in exponentially many ways, so on an unterminated string ``re``
tries them all (28 characters took 12 s, 40 never finished) before it fails.
:class:`LinearLexer` scans strings as upstream's ``Lexer::lexString`` does, one
pass left to right, and reports upstream's messages at upstream's positions.
"""

from __future__ import annotations

import re

from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Position, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind, StringLiteral

_PLAIN = re.compile(r'[^"\\\n\v\f]*')
_HEX = "0123456789abcdefABCDEF"
_SIMPLE_ESCAPES = '"\\nt'


class LinearLexer(MLIRLexer):
    """xDSL's MLIR lexer with a linear-time string literal scanner."""

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
