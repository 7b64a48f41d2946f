"""``linalg-decompose-aggregated-ops``: ``linalg.softmax`` on tensors becomes the
structured ops it stands for, so that it fuses, vectorizes and lowers as they do.

Upstream decomposes ops of its ``AggregatedOpInterface`` only from a transform
script (``transform.structured.decompose_interface``, which mlkit's
interpreter also runs through :func:`decompose_softmax`); ``lower-to-cpu``
needs it without one, so this pass applies the same decomposition to every
softmax, as IREE's and tpp-mlir's ``decompose-aggregated-ops`` do. The ops
are upstream's (``SoftmaxOp::decomposeOperation``), for ``softmax(x)`` along
dimension ``d``:

1. ``m = max(x)`` along ``d``: a ``linalg.fill`` of NaN (the identity of
   ``arith.maxnumf``) and a reduction generic with ``arith.maxnumf``;
2. ``e = exp(x - m)``, one parallel generic into the softmax's init;
3. ``s = sum(e)`` along ``d``: a fill of zero and a reduction with ``arith.addf``;
4. ``e / s``, a parallel generic into the init.

Softmax on buffers is left alone, as upstream's decomposition is defined on
tensors only.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AffineMapAttr, FloatAttr, IndexType, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.dialects.linalg.body import YieldOp
from mlkit.dialects.linalg.elementwise import FillOp
from mlkit.dialects.linalg.relayout import SoftmaxOp
from mlkit.dialects.linalg.structural import GenericOp, iterators_attr
from mlkit.dialects.tensor import DimOp, EmptyOp

__all__ = ["LinalgDecomposeAggregatedOps", "decompose_softmax"]

# the negative quiet NaN, which keeps its sign and quiet bit in every float type
_NEGATIVE_NAN = struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000000))[0]


def _body(types: list[Attribute], build: type[Operation] | tuple[type[Operation], ...]) -> Region:
    """A generic body over ``types`` that applies ``build`` to its inputs (a
    tuple: the first op on the inputs, each next one on the previous result)."""
    block = Block(arg_types=types)
    first, *rest = build if isinstance(build, tuple) else (build,)
    step = first(*block.args[:2]) if len(types) > 1 else first(block.args[0])
    block.add_op(step)
    for following in rest:
        step = following(step.results[0])
        block.add_op(step)
    value = step.results[0]
    block.add_op(YieldOp(value))
    return Region(block)


def decompose_softmax(op: SoftmaxOp, rewriter: PatternRewriter) -> SSAValue | None:
    """Replace the tensor softmax ``op`` by upstream's decomposition and return
    its new result; None (and no change) for a softmax on buffers."""
    source, init = op.input, op.output
    source_type = source.type
    if not isinstance(source_type, TensorType) or not isinstance(init.type, TensorType):
        return None
    element = source_type.element_type
    rank = source_type.get_num_dims()
    dim = op.dimension.value.data
    new: list[Operation] = []

    # the reduced tensor: the source's shape without ``dim``; as upstream
    # (``getMixedSizes``), every dynamic size is read, the reduced one too
    shape = [s for i, s in enumerate(source_type.get_shape()) if i != dim]
    sizes: list[SSAValue] = []
    for i, size in enumerate(source_type.get_shape()):
        if size < 0:
            index = arith.ConstantOp.from_int_and_width(i, IndexType())
            read = DimOp(source, index.result)
            new += [index, read]
            if i != dim:
                sizes.append(read.result)
    empty = EmptyOp(sizes, TensorType(element, shape))
    new.append(empty)

    identity = AffineMap.identity(rank)
    reduced = AffineMap(rank, 0, tuple(AffineExpr.dimension(i) for i in range(rank) if i != dim))
    maps_reduce = [AffineMapAttr(identity), AffineMapAttr(reduced)]
    maps_broadcast = [AffineMapAttr(identity), AffineMapAttr(reduced), AffineMapAttr(identity)]
    reduce_kinds = iterators_attr(
        [IteratorType.REDUCTION if i == dim else IteratorType.PARALLEL for i in range(rank)]
    )
    parallel_kinds = iterators_attr([IteratorType.PARALLEL] * rank)
    reduced_type = empty.tensor.type
    pair, triple = [element, element], [element, element, element]

    nan = arith.ConstantOp(FloatAttr(_NEGATIVE_NAN, element))  # type: ignore[arg-type]
    max_init = FillOp([nan.result], [empty.tensor])
    maximum = GenericOp(
        [source], [max_init.results[0]], _body(pair, arith.MaxnumfOp),
        maps_reduce, reduce_kinds, [reduced_type],
    )
    shifted = GenericOp(
        [source, maximum.results[0]], [init], _body(triple, (arith.SubfOp, math.ExpOp)),
        maps_broadcast, parallel_kinds, [init.type],
    )
    zero = arith.ConstantOp(FloatAttr(0.0, element))  # type: ignore[arg-type]
    sum_init = FillOp([zero.result], [empty.tensor])
    total = GenericOp(
        [shifted.results[0]], [sum_init.results[0]], _body(pair, arith.AddfOp),
        maps_reduce, reduce_kinds, [reduced_type],
    )
    normalized = GenericOp(
        [shifted.results[0], total.results[0]], [init], _body(triple, arith.DivfOp),
        maps_broadcast, parallel_kinds, [init.type],
    )
    new += [nan, max_init, maximum, shifted, zero, sum_init, total, normalized]
    rewriter.replace(op, new, [normalized.results[0]])
    return normalized.results[0]


@dataclass(frozen=True)
class LinalgDecomposeAggregatedOps(ModulePass):
    """Decompose linalg.softmax on tensors into fills and generics"""

    name = "linalg-decompose-aggregated-ops"

    def apply(self, ctx: Context, op: Operation) -> None:
        # one walk, not a greedy rewrite: most functions hold no softmax, and
        # the decomposition makes nothing that decomposes again
        for softmax in [o for o in op.walk() if isinstance(o, SoftmaxOp)]:
            decompose_softmax(softmax, PatternRewriter(softmax))
