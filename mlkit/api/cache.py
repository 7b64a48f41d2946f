"""The embedding API's compile cache: in memory (the compiled program) and on
disk (the lowered, optimized LLVM IR and the recorded signatures, so that
another process skips parsing and passes and only JITs).

The directory is ``$MLKIT_CACHE_DIR`` or ``~/.cache/mlkit`` (``$XDG_CACHE_HOME``
honoured), read at each use; a directory that can't be written just disables
the disk cache. A :class:`CompileCache` belongs to the
:class:`~mlkit.api.compile.Compiler` that fills it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

CACHE_ENV = "MLKIT_CACHE_DIR"
FORMAT = 2  # 2: signatures record size ties


def cache_dir() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "mlkit"


def compiler_fingerprint() -> str:
    """Changes whenever mlkit's own sources do, so that an edited pass never
    serves stale code from the disk cache: the newest modification time and
    the count of the ``.py`` files of mlkit and its dialects and passes."""
    import mlkit

    root = Path(mlkit.__file__).resolve().parent.parent
    newest, count = 0, 0
    for sub in ("mlkit", "dialects", "passes"):
        for p in (root / sub).rglob("*.py"):
            try:
                newest = max(newest, p.stat().st_mtime_ns)
                count += 1
            except OSError:
                pass
    return f"{newest}:{count}"


class CompileCache:
    """Compiled programs by key in :attr:`memory`; their LLVM IR and
    signatures as ``<key>.json`` files in :func:`cache_dir`."""

    def __init__(self, fingerprint: str | None = None) -> None:
        self.memory: dict[str, Any] = {}
        self._fingerprint = fingerprint

    def fingerprint(self) -> str:
        """The given fingerprint, or :func:`compiler_fingerprint` taken once
        per cache."""
        if self._fingerprint is None:
            self._fingerprint = compiler_fingerprint()
        return self._fingerprint

    def key(self, ir_text: str, pipeline: str, options: Any) -> str:
        h = hashlib.sha256()
        parts = (f"format={FORMAT}", self.fingerprint(), ir_text, pipeline, repr(options))
        for part in parts:
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    @staticmethod
    def path(k: str) -> Path:
        return cache_dir() / f"{k}.json"

    def load(self, k: str) -> dict[str, Any] | None:
        """The disk entry of ``k``, or None (missing, unreadable, another format)."""
        try:
            with open(self.path(k), encoding="utf-8") as f:
                entry = json.load(f)
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            return None
        return entry

    def store(
        self,
        k: str,
        llvm_ir: str,
        signatures: list[dict[str, Any]],
        unsupported: dict[str, str] | None = None,
    ) -> None:
        entry = {
            "format": FORMAT,
            "llvm_ir": llvm_ir,
            "signatures": signatures,
            "unsupported": unsupported or {},
        }
        try:
            directory = cache_dir()
            directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(entry, f)
            os.replace(tmp, self.path(k))  # atomic: a concurrent reader sees all or nothing
        except OSError:
            pass

    def clear(self, disk: bool = False) -> None:
        """Forget compiled programs (and with ``disk``, the files of this cache)."""
        self.memory.clear()
        if disk:
            for p in cache_dir().glob("*.json"):
                try:
                    p.unlink()
                except OSError:
                    pass
