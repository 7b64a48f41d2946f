"""Reading input buffers and splitting them as ``--split-input-file`` does."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from mlkit.diagnostics import DiagnosticError, SourceLoc
from mlkit.syntax.parser import LineIndex

DEFAULT_SPLIT_MARKER = "// -----"


@dataclass
class Chunk:
    """One piece of the input, padded with newlines so line numbers stay original."""

    text: str
    first_line: int


def read_input(path: str) -> tuple[str, str]:
    """Return (display name, text); ``-`` is standard input. Bad bytes and
    missing files become located errors."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise DiagnosticError.at(
            SourceLoc(name), f"could not open input file '{path}': {reason}"
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8")
        line, col = LineIndex(good).line_col(len(good))
        raise DiagnosticError.at(
            SourceLoc(name, line, col), "invalid UTF-8 byte sequence in input"
        ) from None
    if "\0" in text:
        line, col = LineIndex(text).line_col(text.index("\0"))
        raise DiagnosticError.at(SourceLoc(name, line, col), "unexpected NUL byte in input")
    return name, text


def split_input(text: str, marker: str | None) -> list[Chunk]:
    """Split on lines that start with ``marker``; without one, one chunk."""
    if marker is None:
        return [Chunk(text, 1)]
    pattern = re.compile(r"^[ \t]*" + re.escape(marker) + r".*$", re.MULTILINE)
    chunks: list[Chunk] = []
    start = 0
    for m in pattern.finditer(text):
        chunks.append(_chunk(text, start, m.start()))
        start = m.end()
    chunks.append(_chunk(text, start, len(text)))
    return chunks


def _chunk(text: str, start: int, end: int) -> Chunk:
    first_line = text.count("\n", 0, start) + 1
    return Chunk("\n" * (first_line - 1) + text[start:end], first_line)
