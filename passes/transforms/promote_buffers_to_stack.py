"""``promote-buffers-to-stack``: small ``memref.alloc`` become ``memref.alloca``.

As upstream's ``BufferPlacementPromotion``: an allocation is promoted when it
is small (a static shape of at most ``max-alloc-size-in-bytes``, or a dynamic
one of rank at most ``max-rank-of-allocated-memref`` whose sizes all come from
``memref.rank``), nothing frees it yet, and an enclosing allocation scope (a
function, an ``scf.for``/``parallel``/``forall``, an ``affine.for``, a
``memref.alloca_scope``) is reached through known control flow without the
buffer being returned from it. A stack buffer costs no allocator call and is
freed with its scope; run it before ``buffer-deallocation-pipeline``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, MemRefType, VectorType
from xdsl.ir import Attribute, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from mlkit.passes.transforms.alloc_placement import ALLOCATION_SCOPES, CONTROL_FLOW, LOOPS
from mlkit.passes.transforms.alloc_placement import aliases, function_ops, has_dealloc
from mlkit.passes.transforms.alloc_placement import is_return_like
from mlkit.pipeline.options import option


def _bits(element: Attribute) -> int | None:
    """The element's size in bits, as the default data layout has it."""
    if isinstance(element, IntegerType):
        return element.width.data
    if isinstance(element, IndexType):
        return 64
    if isinstance(element, AnyFloat):
        return element.bitwidth
    if isinstance(element, VectorType):
        inner = _bits(element.element_type)
        return None if inner is None else inner * prod(element.get_shape())
    return None


def has_allocation_scope(alloc: Operation) -> bool:
    """Upstream's ``hasAllocationScope``: climb regions to an allocation scope
    the buffer does not escape, through known control flow that is no loop."""
    flow = aliases(alloc.results[0])
    current: Operation = alloc
    while (region := current.parent_region()) is not None and (op := region.parent) is not None:
        if op.name in ALLOCATION_SCOPES and not _escapes(region, flow):
            return True
        if op.name in LOOPS or op.name not in CONTROL_FLOW:
            return False
        current = op
    return False


def _escapes(region: Region, values: set[SSAValue]) -> bool:
    """Whether a return-like terminator directly in ``region`` hands on one of
    ``values`` (the buffer would outlive the scope)."""
    for value in values:
        for use in value.uses:
            user = use.operation
            if is_return_like(user) and user.parent_region() is region:
                return True
    return False


@dataclass(frozen=True)
class PromoteBuffersToStack(ModulePass):
    """Promotes heap-based allocations to automatically managed stack-based allocations"""

    name = "promote-buffers-to-stack"
    display_name: ClassVar[str] = "PromoteBuffersToStackPass"
    anchor: ClassVar[str] = "func.func"

    max_alloc_size_in_bytes: int = option(
        1024, "Maximal size in bytes to promote allocations to stack."
    )
    max_rank_of_allocated_memref: int = option(
        1, "Maximal memref rank to promote dynamic buffers."
    )

    def __post_init__(self) -> None:
        # upstream's options are `unsigned`: LLVM's parser refuses a negative value
        for dashed, value in (
            ("max-alloc-size-in-bytes", self.max_alloc_size_in_bytes),
            ("max-rank-of-allocated-memref", self.max_rank_of_allocated_memref),
        ):
            if value < 0:
                raise ValueError(
                    f"for the --{dashed} option: '{value}' value invalid for uint argument!"
                )

    def is_small(self, alloc: Operation) -> bool:
        """Upstream's ``defaultIsSmallAlloc``."""
        t = alloc.results[0].type
        if not isinstance(t, MemRefType):
            return False
        shape = t.get_shape()
        if any(size < 0 for size in shape):
            return len(shape) <= self.max_rank_of_allocated_memref and all(
                isinstance(v, OpResult) and v.op.name == "memref.rank" for v in alloc.operands
            )
        bits = _bits(t.element_type)
        return bits is not None and prod(shape) * bits <= self.max_alloc_size_in_bytes * 8

    def apply(self, ctx: Context, op: Operation) -> None:
        for alloc in function_ops(op, frozenset({"memref.alloc"})):
            value = alloc.results[0]
            if not self.is_small(alloc) or has_dealloc(value) or not has_allocation_scope(alloc):
                continue
            alloca = memref.AllocaOp.create(
                operands=list(alloc.operands),
                result_types=[value.type],
                properties=dict(alloc.properties),
                attributes=dict(alloc.attributes),
            )
            Rewriter.replace_op(alloc, alloca)
