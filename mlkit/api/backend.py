"""The targets of ``mlkit.compile``, as a table of backends.

A backend says what its target needs beyond the shared path (parse, record
signatures, run the pipeline, JIT the host code): the default pipeline,
where a call's arrays live (:class:`~mlkit.api.call.Memory`), and what the
lowered host module needs before it is compiled. :data:`BACKENDS` maps each
target name to its class lazily, so a CPU program never imports the CUDA
backend.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import ModuleOp

from mlkit.api.call import HOST_MEMORY, Memory
from mlkit.registry import import_object

# target name -> its Backend subclass
BACKENDS: dict[str, str] = {
    "cpu": "mlkit.api.cpu:CpuBackend",
    "cuda": "mlkit.api.cuda:CudaBackend",
}


class Backend:
    """One target: its default pipeline, the memory of its programs, and
    the last changes to its lowered host module."""

    name: ClassVar[str]
    pipeline: ClassVar[str]  # the pipeline used when the caller names none

    def memory(self) -> Memory:
        """Where a program's arguments live and how buffers its code returns
        are freed; ValueError if the target cannot run here."""
        return HOST_MEMORY

    def prepare_host(self, module: ModuleOp) -> None:
        """Adjust the lowered host module (llvm dialect) before it is compiled."""

    def enter_thread(self) -> None:
        """Make the thread that JIT-compiles (``mlkit.compile`` compiles on a
        deep-stack thread of its own) ready to run the module's constructors."""


def load_backend(target: str, backends: Mapping[str, str] = BACKENDS) -> Backend:
    """The backend of ``target``; ValueError naming the known targets if none."""
    path = backends.get(target)
    if path is None:
        known = [f"'{name}'" for name in backends]
        listed = " or ".join([", ".join(known[:-1]), known[-1]] if len(known) > 1 else known)
        raise ValueError(f"target must be {listed}, got {target!r}")
    backend: type[Backend] = import_object(path)
    return backend()
