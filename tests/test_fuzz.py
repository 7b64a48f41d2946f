"""A seeded mutation fuzz run over the lit inputs (:mod:`mlkit.tools.fuzz`):
every mutant through ``mlkit-opt`` with a drawn pipeline exits 0, or 1 with a
located error; no hang, traceback, internal error or leftover output file.
Bounded to a fixed number of runs and about a minute; the long campaign is
``python -m mlkit.tools.fuzz --seconds 1200``."""

from __future__ import annotations

from pathlib import Path

from mlkit.tools import fuzz

LIT = Path(__file__).parents[1] / "lit_tests"


def test_mutants_fail_cleanly() -> None:
    outcome = fuzz.fuzz(seconds=75, seed=20261202, root=LIT, timeout=30, limit=600)
    assert outcome.runs >= 100, f"only {outcome.runs} runs"
    report = [
        f"{f.run.name} [{' '.join(f.run.args)}]: {f.reason}\n{f.stderr[:400]}"
        for f in outcome.findings
    ]
    assert not report, "\n\n".join(report)


def test_checker_sees_each_kind_of_finding(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert fuzz.check(0, set(), "", out) is None
    assert fuzz.check(1, {"located error"}, "x.mlir:1:1: error: bad", out) is None
    assert fuzz.check(1, set(), "", out) == "exit 1 without an error message"
    assert fuzz.check(1, {"Traceback", "located error"}, "", out) == "a Python traceback"
    assert fuzz.check(1, {"internal error"}, "", out) == "an internal error"
    assert fuzz.check(-11, set(), "", out) == "exit status -11"
    assert fuzz.check(None, set(), "no answer within 5 s (hang)", out).endswith("(hang)")
    out.write_text("half")
    assert fuzz.check(1, {"located error"}, "", out) == "a failed run left its output file"


def test_worker_reports_a_hang_and_recovers() -> None:
    worker = fuzz.Worker()
    try:
        bad_pass = ["--pass-pipeline=builtin.module(nonexistent-pass)"]
        code, flags, _ = worker.run(bad_pass, 60)
        assert code == 1 and "Traceback" not in flags
        # a run the worker cannot finish in time: its input (the worker's stdin) never ends
        code, _, why = worker.run(["-"], 2)
        assert code is None and "hang" in why
        code, flags, _ = worker.run(bad_pass, 60)  # a fresh worker took over
        assert code == 1 and "Traceback" not in flags
    finally:
        worker.stop()


def test_mutations_are_seeded() -> None:
    import random

    text = (LIT / "Dialect" / "arith" / "ops.mlir").read_text()
    first = [fuzz.mutate(text, random.Random(7)) for _ in range(3)]
    again = [fuzz.mutate(text, random.Random(7)) for _ in range(3)]
    assert first == again and first[0] != text


def test_stderr_flags_read_line_starts_only() -> None:
    assert fuzz.stderr_flags("x.mlir:1:2: error: bad\n") == ["located error"]
    assert "internal error" in fuzz.stderr_flags("mlkit-opt: internal error: boom\n")
    assert fuzz.stderr_flags("Traceback (most recent call last):\n") == ["Traceback"]
    # an echoed source line that mentions a traceback is not one
    assert fuzz.stderr_flags("  // TRACE: Traceback (most recent call last)\n") == []
