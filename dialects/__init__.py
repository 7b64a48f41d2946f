"""mlkit's built-in dialects, registered exactly as a third-party plugin's are.

Each name maps lazily to mlkit's upstream-conformant definition in this package;
a name still mapped to an xDSL module has no mlkit definition yet.
"""

from __future__ import annotations

from mlkit.registry import Registry

BUILTIN_DIALECTS: dict[str, str] = {
    "index": "mlkit.dialects.index:Index",
    "tensor": "mlkit.dialects.tensor:Tensor",
    "linalg": "mlkit.dialects.linalg:Linalg",
    "affine": "mlkit.dialects.affine:Affine",
    "gpu": "mlkit.dialects.gpu:GPU",
    "llvm": "mlkit.dialects.llvm:LLVM",
    "nvvm": "mlkit.dialects.nvvm:NVVM",
}


def register(registry: Registry) -> None:
    for name, path in BUILTIN_DIALECTS.items():
        registry.register_dialect(name, path)
