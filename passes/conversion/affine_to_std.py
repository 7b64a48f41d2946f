"""``lower-affine``: affine ops to scf, arith, memref and vector, as upstream's
AffineToStandard does.

xDSL's own ``lower-affine`` is not reused: it lowers only for/if-less subsets
(no min/max bounds, no if/parallel/min/max/index ops), uses
``arith.floordivsi``/``ceildivsi`` where upstream emits its select-based
sequences, and drops ``overflow<nsw>`` on multiplications.

Covered: affine.apply, min, max, for, if, parallel (with reductions), yield,
load, store, vector_load, vector_store, delinearize_index and linearize_index.
affine.prefetch and affine.dma_* are not lowered because mlkit's affine dialect
has no such ops.  A division or modulo by a non-positive constant is an error
(upstream reports it and leaves the op in place).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.ir.affine.affine_set import AffineConstraintKind
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mlkit.dialects import affine
from mlkit.dialects.affine.parallel import ATOMIC_RMW_KINDS
from mlkit.diagnostics.emit import emit_error
from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns

DYNAMIC = -(1 << 63)
"""``ShapedType::kDynamic`` in a static basis."""
NSW = arith.IntegerOverflowAttr([arith.IntegerOverflowFlag.NSW])
NSW_NUW = arith.IntegerOverflowAttr([arith.IntegerOverflowFlag.NSW, arith.IntegerOverflowFlag.NUW])


class AffineLoweringError(Exception):
    """An affine expression upstream refuses to expand (non-positive divisor)."""


def const_index(rewriter: PatternRewriter, value: int) -> SSAValue:
    return rewriter.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


class _Expander:
    """Upstream's ``AffineApplyExpander``: one expression to arith ops, emitted
    in the same order (lhs, rhs, then the op's own constants)."""

    def __init__(self, rewriter: PatternRewriter, dims: Sequence[SSAValue], syms: Sequence[SSAValue]):
        self.rw = rewriter
        self.dims = dims
        self.syms = syms

    def emit(self, op: Operation) -> SSAValue:
        return self.rw.insert(op).results[0]

    def visit(self, expr: AffineExpr) -> SSAValue:
        if isinstance(expr, AffineConstantExpr):
            return const_index(self.rw, expr.value)
        if isinstance(expr, AffineDimExpr):
            return self.dims[expr.position]
        if isinstance(expr, AffineSymExpr):
            return self.syms[expr.position]
        assert isinstance(expr, AffineBinaryOpExpr)
        kind = expr.kind
        if kind in (AffineBinaryOpKind.Mod, AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv):
            if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value <= 0:
                what = "modulo" if kind == AffineBinaryOpKind.Mod else "division"
                raise AffineLoweringError(f"{what} by non-positive value is not supported")
        lhs = self.visit(expr.lhs)
        rhs = self.visit(expr.rhs)
        if kind == AffineBinaryOpKind.Add:
            return self.emit(arith.AddiOp(lhs, rhs))
        if kind == AffineBinaryOpKind.Mul:
            return self.emit(arith.MuliOp(lhs, rhs, overflow=NSW))
        if kind == AffineBinaryOpKind.Mod:
            # Euclidean remainder: srem, corrected by +rhs when negative.
            rem = self.emit(arith.RemSIOp(lhs, rhs))
            zero = const_index(self.rw, 0)
            negative = self.emit(arith.CmpiOp(rem, zero, "slt"))
            corrected = self.emit(arith.AddiOp(rem, rhs))
            return self.emit(arith.SelectOp(negative, corrected, rem))
        if kind == AffineBinaryOpKind.FloorDiv:
            zero = const_index(self.rw, 0)
            minus_one = const_index(self.rw, -1)
            negative = self.emit(arith.CmpiOp(lhs, zero, "slt"))
            neg_dec = self.emit(arith.SubiOp(minus_one, lhs))
            dividend = self.emit(arith.SelectOp(negative, neg_dec, lhs))
            quotient = self.emit(arith.DivSIOp(dividend, rhs))
            corrected = self.emit(arith.SubiOp(minus_one, quotient))
            return self.emit(arith.SelectOp(negative, corrected, quotient))
        # CeilDiv
        zero = const_index(self.rw, 0)
        one = const_index(self.rw, 1)
        non_positive = self.emit(arith.CmpiOp(lhs, zero, "sle"))
        negated = self.emit(arith.SubiOp(zero, lhs))
        decremented = self.emit(arith.SubiOp(lhs, one))
        dividend = self.emit(arith.SelectOp(non_positive, negated, decremented))
        quotient = self.emit(arith.DivSIOp(dividend, rhs))
        neg_q = self.emit(arith.SubiOp(zero, quotient))
        inc_q = self.emit(arith.AddiOp(quotient, one))
        return self.emit(arith.SelectOp(non_positive, neg_q, inc_q))


def expand_affine_expr(
    rewriter: PatternRewriter, expr: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue]
) -> SSAValue:
    """Upstream's ``expandAffineExpr``, inserting before the matched op."""
    return _Expander(rewriter, dims, syms).visit(expr)


