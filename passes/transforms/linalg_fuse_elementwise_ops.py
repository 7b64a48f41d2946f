"""``linalg-fuse-elementwise-ops``: producer-consumer fusion of ``linalg.generic``
ops on tensors.

A generic (the consumer) that reads, as an input, the result of another
generic (the producer) computes the producer's payload itself: one loop nest
instead of two, no intermediate tensor. Upstream fuses when

- the producer has pure tensor semantics and only parallel loops;
- the fused value is a ranked tensor and an input (not an init) of the consumer;
- the consumer's map for it has one result per producer loop, and the
  producer's map for that result is a permutation (so producer loops are
  consumer loops rearranged);
- for a consumer with reductions, every consumer loop is still indexed by some
  remaining operand;
- and, in this pass, the producer has exactly one use.

With ``fuse-into-contractions=false`` (an mlkit option; ``lower-to-cpu`` sets
it when contractions run on micro-kernels) no producer fuses into a
contraction, a generic with reductions whose body is a multiply-add: the
micro-kernel packs plain operands, while a fused producer's payload would run
in the contraction's scalar loops, once per element of the other operand.

The fused op has the consumer's loops; its inputs are the consumer's inputs
with the producer's inputs spliced in place of the fused one, their maps
composed into consumer coordinates; its inits are the producer's inits whose
results must survive (their result is used elsewhere, the payload reads the
init, or the init's map is needed for the loop bounds) and then the
consumer's. Its body is the producer's body (``linalg.index`` rewritten into
consumer loops) followed by the consumer's, reading the producer's yielded
value. The consumer's results are replaced; the producer stays for any other
user and goes once it has none.

With the fusion, as upstream, run: ``linalg.fill`` producers become their
scalar in the consumer's body, scalar or splat constant inputs become scalar
constants, inits the payload does not read become ``tensor.empty`` (so the
producer of an init is no longer a dependence), and the clean-ups of
:mod:`.linalg_erase_unused`, and the reshape propagation of
:mod:`.linalg_reshape_fusion` (a collapse_shape producer or expand_shape
consumer folded into a generic by expanding its loops). Not run here (upstream
also runs them): bubbling expand_shape up through collapse_shape, and constant
folding of generics over dense constants.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, DenseIntOrFPElementsAttr, FloatAttr
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from mlkit.dialects.affine import ApplyOp
from mlkit.dialects.linalg.body import YieldOp
from mlkit.dialects.linalg.elementwise import FillOp
from mlkit.dialects.linalg.structural import GenericOp, IndexOp
from mlkit.passes.transforms.linalg_erase_unused import DeduplicateAndRemoveDeadOperandsAndResults
from mlkit.passes.transforms.linalg_erase_unused import EraseIdentityGeneric, EraseTriviallyDead
from mlkit.passes.transforms.linalg_erase_unused import RemoveUnusedCycleInGeneric
from mlkit.passes.transforms.linalg_generic_utils import concat_invertible, empty_like
from mlkit.passes.transforms.linalg_generic_utils import function_constant, index_constant
from mlkit.passes.transforms.linalg_generic_utils import indexing_maps, is_all_parallel
from mlkit.passes.transforms.linalg_generic_utils import is_multiply_add_body, is_permutation
from mlkit.passes.transforms.linalg_generic_utils import new_generic
from mlkit.passes.transforms.linalg_generic_utils import num_reduction_loops, payload_uses
from mlkit.passes.transforms.linalg_generic_utils import pure_tensor
from mlkit.passes.transforms.linalg_reshape_fusion import reshape_propagation_patterns
from mlkit.passes.transforms.rewrite_driver import apply_greedily
from mlkit.pipeline.options import option

__all__ = [
    "ControlFusionFn",
    "FuseElementwiseOps",
    "LinalgElementwiseOpFusionPass",
    "are_elementwise_ops_fusable",
    "fuse_elementwise_ops",
]

ControlFusionFn = Callable[[GenericOp, int], bool]
"""Whether to fuse the producer of the consumer's operand number ``i``."""


def producer_has_one_use(consumer: GenericOp, operand_number: int) -> bool:
    """The pass's control: fuse a producer only into its one user."""
    value = consumer.operands[operand_number]
    if not isinstance(value, OpResult):
        return False
    return sum(r.uses.get_length() for r in value.op.results) == 1


def outside_contractions(consumer: GenericOp, operand_number: int) -> bool:
    """The pass's control, and no fusion into a contraction."""
    contraction = num_reduction_loops(consumer) and is_multiply_add_body(consumer.body)
    return not contraction and producer_has_one_use(consumer, operand_number)


def _result_map(producer: GenericOp, result: OpResult) -> AffineMap:
    return indexing_maps(producer)[len(producer.inputs) + result.index]


