"""The one ``Context`` factory: the builtin dialect plus every registered dialect."""

from __future__ import annotations

from xdsl.context import Context

from mlkit.registry import BUILTIN_DIALECT, Registry


def make_context(
    registry: Registry | None = None, *, allow_unregistered: bool = False
) -> Context:
    """A context that loads each dialect lazily, on the first use of its name."""
    if registry is None:
        from mlkit.plugins import default_registry

        registry = default_registry()
    ctx = Context(allow_unregistered=allow_unregistered)
    for name in (BUILTIN_DIALECT[0], *registry.dialects):
        ctx.register_dialect(name, _loader(registry, name))
    return ctx


def _loader(registry: Registry, name: str):
    return lambda: registry.load_dialect(name)
