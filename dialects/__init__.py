"""mlkit's built-in dialects, registered exactly as a third-party plugin's are.

Until mlkit's own upstream-conformant definitions land (one module per dialect
in this package), the names map to xDSL's definitions.
"""

from __future__ import annotations

from mlkit.registry import Registry

BUILTIN_DIALECTS: dict[str, str] = {
    "tensor": "xdsl.dialects.tensor:Tensor",
    "linalg": "xdsl.dialects.linalg:Linalg",
    "affine": "xdsl.dialects.affine:Affine",
    "gpu": "mlkit.dialects.gpu:GPU",
    "llvm": "xdsl.dialects.llvm:LLVM",
}


def register(registry: Registry) -> None:
    for name, path in BUILTIN_DIALECTS.items():
        registry.register_dialect(name, path)