def expand_affine_map(rewriter: PatternRewriter, amap: AffineMap, operands: Sequence[SSAValue]) -> list[SSAValue]:
    """Upstream's ``expandAffineMap``: one value per result of ``amap``."""
    dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
    return [expand_affine_expr(rewriter, e, dims, syms) for e in amap.results]


def _reduce_chain(rewriter: PatternRewriter, values: Sequence[SSAValue], is_max: bool) -> SSAValue:
    """Upstream's ``buildMinMaxReductionSeq``: a linear chain, not a tree."""
    result = values[0]
    for v in values[1:]:
        op = arith.MaxSIOp(result, v) if is_max else arith.MinSIOp(result, v)
        result = rewriter.insert(op).result
    return result


def lower_map_max(rewriter: PatternRewriter, amap: AffineMap, operands: Sequence[SSAValue]) -> SSAValue:
    return _reduce_chain(rewriter, expand_affine_map(rewriter, amap, operands), True)


def lower_map_min(rewriter: PatternRewriter, amap: AffineMap, operands: Sequence[SSAValue]) -> SSAValue:
    return _reduce_chain(rewriter, expand_affine_map(rewriter, amap, operands), False)


class _AffinePattern(RewritePattern):
    """Turns an unsupported expression into a located error."""

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        raise NotImplementedError

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.op_types):
            return
        try:
            self.rewrite(op, rewriter)
        except AffineLoweringError as err:
            raise emit_error(self.ctx, op, str(err)) from None

    op_types: ClassVar[tuple[type[Operation], ...]] = ()

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx


class ApplyLowering(_AffinePattern):
    op_types = (affine.ApplyOp,)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, affine.ApplyOp)
        values = expand_affine_map(rewriter, op.map.data, op.operands)
        rewriter.replace(op, [], values)


class MinMaxLowering(_AffinePattern):
    op_types = (affine.MinOp, affine.MaxOp)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        amap: AffineMap = op.properties["map"].data  # pyright: ignore
        is_max = isinstance(op, affine.MaxOp)
        value = _reduce_chain(rewriter, expand_affine_map(rewriter, amap, op.operands), is_max)
        rewriter.replace(op, [], [value])


