"""Helpers for the differential tests of the conversions to the LLVM dialect.

* :func:`same_after_normalizing`: mlkit's and upstream's outputs of a pass,
  both read by upstream and put through ``canonicalize,cse``, print the same.
* :func:`run`: a module in the LLVM dialect run by upstream's
  ExecutionEngine, calling a ``llvm.emit_c_interface`` function on numpy
  arrays (passed as ranked memref descriptors, updated in place).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence

import numpy as np
from upstream_oracle import ir, mlkit_print, passmanager, upstream_print

NORMALIZE = "builtin.module(canonicalize,cse)"


def normalized(text: str) -> str:
    """``text`` read by upstream MLIR, canonicalized and CSE'd, printed generic."""
    return upstream_print(text, pipeline=NORMALIZE)


def same_after_normalizing(text: str, pass_pipeline: str, upstream_pipeline: str | None = None) -> tuple[str, str]:
    """(mlkit, upstream) outputs of the pipeline, normalized."""
    ours = mlkit_print(text, pipeline=pass_pipeline)
    theirs = upstream_print(text, generic=False, pipeline=upstream_pipeline or pass_pipeline)
    return normalized(ours), normalized(theirs)


RuntimeFunction = tuple[str, ctypes._CFuncPtr]  # type: ignore[name-defined]


def run(llvm_text: str, function: str, arrays: Sequence[np.ndarray],
        runtime: Sequence[RuntimeFunction] = ()) -> None:
    """Run ``function`` (which has a C interface) on ``arrays`` with upstream's
    ExecutionEngine; the arrays are updated in place."""
    from torch_mlir.execution_engine import ExecutionEngine
    from torch_mlir.runtime import get_ranked_memref_descriptor

    with ir.Context():
        module = ir.Module.parse(llvm_text)
        engine = ExecutionEngine(module, opt_level=0)
        for name, callback in runtime:  # by the plain symbol name, not _mlir_ciface_
            engine.raw_register_runtime(name, ctypes.cast(callback, ctypes.c_void_p))
        descriptors = [get_ranked_memref_descriptor(a) for a in arrays]
        engine.invoke(function, *[ctypes.pointer(ctypes.pointer(d)) for d in descriptors])


def lower_with_upstream(text: str, pipeline: str) -> str:
    """``text`` lowered by upstream's own passes."""
    with ir.Context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(pipeline).run(module.operation)
        return str(module)


def run_both(text: str, mlkit_pipeline: str, upstream_pipeline: str, function: str,
             make_arrays: Callable[[], list[np.ndarray]],
             runtime: Sequence[RuntimeFunction] = ()) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The arrays after running ``function`` lowered by mlkit and by upstream."""
    ours, theirs = make_arrays(), make_arrays()
    run(mlkit_print(text, pipeline=mlkit_pipeline), function, ours, runtime)
    run(lower_with_upstream(text, upstream_pipeline), function, theirs, runtime)
    return ours, theirs
