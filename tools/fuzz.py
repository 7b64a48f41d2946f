"""``python -m mlkit.tools.fuzz``: a mutation fuzzer for ``mlkit-opt``.

It takes the ``.mlir`` files of a corpus (by default mlkit's ``lit_tests``),
mutates them (lines deleted, duplicated or swapped, characters dropped or
inserted, numbers made extreme, types swapped, the text cut short) and runs
each mutant through ``mlkit-opt`` with a pipeline drawn from a list, in a
worker process that the fuzzer restarts whenever a run hangs or the process
dies. A run passes when it exits 0, or 1 with a located ``error:`` on
stderr; a traceback, an ``internal error``, another exit status, a signal, a
hang past the time limit, or an output file left behind by a failed run is a
finding. The same seed gives the same mutants.

    python -m mlkit.tools.fuzz [--seconds 1200] [--seed 0] [--corpus DIR] [--out DIR]

Findings are printed, and saved (input and command) under ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PIPELINES: tuple[str, ...] = (
    "",
    "builtin.module(canonicalize)",
    "builtin.module(cse)",
    "builtin.module(canonicalize, cse)",
    "builtin.module(lower-to-cpu)",
    "builtin.module(lower-to-cpu{fusion=false threads=false})",
    "builtin.module(convert-scf-to-cf)",
    "builtin.module(lower-affine)",
    "builtin.module(convert-linalg-to-loops)",
    "builtin.module(one-shot-bufferize{bufferize-function-boundaries})",
    "builtin.module(func.func(linalg-fuse-elementwise-ops))",
    "builtin.module(convert-to-llvm, reconcile-unrealized-casts)",
    "builtin.module(convert-scf-to-openmp)",
    "builtin.module(inline, symbol-dce)",
    "builtin.module(loop-invariant-code-motion)",
    "builtin.module(expand-strided-metadata)",
)
EXTREMES = ("0", "-1", "1", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
            "18446744073709551616", "4294967296", "99999999999999999999", "1.0e308", "nan")
TYPES = ("i1", "i8", "i32", "i64", "index", "f16", "bf16", "f32", "f64", "f80", "f128",
         "i0", "vector<4xf32>", "tensor<?xf32>", "memref<?xf32>", "none", "!llvm.ptr")
PUNCTUATION = "{}()[]<>%@^:,=\"#!-?x0123456789 \n"
_NUMBER = re.compile(r"(?<![\w.#%@^])-?\d+(\.\d+)?")
_TYPE = re.compile(r"\b(i1|i8|i16|i32|i64|index|f16|bf16|f32|f64)\b")
ERROR_LINE = re.compile(r"(^|\n)[^\n]*error: ")
Mutation = Callable[[str, random.Random], str]


@dataclass(frozen=True)
class Run:
    """One mutant and the command line it runs under."""

    name: str
    text: str
    args: tuple[str, ...]


@dataclass
class Finding:
    run: Run
    reason: str
    stderr: str = ""


@dataclass
class Outcome:
    runs: int = 0
    findings: list[Finding] = field(default_factory=list)


# -- mutations ---------------------------------------------------------------------------


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with one to three random edits."""
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(_MUTATIONS)(text, rng)
    return text


def _lines(text: str) -> list[str]:
    return text.split("\n") or [""]


def _delete_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def _duplicate_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    k = rng.randrange(len(lines))
    lines.insert(k, lines[k])
    return "\n".join(lines)


def _swap_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _drop_char(text: str, rng: random.Random) -> str:
    if not text:
        return text
    k = rng.randrange(len(text))
    return text[:k] + text[k + 1:]


def _insert_char(text: str, rng: random.Random) -> str:
    k = rng.randrange(len(text) + 1)
    return text[:k] + rng.choice(PUNCTUATION) + text[k:]


def _replacing(pattern: re.Pattern[str], choices: Sequence[str]) -> Mutation:
    """A mutation that replaces one match of ``pattern`` by one of ``choices``."""

    def replace(text: str, rng: random.Random) -> str:
        found = list(pattern.finditer(text))
        if not found:
            return text
        m = rng.choice(found)
        return text[:m.start()] + rng.choice(choices) + text[m.end():]

    return replace


_extreme_number = _replacing(_NUMBER, EXTREMES)
_swap_type = _replacing(_TYPE, TYPES)


def _truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _nest(text: str, rng: random.Random) -> str:
    """Wrap a random line in many nested regions."""
    lines = _lines(text)
    k = rng.randrange(len(lines))
    depth = rng.choice((50, 500, 3000))
    lines[k] = '"test.op"() ({' * depth + lines[k] + "}) : () -> ()" * depth
    return "\n".join(lines)


_MUTATIONS = (
    _delete_line, _delete_line, _duplicate_line, _swap_lines, _drop_char, _drop_char,
    _insert_char, _insert_char, _extreme_number, _extreme_number, _swap_type, _swap_type,
    _truncate, _nest,
)  # fmt: skip


def corpus(root: Path) -> list[tuple[str, str]]:
    """(name, text) of every ``.mlir`` file below ``root``, outside ``Output``
    folders and without RUN lines that need other tools."""
    found = []
    for path in sorted(root.rglob("*.mlir")):
        if "Output" in path.parts or "Inputs" in path.parts:
            continue
        found.append((str(path.relative_to(root)), path.read_text(errors="replace")))
    return found


