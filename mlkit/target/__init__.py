"""Where IR leaves MLIR: LLVM IR translation, target machines, PTX and the
``--emit`` targets, registered as a plugin like any other.

The translations of dialects other than llvm (upstream's
``LLVMTranslationDialectInterface``, see :mod:`mlkit.target.llvmir.interface`)
register here by dialect name, so the translator itself names none of them.
"""

from __future__ import annotations

from mlkit.registry import Registry

EMITTERS: dict[str, tuple[str, str]] = {
    "llvm": ("mlkit.target.emit:emit_llvm", "LLVM IR text"),
    "asm": ("mlkit.target.emit:emit_asm", "Target assembly (host by default)"),
    "obj": ("mlkit.target.emit:emit_obj", "Target object file (host by default)"),
    "ptx": ("mlkit.target.ptx:emit_ptx", "PTX of every GPU kernel module"),
}

# dialect name -> its LLVMTranslationDialectInterface subclass
TRANSLATIONS: dict[str, str] = {
    "gpu": "mlkit.target.llvmir.dialect.gpu:GPUTranslation",
    "nvvm": "mlkit.target.llvmir.dialect.nvvm:NVVMTranslation",
    "omp": "mlkit.target.llvmir.dialect.omp:OpenMPTranslation",
}


def register(registry: Registry) -> None:
    for name, (path, summary) in EMITTERS.items():
        registry.register_emitter(name, path, summary=summary)
    for dialect, path in TRANSLATIONS.items():
        registry.register_translation(dialect, path)
