"""Turning xDSL location attributes into diagnostic source locations."""

from __future__ import annotations

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation

from mlkit.diagnostics import UNKNOWN, SourceLoc


def source_loc(loc: Attribute) -> SourceLoc:
    """The first file:line:col found in a location attribute."""
    match loc:
        case FileLineColLoc():
            return SourceLoc(loc.filename.data, loc.line.data, loc.column.data)
        case NameLoc():
            return source_loc(loc.location)
        case CallSiteLoc():
            return source_loc(loc.callee)
        case FusedLoc():
            for inner in loc.locations.data:  # pyright: ignore[reportAttributeAccessIssue]
                found = source_loc(inner)
                if found.known:
                    return found
            return UNKNOWN
        case _:
            return UNKNOWN


def op_loc(op: Operation | None) -> SourceLoc:
    """The location of ``op``, or of its nearest located ancestor."""
    while op is not None:
        found = source_loc(op.location)
        if found.known:
            return found
        op = op.parent_op()
    return UNKNOWN
