"""The loop nest of a linalg structured op on buffers, shared by
``convert-linalg-to-loops``, ``convert-linalg-to-affine-loops`` and
``convert-linalg-to-parallel-loops`` (upstream's ``linalgOpToLoopsImpl``).

One loop per iteration dimension, outermost first, in the op's iteration-domain
order (so reductions run in the order upstream runs them). Each loop's upper
bound is the size of the first operand dimension indexed by that loop alone
(``createLoopRanges``): a constant for a static size, ``memref.dim`` otherwise.
The body loads each shaped input and init through its indexing map (a dim
result is the induction variable itself, a constant result an ``arith.constant``,
anything else an ``affine.apply`` over the dims it uses, as upstream's
``makeCanonicalAffineApplies`` plus its folding patterns leave them), clones the
payload with ``linalg.index`` replaced by the induction variables, and stores the
yielded values into the inits.

What upstream's greedy driver leaves and this module emits directly: loads whose
block argument is unused are not created, index constants are created once per
isolated region at the top of its entry block, and ``memref.dim`` of a
``memref.alloc``/``alloca`` is folded to the size operand. Upstream's driver also
folds unrelated ops in the function; that is left to ``canonicalize``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from mlkit.dialects import affine
from mlkit.dialects.affine.scope import get_affine_scope, is_valid_symbol
from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.dialects.linalg.map_ops import DestinationStyleOp
from mlkit.dialects.linalg.named_base import NamedStructuredOp
from mlkit.dialects.linalg.structural import GenericOp, IndexOp, YieldOp
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from mlkit.diagnostics import DiagnosticError
from mlkit.diagnostics.locations import op_loc, source_loc

__all__ = [
    "ConstantPool",
    "LoopKind",
    "has_pure_buffer_semantics",
    "is_structured_op",
    "lower_to_loops",
]


class LoopKind(Enum):
    """Which of upstream's three ``GenerateLoopNest`` instantiations to use."""

    SCF_FOR = "scf.for"
    AFFINE_FOR = "affine.for"
    SCF_PARALLEL = "scf.parallel"


# -- the structured-op interface ---------------------------------------------------


def is_structured_op(op: Operation) -> bool:
    """Upstream's ``LinalgOp`` interface: generic, named ops, map, reduce,
    transpose and broadcast. Pack, unpack and softmax are not among them."""
    return isinstance(op, GenericOp | NamedStructuredOp | DestinationStyleOp)


def _inputs(op: Operation) -> list[SSAValue]:
    if isinstance(op, DestinationStyleOp):
        return op.inputs_list()
    return list(op.inputs)  # type: ignore[attr-defined]


def _inits(op: Operation) -> list[SSAValue]:
    if isinstance(op, DestinationStyleOp):
        return op.inits_list()
    return list(op.outputs)  # type: ignore[attr-defined]


def _body(op: Operation) -> Block:
    return op.body.block  # type: ignore[attr-defined]


def _is_scalar(value: SSAValue) -> bool:
    return not isinstance(value.type, ShapedType)


def has_pure_buffer_semantics(op: Operation) -> bool:
    """Every operand is a scalar or a memref (upstream's ``hasPureBufferSemantics``)."""
    return all(
        _is_scalar(v) or isinstance(v.type, MemRefType) for v in op.operands
    ) and not any(isinstance(r.type, TensorType) for r in op.results)


# -- constants ------------------------------------------------------------------------


