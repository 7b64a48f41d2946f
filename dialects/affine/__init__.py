"""The affine dialect, with upstream MLIR's syntax, properties and verifiers.

Ops live in :mod:`mlkit.dialects.affine.ops` (apply, min, max, memory access,
yield), :mod:`mlkit.dialects.affine.index` (delinearize_index,
linearize_index), :mod:`mlkit.dialects.affine.loops` (for, if) and
:mod:`mlkit.dialects.affine.parallel`. :mod:`mlkit.dialects.affine.syntax`
holds upstream's textual forms of affine expressions and
:mod:`mlkit.dialects.affine.scope` decides which values may be affine
dimensions or symbols.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from mlkit.dialects.affine.index import DelinearizeIndexOp, LinearizeIndexOp
from mlkit.dialects.affine.loops import ForOp, IfOp
from mlkit.dialects.affine.ops import ApplyOp, LoadOp, MaxOp, MinOp, StoreOp, VectorLoadOp
from mlkit.dialects.affine.ops import VectorStoreOp, YieldOp
from mlkit.dialects.affine.parallel import ParallelOp
from mlkit.dialects.affine.scope import AffineScope, is_valid_dim, is_valid_symbol
from mlkit.dialects.utils.dialects import op_lookup

__all__ = [
    "Affine",
    "AffineScope",
    "ApplyOp",
    "DelinearizeIndexOp",
    "ForOp",
    "IfOp",
    "LinearizeIndexOp",
    "LoadOp",
    "MaxOp",
    "MinOp",
    "ParallelOp",
    "StoreOp",
    "VectorLoadOp",
    "VectorStoreOp",
    "YieldOp",
    "is_valid_dim",
    "is_valid_symbol",
]

Affine = Dialect(
    "affine",
    [
        ApplyOp,
        DelinearizeIndexOp,
        ForOp,
        IfOp,
        LinearizeIndexOp,
        LoadOp,
        MaxOp,
        MinOp,
        ParallelOp,
        StoreOp,
        VectorLoadOp,
        VectorStoreOp,
        YieldOp,
    ],
    [],
)

__getattr__ = op_lookup(__name__, lambda: Affine)
