"""What ``mlkit-opt`` does once its arguments are parsed: read, split, parse,
verify, run the pipeline, check diagnostics and emit, as mlir-opt does."""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO

from xdsl.ir import Operation

from mlkit.diagnostics import Diagnostic, DiagnosticEngine, DiagnosticError, Severity, SourceLoc
from mlkit.diagnostics import SourceManager
from mlkit.pipeline.manager import Instrumentation, InternalError, OpPassManager, PassRunner
from mlkit.pipeline.manager import timing_report
from mlkit.pipeline import progress
from mlkit.pipeline.progress import SILENT, Silent
from mlkit.diagnostics.emit import set_handler
from mlkit.target.machine import TargetOptions, set_target_options
from mlkit.registry import Registry
from mlkit.driver.source_input import split_input

TRACEBACK_ENV = "MLKIT_TRACEBACK"


@dataclass
class OptOptions:
    """mlir-opt's options, as parsed from the command line."""

    input: str = "-"
    output: str = "-"
    pipeline: OpPassManager | None = None
    split_marker: str | None = None
    output_split_marker: str = "// -----"
    verify_diagnostics: bool = False
    verify_each: bool = True
    generic: bool = False
    debuginfo: bool = False
    local_scope: bool = False
    allow_unregistered: bool = False
    implicit_module: bool = True
    emit: str = "mlir"
    timing: bool = False
    dump_pipeline: bool = False
    verify_roundtrip: bool = False
    pass_report: str | None = None  # --pass-report=FILE.html
    timing_display: str = "tree"  # --mlir-timing-display=list|tree
    pass_statistics: str | None = None  # --mlir-pass-statistics: its display, list|pipeline
    elide_elements_larger: int | None = None
    show_traceback: bool = False
    instrumentation: Instrumentation = field(default_factory=Instrumentation)
    target: TargetOptions = field(default_factory=TargetOptions)  # --mtriple, --mcpu, --opt-level


class OptDriver:
    """One run of mlkit-opt over one input."""

    def __init__(self, opts: OptOptions, registry: Registry, stderr: TextIO) -> None:
        from mlkit.context import make_context

        self.opts = opts
        self.registry = registry
        self.stderr = stderr = progress.guarded(stderr)  # clears the progress line first
        self.sources = SourceManager()
        self.engine = DiagnosticEngine(self.sources, stderr, collect=opts.verify_diagnostics)
        self.ctx = make_context(registry, allow_unregistered=opts.allow_unregistered)
        set_handler(self.ctx, self.engine.emit)
        set_target_options(self.ctx, opts.target)
        self.parse_seconds = 0.0
        self.output_seconds = 0.0
        self.statistics: dict[int, Counter[str]] = {}  # --mlir-pass-statistics
        self.progress: Silent = SILENT  # the progress line on a terminal

    def print_op(self, op: Operation) -> str:
        from mlkit.syntax.printer import print_op

        opts = self.opts
        return print_op(
            op,
            generic=opts.generic,
            debuginfo=opts.debuginfo,
            elide_elements_larger=opts.elide_elements_larger,
            local_scope=opts.local_scope,
        )

    def process_chunk(self, text: str, name: str) -> str | bytes | None:
        """Parse, verify, transform and print one chunk; None after an error."""
        from mlkit.syntax.parser import parse_module
        from mlkit.diagnostics.verifier import verify_op_tree

        opts = self.opts
        try:
            self.progress.stage("parsing")
            start = time.perf_counter()
            module = parse_module(self.ctx, text, name, implicit_module=opts.implicit_module)
            verify_op_tree(module)
            self.parse_seconds += time.perf_counter() - start
            if opts.verify_roundtrip:
                self.verify_roundtrip(module, name)
            if opts.pipeline is not None:
                inst = opts.instrumentation
                inst.printer = self.print_op
                inst.dump = self._dump
                runner = PassRunner(
                    self.ctx, inst, opts.verify_each, name_failing_pass=not opts.verify_diagnostics
                )
                try:
                    runner.run(opts.pipeline, module)
                finally:
                    for node, counts in runner.statistics.items():
                        self.statistics.setdefault(node, Counter()).update(counts)
                self.timing = runner.timing
            self.progress.stage("printing" if opts.emit == "mlir" else f"emitting {opts.emit}")
            start = time.perf_counter()
            result = self.emit(module)
            self.output_seconds += time.perf_counter() - start
            return result
        except DiagnosticError as err:
            self.engine.emit(err.diagnostic)
            return None
        except RecursionError:
            self.engine.emit(Diagnostic(Severity.ERROR, "nesting too deep", SourceLoc(name)))
            return None

    def verify_roundtrip(self, module: Operation, name: str) -> None:
        """mlir-opt's ``--verify-roundtrip`` on the parsed input: its generic
        form with locations parses back to IR that prints the same. (mlkit
        has no bytecode, so only upstream's textual check runs.)"""
        from mlkit.diagnostics.emit import emit_error
        from mlkit.syntax.parser import parse_module
        from mlkit.syntax.printer import print_op

        reference = print_op(module, generic=True, debuginfo=True)
        try:
            again = parse_module(self.ctx, reference, name, implicit_module=False)
        except DiagnosticError:
            message = "failed to parse textual content back, cannot verify round-trip."
            raise emit_error(self.ctx, module, f"'{module.name}' op {message}") from None
        roundtrip = print_op(again, generic=True, debuginfo=True)
        if roundtrip != reference:
            raise emit_error(
                self.ctx,
                module,
                f"'{module.name}' op textual roundTrip testing roundtripped module differs "
                f"from reference:\n<<<<<<Reference\n{reference}\n=====\n{roundtrip}\n"
                ">>>>>roundtripped",
            )

    def _dump(self, text: str) -> None:
        self.stderr.write(text)

    def emit(self, module: Operation) -> str | bytes:
        if self.opts.emit == "mlir":
            return self.print_op(module) + "\n"
        emitter = self.registry.emitters[self.opts.emit].load()
        return emitter(module, self.ctx)


