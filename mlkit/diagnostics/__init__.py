"""Located diagnostics in mlir-opt's format: ``FILE:LINE:COL: error: MESSAGE``.

Every error the user can cause is turned into a :class:`Diagnostic` and printed
with its source line and a caret, so bad input never shows a Python traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TextIO


class Severity(Enum):
    """Diagnostic severities, spelled as MLIR prints them."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"
    REMARK = "remark"


@dataclass(frozen=True)
class SourceLoc:
    """A position in a source buffer; ``line`` and ``col`` are 1-based, 0 when unknown."""

    file: str
    line: int = 0
    col: int = 0

    @property
    def known(self) -> bool:
        return self.line > 0

    def __str__(self) -> str:
        if not self.known:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


UNKNOWN = SourceLoc("loc(unknown)")


@dataclass
class Diagnostic:
    """One message with its severity, location and attached notes."""

    severity: Severity
    message: str
    loc: SourceLoc = UNKNOWN
    notes: list[Diagnostic] = field(default_factory=list["Diagnostic"])


class DiagnosticError(Exception):
    """Raised to abort the current job with a located diagnostic.

    Passes and the driver raise it; the driver prints it and exits 1.
    """

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic

    @staticmethod
    def at(loc: SourceLoc, message: str) -> DiagnosticError:
        return DiagnosticError(Diagnostic(Severity.ERROR, message, loc))


class SourceManager:
    """Holds source buffers by file name so diagnostics can quote the offending line."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}

    def add(self, name: str, text: str) -> None:
        self._lines[name] = text.split("\n")

    def line_text(self, loc: SourceLoc) -> str | None:
        lines = self._lines.get(loc.file)
        if lines is None or not (1 <= loc.line <= len(lines)):
            return None
        return lines[loc.line - 1].rstrip("\r")


def offset_to_line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def format_diagnostic(diag: Diagnostic, sources: SourceManager | None = None) -> str:
    """Render a diagnostic and its notes as mlir-opt does, with source line and caret."""
    out: list[str] = []
    for d in (diag, *diag.notes):
        out.append(f"{d.loc}: {d.severity.value}: {d.message}")
        text = sources.line_text(d.loc) if sources is not None else None
        if text is not None and d.loc.known:
            out.append(text)
            prefix = "".join(c if c == "\t" else " " for c in text[: d.loc.col - 1])
            out.append(prefix + "^")
    return "\n".join(out) + "\n"


class DiagnosticEngine:
    """Collects or prints diagnostics; in verify mode they are kept for checking."""

    def __init__(
        self, sources: SourceManager, stream: TextIO, collect: bool = False
    ) -> None:
        self.sources = sources
        self.stream = stream
        self.collect = collect
        self.collected: list[Diagnostic] = []
        self.error_count = 0

    def emit(self, diag: Diagnostic) -> None:
        if diag.severity is Severity.ERROR:
            self.error_count += 1
        if self.collect:
            self.collected.append(diag)
        else:
            self.stream.write(format_diagnostic(diag, self.sources))
            self.stream.flush()