def _in_consumer_coordinates(
    operand_map: AffineMap, producer_result_map: AffineMap, consumer_map: AffineMap
) -> AffineMap:
    """A producer operand's map over the consumer's loops: consumer loop ->
    fused tensor index -> producer loop -> producer operand index."""
    inverse = producer_result_map.inverse_permutation()
    assert inverse is not None
    return operand_map.compose(inverse).compose(consumer_map)


def are_elementwise_ops_fusable(consumer: Operation, operand_number: int) -> bool:
    """Upstream's ``areElementwiseOpsFusable`` for the consumer's operand."""
    if not isinstance(consumer, GenericOp):
        return False
    value = consumer.operands[operand_number]
    if not isinstance(value, OpResult) or not isinstance(value.op, GenericOp):
        return False
    producer = value.op
    if not pure_tensor(producer) or not isinstance(value.type, TensorType):
        return False
    if not is_all_parallel(producer):
        return False
    if operand_number >= len(consumer.inputs):
        return False  # upstream fuses the producers of inputs only
    consumer_map = indexing_maps(consumer)[operand_number]
    if len(consumer_map.results) != len(producer.iterator_types):
        return False
    producer_result_map = _result_map(producer, value)
    if not is_permutation(producer_result_map):
        return False
    if num_reduction_loops(consumer):
        # Every consumer loop must still be indexed by a remaining operand.
        covered: set[int] = set()
        for operand, m in zip(consumer.operands, indexing_maps(consumer)):
            if operand is not value:
                covered |= {r.position for r in m.results if isinstance(r, AffineDimExpr)}
        producer_maps = indexing_maps(producer)
        for i in range(len(producer.inputs)):
            m = _in_consumer_coordinates(producer_maps[i], producer_result_map, consumer_map)
            covered |= {r.position for r in m.results if isinstance(r, AffineDimExpr)}
        if len(covered) != len(consumer.iterator_types):
            return False
    return True


def _droppable_after_fusion(
    producer: GenericOp, consumer: GenericOp, ignored: set[tuple[int, int]]
) -> bool:
    """Upstream's ``isOpOperandCanBeDroppedAfterFusedLinalgs``: the maps of the
    operands of both ops but ``ignored`` ((0, n) producer's, (1, n) consumer's),
    concatenated over the larger loop count, still determine every loop."""
    maps = [
        m
        for side, op in enumerate((producer, consumer))
        for n, m in enumerate(indexing_maps(op))
        if (side, n) not in ignored
    ]
    if not maps:
        return not producer.iterator_types and not consumer.iterator_types
    return concat_invertible(maps, max(m.num_dims for m in maps))


def preserved_producer_results(
    producer: GenericOp, consumer: GenericOp, operand_number: int
) -> set[int]:
    """Upstream's ``getPreservedProducerResults``: the producer results the
    fused op still computes, because another op uses them, the payload reads
    their init, or the init's map is needed for the loop bounds."""
    ignored: set[tuple[int, int]] = {(1, operand_number)}
    preserved: set[int] = set()
    for index, result in enumerate(producer.res):
        init = (0, len(producer.inputs) + index)
        ignored.add(init)
        if (
            payload_uses(producer, init[1])
            or not _droppable_after_fusion(producer, consumer, ignored)
            or any(use.operation is not consumer for use in result.uses)
        ):
            preserved.add(index)
            ignored.discard(init)
    return preserved


def _map_index_ops(
    rewriter: PatternRewriter,
    consumer: GenericOp,
    producer_block: Block,
    fused_block: Block,
    consumer_to_producer: AffineMap,
    mapping: dict[SSAValue, SSAValue],
) -> None:
    """The producer's ``linalg.index`` ops, rewritten over the fused loops: an
    index of each fused loop, and ``affine.apply`` of the consumer-to-producer
    map (folded, as upstream's canonicalization folds it, when that is a loop
    or a constant)."""
    index_ops = [op for op in producer_block.ops if isinstance(op, IndexOp)]
    if not index_ops:
        return
    num_loops = len(consumer.iterator_types)
    fused_indices = [IndexOp(d) for d in range(num_loops)]
    fused_block.add_ops(fused_indices)
    for op in index_ops:
        expr = consumer_to_producer.results[op.dim.value.data]
        if isinstance(expr, AffineDimExpr):
            mapping[op.result] = fused_indices[expr.position].result
        elif isinstance(expr, AffineConstantExpr):
            mapping[op.result] = index_constant(rewriter, consumer, expr.value)
        else:
            sub_map = AffineMapAttr(AffineMap(num_loops, 0, (expr,)))
            apply = ApplyOp([i.result for i in fused_indices], sub_map)
            fused_block.add_op(apply)
            mapping[op.result] = apply.result


