"""Upstream's folders and canonicalization patterns of ``arith.cmpi`` and
``arith.select`` (``ArithOps.cpp``, ``ArithCanonicalization.td``).

``cmpi`` folds, in upstream's order: equal operands to the predicate's answer;
``ext(%x : i1) != 0`` and ``%x != false``/``%x == true`` on ``i1`` to ``%x``;
two constants (scalar or dense) to the comparison. A constant on the left moves
to the right with the predicate mirrored (``slt`` becomes ``sgt``), in place,
and ``eq``/``ne`` of two like extensions compares their sources (``CmpIExtSI``,
``CmpIExtUI``).

``select`` folds equal branches, a constant condition, ``select %c, true,
false`` to ``%c``, ``select(cmpi eq/ne a, b; a, b)`` to the branch the
comparison picks, and constants elementwise; its patterns are upstream's
``RedundantSelectFalse``/``True``, ``SelectNotCond``, ``SelectI1ToNot``,
``SelectToExtUI`` and the newer select of an ordering comparison's operands
to ``minsi``/``maxsi``/``minui``/``maxui``.

xDSL's own patterns of these ops stay (the ops subclass xDSL's); these folds
run first and leave them nothing to rewrite that upstream would not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, VectorType
from xdsl.dialects.builtin import i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import Commutative, ConstantLike, HasCanonicalizationPatternsTrait, HasFolder
from xdsl.transforms.canonicalization_patterns.arith import (
    SignlessIntegerBinaryOperationConstantProp,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from mlkit.dialects.arith.cast_folding import defining_op
from mlkit.dialects.arith.casts import ExtUIOp, element_type
from mlkit.dialects.constant_folding import bool_attr, fold_elementwise, int_or_splat
from mlkit.dialects.constant_folding import operand_constants, signed, width

__all__ = ["CMPI_FOLDS", "CMPI_PATTERNS", "REPLACED_PATTERNS", "SELECT_FOLDS", "SELECT_PATTERNS"]

EQ, NE = 0, 1
# predicates true of two equal operands: eq, sle, sge, ule, uge
_TRUE_WHEN_EQUAL = frozenset({0, 3, 5, 7, 9})
# the predicate with its operands swapped: slt <-> sgt, sle <-> sge, ...
_MIRRORED = (0, 1, 4, 5, 2, 3, 8, 9, 6, 7)


def _compare(predicate: int, lhs: int, rhs: int, type_: Attribute) -> bool:
    if 2 <= predicate <= 5:  # signed
        bits = width(type_)
        lhs, rhs = signed(lhs, bits), signed(rhs, bits)
    match predicate:
        case 0:
            return lhs == rhs
        case 1:
            return lhs != rhs
        case 2 | 6:
            return lhs < rhs
        case 3 | 7:
            return lhs <= rhs
        case 4 | 8:
            return lhs > rhs
        case _:
            return lhs >= rhs


def _integer_width(type_: Attribute) -> int | None:
    """Upstream's ``getIntegerWidth``: of an integer or a vector of them."""
    if isinstance(type_, VectorType):
        type_ = type_.element_type
    return type_.width.data if isinstance(type_, IntegerType) else None


def _predicate(op: Operation) -> int:
    predicate = op.properties["predicate"]
    assert isinstance(predicate, IntegerAttr)
    return predicate.value.data


class CmpiFolds(HasFolder):
    """``arith.cmpi``'s folds, in upstream's order (the constant move excepted:
    it changes the op, so it is :class:`CmpiConstantToRight`)."""

    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        lhs, rhs = op.operands
        result_type = op.results[0].type
        predicate = _predicate(op)
        if lhs == rhs:
            return (bool_attr(result_type, predicate in _TRUE_WHEN_EQUAL),)
        lhs_constant, rhs_constant = operand_constants(op)
        on_i1 = element_type(lhs.type) == i1
        if int_or_splat(rhs_constant) == 0:
            ext = defining_op(lhs)
            if (
                isinstance(ext, xarith.ExtSIOp | xarith.ExtUIOp)
                and _integer_width(ext.operands[0].type) == 1
                and predicate == NE
            ):
                return (ext.operands[0],)
            if on_i1 and predicate == NE:
                return (lhs,)
        if int_or_splat(rhs_constant) == 1 and on_i1 and predicate == EQ:
            return (lhs,)
        if lhs_constant is None or rhs_constant is None:
            return None
        folded = fold_elementwise(
            lambda a, b, t: _compare(predicate, a, b, t), [lhs_constant, rhs_constant], result_type
        )
        return None if folded is None else (folded,)


