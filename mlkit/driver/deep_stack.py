"""Running the driver on a thread with a deep stack.

xDSL parses, prints and rewrites recursively; 3,000 nested regions need far more
frames than CPython's default limit allows. Instead of crashing with a
RecursionError, the tools run their work on a thread with a large stack.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

STACK_BYTES = 1 << 30
RECURSION_LIMIT = 400_000


def run_with_deep_stack(fn: Callable[[], T]) -> T:
    """Call ``fn`` on a big-stack thread and return its result (or re-raise)."""
    result: list[T] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(fn())
        except BaseException as exc:  # re-raised on the calling thread
            error.append(exc)

    old_size = threading.stack_size()
    old_limit = sys.getrecursionlimit()
    threading.stack_size(STACK_BYTES)
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        thread = threading.Thread(target=target, name="mlkit-main")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    if error:
        raise error[0]
    return result[0]
