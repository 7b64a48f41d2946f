"""Where IR leaves MLIR: LLVM IR translation, target machines, PTX and the
``--emit`` targets, registered as a plugin like any other."""

from __future__ import annotations

from mlkit.registry import Registry

EMITTERS: dict[str, tuple[str, str]] = {
    "llvm": ("mlkit.target.emit:emit_llvm", "LLVM IR text"),
    "asm": ("mlkit.target.emit:emit_asm", "Target assembly (host by default)"),
    "obj": ("mlkit.target.emit:emit_obj", "Target object file (host by default)"),
    "ptx": ("mlkit.target.ptx:emit_ptx", "PTX of every GPU kernel module"),
}


def register(registry: Registry) -> None:
    for name, (path, summary) in EMITTERS.items():
        registry.register_emitter(name, path, summary=summary)
