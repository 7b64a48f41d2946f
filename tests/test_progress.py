"""The progress line of long runs (:mod:`mlkit.pipeline.progress`): on a
terminal it shows, is rewritten in place and is gone when the run ends, and
diagnostics never land on it; on a pipe nothing extra is ever written.

The subprocess tests put stderr on a real pseudo-terminal and lower the
one-second delay with ``MLKIT_PROGRESS_DELAY=0``."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mlkit.pipeline import progress
from mlkit.pipeline.progress import CLEAR, SILENT, Reporter

ROOT = Path(__file__).resolve().parent.parent
DENSE = ROOT / "examples" / "dense-layer.mlir"
OPT = [sys.executable, "-m", "mlkit.tools.opt"]

# a draw: carriage return, the text, clear to the end of the line; or a clear alone
TOKEN = re.compile(r"\r(?P<draw>[^\r\n\x1b]*)\x1b\[K|(?P<text>[^\r\x1b]+|\r)")


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MLKIT_PROGRESS")}
    env.update(extra)
    return env


def on_pty(argv: list[str], env: dict[str, str], tmp_path: Path) -> tuple[int, str, str]:
    """Run ``argv`` with stderr on a pseudo-terminal: (exit code, stdout, what
    the terminal received, newlines as the terminal driver sends them)."""
    master, slave = os.openpty()
    out_path = tmp_path / "stdout.txt"
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=out, stderr=slave, env=env, cwd=ROOT
        )
    os.close(slave)
    chunks: list[bytes] = []
    try:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed its side
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
    rc = proc.wait(timeout=60)
    terminal = b"".join(chunks).decode().replace("\r\n", "\n")
    return rc, out_path.read_text(), terminal


def screen(terminal: str) -> tuple[list[str], str]:
    """The progress texts drawn, and the rest of what was written; fails if
    anything was written after a drawn line before it was cleared, or if the
    last line was left up."""
    draws: list[str] = []
    rest: list[str] = []
    dirty = False
    for m in TOKEN.finditer(terminal):
        if m.group("draw") is not None:
            if m.group("draw"):
                draws.append(m.group("draw"))
            dirty = bool(m.group("draw"))
        else:
            assert not dirty, f"{m.group('text')!r} written on the progress line: {terminal!r}"
            rest.append(m.group("text"))
    assert not dirty, f"the progress line was left up: {terminal!r}"
    return draws, "".join(rest)


# the reporter on its own, with a fake clock


def test_nothing_during_the_delay_then_one_line_rewritten_in_place() -> None:
    clock, stream = FakeClock(), io.StringIO()
    line = Reporter("mlkit-opt", stream, delay=1.0, clock=clock, width=80)
    line.step(12, 40, "convert-linalg-to-loops")
    clock.now += 0.9
    line.tick()
    assert stream.getvalue() == ""
    clock.now += 0.5
    line.tick()
    assert stream.getvalue() == "\rmlkit-opt: [12/40] convert-linalg-to-loops 1.4s\x1b[K"
    line.tick()  # nothing changed: nothing written
    assert stream.getvalue().count("\r") == 1
    line.stage("LLVM: generating code")
    line.tick()
    assert stream.getvalue().endswith("\rmlkit-opt: LLVM: generating code 1.4s\x1b[K")
    line.clear()
    assert stream.getvalue().endswith(CLEAR)
    line.clear()  # already clear: nothing more
    assert stream.getvalue().count(CLEAR) == 1


def test_the_line_is_cut_to_the_terminal_width() -> None:
    clock, stream = FakeClock(), io.StringIO()
    line = Reporter("mlkit", stream, delay=0.0, clock=clock, width=20)
    line.step(1, 2, "a-pass-with-a-very-long-name")
    line.tick()
    drawn = stream.getvalue()
    assert drawn == "\r" + "mlkit: [1/2] a-pass-with"[:19] + "\x1b[K"


def test_off_on_a_pipe_forced_and_disabled_by_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv(progress.ENV, raising=False)
    assert not progress.enabled(io.StringIO())
    assert progress.enabled(Tty())
    monkeypatch.setenv(progress.ENV, "0")
    assert not progress.enabled(Tty())
    monkeypatch.setenv(progress.ENV, "1")
    assert progress.enabled(io.StringIO())
    monkeypatch.setenv(progress.ENV, "0")
    plain = io.StringIO()
    assert progress.guarded(plain) is plain  # nothing in between where no line may show


def test_one_line_per_process_nested_runs_join_other_threads_stay_silent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(progress.ENV, "1")
    monkeypatch.setenv(progress.DELAY_ENV, "1000")  # the timer never draws
    stream = io.StringIO()
    seen: list[object] = []
    with progress.reporting("outer", stream) as outer:
        assert isinstance(outer, Reporter)
        with progress.reporting("inner", stream) as inner:
            assert inner is outer
            assert progress.current() is outer
        other = threading.Thread(
            target=lambda: seen.append(progress.reporting("other", stream).__enter__())
        )
        other.start()
        other.join()
        assert seen == [SILENT]
        thread = outer._thread
        assert thread is not None and thread.is_alive()
    assert not thread.is_alive()  # stopped and joined
    assert progress.current() is SILENT
    assert stream.getvalue() == ""


def test_a_diagnostic_to_a_guarded_stream_clears_the_line_first(monkeypatch: pytest.MonkeyPatch) -> None:
    from mlkit.diagnostics import Diagnostic, DiagnosticEngine, Severity, SourceLoc
    from mlkit.diagnostics import SourceManager

    monkeypatch.setenv(progress.ENV, "1")
    monkeypatch.setenv(progress.DELAY_ENV, "1000")
    stream = io.StringIO()
    with progress.reporting("mlkit-opt", stream) as line:
        assert isinstance(line, Reporter)
        line.delay = 0.0
        line.stage("parsing")
        line.tick()
        engine = DiagnosticEngine(SourceManager(), progress.guarded(stream))
        engine.emit(Diagnostic(Severity.WARNING, "careful", SourceLoc("f.mlir")))
    draws, rest = screen(stream.getvalue())
    assert draws and draws[0].startswith("mlkit-opt: parsing ")
    assert rest == "f.mlir: warning: careful\n"


# mlkit-opt and mlkit.compile with stderr on a terminal, or on a pipe


def test_mlkit_opt_on_a_terminal_shows_the_passes_and_clears_the_line(tmp_path: Path) -> None:
    env = environment(**{progress.DELAY_ENV: "0"})
    argv = [*OPT, str(DENSE), "-p", "builtin.module(lower-to-cpu)"]
    rc, out, terminal = on_pty(argv, env, tmp_path)
    assert rc == 0, terminal
    assert "llvm.func @dense_relu" in out
    draws, rest = screen(terminal)
    assert rest == ""
    assert any(re.fullmatch(r"mlkit-opt: \[\d+/\d+\] [\w-]+ \d+\.\ds", d) for d in draws), draws
    assert terminal.endswith(CLEAR)


def test_mlkit_opt_dumps_and_errors_start_on_a_clean_line(tmp_path: Path) -> None:
    env = environment(**{progress.DELAY_ENV: "0"})
    pipeline = "builtin.module(" + "canonicalize," * 6 + "convert-to-llvm)"
    argv = [*OPT, str(DENSE), "-p", pipeline, "--mlir-print-ir-after=canonicalize"]
    rc, out, terminal = on_pty(argv, env, tmp_path)
    assert rc == 1 and out == ""
    draws, rest = screen(terminal)  # fails if a dump or the error landed on the line
    assert draws
    assert rest.startswith("// -----// IR Dump After Canonicalizer"), terminal
    assert rest.count("// -----// IR Dump After") == 6
    error = f"\n{DENSE}:12:3: error: 'linalg.matmul' op"
    assert error in rest and rest.index(error) > rest.rindex("IR Dump After")


def test_nothing_extra_on_a_pipe_when_turned_off_or_when_quick(tmp_path: Path) -> None:
    argv = [*OPT, str(DENSE), "-p", "builtin.module(func.func(canonicalize,cse))"]
    piped = subprocess.run(
        argv, capture_output=True, text=True, env=environment(**{progress.DELAY_ENV: "0"})
    )
    assert piped.returncode == 0 and piped.stderr == ""
    env = environment(**{progress.DELAY_ENV: "0", progress.ENV: "0"})
    rc, _, terminal = on_pty(argv, env, tmp_path)
    assert rc == 0 and terminal == ""
    # a run shorter than the second's delay shows nothing on a terminal either
    hello = [*OPT, str(ROOT / "examples" / "hello.mlir"), "-p", "builtin.module(cse)"]
    rc, _, terminal = on_pty(hello, environment(), tmp_path)
    assert rc == 0 and terminal == ""


COMPILE = f"""
import sys, mlkit
prog = mlkit.compile(open({str(DENSE)!r}).read(), cache=False)
sys.stderr.write("done\\n")
"""


def test_mlkit_compile_on_a_terminal(tmp_path: Path) -> None:
    env = environment(**{progress.DELAY_ENV: "0", "MLKIT_CACHE_DIR": str(tmp_path / "cache")})
    rc, _, terminal = on_pty([sys.executable, "-c", COMPILE], env, tmp_path)
    assert rc == 0, terminal
    draws, rest = screen(terminal)
    assert rest == "done\n"
    assert draws and all(d.startswith("mlkit.compile: ") for d in draws), draws
    assert any(re.match(r"mlkit.compile: \[\d+/\d+\] ", d) for d in draws), draws