def run_opt(opts: OptOptions, registry: Registry, stdout: TextIO, stderr: TextIO) -> int:
    """Run mlkit-opt; returns the exit code. Bad input never raises."""
    from mlkit.driver.source_input import read_input

    total_start = time.perf_counter()
    driver = OptDriver(opts, registry, stderr)
    try:
        name, text = read_input(opts.input)
    except DiagnosticError as err:
        driver.engine.collect = False
        driver.engine.emit(err.diagnostic)
        return 1
    driver.sources.add(name, text)
    if opts.dump_pipeline and opts.pipeline is not None:
        stderr.write(f"Pass Manager with {sum(1 for _ in opts.pipeline.passes())} passes:\n")
        stderr.write(opts.pipeline.textual() + "\n")

    if opts.pass_report is not None:
        from mlkit.pipeline.report import PassReport

        opts.instrumentation.report = PassReport(f"mlkit-opt {name}")
    outputs: list[str | bytes] = []
    try:  # the progress line is gone before anything below writes to stderr
        with progress.reporting("mlkit-opt", stderr) as driver.progress:
            for chunk in split_input(text, opts.split_marker):
                result = driver.process_chunk(chunk.text, name)
                # a failed chunk prints nothing, but keeps its place between markers
                outputs.append("" if result is None else result)
    except InternalError as exc:
        return _internal_error(exc, opts, stderr)
    except Exception as exc:  # a bug, not bad input: short message, traceback on request
        return _internal_error(InternalError(f"{type(exc).__name__}: {exc}"), opts, stderr, exc)

    failed = driver.engine.error_count > 0
    if opts.verify_diagnostics:
        from mlkit.diagnostics.expectations import check_expectations, parse_expectations

        expectations, problems = parse_expectations(text, name)
        problems += check_expectations(expectations, driver.engine.collected)
        driver.engine.collect = False
        for problem in problems:
            driver.engine.emit(problem)
        failed = bool(problems)
    if opts.timing:
        total = time.perf_counter() - total_start
        timing = getattr(driver, "timing", None)
        from mlkit.pipeline.manager import TimingRecord

        stderr.write(
            timing_report(
                timing or TimingRecord("root"),
                total,
                driver.parse_seconds,
                driver.output_seconds,
                opts.timing_display,
            )
        )
    if opts.pass_statistics is not None and opts.pipeline is not None:
        from mlkit.pipeline.manager import statistics_report

        stderr.write(statistics_report(opts.pipeline, driver.statistics, opts.pass_statistics))
    if opts.pass_report is not None and opts.instrumentation.report is not None:
        if not _write_report(opts.instrumentation.report, opts.pass_report, stderr):
            return 1
    if failed:
        # As mlir-opt: with --split-input-file the chunks that succeeded are
        # still printed to standard output (a file is not written: it is kept
        # only when everything succeeds).
        if opts.split_marker and opts.output == "-" and not opts.verify_diagnostics:
            _write_output(outputs, opts, stdout, stderr)
        return 1
    return _write_output(outputs, opts, stdout, stderr)


def _write_report(report: object, path: str, stderr: TextIO) -> bool:
    from mlkit.pipeline.report import PassReport, write_report

    assert isinstance(report, PassReport)
    try:
        write_report(report, path)
    except OSError as exc:
        stderr.write(f"{path}: error: could not write the pass report: {exc.strerror or exc}\n")
        return False
    return True


def _join(outputs: list[str | bytes], marker: str) -> str | bytes:
    if all(isinstance(o, str) for o in outputs):
        sep = f"{marker}\n" if marker else ""
        return sep.join(o for o in outputs if isinstance(o, str))
    return b"".join(o.encode() if isinstance(o, str) else o for o in outputs)


def _write_output(
    outputs: list[str | bytes], opts: OptOptions, stdout: TextIO, stderr: TextIO
) -> int:
    """Write all output at once; a file is replaced atomically, never left half-written."""
    data = _join(outputs, opts.output_split_marker if opts.split_marker else "")
    if opts.output == "-":
        if isinstance(data, bytes):
            stdout.flush()
            getattr(stdout, "buffer", sys.stdout.buffer).write(data)
        else:
            stdout.write(data)
        stdout.flush()
        return 0
    from mlkit.files import write_atomically

    try:
        write_atomically(opts.output, data.encode() if isinstance(data, str) else data)
    except OSError as exc:
        stderr.write(
            f"{opts.output}: error: could not write output file: {exc.strerror or exc}\n"
        )
        return 1
    return 0


def _internal_error(
    exc: BaseException, opts: OptOptions, stderr: TextIO, cause: BaseException | None = None
) -> int:
    stderr.write(f"mlkit-opt: internal error: {exc}\n")
    if opts.show_traceback or os.environ.get(TRACEBACK_ENV):
        import traceback

        traceback.print_exception(cause or exc.__cause__ or exc, file=stderr)
    else:
        stderr.write(f"(set {TRACEBACK_ENV}=1 or pass --mlkit-traceback to see the traceback)\n")
    return 1
