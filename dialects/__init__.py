"""mlkit's built-in dialects, registered exactly as a third-party plugin's are.

The one table of them: each name maps lazily to its definition, mlkit's own
where mlkit replaces xDSL's (for upstream's syntax and verifiers), xDSL's
where it already matches upstream. Only ``builtin`` is not here: the IR itself
is built on it, so every context holds it (``mlkit.registry.BUILTIN_DIALECT``).
"""

from __future__ import annotations

from mlkit.registry import Registry

DIALECTS: dict[str, str] = {
    "affine": "mlkit.dialects.affine:Affine",
    "arith": "mlkit.dialects.arith:Arith",
    "bufferization": "mlkit.dialects.bufferization:Bufferization",
    "cf": "mlkit.dialects.cf:Cf",
    "func": "mlkit.dialects.func:Func",
    "gpu": "mlkit.dialects.gpu:GPU",
    "index": "mlkit.dialects.index:Index",
    "linalg": "mlkit.dialects.linalg:Linalg",
    "llvm": "mlkit.dialects.llvm:LLVM",
    "math": "mlkit.dialects.math:Math",
    "memref": "mlkit.dialects.memref:MemRef",
    "nvvm": "mlkit.dialects.nvvm:NVVM",
    "omp": "mlkit.dialects.omp:OpenMP",
    "scf": "mlkit.dialects.scf:Scf",
    "tensor": "mlkit.dialects.tensor:Tensor",
    "transform": "mlkit.dialects.transform:Transform",
    "ub": "xdsl.dialects.ub:UB",
    "vector": "mlkit.dialects.vector:Vector",
}


def register(registry: Registry) -> None:
    for name, path in DIALECTS.items():
        registry.register_dialect(name, path)
