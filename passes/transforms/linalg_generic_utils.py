"""What the rewrites of ``linalg.generic`` on tensors share: its maps and loops,
which operands its payload reads, whether its loop bounds survive dropping
operands, building a new generic, and index constants placed as upstream's
greedy rewriter places them.

These are upstream's ``LinalgOp`` interface methods (``getIndexingMapsArray``,
``payloadUsesValueFromOperand``, ``canOpOperandsBeDropped``,
``getShapesToLoopsMap``) that mlkit's ``GenericOp`` does not have; they could
move onto the op.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ArrayAttr, IndexType
from xdsl.dialects.builtin import IntegerAttr, MemRefType, TensorType
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from mlkit.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from mlkit.dialects.utils.constants import function_constant
from mlkit.dialects.linalg.structural import GenericOp
from mlkit.dialects.tensor import DimOp, EmptyOp

__all__ = [
    "can_drop_operands",
    "concat_invertible",
    "empty_like",
    "function_constant",
    "index_constant",
    "indexing_maps",
    "is_all_parallel",
    "is_multiply_add_body",
    "is_permutation",
    "new_generic",
    "num_reduction_loops",
    "payload_uses",
    "pure_tensor",
]


def indexing_maps(op: GenericOp) -> list[AffineMap]:
    return [m.data for m in op.indexing_maps]


def is_all_parallel(op: GenericOp) -> bool:
    return all(k.data == IteratorType.PARALLEL for k in op.iterator_types)


def num_reduction_loops(op: GenericOp) -> int:
    return sum(k.data == IteratorType.REDUCTION for k in op.iterator_types)


def is_multiply_add_body(region: Region) -> bool:
    """Whether ``region`` is ``^bb(a, b, acc): yield acc + a * b`` (either
    operand order; upstream's ``isContractionBody`` for mulf/addf, no casts)."""
    if len(region.blocks) != 1 or len(region.block.args) != 3:
        return False
    block = region.block
    ops = list(block.ops)
    if len(ops) != 3 or [o.name for o in ops] != ["arith.mulf", "arith.addf", "linalg.yield"]:
        return False
    a, b, acc = block.args
    mul, add, yield_ = ops
    if len(mul.operands) != 2 or set(mul.operands) != {a, b}:
        return False
    if len(add.operands) != 2 or set(add.operands) != {mul.results[0], acc}:
        return False
    return list(yield_.operands) == [add.results[0]]


def pure_tensor(op: GenericOp) -> bool:
    """Upstream's ``hasPureTensorSemantics``: no operand is a memref."""
    return not any(isinstance(v.type, MemRefType) for v in op.operands)


def payload_uses(op: GenericOp, operand_number: int) -> bool:
    """Whether the body reads the block argument of operand ``operand_number``."""
    block = op.body.block
    return operand_number < len(block.args) and bool(block.args[operand_number].uses)


def is_permutation(m: AffineMap) -> bool:
    """Every result is a distinct loop dimension, and each dimension is one."""
    if m.num_symbols or len(m.results) != m.num_dims:
        return False
    dims = [r.position for r in m.results if isinstance(r, AffineDimExpr)]
    return len(dims) == m.num_dims and len(set(dims)) == m.num_dims


def concat_invertible(maps: Sequence[AffineMap], num_loops: int) -> bool:
    """The maps together determine every loop's bounds (upstream's
    ``inversePermutation(concatAffineMaps(maps))`` is not null); with no
    maps, only an op without loops has them."""
    if not maps:
        return num_loops == 0
    results = tuple(r for m in maps for r in m.results)
    return AffineMap(num_loops, 0, results).inverse_permutation() is not None


def can_drop_operands(op: GenericOp, dropped: Collection[int]) -> bool:
    """Upstream's ``canOpOperandsBeDropped``: the other operands' maps still
    determine the loop bounds."""
    maps = [m for i, m in enumerate(indexing_maps(op)) if i not in dropped]
    return concat_invertible(maps, len(op.iterator_types))


def new_generic(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    maps: Sequence[AffineMap],
    iterator_types: ArrayAttr[IteratorTypeAttr],
    body: Region,
    attributes: dict[str, Attribute] | None = None,
) -> GenericOp:
    """A generic with one result per tensor init."""
    generic = GenericOp(
        list(inputs),
        list(outputs),
        body,
        ArrayAttr([AffineMapAttr(m) for m in maps]),
        iterator_types,
        [v.type for v in outputs if isinstance(v.type, TensorType)],
    )
    if attributes:
        generic.attributes.update(attributes)
    return generic


def index_constant(rewriter: PatternRewriter, near: Operation, value: int) -> SSAValue:
    """``arith.constant value : index``, placed as :func:`function_constant`."""
    return function_constant(rewriter, near, IntegerAttr(value, IndexType()))


def empty_like(
    rewriter: PatternRewriter, at: Operation, like: SSAValue, element_type: Attribute
) -> SSAValue:
    """``tensor.empty`` before ``at`` with ``like``'s shape (its dynamic sizes
    read with ``tensor.dim``) and ``element_type``: upstream's
    ``tensor.empty(getMixedSizes(like))``."""
    like_type = like.type
    assert isinstance(like_type, TensorType)
    sizes: list[SSAValue] = []
    for dim, size in enumerate(like_type.get_shape()):
        if size == DYNAMIC_INDEX:
            read = DimOp(like, index_constant(rewriter, at, dim))
            rewriter.insert(read, InsertPoint.before(at))
            sizes.append(read.result)
    empty = EmptyOp(sizes, TensorType(element_type, like_type.get_shape()))
    rewriter.insert(empty, InsertPoint.before(at))
    return empty.tensor
