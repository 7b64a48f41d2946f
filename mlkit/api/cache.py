"""The embedding API's compile cache: in memory (the compiled program) and on
disk (the lowered, optimized LLVM IR, the object code LLVM generated from
it and the recorded signatures, so that another process skips parsing,
passes, LLVM's optimizer and its code generator, and only links and loads).

The directory is ``$MLKIT_CACHE_DIR`` or ``~/.cache/mlkit`` (``$XDG_CACHE_HOME``
honoured), read at each use; a directory that can't be written just disables
the disk cache. A :class:`CompileCache` belongs to the
:class:`~mlkit.api.compile.Compiler` that fills it.

Nothing on disk is trusted: a file can be truncated, edited, or written by
another version. An entry (``<key>.json``) is::

    {"format": 4, "sha256": "<hex>", "payload": {"key": "<key>",
     "llvm_ir": "...", "signatures": [...], "unsupported": {...},
     "machine": "<llvm version, triple, cpu, features, codegen level>",
     "objects": {"<role>": {"sha256": "<of the IR it came from>",
                            "code": "<base64>"}}}}

where ``sha256`` is :func:`payload_checksum` of ``payload``. :meth:`load`
gives back the payload only when the file parses, has this format, names its
own key and matches its checksum; the JIT then uses an object only on a
machine that ``machine`` describes and for a module whose IR text has the
object's ``sha256`` (:mod:`mlkit.execution.objects`), and generates code
afresh for any other. Anything else is discarded (and a
:class:`CacheWarning` says why), and the caller compiles afresh. Entries are
written to a temporary file in the same directory, flushed, then renamed over
the old one (:func:`os.replace`), so that a reader, or a process killed
mid-write, never sees half an entry.

A key (:meth:`CompileCache.key`) covers the IR text, the pipeline (target
and thread count included), the JIT options, the content of mlkit's sources,
of the loaded plugins, and the tool and host versions
(:mod:`mlkit.api.fingerprint`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

from mlkit.api.fingerprint import compiler_fingerprint, environment_fingerprint
from mlkit.api.fingerprint import plugin_fingerprint

__all__ = [
    "CACHE_ENV",
    "FORMAT",
    "CacheWarning",
    "CompileCache",
    "cache_dir",
    "compiler_fingerprint",
    "payload_checksum",
]

CACHE_ENV = "MLKIT_CACHE_DIR"
FORMAT = 4  # 2: signatures record size ties; 3: checksummed payload, argument names; 4: objects


class CacheWarning(UserWarning):
    """A disk cache entry was damaged, or did not match its code, and was
    discarded: the program is compiled afresh (and the entry rewritten)."""


def cache_dir() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "mlkit"


def payload_checksum(payload: Any) -> str:
    """sha256 of ``payload`` as canonical JSON (sorted keys, no spaces), so
    that a reader recomputes it from the parsed entry."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


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

    def key(self, ir_text: str, pipeline: str, options: Any, registry: Any = None) -> str:
        """The key of compiling ``ir_text`` with ``pipeline`` and ``options``
        here: with ``registry``'s plugins (the default registry's if None)."""
        if registry is None:
            from mlkit.plugins import default_registry

            registry = default_registry()
        h = hashlib.sha256()
        parts = (
            f"format={FORMAT}",
            self.fingerprint(),
            environment_fingerprint(),
            plugin_fingerprint(registry),
            ir_text,
            pipeline,
            repr(options),
        )
        for part in parts:
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    @staticmethod
    def path(k: str) -> Path:
        return cache_dir() / f"{k}.json"

    def load(self, k: str) -> dict[str, Any] | None:
        """The payload of ``k``'s entry (``llvm_ir``, ``signatures``,
        ``unsupported``, ``machine``, and ``objects`` decoded to role ->
        (IR digest, bytes)), or None: missing, or damaged (then discarded)."""
        path = self.path(k)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            entry = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self.discard(k, "it is not valid JSON (truncated or damaged)")
            return None
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            return None  # another version's entry: the next store replaces it
        payload = entry.get("payload")
        if entry.get("sha256") != payload_checksum(payload):
            self.discard(k, "its checksum does not match its contents")
            return None
        problem = _payload_problem(k, payload)
        if problem is None:
            try:
                payload["objects"] = {
                    role: (obj["sha256"], base64.b64decode(obj["code"], validate=True))
                    for role, obj in payload["objects"].items()
                }
            except (binascii.Error, ValueError):
                problem = "its object code is not base64"
        if problem is not None:
            self.discard(k, problem)
            return None
        return payload  # type: ignore[no-any-return]

    def discard(self, k: str, reason: str) -> None:
        """Remove ``k``'s damaged entry, saying why; the caller compiles afresh."""
        path = self.path(k)
        try:
            path.unlink()
        except OSError:
            pass
        warnings.warn(
            f"mlkit: discarding compile cache entry {path}: {reason}; compiling afresh",
            CacheWarning,
            stacklevel=2,
        )

    def store(
        self,
        k: str,
        llvm_ir: str,
        signatures: list[dict[str, Any]],
        unsupported: dict[str, str] | None = None,
        machine: str = "",
        objects: dict[str, tuple[str, bytes]] | None = None,
    ) -> None:
        """Write ``k``'s entry atomically; a directory that can't be written
        leaves the disk cache off. ``objects`` (role -> (IR digest, object
        code)) are for the machine ``machine`` describes."""
        payload = {
            "key": k,
            "llvm_ir": llvm_ir,
            "signatures": signatures,
            "unsupported": unsupported or {},
            "machine": machine,
            "objects": {
                role: {"sha256": digest, "code": base64.b64encode(code).decode("ascii")}
                for role, (digest, code) in (objects or {}).items()
            },
        }
        entry = {"format": FORMAT, "sha256": payload_checksum(payload), "payload": payload}
        tmp: str | None = None
        try:
            directory = cache_dir()
            directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{k[:16]}.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(entry, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path(k))  # atomic: a concurrent reader sees all or nothing
            tmp = None
        except (OSError, ValueError, TypeError):
            pass
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass

    def clear(self, disk: bool = False) -> None:
        """Forget compiled programs (and with ``disk``, the files of this cache)."""
        self.memory.clear()
        if disk:
            directory = cache_dir()
            for p in [*directory.glob("*.json"), *directory.glob(".*.tmp")]:
                try:
                    p.unlink()
                except OSError:
                    pass


def _payload_problem(k: str, payload: Any) -> str | None:
    """What is wrong with the shape of an entry's payload, or None."""
    if not isinstance(payload, dict):
        return "it has no payload"
    if payload.get("key") != k:
        return "it is the entry of another key"
    if not isinstance(payload.get("llvm_ir"), str):
        return "it has no LLVM IR"
    signatures = payload.get("signatures")
    if not isinstance(signatures, list) or not all(isinstance(s, dict) for s in signatures):
        return "its signatures are not a list of objects"
    unsupported = payload.get("unsupported")
    if not isinstance(unsupported, dict) or not all(
        isinstance(n, str) and isinstance(v, str) for n, v in unsupported.items()
    ):
        return "its unsupported functions are not a table of strings"
    if not isinstance(payload.get("machine"), str):
        return "it does not say which machine its object code is for"
    objects = payload.get("objects")
    if not isinstance(objects, dict) or not all(
        isinstance(role, str)
        and isinstance(obj, dict)
        and isinstance(obj.get("sha256"), str)
        and isinstance(obj.get("code"), str)
        for role, obj in objects.items()
    ):
        return "its object code is not a table of digests and base64 strings"
    return None
