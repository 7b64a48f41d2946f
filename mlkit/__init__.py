"""mlkit: an MLIR-style multi-level compiler framework in Python, built on xDSL.

The public API is imported lazily so that ``mlkit-opt`` starts fast.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Registry",
    "RuntimeCheckError",
    "compile",
    "compile_jax",
    "default_registry",
    "jit",
    "load_plugin",
    "make_context",
    "parse_module",
]

# mlkit.jit and mlkit.compile_jax (docs/jax.md) need the jax extra, imported
# when they are first called
_EXPORTS = {
    "Registry": "mlkit.registry",
    "RuntimeCheckError": "mlkit.runtime.checks",
    "compile": "mlkit.api.compile",
    "compile_jax": "mlkit.api.jax",
    "default_registry": "mlkit.plugins",
    "jit": "mlkit.api.jax",
    "load_plugin": "mlkit.plugins",
    "make_context": "mlkit.context",
    "parse_module": "mlkit.syntax.parser",
}


def __getattr__(name: str) -> Any:
    """``mlkit.compile`` and the other names of ``__all__``, imported from
    their modules on first use (docs/api.md documents them)."""
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'mlkit' has no attribute '{name}'")
