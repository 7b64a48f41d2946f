"""``linalg-block-pack-matmul``: matmuls on tensors to a blocked layout and
back (upstream's ``BlockPackMatmul.cpp``).

Each matmul-like op becomes three ``linalg.pack`` (LHS, RHS and the init, each
tiled by the block factors ``mb``, ``nb``, ``kb`` of its two matrix
dimensions), one ``linalg.generic`` over the packed tensors (the outer block
loops, then the loops within a block) and one ``linalg.unpack`` of its result
into the original init. The ops it takes are upstream's:

- ``linalg.matmul``, with or without transposing ``indexing_maps``;
- ``linalg.batch_matmul`` with its default maps (the batch loop stays outer);
- a ``linalg.generic`` contraction (``add(out, mul(lhs, rhs))`` up to casts)
  whose maps are a plain, LHS-transposed or RHS-transposed matmul's.

The m, n and k loops are found as upstream's ``inferContractionDims`` finds
them (the innermost of each when there are several) and moved, in the order
``mnk-order`` gives, behind the other loops; each is packed by its block
factor, or with ``mnk-padded-multiples`` by its size rounded up to that
multiple. A packed operand whose tiles do not divide it (or with a dynamic
size) is padded with zeros; with ``allow-padding=false`` such ops, and ops of
dynamic size, are left alone. The outer blocks and the elements within a block
of the LHS are laid out ``[MB][KB]`` and ``[mb][kb]``, of the RHS ``[NB][KB]``
and ``[nb][kb]``, each flipped by its ``*-transpose-*-blocks`` option.

Left alone, as upstream leaves them: ops on buffers, ops without three block
factors, ``batch_matmul`` with user ``indexing_maps``, other contractions
(``batch_reduce_matmul``, ``matvec``, ``mmt4d``...), generics that are not
such a matmul. mlkit also leaves alone what upstream's code cannot pack but
does not reject (it asserts or crashes): a matmul without an m, n or k loop
(a broadcast operand) and operands of an element type without a zero to pad
with (neither integer nor float) that need padding. With dynamic sizes and
``allow-padding=false`` upstream's pass fails (its full-tile check leaves IR
behind, so its greedy driver does not converge); here the op is left alone.

Where ``mnk-padded-multiples`` rounds up a dynamic size, the tile is dynamic
and the packed outer size ``size ceildiv tile`` is an ``arith.ceildivui``:
upstream's semi-affine ``affine.apply`` has no form in xDSL's affine maps.

Upstream's greedy driver also folds what it creates (a pack of a splat
constant becomes a constant; index constants move to the top of the function);
run ``canonicalize`` after this pass for that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.dialects.linalg.contraction import BatchMatmulOp, MatmulOp
from mlkit.dialects.linalg.structural import GenericOp, iterators_attr, maps_attr
from mlkit.pipeline.options import option
from mlkit.passes.transforms.linalg_block_pack_matmul.contraction import (
    infer_contraction_dims,
    is_contraction_generic,
)
from mlkit.passes.transforms.linalg_block_pack_matmul.packing import (
    PackBuilder,
    PackPlan,
    Tile,
    needs_padding,
    plan_packing,
    zero_attr,
)
from mlkit.passes.transforms.rewrite_driver import rewrite_regions

__all__ = ["BlockPackMatmulOptions", "LinalgBlockPackMatmul", "block_pack_matmul"]


@dataclass(frozen=True)
class BlockPackMatmulOptions:
    """Upstream's ``BlockPackMatmulOptions``."""

    block_factors: tuple[int, ...]
    allow_padding: bool = True
    mnk_padded_multiples: tuple[int, ...] = ()
    mnk_order: tuple[int, ...] = (0, 1, 2)
    lhs_transpose_outer_blocks: bool = False
    lhs_transpose_inner_blocks: bool = False
    rhs_transpose_outer_blocks: bool = True
    rhs_transpose_inner_blocks: bool = True


def _d(*dims: int) -> tuple[AffineExpr, ...]:
    return tuple(AffineDimExpr(d) for d in dims)


# The generics upstream takes: (i, j, k) with A[i, k] / A[k, i] / B[j, k].
_GENERIC_MATMUL_MAPS = tuple(
    [AffineMap(3, 0, _d(*lhs)), AffineMap(3, 0, _d(*rhs)), AffineMap(3, 0, _d(0, 1))]
    for lhs, rhs in (((0, 2), (2, 1)), ((2, 0), (2, 1)), ((0, 2), (1, 2)))
)


