"""Which structured ops ``linalg-vectorize-loops`` vectorizes, and how: the
:class:`Plan` for one op, or the reason there is none.

Two shapes are vectorized along the innermost loop, as upstream's
``vectorizeLinalgOpPrecondition`` accepts them:

- **lanes**: the innermost loop is parallel. Every operand that varies with it
  reads it contiguously, so each vector iteration loads and stores ``lanes``
  consecutive elements; outer loops (parallel or reduction) stay scalar.
- **reduction**: the innermost loop is a reduction and every yielded value
  combines its own accumulator with a recognised combiner (upstream's
  ``matchReduction`` / ``getCombinerOpKind``): ``lanes`` partial results
  accumulate in a vector and a ``vector.reduction`` folds them at the end.

Each body value is *uniform* (the same for every iteration of the innermost
loop: loop-invariant operands, scalars, ``linalg.index`` of an outer loop) or
*varying*; only varying ops become vector ops, and a uniform value that a
varying op needs is broadcast once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.dialects.linalg.map_ops import DestinationStyleOp
from mlkit.dialects.linalg.structural import IndexOp, YieldOp
from mlkit.passes.conversion.linalg_to_loops_lowering import (
    has_pure_buffer_semantics,
    is_structured_op,
)
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
)
from xdsl.dialects.vector import CombiningKindFlag
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

__all__ = ["COMBINERS", "IDEMPOTENT", "Plan", "Reduction", "Unsupported", "plan_op", "static_extent"]

K = CombiningKindFlag
COMBINERS: dict[str, CombiningKindFlag] = {
    "arith.addf": K.ADD, "arith.mulf": K.MUL, "arith.addi": K.ADD, "arith.muli": K.MUL,
    "arith.maximumf": K.MAXIMUMF, "arith.minimumf": K.MINIMUMF,
    "arith.maxnumf": K.MAXNUMF, "arith.minnumf": K.MINNUMF,
    "arith.andi": K.AND, "arith.ori": K.OR, "arith.xori": K.XOR,
    "arith.maxsi": K.MAXSI, "arith.minsi": K.MINSI, "arith.maxui": K.MAXUI, "arith.minui": K.MINUI,
}  # fmt: skip
"""Body op -> the ``vector.reduction`` kind it combines with (upstream's
``getCombinerOpKind``)."""

IDEMPOTENT = frozenset({K.MAXIMUMF, K.MINIMUMF, K.MAXNUMF, K.MINNUMF, K.AND, K.OR,
                        K.MAXSI, K.MINSI, K.MAXUI, K.MINUI})  # fmt: skip
"""Kinds for which ``x op x == x``: their vector accumulator can start as the
initial value in every lane, so no identity constant (NaN, -inf) is needed."""

# Ops that may trap (integer division by zero): never hoisted above the
# innermost loop, where a zero trip count would run them when the loop did not.
_NOT_SPECULATABLE = frozenset({
    "arith.divsi", "arith.divui", "arith.remsi", "arith.remui",
    "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi",
})  # fmt: skip
# math.fpowi has no vector lowering: convert-math-to-llvm leaves it on
# vectors (as upstream does) and convert-math-to-libm has no function for it.
_NO_VECTOR_FORM = frozenset({"math.fpowi"})


class Unsupported(Exception):
    """Why an op is left for ``convert-linalg-to-loops``."""


@dataclass(frozen=True)
class Reduction:
    """Init ``init`` is ``combiner(partial, its accumulator)`` each iteration."""

    init: int
    combiner: Operation
    kind: CombiningKindFlag
    partial: SSAValue


@dataclass
class Plan:
    """How to vectorize one structured op on buffers."""

    op: Operation
    inputs: list[SSAValue]
    inits: list[SSAValue]
    maps: list[AffineMap]
    iterators: list[IteratorType]
    body: Block
    element_bits: int  # the widest scalar the vector ops carry; lanes come from it
    varying: set[SSAValue] = field(default_factory=set)
    hoisted: list[Operation] = field(default_factory=list)  # uniform body ops
    reductions: list[Reduction] = field(default_factory=list)

    @property
    def operands(self) -> list[SSAValue]:
        return [*self.inputs, *self.inits]

    @property
    def inner(self) -> int:
        return len(self.iterators) - 1

    @property
    def is_reduction(self) -> bool:
        return self.iterators[-1] == IteratorType.REDUCTION

    def uses_inner(self, position: int) -> bool:
        return self.inner in _dims(self.maps[position])

    def lanes(self, vector_bits: int) -> int:
        """Elements per vector: the widest scalar fills ``vector_bits``,
        rounded down to a power of two."""
        count = max(1, vector_bits // self.element_bits)
        return 1 << (count.bit_length() - 1)


def _dims(indexing_map: AffineMap) -> list[int]:
    return [e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)]


def _scalar_bits(type_: Attribute) -> int | None:
    """Bits of a scalar the vector ops may carry (i1 masks count as none);
    None for a type they cannot."""
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return 0 if type_.width.data == 1 else type_.width.data
    if isinstance(type_, AnyFloat):
        return type_.bitwidth
    return None


def _parts(op: Operation) -> tuple[list[SSAValue], list[SSAValue], Block]:
    if isinstance(op, DestinationStyleOp):
        return op.inputs_list(), op.inits_list(), op.body.block  # type: ignore[attr-defined]
    return list(op.inputs), list(op.outputs), op.body.block  # type: ignore[attr-defined]


def _check_access(plan: Plan) -> None:
    """Projected permutations (constants allowed); an operand that varies with
    the innermost loop has it as its last, unit-stride dimension."""
    for position, value in enumerate(plan.operands):
        if not isinstance(value.type, ShapedType):
            continue
        element = value.type.get_element_type()
        if not _scalar_bits(element):
            raise Unsupported(f"operand #{position} has element type {element}")
        indexing_map = plan.maps[position]
        if any(not isinstance(e, AffineDimExpr | AffineConstantExpr) for e in indexing_map.results):
            raise Unsupported(f"operand #{position} is not indexed by a projected permutation")
        dims = _dims(indexing_map)
        if len(set(dims)) != len(dims):
            raise Unsupported(f"operand #{position} uses a loop twice")
        if plan.inner not in dims:
            continue
        if indexing_map.results[-1] != AffineDimExpr(plan.inner):
            raise Unsupported(f"operand #{position} is not contiguous along the innermost loop")
        assert isinstance(value.type, MemRefType)
        strides = value.type.get_strides()
        if not strides or strides[-1] != 1:
            raise Unsupported(f"operand #{position} has no unit stride in its last dimension")


def _check_not_matmul_like(plan: Plan) -> None:
    """A contraction whose two inputs each miss a parallel loop the other has
    (matmul, batch_matmul, A·Bᵀ) belongs to contraction tiling, not here."""
    if IteratorType.REDUCTION not in plan.iterators:
        return
    parallel = {i for i, it in enumerate(plan.iterators) if it == IteratorType.PARALLEL}
    shaped = [set(_dims(plan.maps[p])) & parallel
              for p, v in enumerate(plan.inputs) if isinstance(v.type, ShapedType)]
    for a in shaped:
        for b in shaped:
            if a - b and b - a:
                raise Unsupported("a matmul-like contraction")


def _find_reductions(plan: Plan, yield_op: YieldOp) -> dict[Operation, Reduction]:
    combiners: dict[Operation, Reduction] = {}
    args = list(plan.body.args)
    for k, value in enumerate(yield_op.operands):
        acc = args[len(plan.inputs) + k]
        combiner = value.owner
        kind = COMBINERS.get(combiner.name) if isinstance(combiner, Operation) else None
        if kind is None or not isinstance(combiner, Operation) or (
            len(combiner.operands) != 2 or acc not in combiner.operands
        ):
            raise Unsupported(f"yielded value #{k} is not a recognised reduction of its init")
        if not acc.has_one_use() or not value.has_one_use() or combiner in combiners:
            raise Unsupported(f"the accumulator of init #{k} is used outside its combiner")
        lhs, rhs = combiner.operands
        combiners[combiner] = Reduction(k, combiner, kind, rhs if lhs is acc else lhs)
    return combiners


def _classify(plan: Plan) -> None:
    """Mark varying values, collect hoistable uniform ops and reductions."""
    args = list(plan.body.args)
    for position, value in enumerate(plan.operands):
        if position < len(args) and isinstance(value.type, ShapedType) and plan.uses_inner(position):
            plan.varying.add(args[position])
    yield_op = plan.body.last_op
    assert isinstance(yield_op, YieldOp)
    combiners = _find_reductions(plan, yield_op) if plan.is_reduction else {}
    accumulators = set(args[len(plan.inputs):]) if plan.is_reduction else set()
    for op in plan.body.ops:
        if op is yield_op:
            continue
        if isinstance(op, IndexOp):
            if op.dim.value.data == plan.inner:
                plan.varying.add(op.result)
            else:
                plan.hoisted.append(op)
            continue
        _check_body_op(op)
        if op in combiners:
            reduction = combiners[op]
            if reduction.partial in accumulators:
                raise Unsupported("an accumulator combined with another")
            plan.reductions.append(reduction)
            continue
        if any(v in accumulators for v in op.operands):
            raise Unsupported(f"'{op.name}' uses an accumulator")
        if any(v in plan.varying for v in op.operands) or op.name in _NOT_SPECULATABLE:
            plan.varying.update(op.results)
        else:
            plan.hoisted.append(op)
    plan.reductions.sort(key=lambda r: r.init)


def _check_body_op(op: Operation) -> None:
    dialect = op.name.split(".")[0]
    if dialect not in ("arith", "math") or op.regions or op.name in _NO_VECTOR_FORM:
        raise Unsupported(f"'{op.name}' in the body")
    if not op.results:
        raise Unsupported(f"'{op.name}' has no result")
    for value in (*op.operands, *op.results):
        if _scalar_bits(value.type) is None:
            raise Unsupported(f"'{op.name}' works on {value.type}")


def _element_bits(plan: Plan) -> int:
    bits = [0]
    for position, value in enumerate(plan.operands):
        if isinstance(value.type, ShapedType) and (
            plan.uses_inner(position) or position >= len(plan.inputs)
        ):
            bits.append(_scalar_bits(value.type.get_element_type()) or 0)
    vector_ops = [v.owner for v in plan.varying if isinstance(v.owner, Operation)]
    vector_ops += [r.combiner for r in plan.reductions]
    for op in vector_ops:
        for value in (*op.operands, *op.results):
            bits.append(_scalar_bits(value.type) or 0)
    for value in plan.varying:
        bits.append(_scalar_bits(value.type) or 0)
    return max(bits) or 8


def plan_op(op: Operation) -> Plan:
    """The plan for ``op``; raises :class:`Unsupported` with the reason when
    it is not an op this pass vectorizes."""
    if not is_structured_op(op) or not has_pure_buffer_semantics(op):
        raise Unsupported("not a structured op on buffers")
    inputs, inits, body = _parts(op)
    maps = [m.data for m in op.get_indexing_maps()]  # type: ignore[attr-defined]
    iterators = [it.data for it in op.get_iterator_types()]  # type: ignore[attr-defined]
    if not iterators:
        raise Unsupported("no loops")
    if not inits:
        raise Unsupported("no inits")
    plan = Plan(op, inputs, inits, maps, iterators, body, 0)
    _check_access(plan)
    _check_not_matmul_like(plan)
    if not plan.is_reduction:
        for k, init in enumerate(inits):
            if not plan.uses_inner(len(inputs) + k):
                raise Unsupported(f"init #{k} does not vary with the innermost parallel loop")
    _classify(plan)
    plan.element_bits = _element_bits(plan)
    return plan


def static_extent(plan: Plan, loop: int) -> int | None:
    """The trip count of ``loop`` when some operand gives it statically."""
    for position, value in enumerate(plan.operands):
        if not isinstance(value.type, ShapedType):
            continue
        for dim, expr in enumerate(plan.maps[position].results):
            if expr == AffineDimExpr(loop):
                size = value.type.get_shape()[dim]
                if size != DYNAMIC_INDEX:
                    return size
    return None

