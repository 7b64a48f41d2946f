"""``convert-bufferization-to-memref``: ``bufferization.clone`` becomes a fresh
buffer and a ``memref.copy``, as upstream's ``CloneOpConversion``.

- A ranked clone allocates the shape (each dynamic size read with
  ``memref.dim``) with the identity layout, in the source's memory space,
  ``memref.cast`` to the clone's type when that has another layout, then copies.
- An unranked clone reads the rank, stores every size into a stack buffer while
  multiplying them in an ``scf.for``, allocates that many elements, and
  ``memref.reshape``s the buffer to the sizes before copying.

Upstream's pass also lowers ``bufferization.dealloc``, an op mlkit's
bufferization dialect does not have (mlkit's deallocation pipeline emits
``memref.dealloc`` directly), so no input mlkit reads holds one.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, NoneAttr
from xdsl.dialects.builtin import UnrankedMemRefType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mlkit.dialects import arith, bufferization, memref, scf
from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns


def _index(rewriter: PatternRewriter, value: int) -> SSAValue:
    return rewriter.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


def _dim(rewriter: PatternRewriter, source: SSAValue, index: SSAValue) -> SSAValue:
    return rewriter.insert(memref.DimOp(source, index)).result


def _ranked(rewriter: PatternRewriter, source: SSAValue, result: MemRefType) -> SSAValue:
    sizes = [
        _dim(rewriter, source, _index(rewriter, i))
        for i, size in enumerate(result.get_shape())
        if size == DYNAMIC_INDEX
    ]
    identity = MemRefType(result.element_type, result.get_shape(), NoneAttr(), result.memory_space)
    buffer = rewriter.insert(memref.AllocOp(sizes, [], identity)).memref
    if identity != result:
        buffer = rewriter.insert(memref.CastOp(operands=[buffer], result_types=[result])).dest
    rewriter.insert(memref.CopyOp(source, buffer))
    return buffer


def _unranked(rewriter: PatternRewriter, source: SSAValue, result: UnrankedMemRefType) -> SSAValue:
    zero, one = _index(rewriter, 0), _index(rewriter, 1)
    rank = rewriter.insert(memref.RankOp(operands=[source], result_types=[IndexType()])).rank
    shape_type = MemRefType(IndexType(), [DYNAMIC_INDEX])
    shape = rewriter.insert(memref.AllocaOp(operands=[[rank], []], result_types=[shape_type])).memref
    body = Block(arg_types=[IndexType(), IndexType()])
    i, total = body.args
    dim = memref.DimOp(source, i)
    product = arith.MuliOp(total, dim.result, overflow=arith.IntegerOverflowAttr("none"))
    body.add_ops([
        dim,
        memref.StoreOp.get(dim.result, shape, [i]),
        product,
        scf.YieldOp(product.result),
    ])  # fmt: skip
    loop = rewriter.insert(scf.ForOp(zero, rank, one, [one], Region(body)))
    flat_type = MemRefType(result.element_type, [DYNAMIC_INDEX], NoneAttr(), result.memory_space)
    flat = rewriter.insert(memref.AllocOp([loop.results[0]], [], flat_type)).memref
    view = rewriter.insert(
        memref.ReshapeOp(operands=[flat, shape], result_types=[result])
    ).results[0]
    rewriter.insert(memref.CopyOp(source, view))
    return view


class CloneToAllocAndCopy(RewritePattern):
    """Upstream's ``CloneOpConversion``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: bufferization.CloneOp, rewriter: PatternRewriter) -> None:
        result = op.output.type
        if isinstance(result, MemRefType):
            rewriter.replace(op, [], [_ranked(rewriter, op.input, result)])
        elif isinstance(result, UnrankedMemRefType):
            rewriter.replace(op, [], [_unranked(rewriter, op.input, result)])


@dataclass(frozen=True)
class ConvertBufferizationToMemRef(ModulePass):
    """Convert operations from the Bufferization dialect to the MemRef dialect"""

    name = "convert-bufferization-to-memref"

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        apply_conversion_patterns(op, [CloneToAllocAndCopy()])
