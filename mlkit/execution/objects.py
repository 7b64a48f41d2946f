"""Object code the JIT generated, kept so that compiling the same LLVM IR
again for the same machine skips LLVM's code generation.

MCJIT asks an object cache for each module before it generates its code
(llvmlite's ``ExecutionEngine.set_object_cache``). :class:`ObjectCode` is that
cache for one engine: it records the object of each module it is told about
(by *role*: the program, the runtime's native module, the guards) together
with the sha256 of the IR text the object came from, and serves a recorded
object only for a module whose IR text has that same digest. Which machine
the code is for is :func:`machine_description`; whoever keeps objects across
processes (the embedding API's disk cache) stores it with them and hands
them back only to a process that describes its machine the same way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ObjectCode", "ir_digest", "machine_description"]


def ir_digest(ir: str) -> str:
    """The sha256 of LLVM IR text: what an object is recorded against."""
    return hashlib.sha256(ir.encode()).hexdigest()


def machine_description(triple: str, cpu: str, features: str, codegen_level: int) -> str:
    """What decides the code LLVM generates besides the IR: the target, the
    CPU and its features, the codegen level and LLVM's own version."""
    import llvmlite.binding as llvm_binding

    version = ".".join(map(str, llvm_binding.llvm_version_info))
    return f"llvm={version};triple={triple};cpu={cpu};features={features};O{codegen_level}"


@dataclass
class ObjectCode:
    """One engine's object cache: ``known`` objects (role -> (IR digest,
    object)) are served to the modules they were generated from; the objects
    LLVM generates anew are recorded in :attr:`generated`."""

    known: Mapping[str, tuple[str, bytes]] = field(default_factory=dict)
    generated: dict[str, bytes] = field(default_factory=dict)
    served: set[str] = field(default_factory=set)
    _roles: dict[int, tuple[Any, str, str | None]] = field(default_factory=dict)

    def attach(self, engine: Any) -> None:
        """Answer ``engine``'s requests for object code from now on."""
        engine.set_object_cache(self._notify, self._getbuffer)

    def add(self, module: Any, role: str, digest: str | None = None) -> None:
        """Tell the cache that ``module`` (whose IR text has sha256 ``digest``,
        None when unknown: never served) plays ``role``."""
        self._roles[id(module)] = (module, role, digest)

    def can_serve(self, role: str, digest: str) -> bool:
        """Whether a known object was generated from IR with ``digest``."""
        known = self.known.get(role)
        return known is not None and known[0] == digest

    def recorded(self, main_digest: str) -> dict[str, tuple[str, bytes]]:
        """Every module's (IR digest, object), generated now or served; the
        program's (role ``main``) digest is ``main_digest``."""
        digests = {role: digest for _, role, digest in self._roles.values()}
        digests["main"] = main_digest
        recorded = {
            role: (digest, code)
            for role, code in self.generated.items()
            if (digest := digests.get(role)) is not None
        }
        for role in self.served:
            recorded[role] = self.known[role]
        return recorded

    def _role(self, module: Any) -> tuple[str, str | None] | None:
        entry = self._roles.get(id(module))
        if entry is None or entry[0] is not module:
            return None
        return entry[1], entry[2]

    def _notify(self, module: Any, buffer: bytes) -> None:
        role = self._role(module)
        if role is not None:
            self.generated[role[0]] = bytes(buffer)

    def _getbuffer(self, module: Any) -> bytes | None:
        role = self._role(module)
        if role is None or role[1] is None or not self.can_serve(role[0], role[1]):
            return None
        self.served.add(role[0])
        return self.known[role[0]][1]
