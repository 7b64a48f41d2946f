"""Upstream's folders and canonicalization of the ``index`` dialect.

``index`` is 32 or 64 bits depending on the target, so upstream folds an op
on constants only where the answer does not depend on which: it computes in
64 bits and in 32 bits and folds when the 64-bit result truncates to the 32-bit
one (``foldBinaryOpChecked``; a division by zero or an over-wide shift does not
fold). Addition, subtraction, multiplication and the bitwise ops commute with
truncation and fold unchecked. ``cmp`` folds constants the same way, ``x`` with
itself, and a ``min``/``max`` against a constant by the range it bounds; its
canonicalization turns ``cmp(sub(a, b), 0)`` into ``cmp(a, b)``. Casts fold into
``index`` only, as upstream's dialect materializes ``index`` and ``i1`` constants
and nothing else (``IndexConstantMaterialization`` in :mod:`mlkit.dialects.index`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, IntegerType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait, HasFolder

Calc = Callable[[int, int, int], int | None]
"""An op's arithmetic on unsigned ``bits``-wide operands; None where undefined."""


def _s(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _sdiv(n: int, m: int) -> int:
    """Signed division rounding towards zero (APInt's ``sdiv``)."""
    q = abs(n) // abs(m)
    return q if (n < 0) == (m < 0) else -q


def _divs(a: int, b: int, bits: int) -> int | None:
    return None if b == 0 else _sdiv(_s(a, bits), _s(b, bits))


def _rems(a: int, b: int, bits: int) -> int | None:
    if b == 0:
        return None
    n, m = _s(a, bits), _s(b, bits)
    return n - _sdiv(n, m) * m


def _ceildivs(a: int, b: int, bits: int) -> int | None:
    n, m = _s(a, bits), _s(b, bits)
    if m == 0:
        return None
    if n == 0:
        return 0
    if (n > 0) != (m > 0):
        return -_sdiv(_s(-n, bits), m)
    return _sdiv(_s(n + (-1 if m > 0 else 1), bits), m) + 1


def _floordivs(a: int, b: int, bits: int) -> int | None:
    n, m = _s(a, bits), _s(b, bits)
    if m == 0:
        return None
    if n == 0:
        return 0
    if (n < 0) == (m < 0):
        return _sdiv(n, m)
    return -1 - _sdiv(_s((1 if m < 0 else -1) - n, bits), m)


def _shift(op: Callable[[int, int, int], int]) -> Calc:
    return lambda a, b, bits: None if b >= bits else op(a, b, bits)


CHECKED: dict[str, Calc] = {
    "index.divs": _divs,
    "index.divu": lambda a, b, bits: None if b == 0 else a // b,
    "index.ceildivs": _ceildivs,
    "index.ceildivu": lambda a, b, bits: None if b == 0 else (0 if a == 0 else (a - 1) // b + 1),
    "index.floordivs": _floordivs,
    "index.rems": _rems,
    "index.remu": lambda a, b, bits: None if b == 0 else a % b,
    "index.maxs": lambda a, b, bits: max(_s(a, bits), _s(b, bits)),
    "index.mins": lambda a, b, bits: min(_s(a, bits), _s(b, bits)),
    "index.maxu": lambda a, b, bits: max(a, b),
    "index.minu": lambda a, b, bits: min(a, b),
    "index.shl": _shift(lambda a, b, bits: a << b),
    "index.shrs": _shift(lambda a, b, bits: _s(a, bits) >> b),
    "index.shru": _shift(lambda a, b, bits: a >> b),
}
UNCHECKED: dict[str, Calc] = {
    "index.add": lambda a, b, bits: a + b,
    "index.sub": lambda a, b, bits: a - b,
    "index.mul": lambda a, b, bits: a * b,
    "index.and": lambda a, b, bits: a & b,
    "index.or": lambda a, b, bits: a | b,
    "index.xor": lambda a, b, bits: a ^ b,
}


def _index_constant(value: SSAValue) -> int | None:
    """The unsigned 64-bit value of an ``index`` or integer constant, or None."""
    attr = ConstantLike.get_constant_value(value)
    if not isinstance(attr, IntegerAttr):
        return None
    bits = 64 if isinstance(attr.type, IndexType) else attr.type.width.data  # type: ignore[union-attr]
    return attr.value.data & ((1 << bits) - 1)


def _index_attr(value: int) -> IntegerAttr:
    return IntegerAttr(_s(value, 64), IndexType())


def _fold_binary(name: str, a: int, b: int) -> int | None:
    if name in UNCHECKED:
        return UNCHECKED[name](a, b, 64)
    wide = CHECKED[name](a, b, 64)
    narrow = CHECKED[name](a & 0xFFFFFFFF, b & 0xFFFFFFFF, 32)
    if wide is None or narrow is None or (wide - narrow) & 0xFFFFFFFF:
        return None
    return wide


def _compare(pred: str, a: int, b: int, bits: int) -> bool:
    sa, sb = _s(a, bits), _s(b, bits)
    return {
        "eq": a == b, "ne": a != b,
        "slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb, "sge": sa >= sb,
        "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b,
    }[pred]


def _range_of(name: str, bound: int, bits: int) -> tuple[int, int, int, int]:
    """``(smin, smax, umin, umax)`` of ``min``/``max(x, bound)``, as upstream's
    ``ConstantIntRanges::fromSigned``/``fromUnsigned`` give them."""
    smin_all, smax_all, umax_all = -(1 << (bits - 1)), (1 << (bits - 1)) - 1, (1 << bits) - 1
    sb = _s(bound, bits)
    if name in ("index.maxs", "index.mins"):
        lo, hi = (sb, smax_all) if name == "index.maxs" else (smin_all, sb)
        if (lo < 0) == (hi < 0):
            return lo, hi, lo & umax_all, hi & umax_all
        return lo, hi, 0, umax_all
    lo, hi = (bound, umax_all) if name == "index.maxu" else (0, bound)
    if (lo >> (bits - 1)) == (hi >> (bits - 1)):
        return _s(lo, bits), _s(hi, bits), lo, hi
    return smin_all, smax_all, lo, hi


_INVERSE = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle",
            "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}


def _statically_true(pred: str, lhs: tuple[int, int, int, int], c: int, bits: int) -> bool:
    smin, smax, umin, umax = lhs
    sc = _s(c, bits)
    if pred == "eq":
        return smin == smax and smin == sc
    if pred == "ne":
        signed_ne = smax < sc or smin > sc
        unsigned_ne = umax < c or umin > c
        return signed_ne and unsigned_ne
    return {
        "sle": smax <= sc, "slt": smax < sc, "sge": smin >= sc, "sgt": smin > sc,
        "ule": umax <= c, "ult": umax < c, "uge": umin >= c, "ugt": umin > c,
    }[pred]


def _cmp_of_bound(pred: str, name: str, bound: int, c: int, bits: int) -> bool | None:
    """Upstream's ``foldCmpOfMaxOrMin``: ``intrange::evaluatePred``."""
    lhs = _range_of(name, bound, bits)
    if _statically_true(pred, lhs, c, bits):
        return True
    if _statically_true(_INVERSE[pred], lhs, c, bits):
        return False
    return None


def _fold_cmp(op: Operation) -> bool | None:
    pred = op.properties["pred"].data.value  # type: ignore[attr-defined]
    lhs, rhs = op.operands
    a, b = _index_constant(lhs), _index_constant(rhs)
    if a is not None and b is not None:
        wide = _compare(pred, a, b, 64)
        if wide == _compare(pred, a & 0xFFFFFFFF, b & 0xFFFFFFFF, 32):
            return wide
    bounded = lhs.owner if isinstance(lhs.owner, Operation) else None
    if bounded is not None and bounded.name in ("index.maxs", "index.maxu", "index.mins",
                                                "index.minu") and b is not None:
        bound = _index_constant(bounded.operands[1])
        if bound is not None:
            wide = _cmp_of_bound(pred, bounded.name, bound, b, 64)
            narrow = _cmp_of_bound(pred, bounded.name, bound & 0xFFFFFFFF, b & 0xFFFFFFFF, 32)
            if wide is not None and wide == narrow:
                return wide
    if lhs is rhs:
        return pred in ("eq", "sge", "sle", "uge", "ule")
    return None


def _fold_cast(op: Operation) -> IntegerAttr | None:
    if not isinstance(op.results[0].type, IndexType):
        return None  # upstream folds it, but its dialect materializes no iN constant
    source = op.operands[0].type
    value = _index_constant(op.operands[0])
    if value is None or not isinstance(source, IntegerType):
        return None
    bits = source.width.data
    return _index_attr(_s(value, bits) if op.name == "index.casts" else value)


class FoldsIndex(HasFolder):
    """The ``fold`` of upstream's index ops."""

    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        if op.name == "index.cmp":
            result = _fold_cmp(op)
            return None if result is None else (BoolAttr.from_bool(result),)
        if op.name in ("index.casts", "index.castu"):
            attr = _fold_cast(op)
            return None if attr is None else (attr,)
        lhs, rhs = op.operands
        a, b = _index_constant(lhs), _index_constant(rhs)
        if b is not None and a is None:
            if b == 0 and op.name in ("index.add", "index.sub"):
                return (lhs,)
            if op.name == "index.mul" and b in (0, 1):
                return (rhs if b == 0 else lhs,)
        if a is None or b is None:
            return None
        result = _fold_binary(op.name, a, b)
        return None if result is None else (_index_attr(result),)


FOLDS_INDEX = FoldsIndex()


class CmpOfSubZero(RewritePattern):
    """``cmp(sub(a, b), 0)`` is ``cmp(a, b)``; ``cmp(0, sub(a, b))`` is ``cmp(b, a)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "index.cmp":
            return
        lhs, rhs = op.operands
        rhs_zero, lhs_zero = _index_constant(rhs) == 0, _index_constant(lhs) == 0
        if not (rhs_zero or lhs_zero):
            return
        sub = (lhs if rhs_zero else rhs).owner
        if not isinstance(sub, Operation) or sub.name != "index.sub":
            return
        a, b = sub.operands if rhs_zero else reversed(sub.operands)
        new = type(op).create(
            operands=[a, b], result_types=[i1], properties=dict(op.properties)
        )
        rewriter.replace_op(op, new)


class CmpCanonicalization(HasCanonicalizationPatternsTrait):
    """``index.cmp``'s canonicalization pattern."""

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (CmpOfSubZero(),)
