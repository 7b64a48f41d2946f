"""mlkit's built-in runtime: upstream MLIR's runner utils
(``libmlir_runner_utils`` and ``libmlir_c_runner_utils``), printing exactly
as upstream's do, with no C++ library to build or load.

Hot, simple functions (scalar printers, timers, ``memrefCopy``, allocation
wrappers) are LLVM IR compiled into the JIT next to the program
(:mod:`mlkit.runtime.native`); memref printers and verifiers are Python
callbacks (:mod:`mlkit.runtime.callbacks`). The JIT asks :func:`provide`
for exactly the symbols a module leaves undefined, and may bind a module's
``malloc``/``aligned_alloc``/``free`` to the process's caching allocator
(:mod:`mlkit.runtime.allocator`) with :func:`use_caching_allocator`.
Parallel loops call the process's fork-join thread pool
(``_mlkit_parallel_for``, :mod:`mlkit.runtime.threads`), bound the same way.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from mlkit.runtime.native import NATIVE_FUNCTIONS, native_module_ir

# Upstream's runtime libraries, passed to mlir-runner as -shared-libs=...;
# mlkit provides them itself, so such paths are recognised and skipped.
RUNNER_UTILS_LIBRARIES = frozenset({"mlir_runner_utils", "mlir_c_runner_utils"})


# upstream's GPU runtime library, whose mgpu* functions mlkit.runtime.cuda provides
CUDA_RUNTIME_LIBRARIES = frozenset({"mlir_cuda_runtime"})


def is_builtin_library(path: str) -> bool:
    """Whether ``path`` names one of upstream's runner-utils or CUDA runtime
    libraries (``libmlir_c_runner_utils.so``, ``.so.20``, ``.dylib``, ``.dll`` ...)."""
    name = os.path.basename(path)
    name = name.removeprefix("lib")
    name = name.split(".", 1)[0]
    return name in RUNNER_UTILS_LIBRARIES | CUDA_RUNTIME_LIBRARIES


def provided_symbols() -> frozenset[str]:
    """Every symbol the built-in runtime defines."""
    from mlkit.runtime.allocator import ENTRY_POINTS
    from mlkit.runtime.callbacks import CALLBACK_FUNCTIONS
    from mlkit.runtime.cuda import MGPU_FUNCTIONS
    from mlkit.runtime.threads import ENTRY_POINTS as THREAD_POOL

    return NATIVE_FUNCTIONS | CALLBACK_FUNCTIONS | MGPU_FUNCTIONS | ENTRY_POINTS | THREAD_POOL


class RuntimeUnavailable(Exception):
    """Symbols of the built-in runtime that cannot work here (the GPU
    runtime without a usable CUDA); the JIT reports it as one line."""


def provide(names: Iterable[str]) -> str | None:
    """Make the built-in symbols among ``names`` resolvable: Python
    callbacks are added to LLVM's symbol table now; the LLVM IR of the native
    ones is returned, for the JIT to compile with the program (None if none
    is needed). :class:`RuntimeUnavailable` if some cannot work here."""
    import llvmlite.binding as llvm_binding

    from mlkit.runtime import allocator, threads
    from mlkit.runtime.callbacks import CALLBACK_FUNCTIONS, callback_address

    wanted = set(names)
    allocator.bind(wanted)  # IR a module cached after use_caching_allocator names them
    pool = sorted(wanted & threads.ENTRY_POINTS)
    if pool and threads.thread_pool() is None:
        raise RuntimeUnavailable(
            f"the program calls the thread pool ({pool[0]}), but there are no pthreads here"
        )
    threads.bind(wanted)
    for name in sorted(wanted & CALLBACK_FUNCTIONS):
        llvm_binding.add_symbol(name, callback_address(name))
    gpu = sorted(n for n in wanted if n.startswith("mgpu"))
    if gpu:
        from mlkit.runtime import cuda

        try:
            cuda.current()
        except cuda.CudaUnavailable as exc:
            raise RuntimeUnavailable(
                f"the program calls the GPU runtime ({gpu[0]}), but {exc}"
            ) from None
        for name in (n for n in gpu if n in cuda.MGPU_FUNCTIONS):
            llvm_binding.add_symbol(name, cuda.callback_address(name))
    return native_module_ir(wanted & NATIVE_FUNCTIONS)


def use_caching_allocator(llvm_module: Any) -> list[str]:
    """Bind an (optimized) llvmlite module's ``malloc``, ``aligned_alloc``
    and ``free`` to the caching allocator: the names it calls instead, which
    are then resolvable (none where the allocator is not available here)."""
    from mlkit.runtime.allocator import redirect

    return redirect(llvm_module)


__all__ = [
    "RUNNER_UTILS_LIBRARIES",
    "RuntimeUnavailable",
    "is_builtin_library",
    "provide",
    "provided_symbols",
    "use_caching_allocator",
]
