"""A progress line on stderr while a pipeline or ``mlkit.compile`` runs long.

    mlkit-opt: [12/40] convert-linalg-to-loops 1.4s

The pass manager, ``mlkit-opt`` and ``mlkit.compile`` say what they start
(:meth:`Reporter.stage`, :meth:`Reporter.step`); those calls only store a
tuple, the clock is read by a timer thread. Nothing shows during the first
second. After it, and only where stderr is a terminal, the timer redraws one
line in place (``\\r`` and clear-to-end-of-line, at most ten times a second)
and clears it when the work ends, so what is printed afterwards starts on a
clean line; an IR dump or diagnostic written meanwhile goes through
:func:`paused` (or a stream from :func:`guarded`), which clears it first.
Where stderr is a pipe or a file (lit, CI) nothing is ever written.

One line per process: the outermost run reports, a run nested in it on the
same thread (``mlkit-opt``'s pipeline, ``mlkit.compile``'s lowering) adds its
stages to that line, and a run on another thread while a line is up stays
silent.

``MLKIT_PROGRESS=0`` turns it off, ``MLKIT_PROGRESS=1`` turns it on without a
terminal; ``MLKIT_PROGRESS_DELAY`` (seconds, default 1) is a hook for tests.

tqdm or rich would be a new dependency for what is here one rewritten line,
and neither knows to clear it before mlkit's own diagnostics, so they do not
pay for themselves.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

ENV = "MLKIT_PROGRESS"
DELAY_ENV = "MLKIT_PROGRESS_DELAY"
DELAY = 1.0  # seconds before the line shows
INTERVAL = 0.1  # seconds between redraws
CLEAR = "\r\x1b[K"

_lock = threading.RLock()  # guards _active and every write of the line
_active: Reporter | None = None


class Silent:
    """What a run that shows nothing reports to."""

    pipeline_depth = 0  # pass pipelines running (only a Reporter counts them)

    def stage(self, text: str) -> None:
        pass

    def step(self, index: int, total: int, name: str) -> None:
        pass


SILENT = Silent()


class Reporter(Silent):
    """One progress line on ``stream``; :meth:`tick` draws it when due."""

    def __init__(
        self,
        label: str,
        stream: TextIO,
        delay: float = DELAY,
        clock: Callable[[], float] = time.monotonic,
        width: int | None = None,
    ) -> None:
        self.label = label
        self.stream = stream
        self.delay = delay
        self.clock = clock
        self.width = width
        self.started = clock()
        self.current: tuple[int, int, str] = (0, 0, "")  # index, total (0: none), name
        self.pipeline_depth = 0
        self.shown = ""  # the text on the terminal now
        self.owner = threading.get_ident()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def stage(self, text: str) -> None:
        """A stage without a count (``parsing``, ``LLVM codegen``) starts."""
        self.current = (0, 0, text)

    def step(self, index: int, total: int, name: str) -> None:
        """Pass ``index`` (from 1) of ``total`` starts."""
        self.current = (index, total, name)

    def line(self) -> str:
        index, total, name = self.current
        what = f"[{index}/{total}] {name}" if total else name
        elapsed = self.clock() - self.started
        return f"{self.label}: {what} {elapsed:.1f}s" if what else f"{self.label}: {elapsed:.1f}s"

    def tick(self) -> None:
        """Redraw the line if the delay is over and it changed."""
        if self.clock() - self.started < self.delay:
            return
        if self.width is None:
            self.width = _columns(self.stream)
        text = self.line()[: max(self.width - 1, 1)]  # a wrapped line could not be cleared
        with _lock:
            if text != self.shown and not self._stop.is_set():
                self.stream.write(f"\r{text}\x1b[K")
                self.stream.flush()
                self.shown = text

    def clear(self) -> None:
        with _lock:
            if self.shown:
                self.stream.write(CLEAR)
                self.stream.flush()
                self.shown = ""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="mlkit-progress", daemon=True)
        self._thread.start()

    def finish(self) -> None:
        """Stop the timer and clear the line."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        try:
            self.clear()
        except (OSError, ValueError):  # the terminal went away
            pass

    def _run(self) -> None:
        wait = max(self.delay, 0.0)
        while not self._stop.wait(wait):
            try:
                self.tick()
            except (OSError, ValueError):
                return
            wait = INTERVAL


def enabled(stream: TextIO) -> bool:
    """Whether a progress line may go to ``stream``: ``$MLKIT_PROGRESS``, else
    whether it is a terminal."""
    setting = os.environ.get(ENV, "").strip()
    if setting == "0":
        return False
    if setting == "1":
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def _columns(stream: TextIO) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (AttributeError, OSError, ValueError):
        return shutil.get_terminal_size().columns


def _delay() -> float:
    try:
        return float(os.environ.get(DELAY_ENV, DELAY))
    except ValueError:
        return DELAY


@contextmanager
def reporting(label: str, stream: TextIO | None = None) -> Iterator[Silent]:
    """A run that reports its stages to what it yields: a fresh line, the
    line of the run this thread is already in, or :data:`SILENT`."""
    global _active
    active = _active
    if active is not None and active.owner == threading.get_ident():
        yield active  # nested: one line for the outermost run
        return
    out = sys.stderr if stream is None else stream
    reporter = None
    if active is None and enabled(out):
        with _lock:
            if _active is None:
                reporter = _active = Reporter(label, out, _delay())
    if reporter is None:
        yield SILENT
        return
    reporter.start()
    try:
        yield reporter
    finally:
        reporter.finish()  # not under the lock: the timer may be waiting for it
        with _lock:
            _active = None


def current() -> Silent:
    """The line this thread reports to, or :data:`SILENT`."""
    active = _active
    if active is not None and active.owner == threading.get_ident():
        return active
    return SILENT


def stage(text: str) -> None:
    """Tell this thread's run (if any) that ``text`` starts."""
    current().stage(text)


class Guarded:
    """A stream whose writes clear the progress line first (see :func:`guarded`)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        with paused():
            return self.stream.write(text)

    def __getattr__(self, name: str) -> object:  # flush, isatty, fileno, buffer...
        return getattr(self.stream, name)


def guarded(stream: TextIO) -> TextIO:
    """``stream``, or where a progress line may go to it, ``stream`` with each
    write made on a clean line: what a tool's diagnostics and dumps go to."""
    if not enabled(stream):
        return stream
    return Guarded(stream)  # type: ignore[return-value]


@contextmanager
def paused() -> Iterator[None]:
    """Clear the line (if one is up) for a write to stderr; it comes back at
    the next redraw."""
    if _active is None:
        yield
        return
    with _lock:
        active = _active
        if active is not None:
            try:
                active.clear()
            except (OSError, ValueError):
                pass
        yield