class YieldLowering(RewritePattern):
    """affine.yield to scf.yield, except in parallel loops (whose lowering
    rewrites the terminator itself)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.YieldOp, rewriter: PatternRewriter) -> None:
        parent = op.parent_op()
        if isinstance(parent, (scf.ParallelOp, affine.ParallelOp)):
            return
        rewriter.replace(op, scf.YieldOp(*op.operands))


class ForLowering(_AffinePattern):
    op_types = (affine.ForOp,)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, affine.ForOp)
        lb = lower_map_max(rewriter, op.lowerBoundMap.data, op.lowerBoundOperands)
        ub = lower_map_min(rewriter, op.upperBoundMap.data, op.upperBoundOperands)
        step = const_index(rewriter, op.step.value.data)
        body = rewriter.move_region_contents_to_new_regions(op.body)
        rewriter.replace(op, scf.ForOp(lb, ub, step, op.inits, body))


def _group_maps(amap: AffineMap, groups: Sequence[int]) -> list[AffineMap]:
    """Upstream's ``getLowerBoundMap(i)``/``getUpperBoundMap(i)``."""
    maps: list[AffineMap] = []
    start = 0
    for size in groups:
        maps.append(AffineMap(amap.num_dims, amap.num_symbols, amap.results[start : start + size]))
        start += size
    return maps


def identity_value(kind: str, type: Attribute) -> Attribute | None:
    """Upstream's ``arith::getIdentityValueAttr`` (non-finite variant)."""
    if isinstance(type, AnyFloat):
        values = {
            "addf": 0.0,
            "mulf": 1.0,
            "maximumf": -math.inf,
            "minimumf": math.inf,
            "maxnumf": math.nan,
            "minnumf": math.nan,
        }
        return FloatAttr(values[kind], type) if kind in values else None
    if isinstance(type, (IntegerType, IndexType)):
        width = type.width.data if isinstance(type, IntegerType) else 64
        values = {
            "addi": 0,
            "ori": 0,
            "xori": 0,
            "maxu": 0,
            "muli": 1,
            "andi": -1,
            "minu": -1,
            "maxs": -(1 << (width - 1)),
            "mins": (1 << (width - 1)) - 1,
        }
        if kind not in values:
            return None
        return IntegerAttr(values[kind], type)
    return None


REDUCTION_OPS: dict[str, Callable[[SSAValue, SSAValue], Operation]] = {
    "addf": arith.AddfOp,
    "mulf": arith.MulfOp,
    "maximumf": arith.MaximumfOp,
    "minimumf": arith.MinimumfOp,
    "maxnumf": arith.MaxnumfOp,
    "minnumf": arith.MinnumfOp,
    "addi": arith.AddiOp,
    "muli": arith.MuliOp,
    "andi": arith.AndIOp,
    "ori": arith.OrIOp,
    "xori": arith.XOrIOp,
    "maxs": arith.MaxSIOp,
    "mins": arith.MinSIOp,
    "maxu": arith.MaxUIOp,
    "minu": arith.MinUIOp,
}
"""Upstream's ``arith::getReductionOp``."""


class ParallelLowering(_AffinePattern):
    """affine.parallel to scf.parallel, reductions to scf.reduce regions."""

    op_types = (affine.ParallelOp,)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, affine.ParallelOp)
        kinds = [ATOMIC_RMW_KINDS[r.value.data] for r in op.reductions]
        identities: list[Attribute] = []
        for kind, result in zip(kinds, op.res):
            attr = identity_value(kind, result.type)
            if attr is None or kind not in REDUCTION_OPS:
                return  # upstream: "unsupported reduction kind for identity value"
            identities.append(attr)
        lb_maps = _group_maps(op.lowerBoundsMap.data, op.lowerBoundsGroups.get_values())
        ub_maps = _group_maps(op.upperBoundsMap.data, op.upperBoundsGroups.get_values())
        lbs: list[SSAValue] = []
        ubs: list[SSAValue] = []
        for lb_map, ub_map in zip(lb_maps, ub_maps):
            lbs.append(lower_map_max(rewriter, lb_map, op.lower_operands))
            ubs.append(lower_map_min(rewriter, ub_map, op.upper_operands))
        steps = [const_index(rewriter, s.value.data) for s in op.steps]
        inits = [rewriter.insert(arith.ConstantOp(a)).result for a in identities]
        terminator = op.body.block.last_op
        assert isinstance(terminator, affine.YieldOp)
        regions: list[Region] = []
        for kind, value in zip(kinds, terminator.operands):
            block = Block(arg_types=[value.type, value.type])
            combined = REDUCTION_OPS[kind](block.args[0], block.args[1])
            block.add_ops([combined, scf.ReduceReturnOp(combined.results[0])])
            regions.append(Region(block))
        rewriter.replace(terminator, scf.ReduceOp(terminator.operands, regions))
        body = rewriter.move_region_contents_to_new_regions(op.body)
        rewriter.replace(op, scf.ParallelOp(lbs, ubs, steps, body, inits))


