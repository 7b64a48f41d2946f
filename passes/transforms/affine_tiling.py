"""Tiling a perfect ``affine.for`` band, and separating its full tiles
(upstream's ``tilePerfectlyNested`` and ``separateFullTiles`` in
``Affine/Utils/LoopUtils.cpp``).

Tiling a band of ``n`` loops makes ``n`` tile-space loops over the original
bounds with the step scaled by the tile size, around ``n`` intra-tile loops
from the tile-space IV to the IV plus a tile (``min``-ed with the original
upper bounds when the tile size may not divide the trip count). Separation
guards a copy of the intra-tile nest with constant trip counts by an
``affine.if`` that holds for full tiles, keeping the ``min`` version in the
``else`` branch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineMap
from xdsl.ir.affine import AffineDimExpr, AffineSet, AffineSymExpr
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects.affine import ApplyOp, ForOp, IfOp, YieldOp
from mlkit.dialects.affine.scope import get_affine_scope, is_valid_symbol
from mlkit.passes.transforms.affine_analysis import Floor, Form, Opaque, Unsupported, bound_forms
from mlkit.passes.transforms.affine_analysis import constant_trip_count
from mlkit.passes.transforms.affine_analysis import largest_divisor_of_trip_count, loop_of_iv
from mlkit.passes.transforms.affine_analysis import value_form


def perfectly_nested_loops(root: ForOp) -> list[ForOp]:
    """``root`` and the loops nested in it while each body holds just the
    next loop and the terminator (upstream's ``getPerfectlyNestedLoops``)."""
    band = [root]
    while True:
        ops = list(band[-1].body.block.ops)
        if len(ops) != 2 or not isinstance(ops[0], ForOp):
            return band
        band.append(ops[0])


def _mentions(form: Form, ivs: set[SSAValue]) -> bool:
    for key, _ in form.terms:
        if key in ivs:
            return True
        if isinstance(key, Floor) and _mentions(key.numerator, ivs):
            return True
        if isinstance(key, Opaque) and (_mentions(key.lhs, ivs) or _mentions(key.rhs, ivs)):
            return True
    return False


def is_hyper_rectangular(band: Sequence[ForOp]) -> bool:
    """No loop's bounds depend on the IV of another loop of the band."""
    ivs: set[SSAValue] = set()
    for loop in band:
        for upper in (False, True):
            if any(_mentions(f, ivs) for f in bound_forms(loop, upper)):
                return False
        ivs.add(loop.body.block.args[0])
    return True


def new_loop(
    lb: tuple[AffineMap, Sequence[SSAValue]],
    ub: tuple[AffineMap, Sequence[SSAValue]],
    step: int,
    like: Operation,
) -> ForOp:
    """An empty ``affine.for`` with ``like``'s location."""
    loop = ForOp.build(
        operands=[list(lb[1]), list(ub[1]), []],
        result_types=[[]],
        properties={
            "lowerBoundMap": AffineMapAttr(lb[0]),
            "upperBoundMap": AffineMapAttr(ub[0]),
            "step": IntegerAttr.from_index_int_value(step),
        },
        regions=[Region(Block([YieldOp.get()], arg_types=[IndexType()]))],
    )
    loop.location = like.location
    return loop


def _iv(loop: ForOp) -> SSAValue:
    return loop.body.block.args[0]


def _intra_tile_upper(orig: ForOp, tile_iv: SSAValue, size: int) -> tuple[AffineMap, list[SSAValue]]:
    step = orig.step.value.data
    d0 = AffineExpr.dimension(0)
    count = constant_trip_count(orig)
    if count is not None and count < size:
        return AffineMap(1, 0, (d0 + count * step,)), [tile_iv]
    if largest_divisor_of_trip_count(orig) % size != 0:
        # the original upper bound map with ``tile_iv + size * step`` first
        umap = orig.upperBoundMap.data
        operands = list(orig.upperBoundOperands)
        dim = AffineExpr.dimension(umap.num_dims)
        # one more dimension: the original symbols keep their positions
        results = (dim + size * step, *umap.results)
        new_operands = operands[: umap.num_dims] + [tile_iv] + operands[umap.num_dims :]
        return AffineMap(umap.num_dims + 1, umap.num_symbols, results), new_operands
    return AffineMap(1, 0, (d0 + size * step,)), [tile_iv]


def tile_perfectly_nested(band: Sequence[ForOp], sizes: Sequence[int]) -> list[ForOp] | None:
    """Tile ``band``; the tile-space loops then the intra-tile loops, or None
    when the band cannot be tiled (loops with results, non-rectangular)."""
    if any(loop.results for loop in band) or not is_hyper_rectangular(band):
        return None
    root = band[0]
    tile_loops = [
        new_loop(
            (loop.lowerBoundMap.data, loop.lowerBoundOperands),
            (loop.upperBoundMap.data, loop.upperBoundOperands),
            size * loop.step.value.data,
            root,
        )
        for loop, size in zip(band, sizes, strict=True)
    ]
    identity = AffineMap(1, 0, (AffineExpr.dimension(0),))
    point_loops = [
        new_loop((identity, [_iv(tile)]), _intra_tile_upper(loop, _iv(tile), size), loop.step.value.data, root)
        for loop, tile, size in zip(band, tile_loops, sizes, strict=True)
    ]
    nest = tile_loops + point_loops
    for outer, inner in zip(nest, nest[1:]):
        outer.body.block.insert_op_before(inner, outer.body.block.first_op)  # pyright: ignore[reportArgumentType]
    innermost = nest[-1].body.block
    for op in list(band[-1].body.block.ops)[:-1]:
        op.detach()
        innermost.insert_op_before(op, innermost.last_op)  # pyright: ignore[reportArgumentType]
    for loop, point in zip(band, point_loops):
        _iv(loop).replace_all_uses_with(_iv(point))
    Rewriter.insert_op(nest[0], InsertPoint.before(root))
    Rewriter.erase_op(root)
    return nest


# -- full and partial tiles ---------------------------------------------------


class _Vars:
    """The variables of upstream's index set of the intra-tile loops, in its
    order: dims (IVs) first, then symbols, each in the order upstream's
    ``addBound`` meets them: a bound's canonical operands (dims, symbols,
    then dims promoted to symbols), an outer IV bringing in its own loop's
    bounds when first met."""

    def __init__(self, region: Region | None) -> None:
        self.dims: list[SSAValue] = []
        self.syms: list[SSAValue] = []
        self.region = region

    def add_bound(self, amap: AffineMap, operands: Sequence[SSAValue]) -> None:
        used_dims = {e.position for r in amap.results for e in r.dfs() if isinstance(e, AffineDimExpr)}
        used_syms = {e.position for r in amap.results for e in r.dfs() if isinstance(e, AffineSymExpr)}
        dims = [(v, is_valid_symbol(v, self.region)) for i, v in enumerate(operands[: amap.num_dims]) if i in used_dims]
        syms = [v for i, v in enumerate(operands[amap.num_dims :]) if i in used_syms]
        for value in [v for v, sym in dims if not sym] + syms + [v for v, sym in dims if sym]:
            owner = value.owner
            if isinstance(owner, ApplyOp):
                self.add_bound(owner.map.data, owner.operands)
            elif not value_form(value).is_constant:
                self.add_value(value)

    def add_value(self, value: SSAValue) -> None:
        if value in self.dims or value in self.syms:
            return
        loop = loop_of_iv(value)
        if loop is None:
            self.syms.append(value)
            return
        self.dims.append(value)
        self.add_loop(loop)

    def add_loop(self, loop: ForOp) -> None:
        self.add_bound(loop.lowerBoundMap.data, loop.lowerBoundOperands)
        self.add_bound(loop.upperBoundMap.data, loop.upperBoundOperands)

    def order(self) -> list[SSAValue]:
        return self.dims + self.syms


def _full_tile_pair(lbs: Sequence[Form], ubs: Sequence[Form]) -> tuple[int, int] | None:
    """The lower and upper bound differing by the smallest constant."""
    best: tuple[int, int, int] | None = None
    for u, ub in enumerate(ubs):
        for l, lb in enumerate(lbs):
            diff = ub - lb
            if diff.is_constant and (best is None or max(0, diff.const) < best[0]):
                best = (max(0, diff.const), l, u)
    return None if best is None else (best[1], best[2])


def _bound_map(form: Form, order: Sequence[SSAValue], region: Region | None) -> tuple[AffineMap, list[SSAValue]]:
    """``form`` as a single-result map over its values taken in ``order``,
    valid symbols as symbols (upstream's canonicalized map of a bound)."""
    values = [v for v in order if v in form.coeffs()]
    dims = [v for v in values if not is_valid_symbol(v, region)]
    syms = [v for v in values if is_valid_symbol(v, region)]
    coeffs = form.coeffs()
    flat = [coeffs[v] for v in dims + syms] + [form.const]
    return AffineMap(len(dims), len(syms), (AffineExpr.from_flat_form(flat, len(dims), len(syms), []),)), dims + syms


def _separation_set(loops: Sequence[ForOp], pairs: Sequence[tuple[int, int]]) -> tuple[AffineSet, list[SSAValue]]:
    """The condition under which every loop of ``loops`` runs a full tile
    (upstream's ``createSeparationCondition``)."""
    region = get_affine_scope(loops[0])
    order = _Vars(region)
    rows: list[dict[object, int]] = []
    consts: list[int] = []
    for loop, (l, u) in zip(loops, pairs):
        order.dims.append(_iv(loop))
        order.add_loop(loop)
        lbs, ubs = bound_forms(loop, False), bound_forms(loop, True)
        if any(not isinstance(k, SSAValue) for f in (*lbs, *ubs) for k, _ in f.terms):
            raise Unsupported("a local variable in a bound")
        # a lower bound L is `iv - L >= 0`, an upper bound U `U - 1 - iv >= 0`;
        # the full tile's own pair becomes 0 >= 0 and goes away
        for lb in lbs:
            row = lbs[l] - lb  # full tile lower bound minus this one
            rows.append(row.coeffs())
            consts.append(row.const)
        for ub in ubs:
            row = ub - ubs[u]
            rows.append(row.coeffs())
            consts.append(row.const)
    operands = [v for v in order.order() if v not in {_iv(loop) for loop in loops}]
    kept = _remove_trivial_redundancy([[r.get(v, 0) for v in operands] for r in rows], consts)
    if not kept:  # every tile is full: upstream still guards, by `0 == 0`
        zero = AffineExpr.constant(0)
        return AffineSet(0, 0, (AffineConstraintExpr(AffineConstraintKind.eq, zero, zero),)), []
    used = [v for i, v in enumerate(operands) if any(row[i] for row, _ in kept)]
    dims = [v for v in used if not is_valid_symbol(v, region)]
    syms = [v for v in used if is_valid_symbol(v, region)]
    positions = [operands.index(v) for v in dims + syms]
    constraints = tuple(
        AffineConstraintExpr(
            AffineConstraintKind.ge,
            AffineExpr.from_flat_form([row[p] for p in positions] + [const], len(dims), len(syms), []),
            AffineExpr.constant(0),
        )
        for row, const in kept
    )
    return AffineSet(len(dims), len(syms), constraints), dims + syms


def _remove_trivial_redundancy(rows: list[list[int]], consts: list[int]) -> list[tuple[list[int], int]]:
    """GCD-tighten, drop trivially true and duplicate rows, and of rows that
    differ only in their constant keep the tightest, where it stands."""
    tightened: list[tuple[list[int], int]] = []
    for row, const in zip(rows, consts, strict=True):
        g = 0
        for c in row:
            g = math.gcd(g, c)
        tightened.append(([c // g for c in row], const // g) if g > 1 else (row, const))
    redundant = [False] * len(tightened)
    seen: set[tuple[int, ...]] = set()
    by_coeffs: dict[tuple[int, ...], tuple[int, int]] = {}
    for r, (row, const) in enumerate(tightened):
        key = tuple(row)
        if (not any(row) and const >= 0) or (*key, const) in seen:
            redundant[r] = True
            continue
        seen.add((*key, const))
        if key in by_coeffs:
            pos, best = by_coeffs[key]
            if best > const:
                redundant[pos] = True
                by_coeffs[key] = (r, const)
            else:
                redundant[r] = True
        else:
            by_coeffs[key] = (r, const)
    return [t for t, dead in zip(tightened, redundant) if not dead]


def separate_full_tiles(loops: Sequence[ForOp]) -> bool:
    """Version the intra-tile nest ``loops`` into full and partial tiles;
    False, leaving it as it was, when there is no partial tile to separate or
    a bound is beyond this analysis."""
    pairs: list[tuple[int, int]] = []
    for loop in loops:
        if loop.step.value.data != 1:
            return False
        pair = _full_tile_pair(bound_forms(loop, False), bound_forms(loop, True))
        if pair is None:
            return False
        pairs.append(pair)
    try:
        condition, operands = _separation_set(loops, pairs)
    except Unsupported:
        return False
    region = get_affine_scope(loops[0])
    full: list[ForOp] = []
    for loop, (l, u) in zip(loops, pairs):
        lb, ub = bound_forms(loop, False)[l], bound_forms(loop, True)[u]
        order = _Vars(region)  # the variables of this loop's index set
        order.add_loop(loop)
        bounds = _bound_map(lb, order.order(), region), _bound_map(ub, order.order(), region)
        full.append(new_loop(*bounds, 1, loop))
    for outer, inner in zip(full, full[1:]):
        outer.body.block.insert_op_before(inner, outer.body.block.first_op)  # pyright: ignore[reportArgumentType]
    mapping = {_iv(loop): _iv(f) for loop, f in zip(loops, full)}
    innermost = full[-1].body.block
    for op in list(loops[-1].body.block.ops)[:-1]:
        innermost.insert_op_before(op.clone(value_mapper=mapping), innermost.last_op)  # pyright: ignore[reportArgumentType]
    first = loops[0]
    if_op = IfOp.create(
        operands=operands,
        result_types=[],
        properties={"condition": AffineSetAttr(condition)},
        regions=[Region(Block([YieldOp.get()])), Region(Block([YieldOp.get()]))],
    )
    if_op.location = first.location
    Rewriter.insert_op(if_op, InsertPoint.before(first))
    if_op.then_region.block.insert_op_before(full[0], if_op.then_region.block.first_op)  # pyright: ignore[reportArgumentType]
    first.detach()
    if_op.else_region.block.insert_op_before(first, if_op.else_region.block.first_op)  # pyright: ignore[reportArgumentType]
    return True
