"""The CPU target of ``mlkit.compile``: the whole program compiled into
this process, called on the caller's arrays where they are."""

from __future__ import annotations

from mlkit.api.backend import Backend


class CpuBackend(Backend):
    """Host code only, on host memory."""

    name = "cpu"
    pipeline = "builtin.module(lower-to-cpu)"
