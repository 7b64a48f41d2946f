"""What goes into a compile-cache key besides the IR, the pipeline and the
options: everything else that shapes the compiled code, so that a disk entry
is only ever served to a process that would have compiled the same thing.

* :func:`compiler_fingerprint`: the *content* of mlkit's own sources (the
  ``mlkit``, ``mlkit.dialects`` and ``mlkit.passes`` trees), not their
  modification times, which installs and checkouts do not keep apart;
* :func:`environment_fingerprint`: the versions of xDSL, llvmlite and LLVM,
  Python's, and the host CPU the LLVM IR was optimized for (a cache
  directory shared between machines must not hand AVX-512 code to a CPU
  without it);
* :func:`plugin_fingerprint`: the content of every plugin module the
  registry holds (loaded with ``load_plugin``, found through entry points,
  or the modules of passes, pipelines and dialects registered directly), so
  that editing a plugin's pass never serves the old pass's code.

A plugin module's content is hashed the first time it is seen, which is as
close as a file allows to the code that was imported; a module that is
re-imported (``importlib.reload``, a new ``register``) is hashed again. A
plugin is its file, or for a package every file under it: modules it imports
from elsewhere are not covered (put them in the package).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

# the packages whose sources make up mlkit itself
OWN_PACKAGES = ("mlkit", "mlkit.dialects", "mlkit.passes")

_lock = threading.Lock()
_environment: str | None = None
_entry_point_modules: list[str] | None = None
_own_roots: list[Path] | None = None
# module name -> (module, its register function, digest or None): see _module_digest
_module_digests: dict[str, tuple[ModuleType, Any, str | None]] = {}
# id(registry entry) -> (entry, the modules its code comes from)
_entry_modules: dict[int, tuple[Any, tuple[str, ...]]] = {}


def own_roots() -> list[Path]:
    """The directories of mlkit's own packages (found once per process)."""
    global _own_roots
    if _own_roots is not None:
        return _own_roots
    roots: list[Path] = []
    for name in OWN_PACKAGES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            path = Path(location).resolve()
            if path not in roots:
                roots.append(path)
    _own_roots = roots
    return roots


def _source_files(root: Path) -> list[Path]:
    """Every file under ``root`` but compiled bytecode, sorted; ``os.walk``
    rather than ``Path.rglob``, which stats each entry again (3x slower, and
    a disk-cache hit in a fresh process pays it)."""
    files: list[Path] = []
    for directory, subdirs, names in os.walk(root):
        subdirs[:] = [d for d in subdirs if d != "__pycache__"]
        base = Path(directory)
        files.extend(base / n for n in names if not n.endswith((".pyc", ".pyo")))
    return sorted(files)


def hash_files(files: list[Path], relative_to: Path | None = None) -> str:
    """sha256 over the names and contents of ``files`` (an unreadable file
    counts by name, so that it cannot pass for another)."""
    h = hashlib.sha256()
    for p in files:
        name = str(p.relative_to(relative_to)) if relative_to is not None else str(p)
        h.update(name.encode() + b"\0")
        try:
            h.update(hashlib.sha256(p.read_bytes()).digest())
        except OSError:
            h.update(b"<unreadable>")
    return h.hexdigest()


def compiler_fingerprint() -> str:
    """The content hash of mlkit's own sources: it changes whenever one of
    them does, whatever their modification times say."""
    h = hashlib.sha256()
    for root in own_roots():
        h.update(hash_files(_source_files(root), root).encode())
    return h.hexdigest()


def environment_fingerprint() -> str:
    """The versions of what turns mlkit's output into code, and the host CPU
    (name and features) that code was optimized for; taken once per process."""
    global _environment
    if _environment is None:
        import platform

        import llvmlite
        import llvmlite.binding as llvm_binding

        parts = [f"python={platform.python_version()}", f"llvmlite={llvmlite.__version__}"]
        parts.append("llvm=" + ".".join(map(str, llvm_binding.llvm_version_info)))
        parts.append(f"xdsl={_xdsl_version()}")
        try:
            parts.append(f"triple={llvm_binding.get_process_triple()}")
            parts.append(f"cpu={llvm_binding.get_host_cpu_name()}")
            parts.append(f"features={llvm_binding.get_host_cpu_features().flatten()}")
        except Exception:  # noqa: BLE001 - no host information: the versions still count
            parts.append("host=?")
        _environment = ";".join(parts)
    return _environment