def runs(files: Sequence[tuple[str, str]], rng: random.Random) -> Iterator[Run]:
    """An endless stream of mutants and command lines."""
    while True:
        name, text = rng.choice(files)
        args = ["--split-input-file"] if "// -----" in text and rng.random() < 0.7 else []
        pipeline = rng.choice(PIPELINES)
        if pipeline:
            args += ["-p", pipeline]
        if "expected-" in text and rng.random() < 0.3:
            args.append("--verify-diagnostics")
        if rng.random() < 0.15:
            args.append("--emit=llvm")
        yield Run(name, mutate(text, rng), tuple(args))


# -- running -----------------------------------------------------------------------------

_TRACEBACK = re.compile(r"(^|\n)Traceback \(most recent call last\)")
_INTERNAL = re.compile(r"(^|\n)mlkit-[a-z]+: internal error")


def stderr_flags(text: str) -> list[str]:
    """What a run's stderr holds: a traceback, an internal error, a located error."""
    found = [("Traceback", _TRACEBACK), ("internal error", _INTERNAL), ("located error", ERROR_LINE)]
    return [name for name, pattern in found if pattern.search(text)]


def serve() -> None:
    """The worker: ``mlkit-opt`` in-process for each JSON job on stdin, an
    answer (exit code, flags, stderr's head and tail) per line on stdout."""
    import io
    import traceback

    from mlkit.driver.deep_stack import run_with_deep_stack
    from mlkit.tools.opt import run

    for line in sys.stdin:
        job = json.loads(line)
        out, err = io.StringIO(), io.StringIO()
        try:
            code = run_with_deep_stack(lambda: run(job["argv"], out, err))
        except BaseException:  # the finding is the escape itself
            err.write(traceback.format_exc())
            code = -1
        text = err.getvalue()
        snippet = text if len(text) < 4000 else text[:2000] + "\n...\n" + text[-2000:]
        answer = {"code": code, "flags": stderr_flags(text), "stderr": snippet}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


class Worker:
    """A process that runs ``mlkit-opt`` in-process for one job after another."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from mlkit.tools.fuzz import serve; serve()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1,
            )  # fmt: skip
        return self.proc

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def run(self, argv: list[str], timeout: float) -> tuple[int | None, set[str], str]:
        """(exit code, what stderr holds, stderr's head and tail), or
        (None, {}, why) for a hang or a dead worker."""
        import selectors

        proc = self.start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps({"argv": argv}) + "\n")
        proc.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            if not selector.select(timeout):
                self.stop()
                return None, set(), f"no answer within {timeout:.0f} s (hang)"
        line = proc.stdout.readline()
        if not line:
            code = proc.wait()
            self.proc = None
            return None, set(), f"the process died (exit status {code})"
        answer = json.loads(line)
        return answer["code"], set(answer["flags"]), answer["stderr"]


def check(code: int | None, flags: set[str], stderr: str, output: Path) -> str | None:
    """Why the run is a finding, or None."""
    if code is None:
        return stderr
    if "Traceback" in flags:
        return "a Python traceback"
    if "internal error" in flags:
        return "an internal error"
    if code not in (0, 1):
        return f"exit status {code}"
    if code == 1 and "located error" not in flags:
        return "exit 1 without an error message"
    if code == 1 and output.exists():
        return "a failed run left its output file"
    return None


def fuzz(
    seconds: float, seed: int, root: Path, timeout: float = 20.0, limit: int | None = None
) -> Outcome:
    """Fuzz for ``seconds`` (or ``limit`` runs) from ``seed``."""
    rng = random.Random(seed)
    files = corpus(root)
    outcome = Outcome()
    worker = Worker()
    deadline = time.monotonic() + seconds
    try:
        with tempfile.TemporaryDirectory(prefix="mlkit-fuzz-") as scratch:
            source, output = Path(scratch) / "input.mlir", Path(scratch) / "out.txt"
            for run in runs(files, rng):
                if time.monotonic() >= deadline or (limit is not None and outcome.runs >= limit):
                    break
                source.write_text(run.text)
                output.unlink(missing_ok=True)
                argv = [str(source), *run.args, "-o", str(output)]
                code, flags, stderr = worker.run(argv, timeout)
                outcome.runs += 1
                reason = check(code, flags, stderr, output)
                if reason is not None:
                    outcome.findings.append(Finding(run, reason, stderr))
    finally:
        worker.stop()
    return outcome


def save(findings: Sequence[Finding], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for k, finding in enumerate(findings):
        (out / f"finding-{k}.mlir").write_text(finding.run.text)
        (out / f"finding-{k}.txt").write_text(
            f"from: {finding.run.name}\nargs: {' '.join(finding.run.args)}\n"
            f"reason: {finding.reason}\n\n{finding.stderr}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1200.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpus", type=Path, default=Path(__file__).parents[1] / "lit_tests")
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"))
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds one run may take")
    args = parser.parse_args(argv)
    os.environ.setdefault("MLKIT_NUM_THREADS", "1")
    outcome = fuzz(args.seconds, args.seed, args.corpus, args.timeout)
    for finding in outcome.findings:
        print(f"{finding.run.name} [{' '.join(finding.run.args)}]: {finding.reason}")
    print(f"{outcome.runs} runs, {len(outcome.findings)} findings")
    if outcome.findings:
        save(outcome.findings, args.out)
        print(f"saved under {args.out}/")
    return 1 if outcome.findings else 0


if __name__ == "__main__":
    sys.exit(main())
