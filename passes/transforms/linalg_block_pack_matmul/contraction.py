"""Which loops of a linalg op are a matmul's batch, m, n and k, as upstream's
``inferContractionDims`` finds them, and upstream's ``isaContractionOpInterface``
test for a ``linalg.generic``.

A loop is m when the LHS and the result index by it alone and the RHS does
not; n when the RHS and the result do and the LHS does not; batch when all
three do; k when it is a reduction loop both inputs index by it alone. Each
list is sorted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from mlkit.dialects.linalg.attrs import IteratorType

__all__ = ["ContractionDims", "infer_contraction_dims", "is_contraction_generic"]

# Upstream's ``isaPair`` of ``isContractionBody``: (elementwise op, reduction op).
_MUL_ADD_PAIRS = frozenset(
    {
        ("arith.mulf", "arith.addf"),
        ("arith.muli", "arith.addi"),
        ("complex.mul", "complex.add"),
        ("arith.andi", "arith.ori"),
    }
)

# The ops of upstream's ``CastOpInterface`` a contraction body may put between
# a block argument and the multiply (``getSourceSkipUnary``).
_CASTS = frozenset(
    {
        "arith.extf", "arith.truncf", "arith.extsi", "arith.extui", "arith.trunci",
        "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui",
        "arith.index_cast", "arith.index_castui", "arith.bitcast",
    }
)  # fmt: skip


@dataclass(frozen=True)
class ContractionDims:
    batch: list[int]
    m: list[int]
    n: list[int]
    k: list[int]


def _dims_of(
    indexing_map: AffineMap, iterators: Sequence[IteratorType], kind: IteratorType
) -> set[int]:
    """Loops of ``kind`` that some result of the map is, alone
    (upstream's ``findPermutationsIndexingOperand``)."""
    return {
        e.position
        for e in indexing_map.results
        if isinstance(e, AffineDimExpr) and iterators[e.position] == kind
    }


def infer_contraction_dims(
    maps: Sequence[AffineMap], iterators: Sequence[IteratorType]
) -> ContractionDims:
    """The batch, m, n and k loops of an op with maps (lhs, rhs, result)."""
    par, red = IteratorType.PARALLEL, IteratorType.REDUCTION
    a, b, c = (_dims_of(m, iterators, par) for m in maps[:3])
    k = _dims_of(maps[0], iterators, red) & _dims_of(maps[1], iterators, red)
    return ContractionDims(
        batch=sorted(a & b & c),
        m=sorted((a & c) - b),
        n=sorted((b & c) - a),
        k=sorted(k),
    )


def _skip_unary(value: SSAValue) -> SSAValue:
    owner = value.owner
    while isinstance(owner, Operation) and owner.name in _CASTS and len(owner.operands) == 1:
        value = owner.operands[0]
        owner = value.owner
    return value


def is_contraction_body(block: Block) -> bool:
    """``yield(add(out, mul(lhs, rhs)))`` up to casts (upstream's ``isContractionBody``)."""
    if len(block.args) != 3 or block.last_op is None:
        return False
    terminator = block.last_op
    if len(terminator.operands) != 1:
        return False
    reduction = _skip_unary(terminator.operands[0]).owner
    if not isinstance(reduction, Operation) or len(reduction.results) != 1:
        return False
    if len(reduction.operands) != 2:
        return False
    lhs, rhs = (_skip_unary(v) for v in reduction.operands)
    out = block.args[2]
    if out not in (lhs, rhs):
        return False
    contributed = _skip_unary(rhs if isinstance(lhs, BlockArgument) else lhs)
    elementwise = contributed.owner
    if not isinstance(elementwise, Operation):
        return False
    if len(elementwise.results) != 1 or len(elementwise.operands) != 2:
        return False
    if (elementwise.name, reduction.name) not in _MUL_ADD_PAIRS:
        return False
    args = {_skip_unary(v) for v in elementwise.operands}
    return args == {block.args[0], block.args[1]} and len(args) == 2


def is_contraction_generic(
    maps: Sequence[AffineMap], iterators: Sequence[IteratorType], num_inputs: int,
    num_inits: int, body: Block,
) -> bool:
    """Upstream's ``isaContractionOpInterface`` for a ``linalg.generic``."""
    if num_inputs != 2 or num_inits != 1:
        return False
    if IteratorType.REDUCTION not in iterators:
        return False
    if not all(m.is_projected_permutation() for m in maps):
        return False
    return is_contraction_body(body)
