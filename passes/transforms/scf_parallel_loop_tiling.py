"""``scf-parallel-loop-tiling``: tile the innermost ``scf.parallel`` loops
(upstream's ``ParallelLoopTiling.cpp``).

A loop ``(%i) = (%lb) to (%ub) step (%s)`` becomes an outer loop stepping by
``%s * tile`` over the same range and an inner loop over ``(0) to (%bound)
step (%s)`` whose body sees ``%j + %i``. The inner bound is ``%s * tile`` when
the trip count is statically a multiple of the tile size, else
``affine.min(%s * tile, %ub - %i)``; with ``no-min-max-bounds`` it is always
``%s * tile`` and the body is wrapped in an ``scf.if`` that checks every
index against its upper bound.

xDSL has a pass of this name (``xdsl.transforms.scf_parallel_loop_tiling``)
but it treats a tile size of 0 as "do not tile this dimension" (upstream
rejects it), bounds the inner loop by the tile size rather than step * tile,
rounds the trip count down, and has no ``no-min-max-bounds``. So the pass is
written here.

Like upstream, only parallel loops without nested parallel loops and without
reductions are tiled, and the ops are created in upstream's order, so the
output matches upstream's op for op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from mlkit.diagnostics import UNKNOWN, DiagnosticError
from mlkit.dialects import affine
from mlkit.dialects import arith as marith
from mlkit.dialects import scf
from mlkit.passes.transforms.rewrite_driver import rewrite_regions

_U64 = 1 << 64
_NO_OVERFLOW = marith.IntegerOverflowAttr("none")


def _index_constant(value: int) -> xarith.ConstantOp:
    return xarith.ConstantOp(IntegerAttr(value, IndexType()))


def _muli(lhs: SSAValue | Operation, rhs: SSAValue | Operation) -> marith.MuliOp:
    # mlkit's op, with mlkit's overflow attribute (xDSL's default is xDSL's)
    return marith.MuliOp(lhs, rhs, overflow=_NO_OVERFLOW)


def _addi(lhs: SSAValue | Operation, rhs: SSAValue | Operation) -> marith.AddiOp:
    return marith.AddiOp(lhs, rhs, overflow=_NO_OVERFLOW)


def _constant_index_value(value: SSAValue) -> int | None:
    """The value of ``value`` if an ``arith.constant`` of index type defines
    it (upstream's ``getDefiningOp<arith::ConstantIndexOp>()``)."""
    owner = value.owner
    if (
        isinstance(owner, xarith.ConstantOp)
        and isinstance(value.type, IndexType)
        and isinstance(owner.value, IntegerAttr)
    ):
        return owner.value.value.data
    return None


def _divides_statically(lower: SSAValue, upper: SSAValue, step: SSAValue, tile: int) -> bool:
    """Whether the bounds and step are constants and the trip count is a
    multiple of ``tile``: upstream's ``divideCeil(ub - lb, step) % tile == 0``. The C++
    computes it on ``uint64_t`` (``llvm::divideCeil`` is unsigned), so negative
    differences and tile sizes wrap; done the same way here so odd inputs
    (empty ranges, negative tiles) take the same branch as upstream."""
    lb, ub, st = (_constant_index_value(v) for v in (lower, upper, step))
    if lb is None or ub is None or st is None:
        return False
    numerator = (ub - lb) % _U64
    denominator = st % _U64
    modulus = tile % _U64
    if denominator == 0 or modulus == 0:
        return False
    bias = 1 if numerator else 0
    iterations = (numerator - bias) // denominator + bias
    return iterations % modulus == 0


def _min_map() -> AffineMapAttr:
    """``(d0, d1, d2) -> (d0, d1 - d2)``: the step of a tile, clamped to what
    is left of the range."""
    d0, d1, d2 = (AffineExpr.dimension(i) for i in range(3))
    return AffineMapAttr(AffineMap(3, 0, (d0, d1 - d2)))


def _replace_iv(iv: SSAValue, new_index: Operation) -> None:
    """Upstream's ``replaceAllUsesExcept(newIndex, newIndex)``."""
    iv.replace_uses_with_if(new_index.results[0], lambda use: use.operation is not new_index)


def _index_block(count: int) -> Block:
    return Block(arg_types=[IndexType()] * count)


def _guarded_body(
    op: xscf.ParallelOp, outer_ivs: Sequence[SSAValue], rewriter: PatternRewriter
) -> Block:
    """The inner loop's body for ``no-min-max-bounds``: ``op``'s body moved
    into an ``scf.if`` that runs it only when every index ``inner * step +
    outer`` is below its upper bound (unsigned, as upstream compares)."""
    body = _index_block(len(outer_ivs))
    inner_ivs = body.args
    true = xarith.ConstantOp(IntegerAttr(1, i1))
    checks: list[Operation] = [true]
    inbound: SSAValue = true.result
    for upper, outer_iv, inner_iv, step in zip(op.upperBound, outer_ivs, inner_ivs, op.step):
        scaled = _muli(inner_iv, step)
        index = _addi(scaled, outer_iv)
        in_dim = marith.CmpiOp(index, upper, "ult")
        both = xarith.AndIOp(inbound, in_dim)
        checks += [scaled, index, in_dim, both]
        inbound = both.result
    then_block = op.body.detach_block(op.body.block)
    terminator = then_block.last_op
    assert terminator is not None  # scf.parallel always ends in scf.reduce
    rewriter.replace(terminator, xscf.YieldOp(), [])
    new_indices = [_addi(i, o) for i, o in zip(inner_ivs, outer_ivs)]
    guard = scf.IfOp(inbound, [], Region(then_block))
    body.add_ops([*new_indices, *checks, guard, scf.ReduceOp()])
    for arg, new_index in zip(then_block.args, new_indices):
        _replace_iv(arg, new_index)
    for arg in reversed(then_block.args):
        then_block.erase_arg(arg)
    return body


def tile_parallel_loop(
    op: xscf.ParallelOp,
    tile_sizes: Sequence[int],
    no_min_max_bounds: bool,
    rewriter: PatternRewriter,
) -> tuple[scf.ParallelOp, scf.ParallelOp]:
    """Upstream's ``scf::tileParallelLoop``: replace ``op`` by an outer loop
    over tiles and an inner loop within a tile; returns both."""
    count = len(op.upperBound)
    before = InsertPoint.before(op)
    zero = _index_constant(0)
    # missing sizes are 1, as upstream pads them
    tile_values = [tile_sizes[i] if i < len(tile_sizes) else 1 for i in range(count)]
    tiles = [_index_constant(value) for value in tile_values]
    new_steps = [_muli(step, tile) for step, tile in zip(op.step, tiles)]
    rewriter.insert([zero, *tiles, *new_steps], before)

    outer_body = _index_block(count)
    outer = scf.ParallelOp(list(op.lowerBound), list(op.upperBound), new_steps, Region(outer_body))
    outer_ivs = outer_body.args

    min_map = _min_map()
    bounds_ops: list[Operation] = []
    inner_bounds: list[SSAValue] = []
    need_inbound_check = False
    for lower, upper, new_step, iv, step, tile in zip(
        op.lowerBound, op.upperBound, new_steps, outer_ivs, op.step, tile_values
    ):
        if _divides_statically(lower, upper, step, tile):
            inner_bounds.append(new_step.result)
            continue
        if no_min_max_bounds:
            inner_bounds.append(new_step.result)
            need_inbound_check = True
            continue
        bound = affine.MinOp.create(
            operands=[new_step.result, upper, iv],
            result_types=[IndexType()],
            properties={"map": min_map},
        )
        bounds_ops.append(bound)
        inner_bounds.append(bound.results[0])

    if no_min_max_bounds and need_inbound_check:
        inner_body = _guarded_body(op, outer_ivs, rewriter)
    else:
        inner_body = op.body.detach_block(op.body.block)
        new_indices = [_addi(i, o) for i, o in zip(inner_body.args, outer_ivs)]
        first = inner_body.first_op
        assert first is not None  # scf.parallel always ends in scf.reduce
        inner_body.insert_ops_before(new_indices, first)
        for arg, new_index in zip(inner_body.args, new_indices):
            _replace_iv(arg, new_index)
    inner = scf.ParallelOp([zero] * count, inner_bounds, list(op.step), Region(inner_body))
    outer_body.add_ops([*bounds_ops, inner, scf.ReduceOp()])
    rewriter.replace(op, outer, [])
    return outer, inner


def innermost_parallel_loops(root: Operation) -> list[xscf.ParallelOp]:
    """Upstream's ``getInnermostParallelLoops``: the parallel loops nested in
    ``root``'s regions that contain no parallel loop, in post-order."""
    found: list[xscf.ParallelOp] = []

    def visit(op: Operation) -> bool:
        encloses = False
        for region in op.regions:
            for block in region.blocks:
                for nested in block.ops:
                    nested_encloses = visit(nested)
                    encloses |= nested_encloses
                    if isinstance(nested, xscf.ParallelOp):
                        encloses = True
                        if not nested_encloses:
                            found.append(nested)
        return encloses

    visit(root)
    return found


@dataclass
class TileParallelLoop(RewritePattern):
    """Tiles the loops chosen before the walk (so the inner loops it creates,
    innermost too, are not tiled again)."""

    tile_sizes: tuple[int, ...]
    no_min_max_bounds: bool
    targets: dict[int, xscf.ParallelOp] = field(default_factory=dict[int, xscf.ParallelOp])

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xscf.ParallelOp, rewriter: PatternRewriter, /) -> None:
        if self.targets.pop(id(op), None) is not op:
            return
        tile_parallel_loop(op, self.tile_sizes, self.no_min_max_bounds, rewriter)


@dataclass(frozen=True)
class ScfParallelLoopTiling(ModulePass):
    """Tile parallel loops"""

    name = "scf-parallel-loop-tiling"
    display_name: ClassVar[str] = "SCFParallelLoopTiling"

    parallel_loop_tile_sizes: tuple[int, ...] = ()
    no_min_max_bounds: bool = False

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        if 0 in self.parallel_loop_tile_sizes:
            # upstream reports this at an unknown location, before any rewrite
            raise DiagnosticError.at(UNKNOWN, "tile size cannot be 0")
        # loops with reductions are not tiled (a FIXME upstream)
        targets = {id(loop): loop for loop in innermost_parallel_loops(op) if not loop.initVals}
        if not targets:
            return
        pattern = TileParallelLoop(self.parallel_loop_tile_sizes, self.no_min_max_bounds, targets)
        rewrite_regions(op, pattern, apply_recursively=False)