@dataclass
class _Matmul:
    """What packing needs of a matmul-like op, named or generic."""

    op: Operation
    maps: list[AffineMap]
    iterators: list[IteratorType]
    lhs: SSAValue
    rhs: SSAValue
    init: SSAValue
    body: Region


def _match(op: Operation) -> _Matmul | None:
    if isinstance(op, BatchMatmulOp) and op.has_user_defined_maps():
        return None  # upstream: "only batch_matmul ops with non-extended semantics"
    if isinstance(op, MatmulOp | BatchMatmulOp):
        maps = op.indexing_maps_list()
        iterators = op.iterator_kinds()
        inputs, inits = list(op.inputs), list(op.outputs)
    elif isinstance(op, GenericOp):
        maps = [m.data for m in op.indexing_maps]
        iterators = [it.data for it in op.iterator_types]
        inputs, inits = list(op.inputs), list(op.outputs)
        if not is_contraction_generic(maps, iterators, len(inputs), len(inits), op.body.block):
            return None
        if list(maps) not in [list(m) for m in _GENERIC_MATMUL_MAPS]:
            return None
    else:
        return None
    if len(inputs) != 2 or len(inits) != 1 or len(op.results) != 1:
        return None
    if not all(isinstance(v.type, TensorType) for v in (*inputs, *inits)):
        return None  # upstream requires tensor semantics
    return _Matmul(op, list(maps), list(iterators), inputs[0], inputs[1], inits[0], op.body)


def _loop_operand_dims(maps: Sequence[AffineMap]) -> list[tuple[int, int] | None]:
    """For each loop, the first (operand, dimension) indexed by it alone
    (upstream's ``createLoopRanges``)."""
    found: list[tuple[int, int] | None] = [None] * maps[0].num_dims
    for index, indexing_map in enumerate(maps):
        for dim, expr in enumerate(indexing_map.results):
            if isinstance(expr, AffineDimExpr) and found[expr.position] is None:
                found[expr.position] = (index, dim)
    return found


def _static_loop_sizes(mm: _Matmul, maps: Sequence[AffineMap]) -> list[int | None]:
    operands = [mm.lhs, mm.rhs, mm.init]
    sizes: list[int | None] = []
    for entry in _loop_operand_dims(maps):
        if entry is None:
            sizes.append(None)
            continue
        size = operands[entry[0]].type.get_shape()[entry[1]]  # type: ignore[attr-defined]
        sizes.append(None if size == DYNAMIC_INDEX else size)
    return sizes


def _full_tiles_only(mm: _Matmul, factors: Sequence[int], order: Sequence[int], batch: int) -> bool:
    """Upstream's ``validateFullTilesOnDims``: block factor ``i`` divides loop
    ``order[i]`` past the batch loops, all sizes static."""
    sizes = _static_loop_sizes(mm, mm.maps)
    for factor, dim in zip(factors, order):
        loop = dim + batch
        size = sizes[loop] if loop < len(sizes) else None
        if size is None or size % factor != 0:
            return False
    return True


def _permutation_vector(size: int, positions: Sequence[int], desired: Sequence[int]) -> list[int]:
    """Upstream's ``computePermutationVector``: entry ``desired[i]`` is
    ``positions[i]``; the other entries the remaining values in order."""
    result = [-1] * size
    for pos, want in zip(positions, desired):
        result[want] = pos
    rest = iter(v for v in range(size) if v not in positions)
    return [next(rest) if v == -1 else v for v in result]


def _interchange(
    maps: Sequence[AffineMap], iterators: Sequence[IteratorType], perm: Sequence[int]
) -> tuple[list[AffineMap], list[IteratorType]]:
    """Upstream's ``interchangeGenericOp``: new loop ``j`` is old loop ``perm[j]``."""
    new_of_old = {old: new for new, old in enumerate(perm)}
    dims = [AffineExpr.dimension(new_of_old[d]) for d in range(len(perm))]
    new_maps = [
        AffineMap(
            m.num_dims, m.num_symbols, tuple(e.replace_dims_and_symbols(dims, []) for e in m.results)
        )
        for m in maps
    ]
    return new_maps, [iterators[old] for old in perm]