@dataclass
class ConstantPool:
    """Index constants, one per value and isolated region, at the top of the
    region's entry block: where upstream's folder puts the constants it makes."""

    rewriter: PatternRewriter | None = None
    _values: dict[tuple[int, int], SSAValue] = field(default_factory=dict)
    _last: dict[int, Operation] = field(default_factory=dict)

    @staticmethod
    def _entry_block(op: Operation) -> Block:
        cur = op
        while (parent := cur.parent_op()) is not None:
            if parent.has_trait(IsolatedFromAbove) and parent.regions:
                break
            cur = parent
        block = cur.parent_block()
        assert block is not None, "a structured op always sits in a block"
        region = block.parent
        return (
            region.blocks.first if region is not None and region.blocks.first else block
        )

    @staticmethod
    def _existing(block: Block, value: int, user: Operation) -> SSAValue | None:
        """An equal constant already in ``block`` before ``user``'s ancestor there."""
        ancestor = block.find_ancestor_op_in_block(user)
        wanted = IntegerAttr(value, IndexType())
        for op in block.ops:
            if op is ancestor:
                break
            if isinstance(op, arith.ConstantOp) and op.value == wanted:
                return op.result
        return None

    def index(self, value: int, user: Operation) -> SSAValue:
        block = self._entry_block(user)
        key = (id(block), value)
        if key in self._values:
            return self._values[key]
        # Not cached: a later user may sit before this one's constant.
        existing = self._existing(block, value, user)
        if existing is not None:
            return existing
        const = arith.ConstantOp(IntegerAttr(value, IndexType()))
        last = self._last.get(id(block))
        assert self.rewriter is not None, "set by lower_to_loops"
        if last is not None and last.parent_block() is block:
            self.rewriter.insert(const, InsertPoint.after(last))
        else:
            self.rewriter.insert(const, InsertPoint.at_start(block))
        self._last[id(block)] = const
        self._values[key] = const.result
        return const.result


# -- loop bounds -------------------------------------------------------------------------


def _dim_size(
    source: SSAValue, dim: int, pool: ConstantPool, op: Operation, pre: list[Operation]
) -> SSAValue:
    """``memref.dim source, dim``, folded through ``memref.alloc``/``alloca``."""
    shape = source.type.get_shape()  # type: ignore[attr-defined]
    owner = source.owner
    if isinstance(owner, memref.AllocOp | memref.AllocaOp):
        position = sum(1 for d in shape[:dim] if d == DYNAMIC_INDEX)
        return owner.dynamic_sizes[position]
    dim_op = memref.DimOp(source, pool.index(dim, op))
    pre.append(dim_op)
    return dim_op.result


def loop_upper_bounds(
    op: Operation, maps: Sequence[AffineMap], pool: ConstantPool, pre: list[Operation]
) -> list[int | SSAValue]:
    """Each loop's trip count from the first operand dimension that is that loop's
    index alone, in operand order (upstream's ``createLoopRanges``)."""
    num_loops = maps[0].num_dims if maps else 0
    found: list[tuple[int, int] | None] = [None] * num_loops
    for index, indexing_map in enumerate(maps):
        for dim, expr in enumerate(indexing_map.results):
            if isinstance(expr, AffineDimExpr) and found[expr.position] is None:
                found[expr.position] = (index, dim)
    missing = [loop for loop, entry in enumerate(found) if entry is None]
    if missing:
        raise ValueError(
            f"loop #{missing[0]} is not the index of any operand dimension"
        )
    sizes: dict[tuple[int, int], int | SSAValue] = {}
    # Dynamic sizes are read in operand order, as upstream reads every operand's.
    positions = sorted(e for e in found if e is not None)
    for index, dim in positions:
        value = op.operands[index]
        size = value.type.get_shape()[dim]  # type: ignore[attr-defined]
        if (index, dim) not in sizes:
            sizes[(index, dim)] = (
                size if size != DYNAMIC_INDEX else _dim_size(value, dim, pool, op, pre)
            )
    return [sizes[e] for e in found if e is not None]


# -- loop nests --------------------------------------------------------------------------


def _loop_groups(kind: LoopKind, iterators: Sequence[IteratorType]) -> list[list[int]]:
    """Loops per loop op: one each, except that ``scf.parallel`` takes each run of
    consecutive parallel loops (upstream's ``generateParallelLoopNest``)."""
    if kind is not LoopKind.SCF_PARALLEL:
        return [[i] for i in range(len(iterators))]
    groups: list[list[int]] = []
    for i, it in enumerate(iterators):
        parallel = it == IteratorType.PARALLEL
        if (
            parallel
            and groups
            and groups[-1][-1] == i - 1
            and _all_parallel(iterators, groups[-1])
        ):
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _all_parallel(iterators: Sequence[IteratorType], group: list[int]) -> bool:
    return all(iterators[i] == IteratorType.PARALLEL for i in group)


