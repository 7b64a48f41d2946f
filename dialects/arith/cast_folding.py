"""Upstream's folders and canonicalization patterns of ``arith.extui`` and
``arith.extsi`` (``ArithOps.cpp``, ``ArithCanonicalization.td``), which xDSL's
casts lack:

- a constant operand folds (zero- or sign-extended, scalar or dense);
- ``extui(extui(x))`` and ``extsi(extsi(x))`` read ``x`` directly, in place,
  as upstream's folders do;
- ``extsi(extui(x))`` is ``extui(x)``: the sign bit of a zero extension is 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith as xarith
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, HasFolder

from mlkit.dialects.constant_folding import fold_elementwise, operand_constants, signed, width

__all__ = ["EXT_FOLDS", "EXT_PATTERNS"]


def defining_op(value: SSAValue) -> Operation | None:
    return value.owner if isinstance(value, OpResult) else None


def _sext(value: int, type_: Attribute) -> int:
    return signed(value, width(type_))  # the builder masks it to the result's width


class ExtFolds(HasFolder):
    """The constant folds of ``extui`` (zero-extension) and ``extsi`` (sign-)."""

    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        (operand,) = operand_constants(op)
        extend = _sext if isinstance(op, xarith.ExtSIOp) else (lambda value, type_: value)
        folded = fold_elementwise(extend, [operand], op.results[0].type)
        return None if folded is None else (folded,)


class ExtOfExt(RewritePattern):
    """``ext(ext(x))`` of one kind: the outer op reads ``x`` (upstream's
    in-place fold)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inner = defining_op(op.operands[0])
        if inner is not None and type(inner) is type(op):
            op.operands = [inner.operands[0]]
            rewriter.notify_op_modified(op)


class ExtSIOfExtUI(RewritePattern):
    """``extsi(extui(x))`` is ``extui(x)`` to the wider type."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inner = defining_op(op.operands[0])
        if isinstance(op, xarith.ExtSIOp) and isinstance(inner, xarith.ExtUIOp):
            rewriter.replace(op, type(inner)(inner.operands[0], op.results[0].type))


class ExtPatterns(HasCanonicalizationPatternsTrait):
    """``ExtOfExt`` for both casts, then ``ExtSIOfExtUI`` for ``extsi``."""

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (ExtOfExt(), ExtSIOfExtUI())


EXT_FOLDS = ExtFolds()
EXT_PATTERNS = ExtPatterns()
