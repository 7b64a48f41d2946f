"""Which structured ops are matmuls: what ``linalg-matmul-to-microkernel``
accepts, and the roles of their loops.

A matmul here is a structured op on buffers (``linalg.generic`` or a named
op: ``matmul``, ``batch_matmul``, either with transposing ``indexing_maps``)
with two inputs and one init, all of one float element type (f32 or f64),
whose body is ``init + lhs * rhs`` (``arith.mulf`` and ``arith.addf``, either
operand order), whose maps are projected permutations, and whose loops play
these roles (upstream's ``inferContractionDims``):

- ``k``: the reduction loops, read by both inputs, not by the init;
- ``m``: the parallel loops read by one input (the lhs) and the init;
- ``n``: the parallel loops read by the other input (the rhs) and the init;
- batch loops: parallel loops read by all three.

Where ``m``, ``n`` or ``k`` is several loops (a 3-D ``x @ W`` whose
``collapse_shape`` reshape propagation folded into the op), each operand must
hold a role's loops as adjacent dimensions, in one order shared by all
operands, contiguous in memory (:meth:`Access.collapsible`): the kernel then
views each group as one dimension (:mod:`.collapse`). Other such ops are
left alone.

Any memref layout is accepted; the kernel asks :meth:`Access.contiguous` where
it wants whole vectors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import groupby
from math import prod
from typing import ClassVar

from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.passes.conversion.linalg_matmul_to_microkernel.builder import Bound, Builder
from mlkit.passes.transforms.linalg_generic_utils import is_multiply_add_body
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float32Type,
    Float64Type,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

__all__ = [
    "Access",
    "Contraction",
    "MultiplyAdd",
    "match_contraction",
    "multiply_add",
    "permutation_dims",
    "role_groups",
]

M, N, K = "m", "n", "k"


def role_groups(roles: tuple[str, ...]) -> list[list[int]]:
    """The runs of adjacent dimensions with one role, outermost first."""
    groups: list[list[int]] = []
    for index, role in enumerate(roles):
        if groups and roles[groups[-1][-1]] == role:
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


@dataclass(frozen=True)
class Access:
    """One operand of the matmul: its buffer and, per buffer dimension, the
    role of the loop that indexes it (``m``, ``n``, ``k`` or ``b0``, ``b1``...).

    A role may index several dimensions (a convolution's output pixels
    ``n, oh, ow`` are one ``m``): its index is then the row-major flat index
    over them, in the buffer's order."""

    buffer: SSAValue
    roles: tuple[str, ...]
    plain: ClassVar[bool] = True  # indexed by its roles alone (a convolution's image is not)

    @property
    def type(self) -> MemRefType:
        assert isinstance(self.buffer.type, MemRefType)
        return self.buffer.type

    def dims_of(self, role: str) -> list[int]:
        return [d for d, r in enumerate(self.roles) if r == role]

    def size(self, b: Builder, dim: int) -> Bound:
        """The size of dimension ``dim`` of the buffer, folded where static."""
        static = self.type.get_shape()[dim]
        if static != DYNAMIC_INDEX:
            return static
        return b.add_op(memref.DimOp(self.buffer, b.value(dim))).results[0]

    def static_extent(self, role: str) -> int | None:
        """The trip count of ``role`` where the type fixes it."""
        shape = [self.type.get_shape()[d] for d in self.dims_of(role)]
        return None if DYNAMIC_INDEX in shape else prod(shape)

    def extent(self, b: Builder, role: str) -> Bound:
        """The trip count of ``role``: the product of the sizes it indexes."""
        total: Bound = 1
        for d in self.dims_of(role):
            total = b.mul(total, self.size(b, d))
        return total

    def delinearize(self, b: Builder, role: str, flat: Bound) -> dict[int, Bound]:
        """The index of each dimension ``role`` indexes, at its flat index ``flat``."""
        dims = self.dims_of(role)
        indices: dict[int, Bound] = {}
        for d in reversed(dims[1:]):
            size = self.size(b, d)
            indices[d], flat = b.rem(flat, size), b.div(flat, size)
        indices[dims[0]] = flat
        return indices

    def locate(self, b: Builder, at: Mapping[str, Bound]) -> list[SSAValue]:
        """The buffer indices of the element at the roles' indices ``at``."""
        indices: dict[int, Bound] = {}
        for role in dict.fromkeys(self.roles):
            indices.update(self.delinearize(b, role, at[role]))
        return [b.value(indices[d]) for d in range(len(self.roles))]

    def _linear(self, dims: list[int]) -> bool:
        """Whether the flat index over ``dims`` (trailing ones) walks memory with unit stride."""
        if dims != list(range(len(self.roles) - len(dims), len(self.roles))):
            return False
        if isinstance(self.type.layout, NoneAttr):
            return True
        strides, shape = self.type.get_strides(), self.type.get_shape()
        if strides is None or strides[-1] != 1:
            return False
        return all(
            strides[d] is not None and shape[d + 1] != DYNAMIC_INDEX
            and strides[d + 1] is not None and strides[d] == strides[d + 1] * shape[d + 1]
            for d in dims[:-1]
        )  # fmt: skip

    def contiguous(self, role: str, lanes: int = 1) -> bool:
        """Whether ``role`` walks the buffer with unit stride, in runs of whole
        ``lanes``-wide vectors."""
        return self.roles[-1] == role and self._linear(self.dims_of(role))

    def collapsible(self) -> bool:
        """Whether each role's dimensions can be viewed as one (a
        ``memref.collapse_shape``): adjacent, and, for a strided layout, with
        static strides that make them contiguous in row-major order."""
        runs = [role for role, _ in groupby(self.roles)]
        if not self.plain or len(runs) != len(set(runs)):
            return False
        layout = self.type.layout
        if isinstance(layout, NoneAttr):
            return True
        if not isinstance(layout, StridedLayoutAttr):
            return False
        strides, shape = layout.get_strides(), self.type.get_shape()
        for group in role_groups(self.roles):
            for d in group[:-1]:
                outer, inner, size = strides[d], strides[d + 1], shape[d + 1]
                if outer is None or inner is None or size == DYNAMIC_INDEX or outer != inner * size:
                    return False
        return True


