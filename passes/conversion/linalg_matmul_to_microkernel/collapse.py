"""Contractions whose ``m``, ``n`` or ``k`` is several loops, as 2-D ones.

``x @ W`` with a 3-D ``x`` arrives from JAX or IREE as ``collapse_shape`` +
``matmul``; reshape propagation (``linalg-fuse-elementwise-ops``) folds the
collapse into the op, which then has two ``m`` loops (``(b, s, n, k)``: A
``(b, s, k)``, B ``(k, n)``, C ``(b, s, n)``). Where, in every operand, the
loops of each role are adjacent dimensions in one order (the same in all
operands), and those dimensions are contiguous in memory (identity layout, or
static strides that say so), each group is one dimension of a
``memref.collapse_shape`` view, and the op is the plain matmul the kernel
already runs (upstream's ``collapseOpIterationDims`` /
``linalg-fold-unit-extent-dims`` route to the same place). Anything else is
left to the scalar loops.
"""

from __future__ import annotations

from math import prod

from mlkit.passes.conversion.linalg_matmul_to_microkernel.builder import Builder
from mlkit.passes.conversion.linalg_matmul_to_microkernel.contraction import Access, role_groups
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)

__all__ = ["collapse"]


def _collapsed_type(memref_type: MemRefType, groups: list[list[int]]) -> MemRefType:
    shape = memref_type.get_shape()
    sizes = [
        DYNAMIC_INDEX if any(shape[d] == DYNAMIC_INDEX for d in g) else prod(shape[d] for d in g)
        for g in groups
    ]
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        return MemRefType(memref_type.element_type, sizes, memory_space=memref_type.memory_space)
    strides = memref_type.get_strides()
    assert strides is not None and isinstance(layout, StridedLayoutAttr)
    # a group's stride is its innermost non-unit dimension's, as upstream's
    # computeCollapsedLayoutMap (all of a group's strides agree on it)
    new_strides: list[int | None] = []
    for g in groups:
        non_unit = [d for d in g if shape[d] != 1] or g
        new_strides.append(strides[non_unit[-1]])
    offset = layout.get_offset()
    return MemRefType(
        memref_type.element_type, sizes,
        StridedLayoutAttr(new_strides, offset), memref_type.memory_space,
    )  # fmt: skip


def collapse(b: Builder, access: Access) -> Access:
    """``access`` with one dimension per role, through a ``memref.collapse_shape``
    built in ``b`` where it has more (it must be :meth:`.Access.collapsible`)."""
    if len(set(access.roles)) == len(access.roles):
        return access
    groups = role_groups(access.roles)
    reassociation = ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in g]) for g in groups])
    op = memref.CollapseShapeOp.create(
        operands=[access.buffer],
        result_types=[_collapsed_type(access.type, groups)],
        properties={"reassociation": reassociation},
    )
    b.add_op(op)
    return Access(op.results[0], tuple(access.roles[g[0]] for g in groups))
