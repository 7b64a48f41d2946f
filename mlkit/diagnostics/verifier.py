"""Whole-IR verification that reports the failing op's location.

xDSL's ``Operation.verify`` recurses (so 3,000 nested regions overflow the stack)
and raises without saying which op failed. This walks the IR iteratively and
verifies one op at a time, so the error names the op and carries its location.
"""

from __future__ import annotations

import re

from xdsl.ir import Operation
from xdsl.traits import NoTerminator

from mlkit.diagnostics import Diagnostic, DiagnosticError, Severity
from mlkit.diagnostics.locations import op_loc


def _fail(op: Operation, message: str) -> DiagnosticError:
    first = message.strip().splitlines()[0] if message.strip() else "verification failed"
    return DiagnosticError(Diagnostic(Severity.ERROR, f"'{op.name}' op {first}", op_loc(op)))


_REDEFINED = re.compile(r'Redefinition of symbol "([^"]*)"')


def _relocate(op: Operation, exc: Exception) -> DiagnosticError:
    """Report symbol redefinitions at the second definition, as upstream does."""
    message = str(exc)
    m = _REDEFINED.search(message)
    if m is not None:
        defs = [
            child
            for region in op.regions
            for block in region.blocks
            for child in block.ops
            if (sym := child.properties.get("sym_name") or child.attributes.get("sym_name"))
            is not None
            and getattr(sym, "data", None) == m.group(1)
        ]
        if len(defs) >= 2:
            diag = Diagnostic(
                Severity.ERROR, f"redefinition of symbol named '{m.group(1)}'", op_loc(defs[1])
            )
            diag.notes.append(
                Diagnostic(Severity.NOTE, "see existing symbol definition here", op_loc(defs[0]))
            )
            return DiagnosticError(diag)
    return _fail(op, message)


def verify_op_tree(root: Operation) -> None:
    """Verify ``root`` and everything nested in it; raise :class:`DiagnosticError`
    at the first op that fails."""
    stack: list[Operation] = [root]
    while stack:
        op = stack.pop()
        try:
            op.verify(verify_nested_ops=False)
        except Exception as exc:  # xDSL verifiers raise VerifyException, ValueError, Exception...
            raise _relocate(op, exc) from None
        for region in op.regions:
            if len(region.blocks) == 1 and region.block.first_op is None:
                if not op.has_trait(NoTerminator):
                    raise _fail(op, "expects a non-empty block in its single-block region")
        # push children in reverse so ops are verified in source order
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                for child in reversed(list(block.ops)):
                    if child.parent is not block:
                        raise _fail(child, "has a stale parent pointer")
                    stack.append(child)
