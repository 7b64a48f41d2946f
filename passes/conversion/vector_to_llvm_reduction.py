"""``vector.reduction`` to LLVM's ``vector.reduce.*`` intrinsics, as
upstream's VectorReductionOpConversion lowers it.

Float ``add``/``mul`` take the accumulator (or 0.0/1.0) as the ordered start
value and carry the op's fastmath flags, plus ``reassoc`` under
``reassociate-fp-reductions``. The other kinds reduce the vector alone and
then combine the accumulator: ``llvm.add``/``mul``/``and``/``or``/``xor``,
``icmp`` + ``select`` for integer min/max, ``minnum``/``maxnum``/``minimum``/
``maximum`` for float min/max.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlkit.dialects import llvm
from mlkit.dialects.llvm.attrs import FASTMATH_FLAGS, ICMP_PREDICATES
from mlkit.dialects.llvm.intr_ext import REDUCTION_CLASSES
from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern
from mlkit.passes.conversion.vector_to_llvm_nd import llvm_fastmath
from xdsl.dialects import vector
from xdsl.dialects.builtin import AnyFloat, FloatAttr, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

# integer kind -> (reduce intrinsic, accumulator combination: op class or icmp predicate)
_INT_KINDS: dict[str, tuple[str, type[Operation] | str]] = {
    "add": ("add", llvm.AddOp), "mul": ("mul", llvm.MulOp), "and": ("and", llvm.AndOp),
    "or": ("or", llvm.OrOp), "xor": ("xor", llvm.XOrOp), "minsi": ("smin", "sle"),
    "maxsi": ("smax", "sge"), "minui": ("umin", "ule"), "maxui": ("umax", "uge"),
}  # fmt: skip
# float min/max kind -> (reduce intrinsic, binary intrinsic combining the accumulator)
_FLOAT_MINMAX: dict[str, tuple[str, type[Operation]]] = {
    "minnumf": ("fmin", llvm.MinNumOp), "maxnumf": ("fmax", llvm.MaxNumOp),  # type: ignore[attr-defined]
    "minimumf": ("fminimum", llvm.MinimumOp), "maximumf": ("fmaximum", llvm.MaximumOp),  # type: ignore[attr-defined]
}  # fmt: skip
_FLOAT_ORDERED = {"add": ("fadd", 0.0), "mul": ("fmul", 1.0)}


@dataclass
class ReductionLowering(ConvertToLLVMPattern):
    reassociate_fp_reductions: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ReductionOp, rewriter: PatternRewriter) -> None:
        src_type = op.vector.type
        if not isinstance(src_type, VectorType) or src_type.get_num_dims() != 1:
            return
        operands = self.operands(rewriter, op)
        if operands is None or not isinstance(operands[0].type, VectorType):
            return
        vec, acc = operands[0], (operands[1] if len(operands) > 1 else None)
        kind = str(op.kind.data.value)
        element = operands[0].type.element_type
        ops: list[Operation] = []
        if isinstance(element, AnyFloat):
            value = reduce_float(kind, self._fastmath(op), vec, acc, element, ops)
        else:
            value = reduce_int(kind, vec, acc, ops)
        if value is None:
            return
        self.replace(rewriter, op, ops, [value])

    def _fastmath(self, op: vector.ReductionOp) -> llvm.FastMathAttr:
        flags = llvm_fastmath(op.fastmath).flag_set
        if self.reassociate_fp_reductions:
            flags |= {"reassoc"}
        return llvm.FastMathAttr([f for f in FASTMATH_FLAGS if f in flags])


def combine(kind: str, acc: SSAValue, value: SSAValue, ops: list[Operation]) -> SSAValue | None:
    """``acc`` and ``value`` (scalars or 1-D vectors alike) combined by ``kind``."""
    if isinstance(_element(acc.type), AnyFloat):
        if kind in _FLOAT_ORDERED:
            op: Operation = (llvm.FAddOp if kind == "add" else llvm.FMulOp)(acc, value)
        elif kind in _FLOAT_MINMAX:
            op = _FLOAT_MINMAX[kind][1](value, acc)  # type: ignore[call-arg]
        else:
            return None
        ops.append(op)
        return op.results[0]
    if kind not in _INT_KINDS:
        return None
    how = _INT_KINDS[kind][1]
    if isinstance(how, str):
        cmp = llvm.ICmpOp(ICMP_PREDICATES[how], acc, value)
        select = llvm.SelectOp(cmp.results[0], acc, value)
        ops += [cmp, select]
        return select.results[0]
    combined = how(acc, value)  # type: ignore[call-arg]
    ops.append(combined)
    return combined.results[0]


def _element(type: Attribute) -> Attribute:
    return type.element_type if isinstance(type, VectorType) else type


def reduce_float(kind: str, fastmath: llvm.FastMathAttr, vec: SSAValue, acc: SSAValue | None,
                 element: AnyFloat, ops: list[Operation]) -> SSAValue | None:
    """A float vector reduced by ``kind`` into ``acc`` (ordered for add/mul)."""
    if kind in _FLOAT_ORDERED:
        name, neutral = _FLOAT_ORDERED[kind]
        if acc is None:
            const = llvm.ConstantOp(FloatAttr(neutral, element), element)
            ops.append(const)
            acc = const.results[0]
        reduce = REDUCTION_CLASSES[name](acc, vec, fastmath)  # type: ignore[call-arg]
        ops.append(reduce)
        return reduce.results[0]
    if kind not in _FLOAT_MINMAX:
        return None
    reduce = REDUCTION_CLASSES[_FLOAT_MINMAX[kind][0]](vec, fastmathFlags=fastmath)  # type: ignore[call-arg]
    ops.append(reduce)
    if acc is None:
        return reduce.results[0]
    return combine(kind, acc, reduce.results[0], ops)


def reduce_int(kind: str, vec: SSAValue, acc: SSAValue | None,
               ops: list[Operation]) -> SSAValue | None:
    """An integer vector reduced by ``kind``, then combined with ``acc``."""
    if kind not in _INT_KINDS:
        return None
    reduce = REDUCTION_CLASSES[_INT_KINDS[kind][0]](vec)  # type: ignore[call-arg]
    ops.append(reduce)
    if acc is None:
        return reduce.results[0]
    return combine(kind, acc, reduce.results[0], ops)
