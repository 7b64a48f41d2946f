"""``mlkit.compile``: compile MLIR text (or a parsed module) and call its
public functions from Python on numpy arrays.

    prog = mlkit.compile(text)
    c = prog.matmul(a, b, c)

The default pipeline is ``builtin.module(lower-to-cpu)``; with
``target="cuda"`` it is ``builtin.module(lower-to-cuda)``, whose kernels run
on the GPU through :mod:`mlkit.runtime.cuda` (see :mod:`mlkit.api.cuda`
for where the data lives). Each public
``func.func`` is compiled with ``llvm.emit_c_interface`` and called through
its ``_mlir_ciface_<name>`` wrapper; the JIT is :mod:`mlkit.execution.jit`, the same
one ``mlkit-run`` uses. Results are cached in memory and on disk
(:mod:`mlkit.api.cache`).
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation

from mlkit.api import cache as compile_cache
from mlkit.api.call import BoundFunction
from mlkit.api.signature import Signature, record_signatures

__all__ = ["CompiledProgram", "compile", "stats"]

DEFAULT_PIPELINE = "builtin.module(lower-to-cpu)"

# counters the tests read: how often the slow paths ran
stats = {"pipeline_runs": 0, "jit_compiles": 0, "disk_hits": 0, "memory_hits": 0}


class CompiledProgram:
    """The public functions of a compiled module, as attributes."""

    def __init__(
        self,
        compiled: Any,
        signatures: dict[str, Signature],
        llvm_ir: str,
        unsupported: dict[str, str] | None = None,
        memory: Any = None,
    ) -> None:
        self._compiled = compiled
        self.memory = memory
        self.unsupported = unsupported or {}
        self.signatures = signatures
        self.llvm_ir = llvm_ir
        self._functions: dict[str, BoundFunction] = {}

    @property
    def functions(self) -> list[str]:
        return sorted(self.signatures)

    def function(self, name: str) -> BoundFunction:
        if name not in self._functions:
            if name in self.unsupported:
                raise AttributeError(
                    f"function '{name}' cannot be called: {self.unsupported[name]}"
                )
            if name not in self.signatures:
                known = ", ".join(f"'{n}'" for n in self.functions) or "none"
                raise AttributeError(
                    f"the compiled module has no public function '{name}' (functions: {known})"
                )
            try:
                address = self._compiled.address(f"_mlir_ciface_{name}")
            except KeyError:
                raise AttributeError(
                    f"function '{name}' has no '_mlir_ciface_{name}' in the compiled code "
                    "(the pipeline must lower func.func with convert-func-to-llvm, which emits "
                    "C interfaces for functions marked llvm.emit_c_interface)"
                ) from None
            self._functions[name] = BoundFunction(self, self.signatures[name], address)
        return self._functions[name]

    def __getattr__(self, name: str) -> BoundFunction:
        if name.startswith("__") or name in (
            "_compiled",
            "signatures",
            "_functions",
            "unsupported",
            "memory",
        ):
            raise AttributeError(name)
        return self.function(name)

    def __getitem__(self, name: str) -> BoundFunction:
        try:
            return self.function(name)
        except AttributeError as exc:
            raise KeyError(str(exc)) from None

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *self.signatures]

    def __repr__(self) -> str:
        return f"<mlkit CompiledProgram functions={self.functions}>"


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


def compile(
    source_or_module: str | Operation,
    pipeline: str | None = None,
    opt_level: int = 3,
    *,
    cache: bool = True,
    target: str = "cpu",
) -> CompiledProgram:
    """Compile MLIR text or a module for ``target`` (``"cpu"`` or ``"cuda"``);
    raises ValueError (with the located message) for IR that does not parse,
    verify or lower, and for a target that is not usable here."""
    from mlkit.diagnostics import DiagnosticError
    from mlkit.execution.jit import JitError, JitOptions, jit_compile, jit_compile_llvm_ir

    if opt_level not in (0, 1, 2, 3):
        raise ValueError(f"opt_level must be 0, 1, 2 or 3, got {opt_level!r}")
    if target not in ("cpu", "cuda"):
        raise ValueError(f"target must be 'cpu' or 'cuda', got {target!r}")
    memory = None
    if target == "cuda":
        from mlkit.api.cuda import CUDA_PIPELINE, cuda_memory

        memory = cuda_memory()
        pipeline = CUDA_PIPELINE if pipeline is None else pipeline
    pipeline = DEFAULT_PIPELINE if pipeline is None else pipeline
    text = _module_text(source_or_module)
    options = JitOptions(opt_level=opt_level)
    k = compile_cache.key(text, f"{target}:{pipeline}", options)
    if cache and k in compile_cache.memory:
        stats["memory_hits"] += 1
        return compile_cache.memory[k]
    entry = compile_cache.load(k) if cache else None
    if entry is not None:
        try:
            sigs = {s["name"]: Signature.from_json(s) for s in entry["signatures"]}
            names = [f"_mlir_ciface_{n}" for n in sigs]
            compiled = jit_compile_llvm_ir(entry["llvm_ir"], names, options, optimize=False)
        except Exception:  # noqa: BLE001 - a stale or damaged entry: compile afresh
            entry = None
        else:
            stats["disk_hits"] += 1
            stats["jit_compiles"] += 1
            program = CompiledProgram(
                compiled, sigs, entry["llvm_ir"], entry.get("unsupported", {}), memory
            )
            compile_cache.memory[k] = program
            return program
    try:
        unsupported: dict[str, str] = {}
        module, signatures = _lower(text, pipeline, unsupported)
        if target == "cuda":
            from mlkit.api.cuda import managed_host_allocations

            managed_host_allocations(module)
        compiled = jit_compile(module, options)
    except DiagnosticError as err:
        from mlkit.diagnostics import SourceManager, format_diagnostic

        sources = SourceManager()
        sources.add(SOURCE_NAME, text)
        raise ValueError(format_diagnostic(err.diagnostic, sources).rstrip()) from None
    except JitError as exc:
        raise ValueError(str(exc)) from None
    stats["jit_compiles"] += 1
    llvm_ir = compiled.llvm_ir
    program = CompiledProgram(compiled, signatures, llvm_ir, unsupported, memory)
    if cache:
        compile_cache.memory[k] = program
        compile_cache.store(k, llvm_ir, [s.to_json() for s in signatures.values()], unsupported)
    return program


SOURCE_NAME = "<mlkit.compile>"


def _lower(
    text: str, pipeline: str, unsupported: dict[str, str]
) -> tuple[Operation, dict[str, Signature]]:
    from mlkit.context import make_context
    from mlkit.syntax.parser import parse_module
    from mlkit.pipeline.manager import PassRunner, PipelineBuilder, PipelineError
    from mlkit.plugins import default_registry
    from mlkit.diagnostics.verifier import verify_op_tree

    registry = default_registry()
    ctx = make_context(registry)
    module = parse_module(ctx, text, SOURCE_NAME)
    verify_op_tree(module)
    signatures = record_signatures(module, unsupported)
    try:
        pm = PipelineBuilder(registry).parse(pipeline, top_anchor="builtin.module")
    except PipelineError as exc:
        raise ValueError(exc.render()) from None
    stats["pipeline_runs"] += 1
    PassRunner(ctx).run(pm, module)
    return module, signatures
