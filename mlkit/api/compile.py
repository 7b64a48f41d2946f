"""``mlkit.compile``: compile MLIR text (or a parsed module) and call its
public functions from Python on numpy arrays.

    prog = mlkit.compile(text)
    c = prog.matmul(a, b, c)

A target is a backend (:mod:`mlkit.api.backend`): ``"cpu"``, whose default
pipeline is ``builtin.module(lower-to-cpu)``, or ``"cuda"``, whose is
``builtin.module(lower-to-cuda)`` and whose kernels run on the GPU through
:mod:`mlkit.runtime.cuda` (see :mod:`mlkit.api.cuda` for where the data
lives). Each public ``func.func`` is compiled with ``llvm.emit_c_interface``
and called through its ``_mlir_ciface_<name>`` wrapper; the JIT is
:mod:`mlkit.execution.jit`, the same one ``mlkit-run`` uses.

A :class:`Compiler` owns its cache (in memory and on disk,
:mod:`mlkit.api.cache`), its backends and its counters; ``mlkit.compile``
uses the process's :func:`default_compiler`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from xdsl.ir import Operation

from mlkit.api.backend import BACKENDS, Backend, load_backend
from mlkit.api.cache import CompileCache
from mlkit.api.call import Memory
from mlkit.api.program import CompiledProgram
from mlkit.api.deep import call_deep
from mlkit.api.signature import Signature, checked_signature, ciface_llvm_type
from mlkit.api.signature import record_signatures
from mlkit.pipeline import progress

if TYPE_CHECKING:
    from mlkit.pipeline.report import PassReport

__all__ = ["CompileStats", "CompiledProgram", "Compiler", "compile", "default_compiler"]

DEFAULT_TARGET = "cpu"
SOURCE_NAME = "<mlkit.compile>"
PROGRESS_LABEL = "mlkit.compile"  # the progress line on a terminal


@dataclass
class CompileStats:
    """How often a compiler's slow paths ran."""

    pipeline_runs: int = 0
    jit_compiles: int = 0
    disk_hits: int = 0
    memory_hits: int = 0


