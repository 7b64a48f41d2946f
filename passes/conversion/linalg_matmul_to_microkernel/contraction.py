"""Which structured ops are matmuls: what ``linalg-matmul-to-microkernel``
accepts, and the roles of their loops.

A matmul here is a structured op on buffers (``linalg.generic`` or a named
op: ``matmul``, ``batch_matmul``, either with transposing ``indexing_maps``)
with two inputs and one init, all of one float element type (f32 or f64),
whose body is ``init + lhs * rhs`` (``arith.mulf`` and ``arith.addf``, either
operand order), whose maps are projected permutations, and whose loops play
these roles (upstream's ``inferContractionDims``):

- ``k``: the one reduction loop, read by both inputs, not by the init;
- ``m``: the one parallel loop read by one input (the lhs) and the init;
- ``n``: the one parallel loop read by the other input (the rhs) and the init;
- batch loops: parallel loops read by all three.

Any memref layout is accepted; the kernel asks :meth:`Access.contiguous` where
it wants whole vectors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mlkit.dialects.linalg.attrs import IteratorType
from xdsl.dialects.builtin import Float32Type, Float64Type, MemRefType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

__all__ = ["Access", "Contraction", "match_contraction"]

M, N, K = "m", "n", "k"


@dataclass(frozen=True)
class Access:
    """One operand of the matmul: its buffer and, per buffer dimension, the
    role of the loop that indexes it (``m``, ``n``, ``k`` or ``b0``, ``b1``...)."""

    buffer: SSAValue
    roles: tuple[str, ...]

    @property
    def type(self) -> MemRefType:
        assert isinstance(self.buffer.type, MemRefType)
        return self.buffer.type

    def dim_of(self, role: str) -> int:
        return self.roles.index(role)

    def indices(self, at: Mapping[str, SSAValue]) -> list[SSAValue]:
        return [at[role] for role in self.roles]

    def contiguous(self, role: str) -> bool:
        """Whether ``role`` walks the buffer's innermost dimension with unit stride."""
        if self.roles[-1] != role:
            return False
        strides = self.type.get_strides()
        return strides is not None and strides[-1] == 1


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

    def extent_source(self, role: str) -> tuple[SSAValue, int]:
        """A buffer and dimension whose size is the trip count of ``role``."""
        access = self.lhs if role == K else self.out
        return access.buffer, access.dim_of(role)


def _dims(map_: AffineMap) -> list[int] | None:
    if not all(isinstance(e, AffineDimExpr) for e in map_.results):
        return None
    dims = [e.position for e in map_.results]  # type: ignore[attr-defined]
    return dims if len(set(dims)) == len(dims) else None


def _is_multiply_add(op: LinalgStructuredOperation) -> bool:
    """Whether the body is ``yield(init + a * b)``, ``a`` and ``b`` the input
    arguments (upstream's ``isContractionBody`` for mulf/addf, without casts)."""
    block = op.body.block
    ops = list(block.ops)
    if len(ops) != 3 or len(block.args) != 3:
        return False
    mul, add, yield_ = ops
    lhs, rhs, init = block.args
    return (
        mul.name == "arith.mulf"
        and add.name == "arith.addf"
        and yield_.name == "linalg.yield"
        and len(mul.operands) == 2
        and set(mul.operands) == {lhs, rhs}
        and len(add.operands) == 2
        and set(add.operands) == {init, mul.results[0]}
        and list(yield_.operands) == [add.results[0]]
    )


def match_contraction(op: Operation) -> Contraction | None:
    """The matmul ``op`` is, or None when it is not one this pass rewrites."""
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
    if not _is_multiply_add(op):
        return None
    maps = [m.data for m in op.get_indexing_maps()]
    kinds = [k.data for k in op.get_iterator_types()]
    dims = [_dims(m) for m in maps]
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
        if role in roles.values():
            return None  # a second m, n or k loop: not a plain matmul
        roles[loop] = role
    if set(roles.values()) - set(batch) != {M, N, K}:
        return None
    accesses = [
        Access(v, tuple(roles[d] for d in dim_list))  # type: ignore[union-attr]
        for v, dim_list in zip(operands, dims)
    ]
    lhs, rhs, out = accesses
    if N in lhs.roles:  # the inputs come as (rhs, lhs): the product commutes
        lhs, rhs = rhs, lhs
    return Contraction(op, lhs, rhs, out, element, tuple(batch))  # type: ignore[arg-type]
