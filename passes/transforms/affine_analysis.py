"""Affine forms of index values, and the loop analyses affine-loop-tile asks
for: trip counts and dependence distances (upstream's ``Affine/Analysis``:
LoopAnalysis and AffineAnalysis).

An index value's :class:`Form` is an integer combination of *keys*: the
values it cannot look through (induction variables and symbols), ``floor``
divisions by constants (:class:`Floor`) and anything semi-affine
(:class:`Opaque`). ``affine.apply`` chains are composed and ``arith.constant``
operands folded, as upstream's map composition and canonicalization do, so
bounds written through different ops compare equal. Dependences and regions
are decided on :class:`~mlkit.passes.transforms.affine_constraints.Constraints`
built from these forms.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr

from mlkit.dialects.affine import ApplyOp, ForOp, LoadOp, StoreOp, VectorLoadOp, VectorStoreOp
from mlkit.dialects.affine.scope import is_affine_induction_var, is_affine_scope
from mlkit.passes.transforms.affine_constraints import Constraints, TooComplex

ACCESS_OPS = (LoadOp, StoreOp, VectorLoadOp, VectorStoreOp)
Access = LoadOp | StoreOp | VectorLoadOp | VectorStoreOp
UINT64_MAX = (1 << 64) - 1


class Unsupported(Exception):
    """A semi-affine expression where an affine one is needed."""


@dataclass(frozen=True)
class Form:
    """``sum(coeff * key) + const``; ``terms`` holds nonzero coefficients."""

    terms: frozenset[tuple[object, int]] = frozenset()
    const: int = 0

    @staticmethod
    def of(key: object) -> Form:
        return Form(frozenset({(key, 1)}))

    @staticmethod
    def build(coeffs: dict[object, int], const: int) -> Form:
        return Form(frozenset((k, c) for k, c in coeffs.items() if c), const)

    def coeffs(self) -> dict[object, int]:
        return dict(self.terms)

    @property
    def is_constant(self) -> bool:
        return not self.terms

    def __add__(self, other: Form) -> Form:
        coeffs = self.coeffs()
        for key, c in other.terms:
            coeffs[key] = coeffs.get(key, 0) + c
        return Form.build(coeffs, self.const + other.const)

    def scale(self, k: int) -> Form:
        return Form.build({key: c * k for key, c in self.terms}, self.const * k)

    def __sub__(self, other: Form) -> Form:
        return self + other.scale(-1)


@dataclass(frozen=True)
class Floor:
    """``floor(numerator / divisor)``, a local variable upstream."""

    numerator: Form
    divisor: int


@dataclass(frozen=True)
class Opaque:
    """A semi-affine term, compared structurally."""

    kind: AffineBinaryOpKind
    lhs: Form
    rhs: Form


def floor_div(form: Form, divisor: int) -> Form:
    """``floor(form / divisor)`` for a positive constant divisor, simplified
    where the divisor divides every coefficient."""
    if divisor == 1:
        return form
    if all(c % divisor == 0 for _, c in form.terms):
        return Form.build({k: c // divisor for k, c in form.terms}, form.const // divisor)
    return Form.of(Floor(form, divisor))


def _binary_form(kind: AffineBinaryOpKind, lhs: Form, rhs: Form) -> Form:
    if kind is AffineBinaryOpKind.Add:
        return lhs + rhs
    if kind is AffineBinaryOpKind.Mul:
        if lhs.is_constant:
            return rhs.scale(lhs.const)
        if rhs.is_constant:
            return lhs.scale(rhs.const)
        return Form.of(Opaque(kind, lhs, rhs))
    if not rhs.is_constant or rhs.const <= 0:
        return Form.of(Opaque(kind, lhs, rhs))
    c = rhs.const
    if kind is AffineBinaryOpKind.FloorDiv:
        return floor_div(lhs, c)
    if kind is AffineBinaryOpKind.CeilDiv:
        return floor_div(lhs + Form(const=c - 1), c)
    return lhs - floor_div(lhs, c).scale(c)  # mod


def expr_form(expr: AffineExpr, operands: Sequence[Form], num_dims: int) -> Form:
    """The form of ``expr`` with its dims and symbols bound to ``operands``."""
    match expr:
        case AffineConstantExpr():
            return Form(const=expr.value)
        case AffineDimExpr():
            return operands[expr.position]
        case AffineSymExpr():
            return operands[num_dims + expr.position]
        case AffineBinaryOpExpr():
            lhs = expr_form(expr.lhs, operands, num_dims)
            rhs = expr_form(expr.rhs, operands, num_dims)
            return _binary_form(expr.kind, lhs, rhs)
        case _:
            raise Unsupported(f"unknown affine expression {expr}")


def value_form(value: SSAValue) -> Form:
    """``value`` as a form: constants folded, ``affine.apply`` composed."""
    owner = value.owner
    if isinstance(owner, Operation) and isinstance(value.type, IndexType):
        attr = owner.properties.get("value", owner.attributes.get("value"))
        if owner.name == "arith.constant" and isinstance(attr, IntegerAttr):
            return Form(const=attr.value.data)
        if isinstance(owner, ApplyOp) and len(owner.map.data.results) == 1:
            return map_forms(owner.map.data, owner.operands)[0]
    return Form.of(value)


def map_forms(amap: AffineMap, operands: Sequence[SSAValue]) -> list[Form]:
    forms = [value_form(v) for v in operands]
    return [expr_form(e, forms, amap.num_dims) for e in amap.results]


def bound_forms(loop: ForOp, upper: bool) -> list[Form]:
    if upper:
        return map_forms(loop.upperBoundMap.data, loop.upperBoundOperands)
    return map_forms(loop.lowerBoundMap.data, loop.lowerBoundOperands)


def loop_of_iv(value: object) -> ForOp | None:
    if isinstance(value, BlockArgument) and is_affine_induction_var(value):
        parent = value.block.parent_op()
        if isinstance(parent, ForOp):
            return parent
    return None


def enclosing_loops(op: Operation) -> list[ForOp]:
    """The ``affine.for`` ops around ``op`` up to its affine scope, outermost
    first (upstream's ``getAffineForIVs``)."""
    loops: list[ForOp] = []
    parent = op.parent_op()
    while parent is not None and not is_affine_scope(parent):
        if isinstance(parent, ForOp):
            loops.append(parent)
        parent = parent.parent_op()
    return loops[::-1]


# -- trip counts (LoopAnalysis) ---------------------------------------------


def trip_count_forms(loop: ForOp) -> list[Form] | None:
    """Each upper bound minus the single lower bound, divided by the step
    rounding up (upstream's ``getTripCountMapAndOperands``)."""
    lbs = bound_forms(loop, False)
    if len(lbs) != 1:
        return None
    step = loop.step.value.data
    return [floor_div(ub - lbs[0] + Form(const=step - 1), step) for ub in bound_forms(loop, True)]


def constant_trip_count(loop: ForOp) -> int | None:
    counts = trip_count_forms(loop)
    if counts is None or not all(c.is_constant for c in counts):
        return None
    return max(0, min(c.const for c in counts))


def _largest_divisor(key: object) -> int:
    if isinstance(key, Floor):
        div = largest_known_divisor(key.numerator)
        return div // key.divisor if div % key.divisor == 0 else 1
    if isinstance(key, Opaque) and key.kind is AffineBinaryOpKind.Mul:
        return largest_known_divisor(key.lhs) * largest_known_divisor(key.rhs)
    return 1


def largest_known_divisor(form: Form) -> int:
    g = abs(form.const)
    for key, c in form.terms:
        g = math.gcd(g, abs(c) * _largest_divisor(key))
    return g


def largest_divisor_of_trip_count(loop: ForOp) -> int:
    """Upstream's ``getLargestDivisorOfTripCount``."""
    counts = trip_count_forms(loop)
    if counts is None:
        return 1
    g = 0
    for count in counts:
        if count.is_constant:
            g = math.gcd(g, count.const if count.const > 0 else UINT64_MAX)
        else:
            g = math.gcd(g, largest_known_divisor(count))
    return g


# -- constraint systems -------------------------------------------------------


class SystemBuilder:
    """A :class:`Constraints` whose variables stand for keys of forms: loop
    IVs (one copy per ``side``, each with its loop's domain), symbols (shared)
    and floor divisions (per side)."""

    def __init__(self) -> None:
        self.cst = Constraints()
        self.vars: dict[object, int] = {}

    def iv(self, loop: ForOp, side: str) -> int:
        key = (side, loop.body.block.args[0])
        if key in self.vars:
            return self.vars[key]
        var = self.vars[key] = self.cst.add_var()
        for lb in bound_forms(loop, False):  # iv - lb >= 0
            self.add_ineq({var: 1}, Form(), lb.scale(-1), side)
        for ub in bound_forms(loop, True):  # ub - 1 - iv >= 0
            self.add_ineq({var: -1}, Form(const=-1), ub, side)
        lbs = bound_forms(loop, False)
        step = loop.step.value.data
        if step != 1 and len(lbs) == 1 and lbs[0].is_constant:
            q = self.cst.add_var()  # iv = lb + step * q
            self.add_eq({var: 1, q: -step}, Form(const=-lbs[0].const), Form(), side)
        return var

    def var_of(self, key: object, side: str) -> int:
        loop = loop_of_iv(key)
        if loop is not None:
            return self.iv(loop, side)
        if isinstance(key, Floor):
            tagged = (side, key)
            if tagged not in self.vars:
                q = self.vars[tagged] = self.cst.add_var()
                d = key.divisor  # 0 <= numerator - d * q <= d - 1
                self.add_ineq({q: -d}, Form(), key.numerator, side)
                self.add_ineq({q: d}, Form(const=d - 1), key.numerator.scale(-1), side)
            return self.vars[tagged]
        if isinstance(key, Opaque):
            raise Unsupported("semi-affine expression")
        if key not in self.vars:
            self.vars[key] = self.cst.add_var()
        return self.vars[key]

    def sparse(self, form: Form, side: str) -> dict[int, int]:
        coeffs: dict[int, int] = {}
        for key, c in form.terms:
            var = self.var_of(key, side)
            coeffs[var] = coeffs.get(var, 0) + c
        return coeffs

    def _row(self, extra: dict[int, int], const: Form, form: Form, side: str) -> list[int]:
        coeffs = self.sparse(form, side)
        row = self.cst.row(coeffs, form.const + const.const)
        for var, c in extra.items():
            row[var] += c
        return row

    def add_ineq(self, extra: dict[int, int], const: Form, form: Form, side: str) -> None:
        """``extra + const + form >= 0``."""
        self.cst.add_ineq(self._row(extra, const, form, side))

    def add_eq(self, extra: dict[int, int], const: Form, form: Form, side: str) -> None:
        self.cst.add_eq(self._row(extra, const, form, side))


# -- dependences (AffineAnalysis) -------------------------------------------


def _is_write(op: Operation) -> bool:
    return isinstance(op, (StoreOp, VectorStoreOp))


def access_forms(op: Access) -> list[Form]:
    return map_forms(op.map.data, op.indices)


def _appears_before(src: Operation, dst: Operation) -> bool:
    """Whether ``src``'s ancestor precedes ``dst``'s in their innermost
    common block (upstream's ``srcAppearsBeforeDstInAncestralBlock``)."""
    chain: dict[Block, Operation] = {}
    op: Operation | None = src
    while op is not None and op.parent_block() is not None:
        chain[op.parent_block()] = op  # pyright: ignore[reportArgumentType]
        op = op.parent_op()
    op = dst
    while op is not None:
        block = op.parent_block()
        if block is None:
            return False
        if block in chain:
            ancestor = chain[block]
            return ancestor is not op and block.get_operation_index(ancestor) < block.get_operation_index(op)
        op = op.parent_op()
    return False


def dependence_components(src: Access, dst: Access, depth: int) -> list[tuple[int | None, int | None]] | None:
    """The bounds of ``dst_iv - src_iv`` on each common loop for a dependence
    carried at ``depth`` (1-based; one past the common loops means a
    loop-independent one), or None when there is none (upstream's
    ``checkMemrefAccessDependence`` with direction vectors)."""
    if src.memref is not dst.memref or not (_is_write(src) or _is_write(dst)):
        return None
    src_loops, dst_loops = enclosing_loops(src), enclosing_loops(dst)
    common = 0
    while common < min(len(src_loops), len(dst_loops)) and src_loops[common] is dst_loops[common]:
        common += 1
    if depth > common and not _appears_before(src, dst):
        return None
    b = SystemBuilder()
    src_ivs = [b.iv(loop, "src") for loop in src_loops]
    dst_ivs = [b.iv(loop, "dst") for loop in dst_loops]
    for s, d in zip(access_forms(src), access_forms(dst), strict=True):
        b.add_eq(b.sparse(d.scale(-1), "dst"), Form(const=-d.const), s, "src")
    for k in range(min(depth - 1, common)):
        b.cst.add_eq(b.cst.row({dst_ivs[k]: 1, src_ivs[k]: -1}, 0))
    if depth <= common:
        k = depth - 1
        b.cst.add_ineq(b.cst.row({dst_ivs[k]: 1, src_ivs[k]: -1}, -1))
    if b.cst.is_empty():
        return None
    diffs = []
    for k in range(common):
        diff = b.cst.add_var()
        b.cst.add_eq(b.cst.row({diff: 1, dst_ivs[k]: -1, src_ivs[k]: 1}, 0))
        diffs.append(diff)
    bounds = []
    for diff in diffs:
        found = b.cst.constant_bounds(diff)
        bounds.append((None, None) if found is None else found)
    return bounds


def is_tiling_valid(band: Sequence[ForOp]) -> bool:
    """No dependence has a known negative distance on any loop (upstream's
    ``isTilingValid``, with its fix for a distance of exactly -1). A pair of
    accesses the analysis cannot decide makes the band invalid."""
    accesses = [op for op in band[0].walk() if isinstance(op, ACCESS_OPS)]
    for depth in range(1, len(band) + 2):
        for src in accesses:
            for dst in accesses:
                try:
                    components = dependence_components(src, dst, depth)
                except (Unsupported, TooComplex):
                    return False
                for lb, ub in components or ():
                    if lb is not None and ub is not None and lb <= ub < 0:
                        return False
    return True
