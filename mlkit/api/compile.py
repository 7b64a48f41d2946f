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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Operation

from mlkit.api.backend import BACKENDS, Backend, load_backend
from mlkit.api.cache import CompileCache
from mlkit.api.call import Memory
from mlkit.api.program import CompiledProgram
from mlkit.api.signature import Signature, record_signatures

__all__ = ["CompileStats", "CompiledProgram", "Compiler", "compile", "default_compiler"]

DEFAULT_TARGET = "cpu"
SOURCE_NAME = "<mlkit.compile>"


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
    ) -> CompiledProgram:
        """Compile MLIR text or a module for ``target`` (``"cpu"`` or ``"cuda"``);
        raises ValueError (with the located message) for IR that does not parse,
        verify or lower, and for a target that is not usable here.

        ``num_threads`` fixes the threads each parallel loop of the default CPU
        pipeline uses; without it they use the runtime's count (all cores, or
        ``$MLKIT_NUM_THREADS``), read when the program runs."""
        from mlkit.diagnostics import DiagnosticError
        from mlkit.execution.jit import JitError, JitOptions, jit_compile

        if opt_level not in (0, 1, 2, 3):
            raise ValueError(f"opt_level must be 0, 1, 2 or 3, got {opt_level!r}")
        if num_threads is not None:
            pipeline = _threaded_pipeline(num_threads, pipeline, target)
        backend = self.backend(target)
        memory = backend.memory()
        pipeline = backend.pipeline if pipeline is None else pipeline
        text = _module_text(source_or_module)
        options = JitOptions(opt_level=opt_level)
        k = self.cache.key(text, f"{target}:{pipeline}", options)
        if cache and k in self.cache.memory:
            self.stats.memory_hits += 1
            return self.cache.memory[k]
        program = self._from_disk(k, options, memory) if cache else None
        if program is not None:
            return program
        try:
            unsupported: dict[str, str] = {}
            module, signatures = self._lower(text, pipeline, unsupported)
            backend.prepare_host(module)  # type: ignore[arg-type]
            compiled = jit_compile(module, options)
        except DiagnosticError as err:
            from mlkit.diagnostics import SourceManager, format_diagnostic

            sources = SourceManager()
            sources.add(SOURCE_NAME, text)
            raise ValueError(format_diagnostic(err.diagnostic, sources).rstrip()) from None
        except JitError as exc:
            raise ValueError(str(exc)) from None
        self.stats.jit_compiles += 1
        llvm_ir = compiled.llvm_ir
        program = CompiledProgram(compiled, signatures, llvm_ir, unsupported, memory)
        if cache:
            self.cache.memory[k] = program
            self.cache.store(k, llvm_ir, [s.to_json() for s in signatures.values()], unsupported)
        return program

    def _from_disk(self, k: str, options: Any, memory: Memory) -> CompiledProgram | None:
        """The program of the disk entry ``k``, JIT-compiled from its LLVM IR;
        None without an entry, or for a stale or damaged one."""
        from mlkit.execution.jit import jit_compile_llvm_ir

        entry = self.cache.load(k)
        if entry is None:
            return None
        try:
            sigs = {s["name"]: Signature.from_json(s) for s in entry["signatures"]}
            names = [f"_mlir_ciface_{n}" for n in sigs]
            compiled = jit_compile_llvm_ir(entry["llvm_ir"], names, options, optimize=False)
        except Exception:  # noqa: BLE001 - a stale or damaged entry: compile afresh
            return None
        self.stats.disk_hits += 1
        self.stats.jit_compiles += 1
        program = CompiledProgram(
            compiled, sigs, entry["llvm_ir"], entry.get("unsupported", {}), memory
        )
        self.cache.memory[k] = program
        return program

    def _lower(
        self, text: str, pipeline: str, unsupported: dict[str, str]
    ) -> tuple[Operation, dict[str, Signature]]:
        from mlkit.context import make_context
        from mlkit.diagnostics.verifier import verify_op_tree
        from mlkit.pipeline.manager import PassRunner, PipelineBuilder, PipelineError
        from mlkit.plugins import default_registry
        from mlkit.syntax.parser import parse_module

        registry = default_registry()
        ctx = make_context(registry)
        module = parse_module(ctx, text, SOURCE_NAME)
        verify_op_tree(module)
        signatures = record_signatures(module, unsupported)
        try:
            pm = PipelineBuilder(registry).parse(pipeline, top_anchor="builtin.module")
        except PipelineError as exc:
            raise ValueError(exc.render()) from None
        self.stats.pipeline_runs += 1
        PassRunner(ctx).run(pm, module)
        return module, signatures


_DEFAULT_COMPILER = Compiler()


def default_compiler() -> Compiler:
    """The compiler ``mlkit.compile`` uses, with the process's cache."""
    return _DEFAULT_COMPILER


compile = _DEFAULT_COMPILER.compile  # mlkit.compile


def _threaded_pipeline(num_threads: object, pipeline: str | None, target: str) -> str:
    """The default CPU pipeline with ``num_threads`` threads per parallel loop."""
    if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 1:
        raise ValueError(f"num_threads must be a positive integer, got {num_threads!r}")
    if pipeline is not None or target != "cpu":
        raise ValueError(
            "num_threads sets the threads of the default CPU pipeline; with a pipeline "
            "of your own, give lower-to-cpu{num-threads=N} in it"
        )
    return f"builtin.module(lower-to-cpu{{num-threads={num_threads}}})"


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
