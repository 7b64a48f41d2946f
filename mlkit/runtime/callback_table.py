"""Python functions that compiled code calls through ctypes, each made on
first use and kept by the table that made it.

LLVM's table of added symbols is process-wide and keeps raw addresses, so a
callback object must outlive every module that may call it: freeing one
would leave LLVM pointing at freed memory. The runtime's tables
(:mod:`mlkit.runtime.callbacks`, :mod:`mlkit.runtime.cuda`) live as long as
the process.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Mapping
from typing import Any


class CallbackTable:
    """Symbol name -> a ctypes callback, made from its factory on first use."""

    def __init__(self, factories: Mapping[str, Callable[[], Any]]) -> None:
        self._factories = dict(factories)
        self._made: dict[str, Any] = {}

    @property
    def names(self) -> frozenset[str]:
        """Every symbol the table can provide."""
        return frozenset(self._factories)

    def address(self, name: str) -> int:
        """The address of the callback implementing ``name``."""
        callback = self._made.get(name)
        if callback is None:
            callback = self._made[name] = self._factories[name]()
        address = ctypes.cast(callback, ctypes.c_void_p).value
        assert address is not None
        return address
