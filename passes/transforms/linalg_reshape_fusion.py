"""Reshape propagation for ``linalg-fuse-elementwise-ops``: fold a
``tensor.collapse_shape`` producer or a ``tensor.expand_shape`` consumer into
a ``linalg.generic`` by expanding the generic's loops.

A reshape between two elementwise generics stops their fusion. Upstream's
``populateFoldReshapeOpsByExpansionPatterns`` moves it out of the way instead:
the generic is rewritten over the expanded shape (each loop indexing a
collapsed dimension becomes one loop per dimension of its group), its other
operands are expanded to match, and its results are collapsed back for the
users that want the old shape. Then the generics meet and fuse.

Folded as upstream does when every indexing map is a projected permutation,
the generic has tensor semantics, the fused operand is not a scalar and the
reshape (or, for an expand_shape consumer, the generic) has one use. Left
alone here, where upstream goes further: dynamic shapes and bodies that read
``linalg.index`` (upstream rewrites the index into the expanded loops).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from mlkit.dialects.linalg.structural import GenericOp, IndexOp
from mlkit.dialects.tensor import CollapseShapeOp, EmptyOp, ExpandShapeOp
from mlkit.passes.transforms.linalg_generic_utils import indexing_maps, new_generic, pure_tensor

__all__ = [
    "FoldReshapeOfInverseReshape",
    "FoldReshapeWithGenericOpByExpansion",
    "FoldWithProducerReshapeOpByExpansion",
    "reshape_propagation_patterns",
]

Groups = list[list[int]]


def _reassociation(groups: Groups) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _static_shape(value: SSAValue) -> list[int] | None:
    t = value.type
    if not isinstance(t, TensorType):
        return None
    shape = list(t.get_shape())
    return shape if all(size >= 0 for size in shape) else None


def is_fusable_with_reshape_by_expansion(generic: GenericOp, operand_number: int) -> bool:
    """Upstream's ``isFusableWithReshapeByDimExpansion``, restricted to static
    shapes and bodies without ``linalg.index``."""
    maps = indexing_maps(generic)
    if not pure_tensor(generic) or not all(m.is_projected_permutation() for m in maps):
        return False
    if not maps[operand_number].results:
        return False
    if any(_static_shape(v) is None for v in generic.operands):
        return False
    return not any(isinstance(op, IndexOp) for op in generic.body.walk())


class _Expansion:
    """Upstream's ``ExpansionInfo``: the shape of each expanded loop group and
    where it starts among the expanded loops."""

    def __init__(
        self, generic: GenericOp, operand_number: int, groups: Groups, expanded: Sequence[int]
    ) -> None:
        maps = indexing_maps(generic)
        loop_range: dict[int, int] = {}
        for m, value in zip(maps, generic.operands):
            shape = _static_shape(value)
            assert shape is not None
            for r, size in zip(m.results, shape):
                assert isinstance(r, AffineDimExpr)
                loop_range.setdefault(r.position, size)
        fused = maps[operand_number]
        self.loop_shape: list[list[int]] = [[loop_range[d]] for d in range(fused.num_dims)]
        for r, group in zip(fused.results, groups):
            assert isinstance(r, AffineDimExpr)
            self.loop_shape[r.position] = [expanded[i] for i in group]
        self.start: list[int] = []
        total = 0
        for shape in self.loop_shape:
            self.start.append(total)
            total += len(shape)
        self.num_loops = total

    def expanded_map(self, m: AffineMap) -> AffineMap:
        results = [
            AffineDimExpr(self.start[r.position] + k)
            for r in m.results
            if isinstance(r, AffineDimExpr)
            for k in range(len(self.loop_shape[r.position]))
        ]
        return AffineMap(self.num_loops, 0, tuple(results))

    def operand_groups(self, m: AffineMap) -> tuple[Groups, list[int]]:
        """How an operand indexed by ``m`` expands: its reassociation and shape."""
        groups: Groups = []
        shape: list[int] = []
        for r in m.results:
            assert isinstance(r, AffineDimExpr)
            sizes = self.loop_shape[r.position]
            groups.append(list(range(len(shape), len(shape) + len(sizes))))
            shape += sizes
        return groups, shape


def _expanded_operand(
    rewriter: PatternRewriter, at: Operation, value: SSAValue, groups: Groups, shape: list[int]
) -> SSAValue:
    """``value`` in the expanded shape: a new ``tensor.empty`` for an empty
    one (what upstream's canonicalization of its expand_shape gives)."""
    t = value.type
    assert isinstance(t, TensorType)
    if list(t.get_shape()) == shape:
        return value
    new_type = TensorType(t.element_type, shape)
    new: Operation
    if isinstance(value, OpResult) and isinstance(value.op, EmptyOp):
        new = EmptyOp([], new_type)
    else:
        new = ExpandShapeOp(value, [], _reassociation(groups), shape, new_type)
    rewriter.insert(new, InsertPoint.before(at))
    return new.results[0]


def fuse_with_reshape_by_expansion(
    rewriter: PatternRewriter,
    generic: GenericOp,
    operand_number: int,
    groups: Groups,
    expanded_shape: Sequence[int],
    expanded_value: SSAValue | None,
) -> tuple[GenericOp, _Expansion]:
    """The generic over expanded loops, inserted before it, with the fused
    operand (``groups`` of ``expanded_shape``) read as ``expanded_value`` when
    given; its other operands are expanded to match."""
    info = _Expansion(generic, operand_number, groups, expanded_shape)
    maps = indexing_maps(generic)
    operands: list[SSAValue] = []
    for i, (value, m) in enumerate(zip(generic.operands, maps)):
        if i == operand_number and expanded_value is not None:
            operands.append(expanded_value)
            continue
        operand_groups, shape = info.operand_groups(m)
        operands.append(_expanded_operand(rewriter, generic, value, operand_groups, shape))
    iterators = ArrayAttr(
        [kind for kind, shape in zip(generic.iterator_types, info.loop_shape) for _ in shape]
    )
    n_in = len(generic.inputs)
    expanded = new_generic(
        operands[:n_in],
        operands[n_in:],
        [info.expanded_map(m) for m in maps],
        iterators,
        generic.body.clone(),
    )
    rewriter.insert(expanded, InsertPoint.before(generic))
    return expanded, info


def collapsed_results(
    rewriter: PatternRewriter, generic: GenericOp, expanded: GenericOp, info: _Expansion
) -> list[SSAValue]:
    """The expanded generic's results collapsed back to ``generic``'s types."""
    collapsed: list[SSAValue] = []
    result_maps = indexing_maps(generic)[len(generic.inputs) :]
    for result, new_result, m in zip(generic.res, expanded.res, result_maps):
        if new_result.type == result.type:
            collapsed.append(new_result)
            continue
        groups, _ = info.operand_groups(m)
        back = CollapseShapeOp.create(
            operands=[new_result],
            result_types=[result.type],
            properties={"reassociation": _reassociation(groups)},
        )
        rewriter.insert(back, InsertPoint.before(generic))
        collapsed.append(back.result)
    return collapsed


def _one_use(op: Operation) -> bool:
    return sum(r.uses.get_length() for r in op.results) == 1


class FoldWithProducerReshapeOpByExpansion(RewritePattern):
    """A generic input produced by ``tensor.collapse_shape``: the generic runs
    over the collapse's source shape and reads the source directly."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp):
            return
        for number, value in enumerate(op.inputs):
            if not isinstance(value, OpResult) or not isinstance(value.op, CollapseShapeOp):
                continue
            reshape = value.op
            source = _static_shape(reshape.src)
            if source is None or not _one_use(reshape):
                continue
            if not is_fusable_with_reshape_by_expansion(op, number):
                continue
            groups = reshape.reassociation_indices()
            expanded, info = fuse_with_reshape_by_expansion(
                rewriter, op, number, groups, source, reshape.src
            )
            rewriter.replace(op, [], collapsed_results(rewriter, op, expanded, info))
            return


class FoldReshapeWithGenericOpByExpansion(RewritePattern):
    """``tensor.expand_shape`` of a generic's result: the generic computes the
    expanded shape itself."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ExpandShapeOp) or not isinstance(op.src, OpResult):
            return
        generic = op.src.op
        if not isinstance(generic, GenericOp) or not _one_use(generic):
            return
        expanded_shape = _static_shape(op.result)
        number = len(generic.inputs) + op.src.index
        if expanded_shape is None or not is_fusable_with_reshape_by_expansion(generic, number):
            return
        groups = op.reassociation_indices()
        if prod(expanded_shape) != prod(_static_shape(op.src) or [0]):
            return
        expanded, _ = fuse_with_reshape_by_expansion(
            rewriter, generic, number, groups, expanded_shape, None
        )
        # the expand_shape was the generic's one use
        rewriter.replace(op, [], [expanded.res[op.src.index]])
        rewriter.erase(generic)


class FoldReshapeOfInverseReshape(RewritePattern):
    """``expand_shape(collapse_shape(x))`` or ``collapse_shape(expand_shape(x))``
    with one reassociation and ``x``'s type again is ``x``: the identity case of
    upstream's ``ComposeExpandOfCollapseOp``/``ComposeCollapseOfExpandOp``
    canonicalizations, which the pass runs; expansion leaves such pairs."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ExpandShapeOp | CollapseShapeOp) or not isinstance(op.src, OpResult):
            return
        inner = op.src.op
        inverse = CollapseShapeOp if isinstance(op, ExpandShapeOp) else ExpandShapeOp
        if not isinstance(inner, inverse) or inner.src.type != op.result.type:
            return
        if inner.reassociation_indices() == op.reassociation_indices():
            rewriter.replace(op, [], [inner.src])


def reshape_propagation_patterns() -> list[RewritePattern]:
    """The reshape-by-expansion patterns of ``linalg-fuse-elementwise-ops``."""
    return [
        FoldWithProducerReshapeOpByExpansion(),
        FoldReshapeWithGenericOpByExpansion(),
        FoldReshapeOfInverseReshape(),
    ]