class IfLowering(_AffinePattern):
    op_types = (affine.IfOp,)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, affine.IfOp)
        iset = op.condition.data
        zero = const_index(rewriter, 0)
        dims, syms = op.args[: iset.num_dims], op.args[iset.num_dims :]
        cond: SSAValue | None = None
        for constraint in iset.constraints:
            expr = constraint.lhs
            if constraint.rhs != AffineConstantExpr(0):
                expr = expr - constraint.rhs
            if constraint.kind == AffineConstraintKind.le:
                expr = -expr
            is_eq = constraint.kind == AffineConstraintKind.eq
            value = expand_affine_expr(rewriter, expr, dims, syms)
            cmp = rewriter.insert(arith.CmpiOp(value, zero, "eq" if is_eq else "sge")).result
            cond = cmp if cond is None else rewriter.insert(arith.AndIOp(cond, cmp)).result
        if cond is None:
            cond = rewriter.insert(arith.ConstantOp(IntegerAttr(1, IntegerType(1)))).result
        then_region = rewriter.move_region_contents_to_new_regions(op.then_region)
        else_region = rewriter.move_region_contents_to_new_regions(op.else_region)
        rewriter.replace(op, scf.IfOp(cond, op.result_types, then_region, else_region))


class LoadStoreLowering(_AffinePattern):
    """affine.load/store to memref, affine.vector_load/store to vector."""

    op_types = (affine.LoadOp, affine.StoreOp, affine.VectorLoadOp, affine.VectorStoreOp)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        amap: AffineMap = op.properties["map"].data  # pyright: ignore
        indices = expand_affine_map(rewriter, amap, op.indices)  # pyright: ignore
        new: Operation
        if isinstance(op, affine.LoadOp):
            new = memref.LoadOp.get(op.memref, indices)
        elif isinstance(op, affine.StoreOp):
            new = memref.StoreOp.get(op.value, op.memref, indices)
        elif isinstance(op, affine.VectorLoadOp):
            new = vector.LoadOp(op.memref, indices, op.result.type)  # pyright: ignore
        else:
            assert isinstance(op, affine.VectorStoreOp)
            new = vector.StoreOp(op.value, op.memref, indices)
        rewriter.replace(op, new)


def _compute_strides(
    rewriter: PatternRewriter, dynamic: Sequence[SSAValue], static: Sequence[int], non_negative: bool
) -> list[SSAValue]:
    """Upstream's ``computeStrides``: suffix products of the basis (excess
    leading dynamic values are ignored)."""
    flags = NSW_NUW if non_negative else NSW
    result: list[SSAValue] = []
    dyn_index = len(dynamic)
    dyn_part: SSAValue | None = None
    static_part = 1
    for elem in reversed(static):
        if elem == DYNAMIC:
            value = dynamic[dyn_index - 1]
            dyn_part = value if dyn_part is None else rewriter.insert(arith.MuliOp(dyn_part, value, overflow=flags)).result
            dyn_index -= 1
        else:
            static_part *= elem
        if dyn_part is not None and static_part == 1:
            result.append(dyn_part)
        else:
            stride = const_index(rewriter, static_part)
            if dyn_part is not None:
                stride = rewriter.insert(arith.MuliOp(dyn_part, stride, overflow=flags)).result
            result.append(stride)
    result.reverse()
    return result



