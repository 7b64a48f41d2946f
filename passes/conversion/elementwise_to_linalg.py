"""``convert-elementwise-to-linalg``: elementwise ops on ranked tensors become
``linalg.generic``.

Upstream converts every op with the ``ElementwiseMappable`` traits whose
operands are ranked tensors or scalars (integer, float, index, complex), at
least one of them a tensor, into an all-parallel ``linalg.generic``: identity
maps for the tensors, ``(d0, ...) -> ()`` for the scalars and the results, and a
body that applies the same op, with the same attributes, to the elements. Each
result's init is the first operand of the result's type, or else a
``tensor.empty`` shaped like the first operand (its dynamic sizes read with
``tensor.dim``), with the result's element type.

xDSL has no ``ElementwiseMappable`` trait. Upstream gives it to every ``arith``
op but ``arith.constant`` and to every ``math`` op, so those are the ops
converted here.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from mlkit.dialects.linalg import GenericOp, YieldOp
from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.dialects.linalg.structural import iterators_attr, maps_attr
from mlkit.dialects.tensor import DimOp, EmptyOp
from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns

__all__ = ["ConvertElementwiseToLinalgPass", "is_elementwise_mappable_on_ranked_tensors"]

_MAPPABLE_DIALECTS = ("arith", "math")


def _is_scalar_like(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | AnyFloat | IndexType | ComplexType)


def is_elementwise_mappable(op: Operation) -> bool:
    """Upstream's ``ElementwiseMappable`` ops (see the module docstring)."""
    return op.dialect_name() in _MAPPABLE_DIALECTS and not isinstance(op, ConstantOp)


def is_elementwise_mappable_on_ranked_tensors(op: Operation) -> bool:
    if not is_elementwise_mappable(op) or not op.results:
        return False
    types = [v.type for v in op.operands]
    return any(isinstance(t, TensorType) for t in types) and all(
        isinstance(t, TensorType) or _is_scalar_like(t) for t in types
    )


def _mixed_size_empty(
    rewriter: PatternRewriter, at: Operation, like: SSAValue, result_type: TensorType
) -> SSAValue:
    """``tensor.empty`` with ``like``'s sizes (dynamic ones read with
    ``tensor.dim``) and ``result_type``'s element type."""
    sizes: list[SSAValue] = []
    like_type = like.type
    assert isinstance(like_type, TensorType)
    for dim, size in enumerate(like_type.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        index = ConstantOp(IntegerAttr(dim, IndexType()))
        read = DimOp(like, index.result)
        rewriter.insert([index, read], InsertPoint.before(at))
        sizes.append(read.result)
    empty = EmptyOp(sizes, TensorType(result_type.element_type, like_type.get_shape()))
    rewriter.insert(empty, InsertPoint.before(at))
    return empty.tensor


def _inits(rewriter: PatternRewriter, op: Operation) -> list[SSAValue]:
    """Per result: the first operand of its type, or a new ``tensor.empty``."""
    inits: list[SSAValue] = []
    for result in op.results:
        match = next((v for v in op.operands if v.type == result.type), None)
        if match is None:
            assert isinstance(result.type, TensorType)
            match = _mixed_size_empty(rewriter, op, op.operands[0], result.type)
        inits.append(match)
    return inits


def _element(type_: Attribute) -> Attribute:
    return type_.element_type if isinstance(type_, TensorType) else type_


class ConvertElementwiseMappableOp(RewritePattern):
    """One elementwise op on ranked tensors to a ``linalg.generic`` applying it."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_elementwise_mappable_on_ranked_tensors(op):
            return
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        rank = len(result_type.get_shape())
        identity = AffineMap.identity(rank)
        scalar = AffineMap(rank, 0, ())
        maps = [identity if isinstance(v.type, TensorType) else scalar for v in op.operands]
        maps += [identity] * len(op.results)
        inits = _inits(rewriter, op)

        block = Block(arg_types=[_element(v.type) for v in (*op.operands, *inits)])
        scalar_op = type(op).create(
            operands=block.args[: len(op.operands)],
            result_types=[_element(r.type) for r in op.results],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        block.add_ops([scalar_op, YieldOp(*scalar_op.results)])
        generic = GenericOp(
            list(op.operands),
            inits,
            Region(block),
            maps_attr(maps),
            iterators_attr([IteratorType.PARALLEL] * rank),
            [r.type for r in op.results],
        )
        rewriter.replace(op, generic)


@dataclass(frozen=True)
class ConvertElementwiseToLinalgPass(ModulePass):
    """Convert ElementwiseMappable ops to linalg"""

    name = "convert-elementwise-to-linalg"

    def apply(self, ctx: Context, op: Operation) -> None:
        apply_conversion_patterns(op, [ConvertElementwiseMappableOp()])