class Compiler:
    """Compiles MLIR for the targets of ``backends`` (name -> ``module:Class``
    of a :class:`~mlkit.api.backend.Backend`), caching what it compiled."""

    def __init__(
        self, cache: CompileCache | None = None, backends: Mapping[str, str] = BACKENDS
    ) -> None:
        self.cache = cache if cache is not None else CompileCache()
        self.stats = CompileStats()
        self._backend_paths = dict(backends)
        self._backends: dict[str, Backend] = {}

    def backend(self, target: str) -> Backend:
        """The backend of ``target``; ValueError for an unknown target."""
        if target not in self._backends:
            self._backends[target] = load_backend(target, self._backend_paths)
        return self._backends[target]

    def compile(
        self,
        source_or_module: str | Operation,
        pipeline: str | None = None,
        opt_level: int = 3,
        *,
        cache: bool = True,
        target: str = DEFAULT_TARGET,
        num_threads: int | None = None,
        runtime_checks: bool = False,
        report: str | os.PathLike[str] | None = None,
    ) -> CompiledProgram:
        """Compile MLIR text or a module for ``target`` and return its public
        functions, callable on numpy arrays.

        ``source_or_module`` is MLIR text, or a module parsed with
        :func:`mlkit.parse_module`. ``pipeline`` is the textual pipeline to lower it
        with (``"builtin.module(lower-to-cpu{vector-bits=256})"``); by default the
        target's own, ``lower-to-cpu`` or ``lower-to-cuda``. A pipeline of one's own
        must end in the llvm dialect. ``opt_level`` (0 to 3) is LLVM's optimisation
        level. ``target`` is ``"cpu"`` or ``"cuda"``. With ``cache`` (the default) a
        program compiled before with the same text, pipeline, target and options is
        reused from memory or from the disk cache (``$MLKIT_CACHE_DIR``);
        ``cache=False`` always compiles afresh.

        Returns a :class:`~mlkit.api.program.CompiledProgram`: ``prog.name(...)`` or
        ``prog["name"](...)`` calls a public function, ``prog.mlir`` and
        ``prog.mlir_after(pass_name)`` show the lowered MLIR. Raises ValueError (with
        the located message) for IR that does not parse, verify or lower, for an
        ``opt_level`` outside 0 to 3, and for a target that is not usable here.

        ``num_threads`` fixes the threads each parallel loop of the default CPU
        pipeline uses; without it they use the runtime's count (all cores, or
        ``$MLKIT_NUM_THREADS``), read when the program runs.

        ``runtime_checks`` checks memref accesses and casts when the code runs
        (``lower-to-cpu{runtime-checks}``; a pipeline of one's own needs
        ``generate-runtime-verification`` in it): a failed check raises
        :class:`mlkit.runtime.checks.RuntimeCheckError` naming the op and its
        location, instead of crashing the process.

        ``report`` writes an HTML page of the pipeline's run to that path: each
        pass with its time, the IR after it and a diff against the IR before
        (as ``mlkit-opt --pass-report``). The pipeline then runs even when the
        program is in the cache."""
        from mlkit.execution.jit import JitOptions

        if opt_level not in (0, 1, 2, 3):
            raise ValueError(f"opt_level must be 0, 1, 2 or 3, got {opt_level!r}")
        if runtime_checks and target != "cpu":
            raise ValueError("runtime_checks is for the cpu target")
        if num_threads is not None or (runtime_checks and pipeline is None):
            pipeline = _cpu_pipeline(num_threads, runtime_checks, pipeline, target)
        backend = self.backend(target)
        memory = backend.memory()
        pipeline = backend.pipeline if pipeline is None else pipeline
        if isinstance(source_or_module, str):
            text = source_or_module
        else:  # printing a deeply nested module recurses as deeply
            text = call_deep(lambda: _module_text(source_or_module))
        options = JitOptions(opt_level=opt_level, runtime_checks=bool(runtime_checks))
        k = self.cache.key(text, f"{target}:{pipeline}", options)
        if report is not None:
            return self._reported(text, pipeline, options, backend, memory, os.fspath(report))
        if cache and k in self.cache.memory:
            self.stats.memory_hits += 1
            return self.cache.memory[k]
        program = self._from_disk(k, options, memory) if cache else None
        if program is not None:
            program._relower = lambda: self._relower(text, pipeline)
            return program
        compiled, signatures, unsupported = call_deep(
            lambda: self._compile_fresh(text, pipeline, options, backend)
        )
        self.stats.jit_compiles += 1
        llvm_ir = compiled.llvm_ir
        program = CompiledProgram(compiled, signatures, llvm_ir, unsupported, memory)
        program._relower = lambda: self._relower(text, pipeline)
        if cache:
            self.cache.memory[k] = program
            # code whose C interfaces do not match its signatures (a pipeline of
            # one's own may leave them out) is not stored: loading it would fail
            if _symbol_problem(compiled, signatures) is None:
                sigs = [s.to_json() for s in signatures.values()]
                self.cache.store(
                    k, llvm_ir, sigs, unsupported, compiled.machine, compiled.objects
                )
        return program

    def _reported(
        self, text: str, pipeline: str, options: Any, backend: Backend, memory: Memory, path: str
    ) -> CompiledProgram:
        """A fresh compile that records every pass for the page at ``path``."""
        from mlkit.pipeline.report import PassReport, write_report

        record = PassReport(f"mlkit.compile: {pipeline}")
        compiled, signatures, unsupported = call_deep(
            lambda: self._compile_fresh(text, pipeline, options, backend, record)
        )
        self.stats.jit_compiles += 1
        write_report(record, path)
        program = CompiledProgram(compiled, signatures, compiled.llvm_ir, unsupported, memory)
        program._report = record
        return program

    def _compile_fresh(
        self,
        text: str,
        pipeline: str,
        options: Any,
        backend: Backend,
        report: PassReport | None = None,
    ) -> tuple[Any, dict[str, Signature], dict[str, str]]:
        """Parse, verify, lower and JIT ``text`` (on the deep-stack thread);
        ValueError with the located message for IR that fails."""
        from mlkit.diagnostics import DiagnosticError
        from mlkit.execution.jit import JitError, jit_compile

        try:
            with progress.reporting(PROGRESS_LABEL):  # cleared before any error is raised
                unsupported: dict[str, str] = {}
                module, signatures = self._lower(text, pipeline, unsupported, report)
                backend.prepare_host(module)  # type: ignore[arg-type]
                backend.enter_thread()  # the JIT runs the module's constructors here
                compiled = jit_compile(module, options, keep_objects=True)
        except DiagnosticError as err:
            from mlkit.diagnostics import SourceManager, format_diagnostic

            sources = SourceManager()
            sources.add(SOURCE_NAME, text)
            raise ValueError(format_diagnostic(err.diagnostic, sources).rstrip()) from None
        except JitError as exc:
            raise ValueError(str(exc)) from None
        return compiled, signatures, unsupported

    def _from_disk(self, k: str, options: Any, memory: Memory) -> CompiledProgram | None:
        """The program of the disk entry ``k``, loaded from its object code
        (or JIT-compiled from its LLVM IR where that does not fit);
        None without an entry, or for a damaged one (discarded: the caller
        compiles afresh and rewrites it). Every function the signatures name
        must be defined in the compiled code with the C interface they
        describe before any callable is handed out: calling a symbol that is
        not there, or with the wrong arguments, would crash the process."""
        from mlkit.execution.jit import jit_compile_llvm_ir

        entry = self.cache.load(k)
        if entry is None:
            return None
        try:
            sigs: dict[str, Signature] = {}
            for d in entry["signatures"]:
                sig = checked_signature(d)
                if sig.name in sigs:
                    raise ValueError(f"@{sig.name} has two signatures")
                sigs[sig.name] = sig
            names = [f"_mlir_ciface_{n}" for n in sigs]
            with progress.reporting(PROGRESS_LABEL) as line:
                line.stage("loading from the cache")
                compiled = jit_compile_llvm_ir(
                    entry["llvm_ir"],
                    names,
                    options,
                    optimize=False,
                    objects=(entry["machine"], entry["objects"]),
                )
        except Exception as exc:  # noqa: BLE001 - damaged: LLVM rejects it, or the signatures
            self.cache.discard(k, f"{type(exc).__name__}: {str(exc).strip()[:300]}")
            return None
        problem = _symbol_problem(compiled, sigs)
        if problem is not None:
            self.cache.discard(k, problem)
            return None
        self.stats.disk_hits += 1
        self.stats.jit_compiles += 1
        program = CompiledProgram(compiled, sigs, entry["llvm_ir"], entry["unsupported"], memory)
        self.cache.memory[k] = program
        return program

    def _relower(self, text: str, pipeline: str) -> PassReport:
        """Run the pipeline on ``text`` again with every pass recorded (for
        ``prog.mlir``); the code is not compiled again."""
        from mlkit.pipeline.report import PassReport

        report = PassReport(f"mlkit.compile: {pipeline}")
        call_deep(lambda: self._lower(text, pipeline, {}, report))
        return report

    def _lower(
        self,
        text: str,
        pipeline: str,
        unsupported: dict[str, str],
        report: PassReport | None = None,
    ) -> tuple[Operation, dict[str, Signature]]:
        from mlkit.context import make_context
        from mlkit.diagnostics.verifier import verify_op_tree
        from mlkit.pipeline.manager import PassRunner, PipelineBuilder, PipelineError
        from mlkit.plugins import default_registry
        from mlkit.syntax.parser import parse_module

        with progress.reporting(PROGRESS_LABEL) as line:  # in _compile_fresh's, if any
            registry = default_registry()
            ctx = make_context(registry)
            line.stage("parsing")
            module = parse_module(ctx, text, SOURCE_NAME)
            verify_op_tree(module)
            signatures = record_signatures(module, unsupported)
            try:
                pm = PipelineBuilder(registry).parse(pipeline, top_anchor="builtin.module")
            except PipelineError as exc:
                raise ValueError(exc.render()) from None
            self.stats.pipeline_runs += 1
            # verified as it came in and once the pipeline is done, not after every
            # pass: that was half of a small kernel's compile time. A pass that
            # crashes on IR an earlier one broke still gets the located error.
            instrumentation = None
            if report is not None:
                from mlkit.pipeline.manager import Instrumentation
                from mlkit.syntax.printer import print_op

                instrumentation = Instrumentation(report=report, printer=print_op)
            PassRunner(ctx, instrumentation, verify_each=False).run(pm, module)
            line.stage("verifying")
            verify_op_tree(module)
        return module, signatures