def _transpose_operand(
    plan: PackPlan, operand: int, blocks: Sequence[int], outer: bool, inner: bool
) -> None:
    """Upstream's ``transposePackedMatmul``: lay operand's blocks out as the
    options ask, given the loops of its first dimension (``blocks``: outer
    block loop, loop within a block)."""
    operand_map = plan.maps[operand]
    outer_pos = len(operand_map.results) - 4
    inner_pos = len(operand_map.results) - 2
    is_outer_transposed = operand_map.results[outer_pos] != AffineDimExpr(blocks[-2])
    is_inner_transposed = operand_map.results[inner_pos] != AffineDimExpr(blocks[-1])
    inner_perm = [1, 0] if is_inner_transposed != inner else [0, 1]
    outer_perm = [1, 0] if is_outer_transposed != outer else [0, 1]
    plan.transpose(operand, [*range(outer_pos), *(p + outer_pos for p in outer_perm)], inner_perm)


@dataclass
class _Packing:
    """How a matmul is packed: the plan over its interchanged loops, each
    loop's tile (0: not packed; None: its dynamic size rounded up to
    ``multiples[i]``, known when the IR is built)."""

    plan: PackPlan
    maps: list[AffineMap]
    tiles: list[int | None]
    multiples: list[int]


def _plan(mm: _Matmul, options: BlockPackMatmulOptions) -> _Packing | None:
    """Upstream's ``blockPackMatmul`` up to building IR: None where it fails."""
    if len(options.block_factors) != 3:
        return None
    dims = infer_contraction_dims(mm.maps, mm.iterators)
    if not (dims.m and dims.n and dims.k):
        return None
    order = list(options.mnk_order)
    if not options.allow_padding and not _full_tiles_only(
        mm, options.block_factors, order, len(dims.batch)
    ):
        return None

    # Move m, n and k behind the other loops, in mnk-order (packMatmulGreedily).
    num_loops = len(mm.iterators)
    lead = num_loops - 3
    perm = _permutation_vector(
        num_loops, [dims.m[-1], dims.n[-1], dims.k[-1]], [lead + o for o in order]
    )
    maps, iterators = _interchange(mm.maps, mm.iterators, perm)
    factors: list[int] = [0, 0, 0]
    multiples: list[int] = [0, 0, 0]
    for i, o in enumerate(order):
        factors[o] = options.block_factors[i]
        multiples[o] = options.mnk_padded_multiples[i] if options.mnk_padded_multiples else 0
    sizes = _static_loop_sizes(mm, maps)
    tiles: list[int | None] = [0] * lead
    for i, (factor, multiple) in enumerate(zip(factors, multiples)):
        size = sizes[lead + i]
        if not multiple:
            tiles.append(factor)
        else:
            tiles.append(None if size is None else -(-size // multiple) * multiple)
    if 0 in tiles[lead:]:
        return None  # a zero-size loop: upstream asserts three packs

    plan = plan_packing(maps, iterators, [t != 0 for t in tiles])
    if plan is None or not all(spec.packed for spec in plan.operands):
        return None
    packed_dims = infer_contraction_dims(plan.maps, plan.iterators)
    _transpose_operand(plan, 0, packed_dims.m, options.lhs_transpose_outer_blocks,
                       options.lhs_transpose_inner_blocks)
    _transpose_operand(plan, 1, packed_dims.k, options.rhs_transpose_outer_blocks,
                       options.rhs_transpose_inner_blocks)
    for value, spec in zip((mm.lhs, mm.rhs, mm.init), plan.operands):
        shape = value.type.get_shape()  # type: ignore[attr-defined]
        element_type = value.type.get_element_type()  # type: ignore[attr-defined]
        if zero_attr(element_type) is None and needs_padding(
            shape, spec.inner_dims_pos, spec.tiles(tiles)
        ):
            return None
    return _Packing(plan, maps, tiles, multiples)


def _emit(mm: _Matmul, packing: _Packing, rewriter: PatternRewriter) -> None:
    """The packs, the packed generic and the unpack, in place of ``mm.op``."""
    builder = PackBuilder(rewriter, mm.op)
    operands = [mm.lhs, mm.rhs, mm.init]
    lead = len(packing.tiles) - 3
    tiles: list[Tile] = []
    for loop, tile in enumerate(packing.tiles):
        if tile is not None:
            tiles.append(tile)
            continue
        index, dim = _loop_operand_dims(packing.maps)[loop]  # type: ignore[misc]
        size = builder.sizes(operands[index])[dim]
        tiles.append(builder.round_up(size, packing.multiples[loop - lead]))
    plan = packing.plan
    packed = [builder.pack(v, spec, spec.tiles(tiles)) for v, spec in zip(operands, plan.operands)]
    generic = GenericOp(
        packed[:2], packed[2:], mm.body.clone(), maps_attr(plan.maps),
        iterators_attr(plan.iterators), [packed[2].type],
    )
    builder.insert(generic)
    init_spec = plan.operands[2]
    result = builder.unpack(generic.results[0], mm.init, init_spec, init_spec.tiles(tiles))
    rewriter.replace(mm.op, [], [result])


def block_pack_matmul(
    op: Operation, options: BlockPackMatmulOptions, rewriter: PatternRewriter
) -> bool:
    """Pack one matmul-like op (upstream's ``linalg::blockPackMatmul``); False
    when it is left alone."""
    mm = _match(op)
    packing = None if mm is None else _plan(mm, options)
    if mm is None or packing is None:
        return False
    _emit(mm, packing, rewriter)
    return True


@dataclass
class BlockPackMatmulPattern(RewritePattern):
    options: BlockPackMatmulOptions

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        block_pack_matmul(op, self.options, rewriter)


@dataclass(frozen=True)
class LinalgBlockPackMatmul(ModulePass):
    """Convert linalg matmul ops to block layout and back"""

    name = "linalg-block-pack-matmul"
    display_name: ClassVar[str] = "LinalgBlockPackMatmul"

    block_factors: tuple[int, ...] = option((), "Block factors (mb, nb, kb) for relayout")
    allow_padding: bool = option(True, "Allow packing padding")
    mnk_padded_multiples: tuple[int, ...] = option((), "Next multiples of the packing sizes")
    mnk_order: tuple[int, ...] = option((), "Permutation of matmul (M, N, K) dimensions order")
    lhs_transpose_outer_blocks: bool = option(
        False, "Transpose LHS outer block layout [MB][KB] -> [KB][MB]"
    )
    lhs_transpose_inner_blocks: bool = option(
        False, "Transpose LHS inner block layout [mb][kb] -> [kb][mb]"
    )
    rhs_transpose_outer_blocks: bool = option(
        True, "Transpose RHS outer block layout [KB][NB] -> [NB][KB]"
    )
    rhs_transpose_inner_blocks: bool = option(
        True, "Transpose RHS inner block layout [kb][nb] -> [nb][kb]"
    )

    def __post_init__(self) -> None:
        # Upstream asserts on these; here they are option errors.
        if self.mnk_order and sorted(self.mnk_order) != [0, 1, 2]:
            raise ValueError("mnk-order must be a permutation of 0,1,2")
        if self.mnk_padded_multiples and len(self.mnk_padded_multiples) != 3:
            raise ValueError("mnk-padded-multiples must have three values")
        if any(m < 0 for m in self.mnk_padded_multiples):
            raise ValueError("mnk-padded-multiples must not be negative")
        if any(f <= 0 for f in self.block_factors):
            raise ValueError("block-factors must be positive")

    def to_options(self) -> BlockPackMatmulOptions:
        return BlockPackMatmulOptions(
            block_factors=self.block_factors,
            allow_padding=self.allow_padding,
            mnk_padded_multiples=self.mnk_padded_multiples,
            mnk_order=self.mnk_order or (0, 1, 2),
            lhs_transpose_outer_blocks=self.lhs_transpose_outer_blocks,
            lhs_transpose_inner_blocks=self.lhs_transpose_inner_blocks,
            rhs_transpose_outer_blocks=self.rhs_transpose_outer_blocks,
            rhs_transpose_inner_blocks=self.rhs_transpose_inner_blocks,
        )

    def apply(self, ctx: Context, op: Operation) -> None:
        # The pass runs on whatever op the pipeline anchors it on.
        rewrite_regions(op, BlockPackMatmulPattern(self.to_options()), apply_recursively=False)