def _affine_bound(
    value: int | SSAValue, scope: Region | None
) -> tuple[AffineMap, list[SSAValue]]:
    """A constant bound, or the value as a symbol where it is a valid one and as a
    dim otherwise (what ``AffineForOp``'s folding leaves of upstream's bounds)."""
    if isinstance(value, int):
        return AffineMap(0, 0, (AffineConstantExpr(value),)), []
    if is_valid_symbol(value, scope):
        return AffineMap(0, 1, (AffineExpr.symbol(0),)), [value]
    return AffineMap(1, 0, (AffineExpr.dimension(0),)), [value]


def _make_loop(
    kind: LoopKind,
    bounds: list[int | SSAValue],
    pool: ConstantPool,
    op: Operation,
    scope: Region | None,
    parallel: bool,
) -> tuple[Operation, Block]:
    """An empty loop op over ``bounds`` (from 0, step 1) and its body block;
    with ``SCF_PARALLEL``, an ``scf.for`` for a (one-loop) reduction group."""
    block = Block(arg_types=[IndexType()] * len(bounds))
    if kind is LoopKind.AFFINE_FOR:
        (ub,) = bounds
        lb_map, lb_ops = _affine_bound(0, scope)
        ub_map, ub_ops = _affine_bound(ub, scope)
        loop = affine.ForOp.build(
            operands=[lb_ops, ub_ops, []],
            result_types=[[]],
            properties={
                "lowerBoundMap": AffineMapAttr(lb_map),
                "upperBoundMap": AffineMapAttr(ub_map),
                "step": IntegerAttr.from_index_int_value(1),
            },
            regions=[Region(block)],
        )
        return loop, block
    ubs = [pool.index(b, op) if isinstance(b, int) else b for b in bounds]
    zero, one = pool.index(0, op), pool.index(1, op)
    if kind is LoopKind.SCF_FOR or not parallel:
        return scf.ForOp(zero, ubs[0], one, [], Region(block)), block
    loop = scf.ParallelOp([zero] * len(ubs), ubs, [one] * len(ubs), Region(block))
    return loop, block


def _terminate(kind: LoopKind, loop: Operation, block: Block) -> None:
    if isinstance(loop, scf.ParallelOp):
        block.add_op(scf.ReduceOp())
    elif kind is LoopKind.AFFINE_FOR:
        block.add_op(affine.YieldOp(operands=[[]]))
    else:
        block.add_op(scf.YieldOp())


# -- the body ----------------------------------------------------------------------------------


def _compress(expr: AffineExpr, num_dims: int) -> tuple[AffineMap, list[int]]:
    """``expr`` over only the dims it uses, renumbered in order
    (``canonicalizeMapAndOperands`` on a one-result map)."""
    used = sorted(AffineMap(num_dims, 0, (expr,)).used_dims())
    renumber: list[AffineExpr] = [AffineExpr.dimension(0)] * num_dims
    for new, old in enumerate(used):
        renumber[old] = AffineExpr.dimension(new)
    return AffineMap(len(used), 0, (expr.replace_dims_and_symbols(renumber, []),)), used


