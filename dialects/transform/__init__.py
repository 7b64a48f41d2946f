"""The ``transform`` dialect: scripts that say how to transform payload IR.

xDSL's dialect already has upstream's syntax for ``named_sequence``,
``structured.match``, ``yield`` and ``apply_registered_pass``, so it is
reused; mlkit replaces or adds the tiling ops (:mod:`.structured`) and the
handle and cleanup ops (:mod:`.handles`) where xDSL has no syntax or no op.
The interpreter that runs them is the ``transform-interpreter`` pass.
"""

from __future__ import annotations

from xdsl.dialects import transform as xtransform

from mlkit.dialects.transform.handles import (
    HANDLE_OPS,
    ApplyCanonicalizationPatternsOp,
    ApplyCseOp,
    ApplyPatternsOp,
    CastOp,
    DecomposeInterfaceOp,
    GeneralizeOp,
    GetParentOp,
    InterchangeOp,
    MergeHandlesOp,
    SplitHandleOp,
)
from mlkit.dialects.transform.structured import FuseOp, TileUsingForallOp, TileUsingForOp
from mlkit.dialects.transform.structured import static_values
from mlkit.dialects.utils.dialects import op_lookup, with_replacements

__all__ = [
    "ApplyCanonicalizationPatternsOp",
    "ApplyCseOp",
    "ApplyPatternsOp",
    "CastOp",
    "FuseOp",
    "DecomposeInterfaceOp",
    "GeneralizeOp",
    "GetParentOp",
    "InterchangeOp",
    "MergeHandlesOp",
    "SplitHandleOp",
    "TileUsingForOp",
    "TileUsingForallOp",
    "Transform",
    "static_values",
]

_REPLACED = {
    xtransform.TileToForallOp: TileUsingForallOp,
    xtransform.TileOp: TileUsingForOp,
    xtransform.CastOp: CastOp,
    xtransform.MergeHandlesOp: MergeHandlesOp,
    xtransform.SplitHandleOp: SplitHandleOp,
    xtransform.GetParentOp: GetParentOp,
}

Transform = with_replacements(
    xtransform.Transform,
    _REPLACED,
    added_ops=[FuseOp, *(op for op in HANDLE_OPS if op not in _REPLACED.values())],
)

__getattr__ = op_lookup(__name__, lambda: Transform)
