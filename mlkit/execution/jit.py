"""The JIT: a module in the llvm dialect becomes native code in this process.

One engine serves ``mlkit-run`` and the embedding API. The path is the one
``--emit=llvm`` takes (translation, then LLVM's parser and verifier), then
LLVM's new pass manager at ``-O0``..``-O3``, then llvmlite's MCJIT. Symbols
the module leaves undefined come from mlkit's built-in runtime (upstream's
runner utils), the process, or ``shared_libs``; any other is a located error
before code is generated (MCJIT would abort the process instead). Once
optimized, the code's ``malloc``/``aligned_alloc``/``free`` are bound to the
runtime's caching allocator (``JitOptions.caching_allocator``). With
``keep_objects`` the object code LLVM generates is kept, and
:func:`jit_compile_llvm_ir` takes it back instead of generating it again
(:mod:`mlkit.execution.objects`): the embedding API's disk cache.

MCJIT rather than llvmlite's ORC wrapper: ORC there wants every library and
symbol named when the JIT is built, and reports unresolved symbols only as a
generic failure; MCJIT with a prior check gives a named, located error.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from xdsl.ir import Operation

from mlkit.diagnostics import DiagnosticError
from mlkit.execution.objects import ObjectCode, ir_digest, machine_description
from mlkit.execution.symbols import JitError, check_resolved, external_symbols
from mlkit.execution.symbols import load_shared_libraries, symbol_ops
from mlkit.diagnostics.locations import op_loc
from mlkit.pipeline import progress

if TYPE_CHECKING:
    from llvmlite.binding import ExecutionEngine, ModuleRef, TargetMachine

    from mlkit.dialects import llvm

__all__ = [
    "CompiledModule",
    "JitError",
    "JitOptions",
    "check_llvm_dialect",
    "jit_compile",
    "jit_compile_llvm_ir",
]

# Without -O flags mlir-runner runs no IR passes and generates code at LLVM's
# default codegen level.
DEFAULT_CODEGEN_LEVEL = 2


@dataclass(frozen=True)
class JitOptions:
    """How to compile: hashable, so it can key a compile cache.

    ``opt_level`` None is mlir-runner without ``-O``: no IR optimization;
    0..3 runs LLVM's default ``O<n>`` pipeline and codegen at that level.
    ``cpu`` is ``--mcpu`` (``native`` for the host's), ``march`` is
    ``--march`` (it must name the host's architecture: code runs here).
    ``runtime_checks`` makes a failed ``cf.assert`` return from the function's
    guard (:meth:`CompiledModule.guarded_address`) rather than abort.
    ``caching_allocator`` binds the code's ``malloc``/``aligned_alloc``/``free``
    to the runtime's caching allocator (:mod:`mlkit.runtime.allocator`) once
    LLVM has optimized it, so large buffers freed by one call are reused by
    the next instead of being faulted in again.
    """

    opt_level: int | None = None
    cpu: str | None = None
    march: str | None = None
    shared_libs: tuple[str, ...] = ()
    caching_allocator: bool = True
    runtime_checks: bool = False  # a failed check returns from a guard (mlkit.runtime.checks)


@dataclass
class CompiledModule:
    """Native code for one module. Keep it alive while its functions may run:
    dropping it frees the code."""

    engine: ExecutionEngine
    llvm_module: ModuleRef
    functions: dict[str, llvm.LLVMFunctionType | None]
    options: JitOptions
    _keep: list[Any] = field(default_factory=list[Any])
    # with keep_objects: role -> (digest of its IR text, object code), and the
    # machine they are for (mlkit.execution.objects)
    objects: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    machine: str = ""
    _ir_text: str | None = None

    def address(self, name: str) -> int:
        """Where function ``name`` starts; KeyError if the module lacks it."""
        if name not in self.functions:
            raise KeyError(name)
        return self.engine.get_function_address(name)

    def guarded_address(self, name: str) -> int:
        """Where the guard of ``name`` starts (with ``runtime_checks``): the
        function's parameters, then a pointer for its result; it returns 0,
        or 1 after a failed check (message: ``runtime.checks.last_message``)."""
        from mlkit.runtime.checks import GUARD_PREFIX

        if name not in self.functions or not self.options.runtime_checks:
            raise KeyError(name)
        return self.engine.get_function_address(GUARD_PREFIX + name)

    def ctypes_function(self, name: str, restype: Any, *argtypes: Any) -> Any:
        """Function ``name`` as a ctypes callable with the given C signature;
        it keeps this module (and so its code) alive."""
        function = ctypes.CFUNCTYPE(restype, *argtypes)(self.address(name))
        function.compiled_module = self
        return function

    @property
    def llvm_ir(self) -> str:
        """The LLVM IR that was compiled (after optimization), printed once."""
        if self._ir_text is None:
            self._ir_text = str(self.llvm_module)
        return self._ir_text


# GPU ops the translation turns into calls of the GPU runtime (mlkit.runtime.cuda)
HOST_GPU_OPS = frozenset({"gpu.binary", "gpu.launch_func"})
# OpenMP ops it turns into calls of the thread pool (mlkit.runtime.threads)
OPENMP_OPS = frozenset({"omp.parallel", "omp.wsloop", "omp.loop_nest", "omp.yield", "omp.terminator"})


def check_llvm_dialect(module: Operation) -> None:
    """A located error at the first op that is not in the llvm dialect."""
    for op in module.walk():
        if op is module:
            continue
        if op.dialect_name() != "llvm" and op.name not in HOST_GPU_OPS | OPENMP_OPS:
            raise DiagnosticError.at(
                op_loc(op),
                f"cannot JIT '{op.name}': it is not in the llvm dialect "
                "(lower the module to the llvm dialect first, e.g. with "
                "convert-to-llvm and reconcile-unrealized-casts)",
            )


def _initialize() -> None:
    import llvmlite.binding as llvm_binding

    llvm_binding.initialize_native_target()
    llvm_binding.initialize_native_asmprinter()
    llvm_binding.initialize_native_asmparser()


def target_machine(options: JitOptions, codegen_level: int) -> TargetMachine:
    """The host's target machine, honouring ``--march`` and ``--mcpu``."""
    return _target_machine(options, codegen_level)[0]


def _target_machine(options: JitOptions, codegen_level: int) -> tuple[TargetMachine, str]:
    """The host's target machine and its :func:`machine_description`."""
    import llvmlite.binding as llvm_binding

    _initialize()
    triple = llvm_binding.get_process_triple()
    target = llvm_binding.Target.from_triple(triple)
    if options.march is not None:
        arch = triple.split("-", 1)[0]
        if options.march not in (target.name, arch):
            raise JitError(
                f"--march={options.march}: cannot run code for '{options.march}' in this "
                f"process, whose architecture is '{target.name}'"
            )
    cpu, features = options.cpu or "", ""
    if cpu in ("", "native"):
        cpu = llvm_binding.get_host_cpu_name()
        features = llvm_binding.get_host_cpu_features().flatten()
    else:  # LLVM would end the process on some CPUs it cannot generate code for
        from mlkit.target.machine import check_cpu

        problem = check_cpu(triple, cpu)
        if problem is not None:
            raise JitError(problem)
    machine = target.create_target_machine(
        cpu=cpu, features=features, opt=codegen_level, reloc="default", codemodel="jitdefault"
    )
    return machine, machine_description(triple, cpu, features, codegen_level)


def _optimize(module: ModuleRef, machine: TargetMachine, level: int | None) -> None:
    from mlkit.target.machine import optimize

    if level:
        optimize(module, machine, level)


def _prepare(module: ModuleRef, machine: TargetMachine) -> None:
    module.triple = machine.triple
    module.data_layout = str(machine.target_data)


def _host_machine(options: JitOptions) -> tuple[TargetMachine, str]:
    """Load ``shared_libs`` and make the host's machine at the codegen level
    ``opt_level`` asks for; with its description."""
    load_shared_libraries(options.shared_libs)
    codegen = DEFAULT_CODEGEN_LEVEL if options.opt_level is None else options.opt_level
    return _target_machine(options, codegen)


def _bind_allocator(module: ModuleRef, options: JitOptions) -> None:
    """Route the optimized module's C allocations through the caching allocator."""
    if options.caching_allocator:
        from mlkit import runtime

        runtime.use_caching_allocator(module)


def _runtime_module(
    needed: list[str], machine: TargetMachine, options: JitOptions, objects: ObjectCode
) -> tuple[ModuleRef | None, set[str]]:
    """Have the built-in runtime provide what ``needed`` names: its callbacks
    go into LLVM's symbol table, its native runner utils come back as a module
    compiled for ``machine`` (not optimized when ``objects`` already has its
    code), with the names that module defines."""
    import llvmlite.binding as llvm_binding

    from mlkit import runtime

    try:
        native_ir = runtime.provide(needed)
    except runtime.RuntimeUnavailable as exc:
        raise JitError(str(exc)) from None
    if native_ir is None:
        return None, set()
    digest = ir_digest(f"{native_ir}\0caching_allocator={options.caching_allocator}")
    native_module = llvm_binding.parse_assembly(native_ir)
    native_module.verify()
    _prepare(native_module, machine)
    if not objects.can_serve("runtime", digest):
        _optimize(native_module, machine, 2)
    _bind_allocator(native_module, options)
    objects.add(native_module, "runtime", digest)
    return native_module, {f.name for f in native_module.functions if not f.is_declaration}


def _trap_checks(module: ModuleRef, options: JitOptions) -> None:
    """With runtime checks, failed checks jump back to their guard."""
    if options.runtime_checks:
        from mlkit.runtime import checks

        if not checks.available():
            raise JitError("runtime checks need a POSIX C library with _setjmp")
        checks.redirect(module)


def _guards(
    module: ModuleRef,
    names: list[str],
    machine: TargetMachine,
    options: JitOptions,
    objects: ObjectCode,
) -> ModuleRef | None:
    """The module of the functions' guards, with runtime checks."""
    if not options.runtime_checks or not names:
        return None
    import llvmlite.binding as llvm_binding

    from mlkit.runtime.checks import guard_ir

    visible = [
        n for n in names
        if (fn := module.get_function(n)).linkage == llvm_binding.Linkage.external
        and not fn.is_declaration
    ]  # fmt: skip
    text = guard_ir(module, visible)
    guards = llvm_binding.parse_assembly(text)
    guards.verify()
    _prepare(guards, machine)
    objects.add(guards, "guards", ir_digest(text))
    return guards


def _finish(
    engine: ExecutionEngine,
    objects: ObjectCode | None,
    native_module: ModuleRef | None,
    *extra: ModuleRef | None,
) -> None:
    """Add the runtime's module, generate code (or take it from ``objects``)
    and run the static constructors."""
    if objects is not None:
        objects.attach(engine)
    for added in (native_module, *extra):
        if added is not None:
            engine.add_module(added)
    engine.finalize_object()
    engine.run_static_constructors()


def jit_compile(
    module: Operation, options: JitOptions = JitOptions(), *, keep_objects: bool = False
) -> CompiledModule:
    """Compile ``module`` (llvm dialect) into this process; with
    ``keep_objects`` the result keeps the object code LLVM generated
    (:attr:`CompiledModule.objects`, for a cache).

    Raises :class:`DiagnosticError` (located) for IR that is not llvm
    dialect, that LLVM rejects, or that needs a symbol nothing defines, and
    :class:`JitError` for a library or target problem.
    """
    import llvmlite.binding as llvm_binding

    from mlkit.dialects import llvm
    from mlkit.target.llvmir.module import MODULE_ID, translate_and_verify

    check_llvm_dialect(module)
    if options.opt_level is not None and options.opt_level not in (0, 1, 2, 3):
        raise JitError(f"invalid optimization level {options.opt_level} (expected 0 to 3)")
    machine, description = _host_machine(options)

    progress.stage("LLVM: translating")
    llvm_module = translate_and_verify(module)
    llvm_module.name = MODULE_ID
    _prepare(llvm_module, machine)
    if options.opt_level is not None:
        progress.stage(f"LLVM: optimizing (-O{options.opt_level})")
    _optimize(llvm_module, machine, options.opt_level)
    _bind_allocator(llvm_module, options)
    _trap_checks(llvm_module, options)

    progress.stage("LLVM: generating code")
    objects = ObjectCode()
    objects.add(llvm_module, "main")
    needed = external_symbols(llvm_module, module)
    native_module, provided = _runtime_module(needed, machine, options, objects)
    # MCJIT makes the process's own symbols visible to lookups when it is created.
    engine = llvm_binding.create_mcjit_compiler(llvm_module, machine)
    check_resolved(needed, provided, module)
    if native_module is not None:
        check_resolved(external_symbols(native_module, module), (), module)
    functions: dict[str, llvm.LLVMFunctionType | None] = {
        name: op.function_type
        for name, op in symbol_ops(module).items()
        if isinstance(op, llvm.FuncOp) and not op.is_declaration
    }
    guards = _guards(llvm_module, list(functions), machine, options, objects)
    _finish(engine, objects if keep_objects else None, native_module, guards)
    compiled = CompiledModule(
        engine, llvm_module, functions, options, [machine, native_module, guards]
    )
    if keep_objects:  # the code was generated from the module as it prints now
        compiled.objects = objects.recorded(ir_digest(compiled.llvm_ir))
        compiled.machine = description
    return compiled


def jit_compile_llvm_ir(
    ir: str,
    function_names: Any,
    options: JitOptions = JitOptions(),
    *,
    optimize: bool = True,
    objects: tuple[str, dict[str, tuple[str, bytes]]] | None = None,
) -> CompiledModule:
    """Compile LLVM IR text (what :attr:`CompiledModule.llvm_ir` gave) with the
    same engine as :func:`jit_compile`: the embedding API's disk cache uses it
    to skip parsing and passes. ``function_names`` are those callable later.
    ``objects`` is a machine description and the objects a
    :attr:`CompiledModule.objects` recorded for it: where it describes this
    machine, modules whose IR matches are not optimized or compiled again.
    The result records its objects."""
    import llvmlite.binding as llvm_binding

    machine, description = _host_machine(options)
    known = objects[1] if objects is not None and objects[0] == description else {}
    cache = ObjectCode(known)
    main_digest = ir_digest(ir)
    llvm_module = llvm_binding.parse_assembly(ir)
    llvm_module.verify()
    _prepare(llvm_module, machine)
    if optimize:
        _optimize(llvm_module, machine, options.opt_level)
    _bind_allocator(llvm_module, options)
    _trap_checks(llvm_module, options)
    # the code generated from ``ir`` is that of the module only when nothing changed it
    cache.add(llvm_module, "main", None if optimize else main_digest)
    needed = [
        fn.name
        for fn in llvm_module.functions
        if fn.is_declaration and not fn.name.startswith("llvm.")
    ] + [var.name for var in llvm_module.global_variables if var.is_declaration]
    native_module, provided = _runtime_module(needed, machine, options, cache)
    engine = llvm_binding.create_mcjit_compiler(llvm_module, machine)
    missing = [n for n in needed if n not in provided and not llvm_binding.address_of_symbol(n)]
    if missing:
        raise JitError("undefined symbols: " + ", ".join(sorted(missing)))
    functions: dict[str, llvm.LLVMFunctionType | None] = {name: None for name in function_names}
    guards = _guards(llvm_module, list(functions), machine, options, cache)
    _finish(engine, cache, native_module, guards)
    compiled = CompiledModule(
        engine, llvm_module, functions, options, [machine, native_module, guards]
    )
    compiled.objects = cache.recorded(main_digest) if not optimize else {}
    compiled.machine = description
    return compiled
