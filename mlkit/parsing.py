"""Parsing MLIR text into located IR.

xDSL's parser leaves every op at ``loc(unknown)``; upstream gives each op the
file:line:col where it starts, which is what diagnostics and
``--mlir-print-debuginfo`` need. :class:`LocatedParser` adds that.
"""

from __future__ import annotations

import bisect

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import MultipleSpansParseError, ParseError

from mlkit.diagnostics import Diagnostic, DiagnosticError, Severity, SourceLoc


class LineIndex:
    """Maps character offsets of one buffer to 1-based line and column."""

    def __init__(self, text: str) -> None:
        self._starts = [0]
        pos = text.find("\n")
        while pos != -1:
            self._starts.append(pos + 1)
            pos = text.find("\n", pos + 1)

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


class LocatedParser(Parser):
    """An xDSL parser that stamps each parsed op with its source location."""

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        super().__init__(ctx, text, name)
        self.filename = name
        self._index = LineIndex(text)
        self._file_attr = StringAttr(name)

    def loc_at(self, offset: int) -> SourceLoc:
        line, col = self._index.line_col(offset)
        return SourceLoc(self.filename, line, col)

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            line, col = self._index.line_col(start)
            op.location = FileLineColLoc(self._file_attr, IntAttr(line), IntAttr(col))
        return op

    def current_offset(self) -> int:
        return self._current_token.span.start


def parse_module(
    ctx: Context, text: str, filename: str, *, implicit_module: bool = True
) -> Operation:
    """Parse ``text`` into its top-level op, raising :class:`DiagnosticError`
    with a located message on any bad input."""
    parser = LocatedParser(ctx, text, filename)
    try:
        module = parser.parse_module(allow_implicit_module=implicit_module)
    except MultipleSpansParseError as exc:
        diag = _span_diag(parser, exc.span.start, exc.msg)
        for span, msg in exc.refs:
            diag.notes.append(
                Diagnostic(Severity.NOTE, msg or exc.ref_text or "see", parser.loc_at(span.start))
            )
        raise DiagnosticError(diag) from None
    except ParseError as exc:
        raise DiagnosticError(_span_diag(parser, exc.span.start, exc.msg)) from None
    except RecursionError:
        raise DiagnosticError.at(
            parser.loc_at(parser.current_offset()), "nesting too deep to parse"
        ) from None
    except (DiagnosticError, KeyboardInterrupt):
        raise
    except Exception as exc:  # attribute constructors verify eagerly and raise plain errors
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DiagnosticError.at(parser.loc_at(parser.current_offset()), message) from None
    if isinstance(module, ModuleOp) and isinstance(module.location, UnknownLoc):
        first = text.find(next((c for c in text if not c.isspace()), "\0"))
        line, col = parser._index.line_col(max(first, 0))  # pyright: ignore[reportPrivateUsage]
        module.location = FileLineColLoc(StringAttr(filename), IntAttr(line), IntAttr(col))
    return module


def _span_diag(parser: LocatedParser, offset: int, msg: str) -> Diagnostic:
    return Diagnostic(Severity.ERROR, msg, parser.loc_at(offset))