def fuse_elementwise_ops(
    rewriter: PatternRewriter, consumer: GenericOp, operand_number: int
) -> tuple[GenericOp, dict[SSAValue, SSAValue]] | None:
    """Fuse the producer of the consumer's operand into it (upstream's
    ``fuseElementwiseOps``): the fused op, inserted before the consumer, and
    the values it replaces; None when the fused op's loop bounds cannot be
    computed."""
    fused_value = consumer.operands[operand_number]
    assert isinstance(fused_value, OpResult) and isinstance(fused_value.op, GenericOp)
    producer = fused_value.op
    preserved = preserved_producer_results(producer, consumer, operand_number)
    producer_maps = indexing_maps(producer)
    consumer_maps = indexing_maps(consumer)
    producer_result_map = _result_map(producer, fused_value)
    consumer_map = consumer_maps[operand_number]

    def composed(n: int) -> AffineMap:
        return _in_consumer_coordinates(producer_maps[n], producer_result_map, consumer_map)

    p_in, c_in = len(producer.inputs), len(consumer.inputs)
    inputs = [
        *consumer.inputs[:operand_number],
        *producer.inputs,
        *consumer.inputs[operand_number + 1 :],
    ]
    maps = [
        *consumer_maps[:operand_number],
        *(composed(n) for n in range(p_in)),
        *consumer_maps[operand_number + 1 : c_in],
    ]
    kept = sorted(preserved)
    outputs = [*(producer.outputs[j] for j in kept), *consumer.outputs]
    maps += [composed(p_in + j) for j in kept]
    maps += consumer_maps[c_in:]
    if not concat_invertible(maps, len(consumer.iterator_types)):
        return None

    inverse = producer_result_map.inverse_permutation()
    assert inverse is not None
    consumer_to_producer = inverse.compose(consumer_map)

    producer_block, consumer_block = producer.body.block, consumer.body.block
    arg_sources = [
        *consumer_block.args[:operand_number],
        *producer_block.args[:p_in],
        *consumer_block.args[operand_number + 1 : c_in],
        *(producer_block.args[p_in + j] for j in kept),
        *consumer_block.args[c_in:],
    ]
    block = Block(arg_types=[a.type for a in arg_sources])
    mapping: dict[SSAValue, SSAValue] = dict(zip(arg_sources, block.args))
    _map_index_ops(rewriter, consumer, producer_block, block, consumer_to_producer, mapping)
    producer_yield = producer_block.last_op
    assert isinstance(producer_yield, YieldOp)
    for op in producer_block.ops:
        if op is not producer_yield and not isinstance(op, IndexOp):
            block.add_op(op.clone(value_mapper=mapping))
    yielded = producer_yield.operands[fused_value.index]
    mapping[consumer_block.args[operand_number]] = mapping.get(yielded, yielded)
    consumer_yield = consumer_block.last_op
    assert isinstance(consumer_yield, YieldOp)
    for op in consumer_block.ops:
        if op is not consumer_yield:
            block.add_op(op.clone(value_mapper=mapping))
    values = [producer_yield.operands[j] for j in kept] + list(consumer_yield.operands)
    block.add_op(YieldOp(*(mapping.get(v, v) for v in values)))

    fused = new_generic(inputs, outputs, maps, consumer.iterator_types, Region(block))
    rewriter.insert(fused, InsertPoint.before(consumer))
    replacements: dict[SSAValue, SSAValue] = {}
    results = iter(fused.res)
    for j in kept:
        replacements[producer.res[j]] = next(results)
    for result in consumer.res:
        replacements[result] = next(results)
    return fused, replacements


class FuseElementwiseOps(RewritePattern):
    """Fuse a generic with the producer of its first fusable operand."""

    def __init__(self, control: ControlFusionFn = producer_has_one_use) -> None:
        self.control = control

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp):
            return
        for number in range(len(op.operands)):
            if not are_elementwise_ops_fusable(op, number) or not self.control(op, number):
                continue
            fusion = fuse_elementwise_ops(rewriter, op, number)
            if fusion is None:
                return
            _, replacements = fusion
            # Upstream's replacement leaves the uses of the producer's results
            # alone: the producer stays for other users, and goes when it has none.
            for result in op.res:
                rewriter.replace_all_uses_with(result, replacements[result])
            rewriter.erase(op)
            return


def _splat_or_scalar(op: Operation) -> Attribute | None:
    """The one value a scalar or splat int/float constant holds."""
    if not isinstance(op, arith.ConstantOp):
        return None
    value = op.value
    if isinstance(value, IntegerAttr | FloatAttr):
        return value
    if isinstance(value, DenseIntOrFPElementsAttr):
        element = value.get_element_type()
        if isinstance(element, IntegerType | AnyFloat) and len(value) and value.is_splat():
            return value.get_attrs()[0]
    return None


