"""The one ``Context`` factory: the builtin dialect plus every registered dialect."""

from __future__ import annotations

import threading

import xdsl.builder
from xdsl.context import Context
from xdsl.ir import Operation

from mlkit import affine_order  # noqa: F401 - affine sums in upstream's order
from mlkit import ir_building  # noqa: F401 - the fast path for building IRDL ops
from mlkit import ir_walk  # noqa: F401 - walks linear in nesting depth
from mlkit import trait_lookup  # noqa: F401 - remembered trait lookups
from mlkit.diagnostics import attr_verify_memo  # noqa: F401 - attributes verified once per value
from mlkit.registry import BUILTIN_DIALECT, Registry

_HOOK_LOCK = threading.Lock()
_XDSL_OVERRIDE = xdsl.builder._override_operation_post_init  # pyright: ignore[reportPrivateUsage]


def _install_builder_hook() -> object:
    """xDSL's ``ImplicitBuilder`` swaps ``Operation.__post_init__`` for one that
    inserts new ops into the thread's builder, and swaps it back on exit. The
    swap is global while the builder is per thread, so two threads compiling at
    once can stack two hooks and insert an op twice ("already attached to a
    block"). mlkit installs xDSL's hook once, for good, and makes the swap a
    no-op; the hook still asks the thread-local builder, so behaviour is
    unchanged. Installing again if the hook is gone (a builder that was open
    when this module loaded restores the plain one) keeps it self-healing."""
    with _HOOK_LOCK:
        if not getattr(Operation.__post_init__, "_mlkit_builder_hook", False):
            _XDSL_OVERRIDE()
            Operation.__post_init__._mlkit_builder_hook = True  # pyright: ignore[reportFunctionMemberAccess]
        return Operation.__post_init__


_install_builder_hook()
xdsl.builder._override_operation_post_init = _install_builder_hook  # pyright: ignore[reportPrivateUsage, reportAttributeAccessIssue]


def make_context(
    registry: Registry | None = None, *, allow_unregistered: bool = False
) -> Context:
    """A context that loads each dialect lazily, on the first use of its name.

    ``registry`` defaults to :func:`mlkit.plugins.default_registry` (the built-ins and
    the plugins loaded so far); ``allow_unregistered`` accepts ops of dialects no
    plugin registered, as ``--allow-unregistered-dialect`` does."""
    if registry is None:
        from mlkit.plugins import default_registry

        registry = default_registry()
    ctx = Context(allow_unregistered=allow_unregistered)
    for name in (BUILTIN_DIALECT[0], *registry.dialects):
        ctx.register_dialect(name, _loader(registry, name))
    return ctx


def _loader(registry: Registry, name: str):
    return lambda: registry.load_dialect(name)
