"""Running ``mlkit.compile``'s parse, verify, lower and JIT on a thread with a
deep stack, as the tools do (:mod:`mlkit.driver.deep_stack`).

xDSL parses, verifies, walks and rewrites recursively, so a few hundred
nested regions exhaust the default stack and recursion limit, and the
embedding API would reject IR that ``mlkit-opt`` handles. Unlike the tools'
helper, this one may be entered from many threads at once: the recursion
limit (process-wide) is raised while any deep call runs and restored when
the last one ends, and the thread stack size is only changed under a lock
around each thread's start. The caller's context variables travel along.
"""

from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from mlkit.driver.deep_stack import RECURSION_LIMIT, STACK_BYTES

T = TypeVar("T")

_lock = threading.Lock()
_active = 0  # deep calls running
_saved_limit = 0  # the recursion limit before the first of them
_local = threading.local()


def on_deep_stack() -> bool:
    """Whether this thread already has a deep stack (a deep call's own, or
    one the tools started)."""
    return getattr(_local, "deep", False) or threading.current_thread().name == "mlkit-main"


def call_deep(fn: Callable[[], T]) -> T:
    """``fn()`` on a thread with a deep stack: its result, or its exception
    re-raised here. Runs ``fn`` in place if this thread already is one."""
    global _active, _saved_limit
    if on_deep_stack():
        return fn()
    context = contextvars.copy_context()
    result: list[T] = []
    error: list[BaseException] = []

    def target() -> None:
        _local.deep = True
        try:
            result.append(context.run(fn))
        except BaseException as exc:  # re-raised on the calling thread
            error.append(exc)

    with _lock:
        if _active == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _active += 1
        old_size = threading.stack_size()
        try:
            threading.stack_size(STACK_BYTES)
            thread = threading.Thread(target=target, name="mlkit-compile", daemon=True)
            thread.start()
        except BaseException:
            _leave()
            raise
        finally:
            threading.stack_size(old_size)
    try:
        thread.join()
    finally:
        with _lock:
            _leave()
    if error:
        raise error[0]
    return result[0]


def _leave() -> None:
    """One deep call fewer; the last restores the recursion limit (call with
    the lock held)."""
    global _active
    _active -= 1
    if _active == 0:
        sys.setrecursionlimit(_saved_limit)