@dataclass
class _BodyEmitter:
    kind: LoopKind
    pool: ConstantPool
    op: Operation
    ivs: list[SSAValue]
    block: Block

    def iv(self, index_op: IndexOp) -> SSAValue:
        """The induction variable ``index_op`` stands for; never one counted from
        the end (Python's negative index), which a ``linalg.index`` a pass built
        without verifying could ask for: that is an error at it instead."""
        dim = index_op.dim.value.data
        if not 0 <= dim < len(self.ivs):
            raise DiagnosticError.at(
                op_loc(index_op),
                f"'linalg.index' op expected dim ({dim}) to be lower than the number of "
                f"loops ({len(self.ivs)}) of the enclosing LinalgOp",
            )
        return self.ivs[dim]

    def indices(self, indexing_map: AffineMap) -> list[SSAValue]:
        result: list[SSAValue] = []
        for expr in indexing_map.results:
            if isinstance(expr, AffineDimExpr):
                result.append(self.ivs[expr.position])
            elif isinstance(expr, AffineConstantExpr):
                result.append(self.pool.index(expr.value, self.op))
            else:
                compressed, used = _compress(expr, indexing_map.num_dims)
                apply = affine.ApplyOp(
                    [self.ivs[d] for d in used], AffineMapAttr(compressed)
                )
                self.block.add_op(apply)
                result.append(apply.result)
        return result

    def load(self, source: SSAValue, indices: list[SSAValue]) -> SSAValue:
        if self.kind is LoopKind.AFFINE_FOR:
            load: Operation = affine.LoadOp(
                source,
                indices,
                AffineMapAttr(AffineMap.identity(len(indices))),
                source.type.element_type,  # type: ignore[attr-defined]
            )
        else:
            load = memref.LoadOp.get(source, indices)
        self.block.add_op(load)
        return load.results[0]

    def store(self, value: SSAValue, dest: SSAValue, indices: list[SSAValue]) -> None:
        if self.kind is LoopKind.AFFINE_FOR:
            self.block.add_op(
                affine.StoreOp(
                    value,
                    dest,
                    indices,
                    AffineMapAttr(AffineMap.identity(len(indices))),
                )
            )
        else:
            self.block.add_op(memref.StoreOp.get(value, dest, indices))

    def emit(self, maps: Sequence[AffineMap]) -> None:
        """Upstream's ``emitScalarImplementation`` for ``self.op``."""
        inputs, inits = _inputs(self.op), _inits(self.op)
        body = _body(self.op)
        args = list(body.args)
        mapper: dict[SSAValue, SSAValue] = {}
        init_indices: list[list[SSAValue]] = []
        for position, value in enumerate([*inputs, *inits]):
            arg = args[position] if position < len(args) else None
            is_init = position >= len(inputs)
            if _is_scalar(value):
                if arg is not None:
                    mapper[arg] = value
                continue
            indices: list[SSAValue] | None = None
            if arg is not None and arg.uses:
                indices = self.indices(maps[position])
                mapper[arg] = self.load(value, indices)
            if is_init:
                init_indices.append(
                    indices if indices is not None else self.indices(maps[position])
                )
        for inner in body.ops:
            if isinstance(inner, YieldOp):
                for value, dest, indices in zip(inner.values, inits, init_indices):
                    self.store(mapper.get(value, value), dest, indices)
                continue
            if isinstance(inner, IndexOp):
                mapper[inner.result] = self.iv(inner)
                continue
            clone = inner.clone(value_mapper=mapper)
            self.block.add_op(clone)
            for old, new in zip(inner.results, clone.results):
                mapper[old] = new


def lower_to_loops(
    rewriter: PatternRewriter, op: Operation, kind: LoopKind, pool: ConstantPool
) -> list[Operation]:
    """Replace the structured op ``op`` (on buffers) by its loop nest; return the
    loop ops, outermost first."""
    pool.rewriter = rewriter
    maps = [m.data for m in op.get_indexing_maps()]  # type: ignore[attr-defined]
    iterators = [it.data for it in op.get_iterator_types()]  # type: ignore[attr-defined]
    pre: list[Operation] = []
    bounds = loop_upper_bounds(op, maps, pool, pre)
    if pre:
        rewriter.insert(pre, InsertPoint.before(op))
    scope = get_affine_scope(op) if kind is LoopKind.AFFINE_FOR else None
    loops: list[tuple[Operation, Block]] = []
    ivs: list[SSAValue] = []
    for group in _loop_groups(kind, iterators):
        parallel = _all_parallel(iterators, group)
        loop, block = _make_loop(
            kind, [bounds[i] for i in group], pool, op, scope, parallel
        )
        if loops:
            loops[-1][1].add_op(loop)
        loops.append((loop, block))
        ivs.extend(block.args)
    innermost = loops[-1][1] if loops else Block()
    _BodyEmitter(kind, pool, op, ivs, innermost).emit(maps)
    for loop, block in loops:
        _terminate(kind, loop, block)
    # What the op becomes is located at it, as upstream builds it at its loc.
    for new in [*pre, *(loop for loop, _ in loops[:1]), *innermost.ops]:
        for inner in new.walk():
            if not source_loc(inner.location).known:
                inner.location = op.location
    if loops:
        rewriter.insert(loops[0][0], InsertPoint.before(op))
    else:
        body_ops = list(innermost.ops)
        for inner in body_ops:
            inner.detach()
        rewriter.insert(body_ops, InsertPoint.before(op))
    rewriter.erase(op)
    return [loop for loop, _ in loops]
