"""``convert-math-to-llvm``: math ops that LLVM has an intrinsic for, as
upstream's MathToLLVM lowers them.

One intrinsic per op for absf, absi, ceil, copysign, cos, cosh, sin, sinh,
tan, tanh, acos, asin, atan, atan2, ctlz, cttz, ctpop, exp, exp2, log, log2,
log10, powf, fpowi, fma, floor, round, roundeven, sqrt and trunc (``ctlz``,
``cttz`` and ``abs`` with their poison flag false); ``rsqrt`` becomes
``1 / sqrt(x)``, ``expm1`` ``exp(x) - 1`` and, with ``approximate-log1p``
(the default), ``log1p`` ``log(1 + x)``. Fastmath flags and discardable
attributes carry over. n-D vectors are unrolled into their 1-D vectors.

``isnan`` and ``isfinite`` become ``llvm.intr.is.fpclass`` (classes 3 and 504)
and ``sincos`` ``llvm.intr.sincos`` with its two results extracted.

Left alone, as upstream leaves them: ops without an intrinsic (erf, erfc,
cbrt, asinh, acosh, atanh, ipowi, clampf, isinf, isnormal), and ``fpowi`` on
vectors (upstream creates an invalid ``llvm.intr.powi`` for those). Left alone
unlike upstream: ``sincos`` on n-D vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mlkit.dialects import llvm
from mlkit.dialects.llvm import intr_ext as ext
from mlkit.passes.conversion.llvm_common.type_converter import (
    ConversionState,
    ConvertToLLVMPattern,
    LLVMTypeConverter,
)
from mlkit.passes.conversion.vector_to_llvm_nd import (
    is_llvm_scalar_or_1d,
    llvm_fastmath,
    run_conversion,
    splat_constant,
    unroll_nd,
)
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

# math op name -> LLVM intrinsic class taking the same operands
_ONE_TO_ONE: dict[str, type[Operation]] = {
    "math.absf": llvm.FAbsOp, "math.ceil": llvm.CeilOp, "math.copysign": llvm.CopySignOp,
    "math.cos": llvm.CosOp, "math.sin": llvm.SinOp, "math.tan": llvm.TanOp,
    "math.cosh": ext.CoshOp, "math.sinh": ext.SinhOp, "math.tanh": ext.TanhOp,
    "math.acos": ext.ACosOp, "math.asin": ext.ASinOp, "math.atan": ext.ATanOp,
    "math.atan2": ext.ATan2Op, "math.ctpop": ext.CtPopOp, "math.exp": llvm.ExpOp,
    "math.exp2": llvm.Exp2Op, "math.log": llvm.LogOp, "math.log2": llvm.Log2Op,
    "math.log10": llvm.Log10Op, "math.powf": llvm.PowOp, "math.fpowi": ext.PowIOp,
    "math.fma": llvm.FMAOp, "math.floor": llvm.FloorOp, "math.round": llvm.RoundOp,
    "math.roundeven": llvm.RoundEvenOp, "math.sqrt": llvm.SqrtOp, "math.trunc": llvm.FTruncOp,
}  # type: ignore[attr-defined]  # fmt: skip

# math op name -> LLVM intrinsic with an i1 poison flag, which the lowering sets false
_WITH_FLAG: dict[str, type[Operation]] = {
    "math.ctlz": ext.CountLeadingZerosOp,
    "math.cttz": ext.CountTrailingZerosOp,
    "math.absi": ext.AbsOp,
}

Expansion = Callable[[Attribute, Sequence[SSAValue], dict[str, Attribute]], list[Operation]]


def _with(op: Operation, attrs: dict[str, Attribute]) -> Operation:
    """``op`` given the source op's converted fastmath and discardable attributes."""
    for name, value in attrs.items():
        if name == "fastmathFlags":
            if "fastmathFlags" in type(op).get_irdl_definition().properties:  # type: ignore[attr-defined]
                op.properties[name] = value
        else:
            op.attributes[name] = value
    return op


def _expm1(type: Attribute, operands: Sequence[SSAValue], attrs: dict[str, Attribute]) -> list[Operation]:
    one = splat_constant(1.0, type)
    exp = _with(llvm.ExpOp(operands[0]), attrs)
    sub = _with(llvm.FSubOp(exp.results[0], one.results[0]), attrs)
    return [one, exp, sub]


def _log1p(type: Attribute, operands: Sequence[SSAValue], attrs: dict[str, Attribute]) -> list[Operation]:
    one = splat_constant(1.0, type)
    add = _with(llvm.FAddOp(one.results[0], operands[0]), attrs)
    log = _with(llvm.LogOp(add.results[0]), attrs)
    return [one, add, log]