class CmpiConstantToRight(RewritePattern):
    """``cmpi slt, %c, %x`` is ``cmpi sgt, %x, %c``: upstream's in-place fold
    that moves a constant to the right."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        lhs, rhs = op.operands
        if _is_constant(lhs) and not _is_constant(rhs):
            op.operands = [rhs, lhs]
            op.properties["predicate"] = IntegerAttr(_MIRRORED[_predicate(op)], 64)
            rewriter.notify_op_modified(op)


class CmpiOfExtensions(RewritePattern):
    """``CmpIExtSI``/``CmpIExtUI``: ``eq``/``ne`` of two like extensions of
    values of one type compares the values."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if _predicate(op) not in (EQ, NE):
            return
        lhs, rhs = (defining_op(value) for value in op.operands)
        for kind in (xarith.ExtSIOp, xarith.ExtUIOp):
            if (
                isinstance(lhs, kind)
                and isinstance(rhs, kind)
                and lhs.operands[0].type == rhs.operands[0].type
            ):
                rewriter.replace(op, type(op)(lhs.operands[0], rhs.operands[0], _predicate(op)))
                return


def _is_constant(value: SSAValue) -> bool:
    owner = defining_op(value)
    return owner is not None and owner.has_trait(ConstantLike)


def _constant(value: SSAValue) -> Attribute | None:
    return ConstantLike.get_constant_value(value)


class SelectFolds(HasFolder):
    """``arith.select``'s folds, in upstream's order."""

    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        condition, true_value, false_value = op.operands
        if true_value == false_value:
            return (true_value,)
        condition_constant = _constant(condition)
        if int_or_splat(condition_constant) == 1:
            return (true_value,)
        if int_or_splat(condition_constant) == 0:
            return (false_value,)
        true_constant, false_constant = _constant(true_value), _constant(false_value)
        if (
            op.results[0].type == i1
            and int_or_splat(true_constant) == 1
            and int_or_splat(false_constant) == 0
        ):
            return (condition,)
        cmp = defining_op(condition)
        if isinstance(cmp, xarith.CmpiOp) and _predicate(cmp) in (EQ, NE):
            if set(cmp.operands) == {true_value, false_value}:  # the branches differ
                return (true_value if _predicate(cmp) == NE else false_value,)
        folded = _select_elementwise(op, [condition_constant, true_constant, false_constant])
        return None if folded is None else (folded,)


def _select_elementwise(op: Operation, constants: list[Attribute | None]) -> Attribute | None:
    """``select %cst_vec, %cst0, %cst1``: the branches' elements picked (dense only)."""
    if not all(isinstance(c, DenseIntOrFPElementsAttr) for c in constants):
        return None
    return fold_elementwise(lambda c, a, b, t: a if c else b, constants, op.results[0].type)


class RedundantSelect(RewritePattern):
    """``select(p, select(p, a, b), c)`` is ``select(p, a, c)``, and
    ``select(p, a, select(p, b, c))`` is ``select(p, a, c)``
    (``RedundantSelectFalse`` tried first, as upstream lists it)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        condition, true_value, false_value = op.operands
        inner_false, inner_true = defining_op(false_value), defining_op(true_value)
        if isinstance(inner_false, xarith.SelectOp) and inner_false.operands[0] == condition:
            rewriter.replace(op, _select(op, condition, true_value, inner_false.operands[2]))
        elif isinstance(inner_true, xarith.SelectOp) and inner_true.operands[0] == condition:
            rewriter.replace(op, _select(op, condition, inner_true.operands[1], false_value))


def _select(like: Operation, condition: SSAValue, a: SSAValue, b: SSAValue) -> Operation:
    return type(like).create(operands=[condition, a, b], result_types=[like.results[0].type])


class SelectNotCond(RewritePattern):
    """``select(xori(p, -1), a, b)`` is ``select(p, b, a)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        condition, true_value, false_value = op.operands
        xor = defining_op(condition)
        if not isinstance(xor, xarith.XOrIOp):
            return
        ones = _constant(xor.operands[1])
        if not isinstance(ones, IntegerAttr):  # upstream's APIntAttr: a scalar
            return
        if int_or_splat(ones) == (1 << width(ones.type)) - 1:
            rewriter.replace(op, _select(op, xor.operands[0], false_value, true_value))


