"""Plugin loading: a plugin is a module (file path or importable name) with
``register(registry)``. Built-ins are plugins too, found through the
``mlkit.plugins`` entry-point group like any third party's."""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import Any

from mlkit.registry import Registry, RegistryError

ENTRY_POINT_GROUP = "mlkit.plugins"

_default: Registry | None = None


class PluginError(Exception):
    """A plugin that cannot be found, imported or registered."""


def default_registry() -> Registry:
    """The process-wide registry, with every entry-point plugin loaded.

    Built on the first call (mlkit's own dialects, passes and targets come
    in as entry-point plugins, then third parties' in name order) and the
    same object afterwards; ``mlkit-opt``, :func:`mlkit.compile` and
    :func:`load_plugin` without a registry use it. PluginError if an
    installed plugin fails to load."""
    global _default
    if _default is None:
        registry = Registry()
        load_entry_point_plugins(registry)
        _default = registry
    return _default


def load_entry_point_plugins(registry: Registry) -> None:
    """Load every plugin installed in the ``mlkit.plugins`` entry-point
    group into ``registry``: mlkit's own first, then the others by
    entry-point name. Each entry point names a module with
    ``register(registry)``, or (``module:attr``) a ``register`` function
    itself. PluginError naming the entry point if one cannot be imported or
    its registration fails."""
    from mlkit.entry_points import scan_entry_points

    for name, value in sorted(scan_entry_points(ENTRY_POINT_GROUP), key=_builtin_first):
        try:
            target = _load_reference(value)
        except Exception as exc:  # a broken installed plugin must not crash the tool
            raise PluginError(
                f"cannot load plugin entry point '{name}' ({value}): "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        _register(target, registry, f"plugin '{name}' ({value})")


def _load_reference(value: str) -> Any:
    """Resolve an entry-point reference ``module[:attr.path]``."""
    module_name, _, attrs = value.partition(":")
    target: Any = importlib.import_module(module_name.strip())
    for attr in filter(None, attrs.strip().split(".")):
        target = getattr(target, attr)
    return target


def _builtin_first(ep: tuple[str, str]) -> tuple[int, str]:
    return (0 if ep[1].startswith("mlkit.") else 1, ep[0])


def load_plugin(spec: str, registry: Registry | None = None) -> ModuleType:
    """Load a plugin from a ``.py`` file path or an importable module name and
    call its ``register(registry)``.

    ``spec`` is a path (it ends in ``.py``, contains a path separator or
    names an existing file) or a module name such as ``"my_package.plugin"``.
    ``registry`` is the registry to register into, by default the one
    :func:`default_registry` returns (which :func:`mlkit.compile` and the
    tools use). Loading the same module into a registry again does nothing.
    Returns the plugin's module. PluginError for a plugin that cannot be
    found or imported (a syntax error is reported at its line), that has no
    ``register``, or whose registration fails (such as a name another plugin
    already registered)."""
    if registry is None:
        registry = default_registry()
    module = _import_plugin(spec)
    if module.__name__ in registry.loaded_plugins:
        return module  # loading a plugin twice is harmless, as with mlir-opt
    _register(module, registry, f"plugin '{spec}'")
    registry.loaded_plugins.add(module.__name__)
    return module


def _is_path(spec: str) -> bool:
    return spec.endswith(".py") or os.sep in spec or os.path.exists(spec)


def _import_plugin(spec: str) -> ModuleType:
    if _is_path(spec):
        path = os.path.abspath(spec)
        if not os.path.isfile(path):
            raise PluginError(f"cannot load plugin '{spec}': no such file")
        import hashlib
        from importlib.util import module_from_spec, spec_from_file_location

        digest = hashlib.sha1(path.encode()).hexdigest()[:12]
        name = f"mlkit_plugin_{digest}"
        if name in sys.modules:
            return sys.modules[name]
        module_spec = spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:
            raise PluginError(f"cannot load plugin '{spec}': not a Python module")
        module = module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except SyntaxError as exc:
            del sys.modules[name]
            where = f"{exc.filename}:{exc.lineno}:{exc.offset or 0}"
            raise PluginError(f"{where}: error: invalid plugin: {exc.msg}") from exc
        except Exception as exc:
            del sys.modules[name]
            raise PluginError(
                f"cannot load plugin '{spec}': {type(exc).__name__}: {exc}"
            ) from exc
        return module
    try:
        return importlib.import_module(spec)
    except ModuleNotFoundError as exc:
        raise PluginError(f"cannot load plugin '{spec}': {exc}") from exc
    except SyntaxError as exc:
        where = f"{exc.filename}:{exc.lineno}:{exc.offset or 0}"
        raise PluginError(f"{where}: error: invalid plugin: {exc.msg}") from exc
    except Exception as exc:
        raise PluginError(
            f"cannot load plugin '{spec}': {type(exc).__name__}: {exc}"
        ) from exc


def _register(target: Any, registry: Registry, label: str) -> None:
    register = getattr(target, "register", None) if isinstance(target, ModuleType) else target
    if not callable(register):
        raise PluginError(f"{label} has no register(registry) function")
    previous = registry.current_source
    registry.current_source = label
    try:
        register(registry)
    except (RegistryError, PluginError) as exc:
        raise PluginError(f"{label}: {exc}") from exc
    except Exception as exc:
        raise PluginError(
            f"{label}: register() failed: {type(exc).__name__}: {exc}"
        ) from exc
    finally:
        registry.current_source = previous
