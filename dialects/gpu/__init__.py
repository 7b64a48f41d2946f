"""mlkit's ``gpu`` dialect: upstream MLIR's GPU dialect syntax and verifiers.

The ops live in :mod:`.ops` (device queries, synchronization, reductions),
:mod:`.memory` (host-side memory ops), :mod:`.module` (``gpu.module``,
``gpu.binary``), :mod:`.func` (``gpu.func``, ``gpu.return``) and
:mod:`.launch` (``gpu.launch``, ``gpu.launch_func``), gathered in
:mod:`.kernel`; the warp-level matrix type and ops in :mod:`.mma`
(``!gpu.mma_matrix``, ``gpu.subgroup_mma_*``); attributes in :mod:`.attrs`,
shared syntax in :mod:`.syntax`.
``gpu.container_module`` is a unit attribute on ``builtin.module``;
``gpu.launch_func`` checks it.
"""

from __future__ import annotations

from xdsl.dialects.gpu import AsyncTokenType, DimensionAttr, LoopDimMapAttr
from xdsl.ir import Dialect

from mlkit.dialects.gpu.attrs import AddressSpaceAttr, AllReduceOperationAttr, BarrierScopeAttr
from mlkit.dialects.gpu.attrs import MAPPING_ATTRS, ObjectAttr, SelectObjectAttr, ShuffleModeAttr
from mlkit.dialects.gpu.kernel import KERNEL_OPS
from mlkit.dialects.gpu.memory import MEMORY_OPS
from mlkit.dialects.gpu.mma import MMA_OPS, MMAElementwiseOpAttr, MMAMatrixType
from mlkit.dialects.gpu.ops import GPU_OPS
from mlkit.dialects.utils.dialects import op_lookup

GPU = Dialect(
    "gpu",
    [*GPU_OPS, *MEMORY_OPS, *KERNEL_OPS, *MMA_OPS],
    [
        AsyncTokenType,
        MMAMatrixType,
        MMAElementwiseOpAttr,
        DimensionAttr,
        AllReduceOperationAttr,
        ShuffleModeAttr,
        AddressSpaceAttr,
        BarrierScopeAttr,
        ObjectAttr,
        SelectObjectAttr,
        LoopDimMapAttr,  # xDSL's, upstream's syntax; written by gpu-map-parallel-loops
        *MAPPING_ATTRS,
    ],
)

__getattr__ = op_lookup(__name__, lambda: GPU)