def _symbol_problem(compiled: Any, signatures: Mapping[str, Signature]) -> str | None:
    """Why the code of ``compiled`` does not carry the C interfaces that
    ``signatures`` describe (a defined ``_mlir_ciface_<name>`` of the LLVM
    types the callable will pass), or None."""
    module = compiled.llvm_module
    for name, sig in signatures.items():
        symbol = f"_mlir_ciface_{name}"
        try:
            fn = module.get_function(symbol)
        except NameError:
            return f"the code has no '{symbol}' for @{name}"
        if fn.is_declaration:
            return f"the code declares '{symbol}' for @{name} but does not define it"
        types = [str(t) for t in fn.global_value_type.elements]
        want_ret, want_params = ciface_llvm_type(sig)
        if (types[0], tuple(types[1:])) != (want_ret, want_params):
            return (
                f"'{symbol}' is {types[0]} ({', '.join(types[1:])}), but the signature of "
                f"@{name} calls for {want_ret} ({', '.join(want_params)})"
            )
        if not compiled.engine.get_function_address(symbol):
            return f"the JIT gives '{symbol}' no address"
    return None


_DEFAULT_COMPILER = Compiler()


def default_compiler() -> Compiler:
    """The compiler ``mlkit.compile`` uses, with the process's cache."""
    return _DEFAULT_COMPILER


compile = _DEFAULT_COMPILER.compile  # mlkit.compile


def _cpu_pipeline(
    num_threads: object, runtime_checks: bool, pipeline: str | None, target: str
) -> str:
    """The default CPU pipeline with ``num_threads`` threads per parallel loop
    and runtime checks."""
    options = []
    if num_threads is not None:
        if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 1:
            raise ValueError(f"num_threads must be a positive integer, got {num_threads!r}")
        if pipeline is not None or target != "cpu":
            raise ValueError(
                "num_threads sets the threads of the default CPU pipeline; with a pipeline "
                "of your own, give lower-to-cpu{num-threads=N} in it"
            )
        options.append(f"num-threads={num_threads}")
    if runtime_checks:
        options.append("runtime-checks")
    return f"builtin.module(lower-to-cpu{{{' '.join(options)}}})"


def _module_text(source: str | Operation) -> str:
    if isinstance(source, str):
        return source
    if isinstance(source, Operation):
        from io import StringIO

        from xdsl.printer import Printer

        out = StringIO()
        Printer(stream=out).print_op(source)
        return out.getvalue()
    raise TypeError(f"mlkit.compile: expected MLIR text or a module, got {type(source).__name__}")
