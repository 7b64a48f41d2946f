"""The loop nest ``linalg-vectorize-loops`` builds from a :class:`Plan`.

One ``scf.for`` per outer loop, as ``convert-linalg-to-loops`` builds them;
inside the innermost of those, once: the loads of loop-invariant operands, the
uniform body ops and the broadcasts of what the vector ops need of them. Then
the innermost loop in up to three parts:

1. a vector loop stepping ``lanes * unroll`` elements, the body cloned
   ``unroll`` times on ``vector<lanes x T>`` (one accumulator per copy for a
   reduction, so the copies do not wait on each other), or, ``interleave``d,
   an elementwise body once on ``vector<(lanes * unroll) x T>``;
2. with ``unroll > 1``, a vector loop stepping ``lanes`` over what is left of
   whole vectors;
3. a scalar loop over the last ``trip count mod lanes`` elements, which starts
   from the ``vector.reduction`` of the accumulators for a reduction.

A part that a static trip count makes empty is not emitted.

With threads (``parallel_min``, for ops with at least that many iterations
or a dynamic size), the outermost loop becomes an ``scf.parallel`` when it is
a parallel dimension; an op with one loop, elementwise, is cut into chunks
of :data:`CHUNK` elements instead, an ``scf.parallel`` over the chunks with
the three parts inside each. Every element is computed as without threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mlkit.dialects import arith as marith
from mlkit.dialects import scf
from mlkit.dialects.linalg.structural import IndexOp, YieldOp
from mlkit.diagnostics.locations import source_loc
from mlkit.passes.conversion.linalg_to_loops_lowering import ConstantPool, loop_upper_bounds
from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.passes.conversion.linalg_to_vector_loops_plan import IDEMPOTENT, Plan, Reduction
from xdsl.dialects import arith as xarith
from xdsl.dialects import memref, vector
from xdsl.dialects.arith import FastMathFlag, FastMathFlagsAttr
from xdsl.dialects.scf import YieldOp as ScfYieldOp
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    ShapedType,
    VectorType,
)
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

__all__ = ["emit_vector_loops"]

_NO_WRAP = marith.IntegerOverflowAttr("none")
Bound = int | SSAValue
_ARITH_OPS: dict[str, type[Operation]] = {cls.name: cls for cls in marith.Arith.operations}
CHUNK = 8192  # elements of a one-loop op per parallel iteration (rounded to whole vectors)


def _vector_type(type_: Attribute, lanes: int) -> VectorType:
    return VectorType(type_, [lanes])


def _element(value: SSAValue) -> Attribute:
    assert isinstance(value.type, ShapedType)
    return value.type.get_element_type()


@dataclass
class _Emitter:
    rewriter: PatternRewriter
    pool: ConstantPool
    plan: Plan
    lanes: int
    outer_ivs: list[SSAValue] = field(default_factory=list)
    prologue: Block = field(default_factory=Block)  # the innermost outer loop's body
    before: list[Operation] = field(default_factory=list)  # ahead of the whole nest
    scalars: dict[SSAValue, SSAValue] = field(default_factory=dict)  # uniform body value -> scalar
    _broadcasts: dict[tuple[SSAValue, int], SSAValue] = field(default_factory=dict)
    _lane_steps: dict[int, SSAValue] = field(default_factory=dict)  # lanes -> [0, 1, ...]

    # -- small builders ---------------------------------------------------------------

    def index(self, value: int) -> SSAValue:
        return self.pool.index(value, self.plan.op)

    def bound(self, value: Bound) -> SSAValue:
        return self.index(value) if isinstance(value, int) else value

    def indices(self, position: int, ivs: Sequence[SSAValue]) -> list[SSAValue]:
        result: list[SSAValue] = []
        for expr in self.plan.maps[position].results:
            if isinstance(expr, AffineDimExpr):
                result.append(ivs[expr.position])
            else:  # a constant: the analysis admits nothing else
                result.append(self.index(expr.value))  # type: ignore[attr-defined]
        return result

    def broadcast(self, value: SSAValue) -> SSAValue:
        """``value`` (uniform) in every lane, built once before the inner loops."""
        scalar = self.scalars.get(value, value)
        key = (scalar, self.lanes)
        if key not in self._broadcasts:
            op = vector.BroadcastOp(scalar, _vector_type(scalar.type, self.lanes))
            self.prologue.add_op(op)
            self._broadcasts[key] = op.vector
        return self._broadcasts[key]

    # -- the body, as vectors and as scalars --------------------------------------------

    def vector_body(self, block: Block, offset: SSAValue, accs: list[SSAValue]) -> list[SSAValue]:
        """Append one vector iteration at ``offset`` to ``block``; returns the
        updated accumulators (one per reduction, in init order)."""
        plan, args = self.plan, list(self.plan.body.args)
        ivs = [*self.outer_ivs, offset]
        values: dict[SSAValue, SSAValue] = {}
        for position, operand in enumerate(plan.operands):
            arg = args[position] if position < len(args) else None
            if arg is not None and arg in plan.varying and arg.uses:
                load = vector.LoadOp(
                    operand, self.indices(position, ivs), _vector_type(_element(operand), self.lanes)
                )
                block.add_op(load)
                values[arg] = load.result
        by_combiner = {r.combiner: r for r in plan.reductions}
        hoisted = set(plan.hoisted)
        new_accs = list(accs)

        def vec(value: SSAValue) -> SSAValue:
            return values[value] if value in values else self.broadcast(value)

        for op in plan.body.ops:
            if op in hoisted:
                continue
            if isinstance(op, YieldOp):
                if not plan.is_reduction:
                    for k, value in enumerate(op.operands):
                        position = len(plan.inputs) + k
                        block.add_op(vector.StoreOp(
                            vec(value), plan.inits[k], self.indices(position, ivs)
                        ))  # fmt: skip
                continue
            if isinstance(op, IndexOp):
                values[op.result] = self._lane_indices(block, offset)
                continue
            reduction = by_combiner.get(op)
            if reduction is not None:
                acc = args[len(plan.inputs) + reduction.init]
                slot = plan.reductions.index(reduction)
                operands = [accs[slot] if v is acc else vec(v) for v in op.operands]
                clone = self._clone_as_vector(op, operands)
                block.add_op(clone)
                new_accs[slot] = clone.results[0]
                continue
            clone = self._clone_as_vector(op, [vec(v) for v in op.operands])
            block.add_op(clone)
            values.update(zip(op.results, clone.results))
        return new_accs

    def _clone_as_vector(self, op: Operation, operands: list[SSAValue]) -> Operation:
        # the registered class: a named op's body may hold xDSL's arith ops, whose
        # verifiers refuse vectors in places upstream's (and mlkit's) accept them
        cls = _ARITH_OPS.get(op.name, type(op))
        return cls.create(
            operands=operands,
            result_types=[_vector_type(r.type, self.lanes) for r in op.results],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )

    def _lane_indices(self, block: Block, offset: SSAValue) -> SSAValue:
        """``[offset, offset + 1, ...]``: ``linalg.index`` of the innermost loop."""
        if self.lanes not in self._lane_steps:
            steps = xarith.ConstantOp(DenseIntOrFPElementsAttr.from_list(
                _vector_type(IndexType(), self.lanes), list(range(self.lanes))
            ))  # fmt: skip
            self.before.append(steps)
            self._lane_steps[self.lanes] = steps.result
        splat = vector.BroadcastOp(offset, _vector_type(IndexType(), self.lanes))
        add = marith.AddiOp(splat.vector, self._lane_steps[self.lanes], overflow=_NO_WRAP)
        block.add_op(splat)
        block.add_op(add)
        return add.results[0]

    def scalar_body(self, block: Block, iv: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        """Append one scalar iteration at ``iv``; returns the reductions' values."""
        plan, args = self.plan, list(self.plan.body.args)
        ivs = [*self.outer_ivs, iv]
        mapper = dict(self.scalars)
        for position, operand in enumerate(plan.operands):
            arg = args[position] if position < len(args) else None
            if arg is not None and arg in plan.varying and arg.uses:
                load = memref.LoadOp.get(operand, self.indices(position, ivs))
                block.add_op(load)
                mapper[arg] = load.res
        for reduction, value in zip(plan.reductions, carried):
            mapper[args[len(plan.inputs) + reduction.init]] = value
        hoisted = set(plan.hoisted)
        for op in plan.body.ops:
            if op in hoisted:
                continue
            if isinstance(op, YieldOp):
                if plan.is_reduction:
                    return [mapper[op.operands[r.init]] for r in plan.reductions]
                for k, value in enumerate(op.operands):
                    position = len(plan.inputs) + k
                    block.add_op(memref.StoreOp.get(
                        mapper.get(value, value), plan.inits[k], self.indices(position, ivs)
                    ))  # fmt: skip
                return []
            if isinstance(op, IndexOp):
                mapper[op.result] = iv
                continue
            clone = op.clone(value_mapper=mapper)
            block.add_op(clone)
            mapper.update(zip(op.results, clone.results))
        return []

    # -- the prologue --------------------------------------------------------------------

    def emit_prologue(self) -> None:
        """Load loop-invariant operands (and reduction inits), clone the uniform ops."""
        plan, args = self.plan, list(self.plan.body.args)
        for position, operand in enumerate(plan.operands):
            arg = args[position] if position < len(args) else None
            if arg is None:
                continue
            if not isinstance(operand.type, ShapedType):
                self.scalars[arg] = operand
            elif arg not in plan.varying and arg.uses:
                load = memref.LoadOp.get(operand, self.indices(position, self.outer_ivs))
                self.prologue.add_op(load)
                self.scalars[arg] = load.res
        for op in plan.hoisted:
            if isinstance(op, IndexOp):
                self.scalars[op.result] = self.outer_ivs[op.dim.value.data]
                continue
            clone = op.clone(value_mapper=self.scalars)
            self.prologue.add_op(clone)
            self.scalars.update(zip(op.results, clone.results))

    def start_vector(self, reduction: Reduction) -> SSAValue:
        """The accumulator's first value: the init in every lane for an
        idempotent kind, the kind's identity otherwise."""
        init = self.scalars[list(self.plan.body.args)[len(self.plan.inputs) + reduction.init]]
        if reduction.kind in IDEMPOTENT:
            return self.broadcast(init)
        element = init.type
        identity = 1 if reduction.kind == CombiningKindFlag.MUL else 0
        if isinstance(element, AnyFloat):
            value: float | int = float(identity) if identity else -0.0
        else:
            value = identity
        const = xarith.ConstantOp(DenseIntOrFPElementsAttr.from_list(
            _vector_type(element, self.lanes), [value] * self.lanes
        ))  # fmt: skip
        self.before.append(const)
        return const.result

    def reduce(self, reduction: Reduction, acc: SSAValue, init: SSAValue) -> SSAValue:
        flags = reduction.combiner.properties.get("fastmath")
        names: set[FastMathFlag] = set()
        if isinstance(flags, FastMathFlagsAttr):
            names = {FastMathFlag(f) for f in flags.data}
        if reduction.kind in (CombiningKindFlag.ADD, CombiningKindFlag.MUL) and isinstance(
            init.type, AnyFloat
        ):
            names.add(FastMathFlag.REASSOC)  # the vector accumulators have reordered it already
        op = vector.ReductionOp.create(
            operands=[acc, init],
            result_types=[init.type],
            properties={
                "kind": CombiningKindAttr(reduction.kind),
                "fastmath": FastMathFlagsAttr(sorted(names) if names else "none"),
            },
        )
        self.prologue.add_op(op)
        return op.results[0]

    def combine(self, reduction: Reduction, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        op = self._clone_as_vector(reduction.combiner, [lhs, rhs])
        self.prologue.add_op(op)
        return op.results[0]


def _for(
    lb: SSAValue, ub: SSAValue, step: SSAValue, iter_args: Sequence[SSAValue]
) -> tuple[scf.ForOp, Block]:
    block = Block(arg_types=[IndexType(), *(v.type for v in iter_args)])
    return scf.ForOp(lb, ub, step, list(iter_args), Region(block)), block


def _parallel(lb: SSAValue, ub: SSAValue, step: SSAValue) -> tuple[scf.ParallelOp, Block]:
    block = Block(arg_types=[IndexType()])
    return scf.ParallelOp([lb], [ub], [step], Region(block)), block


def _split_range(e: _Emitter, lo: Bound, hi: Bound, multiple: int) -> Bound:
    """The end of the whole multiples of ``multiple`` in ``[lo, hi)``."""
    if isinstance(lo, int) and lo == 0:
        return _split(e, hi, multiple)
    length = marith.SubiOp(e.bound(hi), e.bound(lo), overflow=_NO_WRAP)
    rem = xarith.RemUIOp(length.results[0], e.index(multiple))
    end = marith.SubiOp(e.bound(hi), rem.result, overflow=_NO_WRAP)
    e.prologue.add_ops([length, rem, end])
    return end.results[0]


def _enough_work(bounds: Sequence[Bound], minimum: int) -> bool:
    """Whether the iteration space is dynamic or holds ``minimum`` points."""
    total = 1
    for bound in bounds:
        if not isinstance(bound, int):
            return True
        total *= bound
    return total >= minimum


def _chunks(e: _Emitter, n: Bound, chunk: int) -> tuple[Block, SSAValue, SSAValue]:
    """An ``scf.parallel`` over ``ceil(n / chunk)`` chunks, in the prologue:
    its body, and the start and end of its chunk."""
    if isinstance(n, int):
        count: SSAValue = e.index(-(-n // chunk))
    else:
        padded = marith.AddiOp(n, e.index(chunk - 1), overflow=_NO_WRAP)
        divided = xarith.DivUIOp(padded.results[0], e.index(chunk))
        e.before += [padded, divided]
        count = divided.result
    loop, block = _parallel(e.index(0), count, e.index(1))
    e.prologue.add_op(loop)
    start = marith.MuliOp(block.args[0], e.index(chunk), overflow=_NO_WRAP)
    stop = marith.AddiOp(start.results[0], e.index(chunk), overflow=_NO_WRAP)
    end = xarith.MinUIOp(stop.results[0], e.bound(n))
    block.add_ops([start, stop, end])
    return block, start.results[0], end.result


def _split(e: _Emitter, n: Bound, multiple: int) -> Bound:
    """``n`` rounded down to a multiple of ``multiple``."""
    if isinstance(n, int):
        return n - n % multiple
    rem = xarith.RemUIOp(n, e.index(multiple))
    sub = marith.SubiOp(n, rem.result, overflow=_NO_WRAP)
    e.before += [rem, sub]  # the trip count is defined ahead of the op
    return sub.results[0]


def _nonempty(lo: Bound, hi: Bound) -> bool:
    return not (isinstance(lo, int) and isinstance(hi, int) and hi <= lo)


def _vector_loop(
    e: _Emitter,
    lo: Bound,
    hi: Bound,
    unroll: int,
    accs: list[list[SSAValue]],
    interleave: bool = False,
) -> None:
    """A vector loop over ``[lo, hi)``, ``unroll`` vectors per iteration, each
    with its accumulators ``accs[u]`` (updated in place to the loop's results).

    With ``interleave`` an elementwise body runs once on vectors ``unroll`` times
    wider: LLVM splits each wide op into ``unroll`` register-wide ones side by
    side, so the copies' long dependency chains (a polynomial ``tanh`` is some
    thirty ops deep) overlap, where copies cloned one after the other leave that
    to the out-of-order window. It needs registers for ``unroll`` times the live
    values, so the pass asks for it on targets with 32 of them."""
    if interleave and unroll > 1 and not e.plan.reductions:
        lanes = e.lanes
        e.lanes = lanes * unroll
        try:
            _vector_loop(e, lo, hi, 1, accs)
        finally:
            e.lanes = lanes
        return
    flat = [v for copy in accs[:unroll] for v in copy]
    loop, block = _for(e.bound(lo), e.bound(hi), e.index(e.lanes * unroll), flat)
    iv, carried = block.args[0], list(block.args[1:])
    per_copy = len(e.plan.reductions)
    yielded: list[SSAValue] = []
    for u in range(unroll):
        offset: SSAValue = iv
        if u:
            add = marith.AddiOp(iv, e.index(u * e.lanes), overflow=_NO_WRAP)
            block.add_op(add)
            offset = add.results[0]
        yielded += e.vector_body(block, offset, carried[u * per_copy:(u + 1) * per_copy])
    block.add_op(ScfYieldOp(*yielded))
    e.prologue.add_op(loop)
    for u in range(unroll):
        accs[u] = list(loop.results[u * per_copy:(u + 1) * per_copy])


def emit_vector_loops(
    rewriter: PatternRewriter,
    plan: Plan,
    lanes: int,
    unroll: int,
    parallel_min: int | None = None,
    interleave: bool = False,
) -> None:
    """Replace ``plan.op`` by its vectorized loop nest, with an ``scf.parallel``
    where ``parallel_min`` asks for threads and the op has the work."""
    op = plan.op
    pool = ConstantPool(rewriter)
    pre: list[Operation] = []
    bounds: list[Bound] = loop_upper_bounds(op, plan.maps, pool, pre)
    if pre:
        rewriter.insert(pre, InsertPoint.before(op))
    e = _Emitter(rewriter, pool, plan, lanes)
    threaded = (
        parallel_min is not None
        and plan.iterators[0] == IteratorType.PARALLEL
        and _enough_work(bounds, parallel_min)
        and bounds[0] != 1
    )
    outer: list[tuple[Operation, Block]] = []
    for dim in range(plan.inner):
        if dim == 0 and threaded:
            loop, block = _parallel(e.index(0), e.bound(bounds[dim]), e.index(1))
        else:
            loop, block = _for(e.index(0), e.bound(bounds[dim]), e.index(1), [])
        if outer:
            e.prologue.add_op(loop)
        outer.append((loop, block))
        e.prologue = block
        e.outer_ivs.append(block.args[0])
    e.emit_prologue()
    start: Bound = 0
    n = bounds[plan.inner]
    top, chunked = e.prologue, threaded and plan.inner == 0
    if chunked:  # one elementwise loop: chunks of it on threads
        chunk = max(lanes * unroll, CHUNK - CHUNK % (lanes * unroll))
        e.prologue, start, n = _chunks(e, n, chunk)
    main_end = _split_range(e, start, n, lanes * unroll)
    vec_end = _split_range(e, start, n, lanes) if unroll > 1 else main_end
    accs = [[e.start_vector(r) for r in plan.reductions] for _ in range(unroll)]
    if _nonempty(start, main_end):
        _vector_loop(e, start, main_end, unroll, accs, interleave)
    if unroll > 1 and _nonempty(main_end, vec_end):
        _vector_loop(e, main_end, vec_end, 1, accs)
    carried: list[SSAValue] = []
    for slot, reduction in enumerate(plan.reductions):
        acc = accs[0][slot]
        for copy in accs[1:]:
            acc = e.combine(reduction, acc, copy[slot])
        init = e.scalars[list(plan.body.args)[len(plan.inputs) + reduction.init]]
        carried.append(e.reduce(reduction, acc, init))
    if _nonempty(vec_end, n):
        loop, block = _for(e.bound(vec_end), e.bound(n), e.index(1), carried)
        results = e.scalar_body(block, block.args[0], list(block.args[1:]))
        block.add_op(ScfYieldOp(*results))
        e.prologue.add_op(loop)
        carried = list(loop.results)
    for reduction, value in zip(plan.reductions, carried):
        position = len(plan.inputs) + reduction.init
        e.prologue.add_op(memref.StoreOp.get(
            value, plan.inits[reduction.init], e.indices(position, e.outer_ivs)
        ))  # fmt: skip
    if chunked:
        e.prologue.add_op(scf.ReduceOp())
    if outer:
        for loop, block in outer:
            block.add_op(scf.ReduceOp() if isinstance(loop, scf.ParallelOp) else ScfYieldOp())
        nest: list[Operation] = [outer[0][0]]
    else:
        nest = list(top.ops)
        for new in nest:
            new.detach()
    new_ops = [*e.before, *nest]
    for new in [*pre, *new_ops]:
        for inner in new.walk():
            if not source_loc(inner.location).known:
                inner.location = op.location
    rewriter.insert(new_ops, InsertPoint.before(op))
    rewriter.erase(op)