def _xdsl_version() -> str:
    """xDSL's version, from the name of its ``.dist-info`` directory beside
    the package where there is one: ``importlib.metadata`` (which
    ``xdsl.__version__`` calls) takes 30 ms to import, which a disk-cache
    hit in a fresh process would pay."""
    import xdsl

    site = Path(xdsl.__file__).resolve().parent.parent
    try:
        infos = [n for n in os.listdir(site) if n.startswith("xdsl-") and n.endswith(".dist-info")]
    except OSError:
        infos = []
    if len(infos) == 1:
        return infos[0][len("xdsl-") : -len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version("xdsl")
    except metadata.PackageNotFoundError:
        return "?"


def _module_files(module: ModuleType) -> tuple[list[Path], Path | None]:
    """A module's source file, or for a package every file under it."""
    file = getattr(module, "__file__", None)
    if not file:
        return [], None
    path = Path(file).resolve()
    if path.name == "__init__.py":
        return _source_files(path.parent), path.parent
    return [path], None


def _is_own(files: list[Path], roots: list[Path]) -> bool:
    return bool(files) and all(any(root in p.parents for root in roots) for p in files)


def _is_own_package(module: ModuleType, roots: list[Path]) -> bool:
    """Whether ``module`` is one of mlkit's own packages or inside one: then
    every file under it is mlkit's, and need not be listed to know it."""
    file = getattr(module, "__file__", None)
    if not file:
        return False
    path = Path(file).resolve()
    return path.name == "__init__.py" and any(
        root == path.parent or root in path.parent.parents for root in roots
    )


def _module_digest(name: str, roots: list[Path]) -> str | None:
    """The content hash of plugin module ``name``; None for one of mlkit's own
    (the compiler fingerprint covers it) or one not imported (whose code has
    shaped nothing yet)."""
    module = sys.modules.get(name)
    if module is None:
        return None
    register = getattr(module, "register", None)
    known = _module_digests.get(name)
    if known is not None and known[0] is module and known[1] is register:
        return known[2]
    if _is_own_package(module, roots):
        _module_digests[name] = (module, register, None)
        return None
    files, base = _module_files(module)
    digest: str | None = None
    if not _is_own(files, roots):
        digest = hash_files(files, base) if files else "<no file>"
    _module_digests[name] = (module, register, digest)
    return digest


def _entry_points() -> list[str]:
    """The modules of the ``mlkit.plugins`` entry points (read once: the
    default registry loads them once)."""
    global _entry_point_modules
    if _entry_point_modules is None:
        from mlkit.entry_points import scan_entry_points
        from mlkit.plugins import ENTRY_POINT_GROUP

        _entry_point_modules = sorted(
            {value.partition(":")[0].strip() for _, value in scan_entry_points(ENTRY_POINT_GROUP)}
        )
    return _entry_point_modules


def _defining_modules(target: Any) -> tuple[str, ...]:
    """The modules whose code ``target`` (a pass or pipeline class, or a
    dialect: its ops' and attributes' classes) runs."""
    classes = [target]
    if hasattr(target, "operations") and hasattr(target, "attributes"):  # an xDSL Dialect
        classes = [*target.operations, *target.attributes]
    names = {getattr(c, "__module__", None) for c in classes}
    return tuple(sorted(n for n in names if isinstance(n, str)))


def _api_modules(registry: Any) -> set[str]:
    """The modules of the dialects, passes and pipelines registered straight
    through the API (not by a plugin), which a plugin list does not name."""
    names: set[str] = set()
    for table in ("dialects", "passes", "pipelines"):
        for entry in getattr(registry, table, {}).values():
            if getattr(entry, "source", None) != "<api>":
                continue
            known = _entry_modules.get(id(entry))
            if known is None or known[0] is not entry:
                try:
                    modules = _defining_modules(entry.factory())
                except Exception:  # noqa: BLE001 - a broken factory fails the compile itself
                    modules = ()
                known = _entry_modules[id(entry)] = (entry, modules)
            names.update(known[1])
    return names


def plugin_fingerprint(registry: Any) -> str:
    """The names and content hashes of the plugin modules behind ``registry``."""
    roots = own_roots()
    with _lock:
        names = set(_entry_points()) | set(getattr(registry, "loaded_plugins", ())) | _api_modules(
            registry
        )
        parts = []
        for name in sorted(names):
            digest = _module_digest(name, roots)
            if digest is not None:
                parts.append(f"{name}={digest}")
    return ";".join(parts)
