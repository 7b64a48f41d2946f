"""``arith-expand``: arith ops that have no direct LLVM lowering, in simpler
arith ops, as upstream's ``ArithExpandOpsPass``.

- ``ceildivui``: ``a == 0 ? 0 : (a - 1) / b + 1``;
- ``ceildivsi``: ``q = a / b``, plus one where ``q * b != a`` and ``a``, ``b``
  have the same sign;
- ``floordivsi``: ``q = a / b``, minus one where ``q * b != a`` and the signs differ;
- with ``include-bf16``: ``extf`` from bf16 to f32 (the bits shifted into the
  high half) and ``truncf`` from f32 to bf16 (round to nearest even, NaN to
  the quiet NaN 0x7fc0).

Each expansion is upstream's op for op, in its order, so the output is the
same IR. Upstream's ``include-f8e8m0`` and ``include-f4e2m1`` expansions are
not implemented.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, DenseIntOrFPElementsAttr, Float32Type, IntegerAttr
from xdsl.dialects.builtin import IntegerType, ShapedType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.type import get_element_type_or_self

from mlkit.dialects import arith
from mlkit.dialects.arith import element_like
from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns
from mlkit.pipeline.options import option


_NO_OVERFLOW = arith.IntegerOverflowAttr("none")


class _Builder:
    """Inserts ops before ``op``, in order, as upstream's rewriter does."""

    def __init__(self, rewriter: PatternRewriter) -> None:
        self.rewriter = rewriter

    def __call__(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op)
        return op.results[0]

    def const(self, type_: Attribute, value: int) -> SSAValue:
        """Upstream's ``createConst``: an integer, or a splat of one."""
        if isinstance(type_, ShapedType):
            attr: Attribute = DenseIntOrFPElementsAttr.from_list(type_, [value])  # pyright: ignore[reportArgumentType]
        else:
            attr = IntegerAttr(value, type_)  # pyright: ignore[reportArgumentType]
        return self(arith.ConstantOp(attr, type_))  # pyright: ignore[reportArgumentType]


def _ceildivui(b: _Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    zero = b.const(x.type, 0)
    compare = b(arith.CmpiOp(x, zero, "eq"))
    one = b.const(x.type, 1)
    minus_one = b(arith.SubiOp(x, one, overflow=_NO_OVERFLOW))
    quotient = b(arith.DivUIOp(minus_one, y))
    plus_one = b(arith.AddiOp(quotient, one, overflow=_NO_OVERFLOW))
    return b(arith.SelectOp(compare, zero, plus_one))


def _ceildivsi(b: _Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    zero = b.const(x.type, 0)
    one = b.const(x.type, 1)
    quotient = b(arith.DivSIOp(x, y))
    product = b(arith.MuliOp(quotient, y, overflow=_NO_OVERFLOW))
    inexact = b(arith.CmpiOp(x, product, "ne"))
    x_negative = b(arith.CmpiOp(x, zero, "slt"))
    y_negative = b(arith.CmpiOp(y, zero, "slt"))
    same_sign = b(arith.CmpiOp(x_negative, y_negative, "eq"))
    condition = b(arith.AndIOp(inexact, same_sign))
    plus_one = b(arith.AddiOp(quotient, one, overflow=_NO_OVERFLOW))
    return b(arith.SelectOp(condition, plus_one, quotient))


def _floordivsi(b: _Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    quotient = b(arith.DivSIOp(x, y))
    product = b(arith.MuliOp(quotient, y, overflow=_NO_OVERFLOW))
    inexact = b(arith.CmpiOp(x, product, "ne"))
    zero = b.const(x.type, 0)
    x_negative = b(arith.CmpiOp(x, zero, "slt"))
    y_negative = b(arith.CmpiOp(y, zero, "slt"))
    signs_differ = b(arith.CmpiOp(x_negative, y_negative, "ne"))
    condition = b(arith.AndIOp(inexact, signs_differ))
    minus_one = b.const(x.type, -1)
    minus = b(arith.AddiOp(quotient, minus_one, overflow=_NO_OVERFLOW))
    return b(arith.SelectOp(condition, minus, quotient))


def _bf16_extf(b: _Builder, x: SSAValue, result: Attribute) -> SSAValue:
    i16, i32 = element_like(x.type, IntegerType(16)), element_like(x.type, IntegerType(32))
    bits = b(arith.BitcastOp(x, i16))
    wide = b(arith.ExtUIOp(bits, i32))  # pyright: ignore[reportArgumentType]
    shifted = b(arith.ShLIOp(wide, b.const(i32, 16), overflow=_NO_OVERFLOW))
    return b(arith.BitcastOp(shifted, result))


def _bf16_truncf(b: _Builder, x: SSAValue, result: Attribute) -> SSAValue:
    i16, i32 = element_like(x.type, IntegerType(16)), element_like(x.type, IntegerType(32))
    is_nan = b(arith.CmpfOp(x, x, "une"))
    c7fff = b.const(i32, 0x7FFF)
    c7fc0 = b.const(i16, 0x7FC0)
    c16 = b.const(i32, 16)
    c1 = b.const(i32, 1)
    bits = b(arith.BitcastOp(x, i32))
    high = b(arith.ShRUIOp(bits, c16))
    odd = b(arith.AndIOp(high, c1))
    bias = b(arith.AddiOp(odd, c7fff, overflow=_NO_OVERFLOW))
    rounded = b(arith.AddiOp(bits, bias, overflow=_NO_OVERFLOW))
    shifted = b(arith.ShRUIOp(rounded, c16))
    narrow = b(arith.TruncIOp(shifted, i16))  # pyright: ignore[reportArgumentType]
    chosen = b(arith.SelectOp(is_nan, c7fc0, narrow))
    return b(arith.BitcastOp(chosen, result))


_DIVISIONS: dict[str, Callable[[_Builder, SSAValue, SSAValue], SSAValue]] = {
    "arith.ceildivui": _ceildivui,
    "arith.ceildivsi": _ceildivsi,
    "arith.floordivsi": _floordivsi,
}


@dataclass
class ExpandPattern(RewritePattern):
    """Every expansion of the module doc, the bf16 ones if ``bf16``."""

    bf16: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        b = _Builder(rewriter)
        if op.name in _DIVISIONS:
            rewriter.replace(op, [], [_DIVISIONS[op.name](b, op.operands[0], op.operands[1])])
            return
        if not self.bf16 or op.name not in ("arith.extf", "arith.truncf") or op.attributes:
            return
        if set(op.properties) - {"fastmath"}:  # a rounding mode: not upstream's expansion
            return
        source, result = get_element_type_or_self(op.operands[0].type), get_element_type_or_self(op.results[0].type)
        if op.name == "arith.extf" and isinstance(source, BFloat16Type) and isinstance(result, Float32Type):
            rewriter.replace(op, [], [_bf16_extf(b, op.operands[0], op.results[0].type)])
        elif op.name == "arith.truncf" and isinstance(source, Float32Type) and isinstance(result, BFloat16Type):
            rewriter.replace(op, [], [_bf16_truncf(b, op.operands[0], op.results[0].type)])


@dataclass(frozen=True)
class ArithExpandOps(ModulePass):
    """Legalize Arith ops to be convertible to LLVM."""

    name = "arith-expand"

    include_bf16: bool = option(False, "Enable the BF16 expansion patterns")

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        apply_conversion_patterns(op, [ExpandPattern(bf16=self.include_bf16)])