class FoldScalarOrSplatConstant(RewritePattern):
    """An input defined by a scalar or splat constant becomes a scalar
    constant used in the body; the input goes."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp) or not pure_tensor(op):
            return
        maps = indexing_maps(op)
        for i, value in enumerate(op.inputs):
            if not isinstance(value, OpResult):
                continue
            scalar = _splat_or_scalar(value.op)
            if scalar is None:
                continue
            kept_maps = [m for n, m in enumerate(maps) if n != i]
            if not concat_invertible(kept_maps, len(op.iterator_types)):
                return
            constant = function_constant(rewriter, op, scalar)  # type: ignore[arg-type]
            body = op.body.clone()
            arg = body.block.args[i]
            arg.replace_all_uses_with(constant)
            body.block.erase_arg(arg)
            inputs = [v for n, v in enumerate(op.inputs) if n != i]
            fused = new_generic(inputs, op.outputs, kept_maps, op.iterator_types, body)
            rewriter.replace(op, fused)
            return


def _convert_scalar(
    rewriter: PatternRewriter, at: Operation, value: SSAValue, to: Attribute
) -> SSAValue:
    """``value`` as a ``to``, as upstream's ``convertScalarToDtype`` (signed)."""
    source = value.type
    if source == to:
        return value
    new: Operation
    if isinstance(source, AnyFloat) and isinstance(to, AnyFloat):
        wider = to.bitwidth > source.bitwidth
        new = arith.ExtFOp(value, to) if wider else arith.TruncFOp(value, to)
    elif isinstance(source, IntegerType) and isinstance(to, IntegerType):
        wider = to.width.data > source.width.data
        new = arith.ExtSIOp(value, to) if wider else arith.TruncIOp(value, to)
    elif isinstance(source, IntegerType) and isinstance(to, AnyFloat):
        new = arith.SIToFPOp(value, to)
    elif isinstance(source, AnyFloat) and isinstance(to, IntegerType):
        new = arith.FPToSIOp(value, to)
    else:
        return value
    rewriter.insert(new, InsertPoint.before(at))
    return new.results[0]


class FoldFillWithGeneric(RewritePattern):
    """An input the body reads that a ``linalg.fill`` produced is read as the
    fill's scalar instead (the input then goes as unused)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp) or not pure_tensor(op):
            return
        block = op.body.block
        for i, value in enumerate(op.inputs):
            if not payload_uses(op, i):
                continue
            if not isinstance(value, OpResult) or not isinstance(value.op, FillOp):
                continue
            fill = value.op
            result_type = fill.results[0].type
            assert isinstance(result_type, TensorType)
            scalar = _convert_scalar(rewriter, op, fill.inputs[0], result_type.element_type)
            rewriter.replace_all_uses_with(block.args[i], scalar)


class RemoveOutsDependency(RewritePattern):
    """An init the body does not read is replaced by a ``tensor.empty`` of its
    shape, so whatever produced the init is no longer needed."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp):
            return
        first_init = len(op.inputs)
        for j, value in enumerate(op.outputs):
            if payload_uses(op, first_init + j) or not isinstance(value.type, TensorType):
                continue
            if isinstance(value, OpResult) and value.op.name == "tensor.empty":
                continue
            empty = empty_like(rewriter, op, value, value.type.element_type)
            op.operands[first_init + j] = empty
            rewriter.notify_op_modified(op)


FUSION_CLEANUP: tuple[RewritePattern, ...] = (
    EraseTriviallyDead(),
    FoldFillWithGeneric(),
    FoldScalarOrSplatConstant(),
    RemoveOutsDependency(),
    DeduplicateAndRemoveDeadOperandsAndResults(),
    RemoveUnusedCycleInGeneric(),
    EraseIdentityGeneric(),
)


def elementwise_fusion_patterns(
    control: ControlFusionFn = producer_has_one_use,
) -> list[RewritePattern]:
    """Upstream's ``populateElementwiseOpsFusionPatterns`` with the pass's
    canonicalizations."""
    return [FuseElementwiseOps(control), *FUSION_CLEANUP]


@dataclass(frozen=True)
class LinalgElementwiseOpFusionPass(ModulePass):
    """Fuse elementwise operations on tensors"""

    name = "linalg-fuse-elementwise-ops"

    fuse_into_contractions: bool = option(
        True, "Fuse producers into contractions (generics with a multiply-add body and reductions)"
    )

    def apply(self, ctx: Context, op: Operation) -> None:
        control = producer_has_one_use if self.fuse_into_contractions else outside_contractions
        patterns = [*elementwise_fusion_patterns(control), *reshape_propagation_patterns()]
        apply_greedily(op, patterns, ctx)
