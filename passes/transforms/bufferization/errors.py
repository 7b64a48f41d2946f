"""The error a bufferization step raises at an op; the pass reports it at
the op's location."""

from __future__ import annotations

from xdsl.ir import Operation


class BufferizeError(Exception):
    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op
