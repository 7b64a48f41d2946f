"""Emitting diagnostics on ops from passes, as MLIR's ``op->emitRemark()`` does.

The handler lives on the xDSL ``Context`` the pass receives, so a pass needs no
extra plumbing; ``mlkit-opt`` installs one that prints or, under
``--verify-diagnostics``, collects.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Operation

from mlkit.diagnostics import Diagnostic, DiagnosticError, Severity, format_diagnostic
from mlkit.diagnostics.locations import op_loc

HANDLER_ATTR = "mlkit_diagnostic_handler"

Handler = Callable[[Diagnostic], None]


def set_handler(ctx: Context, handler: Handler) -> None:
    setattr(ctx, HANDLER_ATTR, handler)


def emit(ctx: Context, op: Operation, severity: Severity, message: str) -> None:
    """Report ``message`` at ``op``'s location through the context's handler."""
    diag = Diagnostic(severity, message, op_loc(op))
    handler: Handler | None = getattr(ctx, HANDLER_ATTR, None)
    if handler is not None:
        handler(diag)
    elif severity is Severity.ERROR:
        raise DiagnosticError(diag)
    else:
        sys.stderr.write(format_diagnostic(diag))


def emit_remark(ctx: Context, op: Operation, message: str) -> None:
    emit(ctx, op, Severity.REMARK, message)


def emit_warning(ctx: Context, op: Operation, message: str) -> None:
    emit(ctx, op, Severity.WARNING, message)


def emit_error(ctx: Context, op: Operation, message: str) -> DiagnosticError:
    """Build the error to ``raise`` so the pass fails at ``op``, as
    ``return op->emitError(...)`` does upstream."""
    return DiagnosticError(Diagnostic(Severity.ERROR, message, op_loc(op)))
