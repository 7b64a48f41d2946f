"""``SingleBlockImplicitTerminator`` checked as and when upstream checks it.

Upstream verifies an op's traits on entering the op, except its region traits
(``verifyRegionTrait``), which run on leaving it, after every op nested in it:
an ``scf.parallel`` whose induction variable is no index first reports that,
and a misplaced ``func.return`` inside ``affine.for`` its own parent error,
before the loop's terminator is looked at. xDSL checks the terminator with
the op's other traits, in its own words (``'scf.for' terminates with
operation func.return instead of scf.yield``).

The trait's ``verify`` is replaced process-wide by one in upstream's words; its
terminator check is deferred while :func:`deferring` is active (the whole-IR
verifier, which runs :func:`run_deferred` when it leaves the op).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

_state = threading.local()  # .pending: list of (op, trait) while deferring


class TerminatorMismatch(VerifyException):
    """A region of ``op`` that ends in another op than its implicit terminator;
    upstream attaches a note on the custom form's implicit terminator."""

    def __init__(self, op: Operation, expected: str, found: str) -> None:
        super().__init__(f"expects regions to end with '{expected}', found '{found}'")
        self.op = op
        self.note = f"in custom textual format, the absence of terminator implies '{expected}'"


def _name(op: Operation) -> str:
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def _verify_blocks(op: Operation) -> None:
    """``SingleBlock::verifyTrait``, on entering the op."""
    for index, region in enumerate(op.regions):
        first = region.first_block
        if first is None:
            continue
        if first is not region.last_block:
            raise VerifyException(f"expects region #{index} to have 0 or 1 blocks")
        if first.first_op is None:
            raise VerifyException("expects a non-empty block")


def verify_terminators(self: SingleBlockImplicitTerminator, op: Operation) -> None:
    """``SingleBlockImplicitTerminator::verifyRegionTrait``, on leaving the op."""
    for region in op.regions:
        block = region.first_block
        last = block.last_op if block is not None else None
        if last is not None and not isinstance(last, self.op_type):
            raise TerminatorMismatch(op, self.op_type.name, _name(last))


def _verify(self: SingleBlockImplicitTerminator, op: Operation) -> None:
    _verify_blocks(op)
    pending: list[tuple[Operation, SingleBlockImplicitTerminator]] | None = getattr(
        _state, "pending", None
    )
    if pending is None:
        verify_terminators(self, op)
    else:
        pending.append((op, self))


SingleBlockImplicitTerminator.verify = _verify  # pyright: ignore[reportAttributeAccessIssue]


@contextmanager
def deferring() -> Iterator[None]:
    """Within it, terminator checks are recorded for :func:`take_deferred`."""
    outer = getattr(_state, "pending", None)
    _state.pending = []
    try:
        yield
    finally:
        _state.pending = outer


def take_deferred(op: Operation) -> list[SingleBlockImplicitTerminator]:
    """The terminator checks recorded for ``op`` (verified just now), removed."""
    pending: list[tuple[Operation, SingleBlockImplicitTerminator]] = _state.pending
    if not pending:
        return []
    mine = [trait for owner, trait in pending if owner is op]
    pending[:] = [entry for entry in pending if entry[0] is not op]
    return mine