def _num_enclosing_invariant_loops(value: SSAValue, user: Operation) -> int:
    """Upstream's ``numEnclosingInvariantLoops``: loops ``value`` could be
    hoisted above, counted outwards until the first it is defined in."""
    loops = (scf.ForOp, scf.ParallelOp, scf.WhileOp, affine.ForOp, affine.ParallelOp)
    count = 0
    current: Operation | None = user.parent_op()
    while current is not None:
        if isinstance(current, loops):
            owner = value.owner
            defining = owner if isinstance(owner, Operation) else owner.parent_op()
            if defining is not None and current.is_ancestor(defining):
                break
            count += 1
        current = current.parent_op()
    return count


class DelinearizeLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.DelinearizeIndexOp, rewriter: PatternRewriter) -> None:
        linear = op.linear_index
        n = len(op.results)
        static = list(op.static_basis.get_values())
        if n == len(static):
            static = static[1:]
        if n == 1:
            rewriter.replace(op, [], [linear])
            return
        strides = _compute_strides(rewriter, op.dynamic_basis, static, True)
        zero = const_index(rewriter, 0)
        results = [rewriter.insert(arith.FloorDivSIOp(linear, strides[0])).result]

        def mod_term(stride: SSAValue) -> SSAValue:
            rem = rewriter.insert(arith.RemSIOp(linear, stride)).result
            negative = rewriter.insert(arith.CmpiOp(rem, zero, "slt")).result
            corrected = rewriter.insert(arith.AddiOp(rem, stride, overflow=NSW)).result
            return rewriter.insert(arith.SelectOp(negative, corrected, rem)).result

        for this, nxt in zip(strides, strides[1:]):
            results.append(rewriter.insert(arith.DivSIOp(mod_term(this), nxt)).result)
        results.append(mod_term(strides[-1]))
        rewriter.replace(op, [], results)


class LinearizeLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.LinearizeIndexOp, rewriter: PatternRewriter) -> None:
        indices = list(op.multi_index)
        if not indices:
            rewriter.replace(op, arith.ConstantOp(IntegerAttr(0, IndexType())))
            return
        static = list(op.static_basis.get_values())
        if len(indices) == len(static):
            static = static[1:]
        strides = _compute_strides(rewriter, op.dynamic_basis, static, op.is_disjoint)
        scaled: list[tuple[SSAValue, int]] = []
        for stride, index in zip(strides, indices[:-1]):
            value = rewriter.insert(arith.MuliOp(index, stride, overflow=NSW)).result
            scaled.append((value, _num_enclosing_invariant_loops(index, op)))
        scaled.append((indices[-1], _num_enclosing_invariant_loops(indices[-1], op)))
        scaled.sort(key=lambda p: -p[1])  # stable: ties keep stride order
        result = scaled[0][0]
        for value, _ in scaled[1:]:
            result = rewriter.insert(arith.AddiOp(result, value, overflow=NSW)).result
        rewriter.replace(op, [], [result])


@dataclass(frozen=True)
class LowerAffinePass(ModulePass):
    """Lower Affine operations to a combination of Arith and SCF operations"""

    name = "lower-affine"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_conversion_patterns(op, affine_to_std_patterns(ctx))


def affine_to_std_patterns(ctx: Context) -> list[RewritePattern]:
    """The patterns of this conversion (upstream's
    ``populateAffineToStdConversionPatterns``); ``ctx`` locates errors."""
    return [
        ApplyLowering(ctx),
        MinMaxLowering(ctx),
        ParallelLowering(ctx),
        ForLowering(ctx),
        IfLowering(ctx),
        LoadStoreLowering(ctx),
        YieldLowering(),
        DelinearizeLowering(),
        LinearizeLowering(),
    ]