@dataclass(frozen=True)
class Contraction:
    """A matmul-shaped op: ``out[b..., m, n] += lhs[b..., m, k] * rhs[b..., k, n]``
    with each operand's dimensions in any order."""

    op: Operation
    lhs: Access
    rhs: Access
    out: Access
    element: Float32Type | Float64Type
    batch: tuple[str, ...]

    def extent_access(self, role: str) -> Access:
        """An operand whose sizes give the trip count of ``role``."""
        if role != K:
            return self.out
        return self.lhs if self.lhs.plain else self.rhs

    def static_extent(self, role: str) -> int | None:
        return self.extent_access(role).static_extent(role)


def permutation_dims(map_: AffineMap) -> list[int] | None:
    """The loops a projected permutation map reads, in order, else None."""
    if not all(isinstance(e, AffineDimExpr) for e in map_.results):
        return None
    dims = [e.position for e in map_.results]  # type: ignore[attr-defined]
    return dims if len(set(dims)) == len(dims) else None


@dataclass(frozen=True)
class MultiplyAdd:
    """A structured op on buffers of one float type whose body is a
    multiply-add: its inputs and init, their type, maps and loop kinds."""

    operands: list[SSAValue]
    element: Float32Type | Float64Type
    maps: list[AffineMap]
    kinds: list[IteratorType]


def multiply_add(op: Operation) -> MultiplyAdd | None:
    """``op`` as a :class:`MultiplyAdd` of two inputs and one init, else None."""
    if not isinstance(op, LinalgStructuredOperation) or op.results:
        return None
    inputs, outputs = list(op.inputs), list(op.outputs)
    if len(inputs) != 2 or len(outputs) != 1:
        return None
    operands = [*inputs, *outputs]
    types: list[Attribute] = [v.type for v in operands]
    if not all(isinstance(t, MemRefType) for t in types):
        return None
    element = types[0].get_element_type()  # type: ignore[attr-defined]
    if not isinstance(element, Float32Type | Float64Type):
        return None
    if any(t.get_element_type() != element for t in types):  # type: ignore[attr-defined]
        return None
    if not is_multiply_add_body(op.body):
        return None
    maps = [m.data for m in op.get_indexing_maps()]
    return MultiplyAdd(operands, element, maps, [k.data for k in op.get_iterator_types()])


def match_contraction(op: Operation) -> Contraction | None:
    """The matmul ``op`` is, or None when it is not one this pass rewrites."""
    found = multiply_add(op)
    if found is None:
        return None
    operands, element, kinds = found.operands, found.element, found.kinds
    dims = [permutation_dims(m) for m in found.maps]
    if any(d is None for d in dims):
        return None
    a_dims, b_dims, c_dims = (set(d) for d in dims)  # type: ignore[arg-type]
    roles: dict[int, str] = {}
    batch: list[str] = []
    for loop, kind in enumerate(kinds):
        in_a, in_b, in_c = loop in a_dims, loop in b_dims, loop in c_dims
        if kind == IteratorType.REDUCTION and in_a and in_b and not in_c:
            role = K
        elif kind == IteratorType.PARALLEL and in_c and in_a and in_b:
            role = f"b{len(batch)}"
            batch.append(role)
        elif kind == IteratorType.PARALLEL and in_c and (in_a != in_b):
            role = M if in_a else N
        else:
            return None
        roles[loop] = role
    if set(roles.values()) - set(batch) != {M, N, K}:
        return None
    accesses = [
        Access(v, tuple(roles[d] for d in dim_list))  # type: ignore[union-attr]
        for v, dim_list in zip(operands, dims)
    ]
    if len(roles) != len(set(roles.values())) and not _groups_agree(accesses, dims, roles):  # type: ignore[arg-type]
        return None
    lhs, rhs, out = accesses
    if N in lhs.roles:  # the inputs come as (rhs, lhs): the product commutes
        lhs, rhs = rhs, lhs
    return Contraction(op, lhs, rhs, out, element, tuple(batch))  # type: ignore[arg-type]


def _groups_agree(accesses: list[Access], dims: list[list[int]], roles: Mapping[int, str]) -> bool:
    """Whether every operand holds each role's loops in one order (the same in
    all), as dimensions it can view as one: the row-major flat index over a
    group then means the same loops' values in every operand."""
    order: dict[str, list[int]] = {}
    for access, dim_list in zip(accesses, dims):
        if not access.collapsible():
            return False
        for role in set(access.roles):
            loops = [d for d in dim_list if roles[d] == role]
            if order.setdefault(role, loops) != loops:
                return False
    return True