def _rsqrt(type: Attribute, operands: Sequence[SSAValue], attrs: dict[str, Attribute]) -> list[Operation]:
    one = splat_constant(1.0, type)
    sqrt = _with(llvm.SqrtOp(operands[0]), attrs)
    div = _with(llvm.FDivOp(one.results[0], sqrt.results[0]), attrs)
    return [one, sqrt, div]


def _fpclass(bit: int) -> Expansion:
    """``llvm.intr.is.fpclass`` with the class mask ``bit``; ``type`` is the i1 result."""
    return lambda type, operands, attrs: [ext.IsFPClassOp(operands[0], bit, type)]


_EXPANSIONS: dict[str, Expansion] = {
    "math.expm1": _expm1,
    "math.log1p": _log1p,
    "math.rsqrt": _rsqrt,
    "math.isnan": _fpclass(3),
    "math.isfinite": _fpclass(504),
}


@dataclass
class MathToLLVMPattern(ConvertToLLVMPattern):
    """Lowers every math op that has an LLVM intrinsic (see the module doc)."""

    approximate_log1p: bool = True
    handled: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        names = {*_ONE_TO_ONE, *_WITH_FLAG, *_EXPANSIONS}
        if not self.approximate_log1p:
            names.discard("math.log1p")
        self.handled = frozenset(names)

    def _build(self, op: Operation) -> Expansion:
        name = op.name
        if name in _EXPANSIONS:
            return _EXPANSIONS[name]
        if name in _WITH_FLAG:
            flag_op = _WITH_FLAG[name]
            return lambda type, operands, attrs: [_with(flag_op(operands[0], False), attrs)]  # type: ignore[call-arg]
        one_to_one = _ONE_TO_ONE[name]
        return lambda type, operands, attrs: [_with(one_to_one(*operands), attrs)]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name == "math.sincos" and is_llvm_scalar_or_1d(op.operands[0].type):
            attrs: dict[str, Attribute] = dict(op.attributes)
            if "fastmath" in op.properties:
                attrs["fastmathFlags"] = llvm_fastmath(op.properties["fastmath"])
            both = _with(ext.SincosOp(op.operands[0]), attrs)
            sin, cos = (llvm.ExtractValueOp(both.results[0], [i]) for i in (0, 1))
            rewriter.replace(op, [both, sin, cos], [sin.results[0], cos.results[0]])
            return
        if op.name not in self.handled:
            return
        if op.name == "math.fpowi" and isinstance(op.operands[1].type, VectorType):
            return
        if "roundingmode" in op.properties:
            # upstream's llvm.intr.experimental.constrained.fma, which mlkit's llvm
            # dialect lacks: left unconverted rather than rounded to nearest
            return
        attrs: dict[str, Attribute] = dict(op.attributes)
        if "fastmath" in op.properties:
            attrs["fastmathFlags"] = llvm_fastmath(op.properties["fastmath"])
        build = self._build(op)
        result_type = op.results[0].type
        if all(is_llvm_scalar_or_1d(v.type) for v in op.operands):
            rewriter.replace(op, build(result_type, op.operands, attrs))
            return
        array_type = self.convert(result_type)
        operands = self.operands(rewriter, op)
        if array_type is None or operands is None:
            return
        if is_llvm_scalar_or_1d(array_type):  # ``index``, converted to an integer
            ops = build(array_type, operands, attrs)
            self.replace(rewriter, op, ops, [ops[-1].results[0]])
            return
        ops, value = unroll_nd(array_type, operands, lambda t, vs: build(t, vs, attrs))
        self.replace(rewriter, op, ops, [value])


def math_to_llvm_patterns(
    converter: LLVMTypeConverter | None = None,
    state: ConversionState | None = None,
    approximate_log1p: bool = True,
) -> list[RewritePattern]:
    """The patterns of this conversion, for ``convert-to-llvm`` to include."""
    return [
        MathToLLVMPattern(
            converter=converter or LLVMTypeConverter(),
            state=state or ConversionState(),
            approximate_log1p=approximate_log1p,
        )
    ]


@dataclass(frozen=True)
class ConvertMathToLLVMPass(ModulePass):
    """Convert Math dialect to LLVM dialect"""

    name = "convert-math-to-llvm"

    approximate_log1p: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        state = ConversionState()
        patterns = math_to_llvm_patterns(LLVMTypeConverter(), state, self.approximate_log1p)
        run_conversion(op, patterns, state)
