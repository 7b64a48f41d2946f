"""``gpu-launch-sink-index-computations``: clone the index computations a
``gpu.launch`` body uses into the body.

As upstream's ``sinkOperationsIntoLaunchOp`` with ``isLikelyAnIndexComputation``:
of the values the body uses from above, those defined by a constant-like op,
``memref.dim``, ``arith.select`` or ``arith.cmpi`` are recomputed at the start
of the body, with their operands' definitions too where those qualify, as
long as every operand ends up available inside (already used by the body, or
sunk itself). Only the uses inside the launch are redirected; the originals
stay for the uses outside (a later DCE drops them if there are none), so
outlining passes fewer kernel arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike

from mlkit.dialects.gpu.kernel import LaunchOp
from mlkit.passes.transforms.region_utils import is_defined_inside, used_values_defined_above

_INDEX_OPS = frozenset({"memref.dim", "arith.select", "arith.cmpi"})


def is_likely_an_index_computation(op: Operation) -> bool:
    """Upstream's ``isLikelyAnIndexComputation``."""
    return op.name in _INDEX_OPS or op.has_trait(ConstantLike)


def _sinkable(
    op: Operation, used: set[SSAValue], chosen: dict[Operation, None], available: set[SSAValue]
) -> bool:
    """Upstream's ``extractBeneficiaryOps``: whether ``op`` can be sunk without
    new kernel arguments; sinkable ops are added to ``chosen`` defs first."""
    if op in chosen:
        return True
    if not is_likely_an_index_computation(op):
        return False
    for operand in op.operands:
        if operand in available:
            continue
        owner = operand.owner
        if not (isinstance(owner, Operation) and _sinkable(owner, used, chosen, available)):
            if operand not in used:
                return False
    chosen[op] = None
    available.update(op.results)
    return True


def sink_index_computations(launch: LaunchOp) -> None:
    """Clone ``launch``'s sinkable index computations into its entry block."""
    candidates = used_values_defined_above(launch)
    used = set(candidates)
    chosen: dict[Operation, None] = {}
    available: set[SSAValue] = set()
    for value in candidates:
        if isinstance(value.owner, Operation):
            _sinkable(value.owner, used, chosen, available)
    point = InsertPoint.at_start(launch.body.blocks[0])
    mapping: dict[SSAValue, SSAValue] = {}
    for op in chosen:
        clone = op.clone(value_mapper=mapping)
        Rewriter.insert_op(clone, point)
        point = InsertPoint.after(clone)
        for old, new in zip(op.results, clone.results, strict=True):
            mapping[old] = new
            for use in list(old.uses):
                if is_defined_inside(use.operation, launch):
                    use.operation.operands[use.index] = new


@dataclass(frozen=True)
class GpuLaunchSinkIndexComputations(ModulePass):
    """Sink index computations into gpu.launch body"""

    name = "gpu-launch-sink-index-computations"

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        for launch in [o for o in op.walk() if isinstance(o, LaunchOp)]:
            sink_index_computations(launch)