class SelectI1ToNot(RewritePattern):
    """``select(p, false, true)`` on ``i1`` is ``xori(p, true)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        _, true_value, false_value = op.operands
        true_constant, false_constant = _constant(true_value), _constant(false_value)
        if not (isinstance(true_constant, IntegerAttr) and isinstance(false_constant, IntegerAttr)):
            return
        if true_constant.type != i1 or false_constant.type != i1:
            return
        if int_or_splat(true_constant) == 0 and int_or_splat(false_constant) == 1:
            one = xarith.ConstantOp(IntegerAttr(1, i1))
            rewriter.replace(op, [one, xarith.XOrIOp(op.operands[0], one)])


class SelectToExtUI(RewritePattern):
    """``select(p, 1, 0)`` is ``extui(p)``, ``select(p, 0, 1)`` is
    ``extui(xori(p, true))``, for integer results wider than ``i1``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        condition, true_value, false_value = op.operands
        type_ = op.results[0].type
        if not isinstance(type_, IntegerType) or type_ == i1:
            return
        values = (int_or_splat(_constant(true_value)), int_or_splat(_constant(false_value)))
        if values == (1, 0):
            rewriter.replace(op, ExtUIOp(condition, type_))
        elif values == (0, 1):
            one = xarith.ConstantOp(IntegerAttr(1, i1))
            xor = xarith.XOrIOp(condition, one)
            rewriter.replace(op, [one, xor, ExtUIOp(xor, type_)])


# the min/max a select of a comparison's operands, in order, computes
_MIN_MAX: dict[int, type[Operation]] = {
    2: xarith.MinSIOp, 3: xarith.MinSIOp, 4: xarith.MaxSIOp, 5: xarith.MaxSIOp,
    6: xarith.MinUIOp, 7: xarith.MinUIOp, 8: xarith.MaxUIOp, 9: xarith.MaxUIOp,
}  # fmt: skip
_SWAPPED: dict[type[Operation], type[Operation]] = {
    xarith.MinSIOp: xarith.MaxSIOp, xarith.MaxSIOp: xarith.MinSIOp,
    xarith.MinUIOp: xarith.MaxUIOp, xarith.MaxUIOp: xarith.MinUIOp,
}  # fmt: skip


class SelectToMinMax(RewritePattern):
    """``select(cmpi slt a, b; a, b)`` is ``minsi(a, b)``, with the branches
    swapped ``maxsi(a, b)``; likewise for the other ordering predicates."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        condition, true_value, false_value = op.operands
        cmp = defining_op(condition)
        if not isinstance(cmp, xarith.CmpiOp) or (kind := _MIN_MAX.get(_predicate(cmp))) is None:
            return
        lhs, rhs = cmp.operands
        if (true_value, false_value) == (rhs, lhs):
            kind = _SWAPPED[kind]
        elif (true_value, false_value) != (lhs, rhs):
            return
        rewriter.replace(op, kind(lhs, rhs))  # type: ignore[call-arg]


class IntegerBinaryConstantProp(RewritePattern):
    """xDSL's ``SignlessIntegerBinaryOperationConstantProp`` with upstream's
    move of a constant to the right of a commutative op done in place, as
    upstream's ``foldCommutative`` does: xDSL's builds a new op with its own
    default overflow attribute, of xDSL's class rather than mlkit's, which
    then fails to verify, and drops the op's flags."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, xarith.SignlessIntegerBinaryOperation):
            return
        lhs, rhs = (const_evaluate_operand(v) for v in (op.lhs, op.rhs))
        if lhs is None:
            return
        if rhs is None:
            if op.has_trait(Commutative):
                op.operands = (op.rhs, op.lhs)
                rewriter.handle_operation_modification(op)
            return
        folded = op.py_operation(lhs, rhs)
        if folded is None:
            return
        rewriter.replace_op(
            op, xarith.ConstantOp.from_int_and_width(folded, op.result.type, truncate_bits=True)
        )


# xDSL's patterns and the instances that stand in for them (``canonicalize``)
REPLACED_PATTERNS: dict[type[RewritePattern], RewritePattern] = {
    SignlessIntegerBinaryOperationConstantProp: IntegerBinaryConstantProp(),
}


class _Patterns(HasCanonicalizationPatternsTrait):
    PATTERNS: ClassVar[tuple[type[RewritePattern], ...]] = ()

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return tuple(pattern() for pattern in cls.PATTERNS)


class CmpiPatterns(_Patterns):
    PATTERNS: ClassVar[tuple[type[RewritePattern], ...]] = (CmpiConstantToRight, CmpiOfExtensions)


class SelectPatterns(_Patterns):
    PATTERNS: ClassVar[tuple[type[RewritePattern], ...]] = (
        RedundantSelect, SelectNotCond, SelectI1ToNot, SelectToExtUI, SelectToMinMax,
    )  # fmt: skip


CMPI_FOLDS, CMPI_PATTERNS = CmpiFolds(), CmpiPatterns()
SELECT_FOLDS, SELECT_PATTERNS = SelectFolds(), SelectPatterns()
