"""Building arith/math ops of one shape, for the polynomial approximations
of :mod:`mlkit.passes.transforms.math_polynomial_approximation`.

An approximation is written once for scalars and vectors: a
:class:`ShapedBuilder` knows the shape of the value being approximated (none
for a scalar, a possibly scalable vector shape otherwise) and gives every
constant and cast that shape. It inserts what it builds before the op being
rewritten, its constants ahead of the rest, and does the few folds upstream's
greedy driver would do on the freshly built ops, so the output reads like
upstream's: equal constants are one value, ``select %c, %a, %a`` is ``%a``,
and commutative ops take their constant operand on the right.
"""

from __future__ import annotations

import struct

import numpy as np
from xdsl.dialects import arith as xarith
from xdsl.dialects import math
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, Float16Type, FloatAttr
from xdsl.dialects.builtin import IntegerAttr, IntegerType, VectorType, f32, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from mlkit.dialects import arith
from mlkit.dialects.arith.casts import FPToSIOp, SIToFPOp

_NO_OVERFLOW = arith.IntegerOverflowAttr("none")


def element_type(type_: Attribute) -> Attribute:
    """The element type of a vector, or the type itself."""
    return type_.element_type if isinstance(type_, VectorType) else type_


def round_to(value: float, element: Attribute) -> float:
    """``value`` as a constant of ``element`` holds it: rounded to f32 first
    (upstream's builders take a C++ ``float``), then to f16 for f16."""
    single = float(np.float32(value))
    return float(np.float16(single)) if isinstance(element, Float16Type) else single


class ShapedBuilder:
    """Builds ops before ``anchor``; constants and casts take the shape of
    ``like`` (a float type or a vector of one)."""

    def __init__(self, rewriter: PatternRewriter, anchor: Operation, like: Attribute) -> None:
        self.rewriter = rewriter
        self.anchor = anchor
        self.vector = like if isinstance(like, VectorType) else None
        self.float_type = element_type(like)
        self._constants: dict[tuple[Attribute, int], SSAValue] = {}
        self._constant_values: set[SSAValue] = set()
        self._first: Operation | None = None

    # -- types and insertion ----------------------------------------------------

    def shaped(self, element: Attribute) -> Attribute:
        """``element`` in this builder's shape."""
        if self.vector is None:
            return element
        return VectorType(element, self.vector.get_shape(), self.vector.scalable_dims)

    def insert(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, InsertPoint.before(self.anchor))
        if self._first is None:
            self._first = op
        return op.results[0]

    # -- constants ----------------------------------------------------------------

    def _constant(self, attr: Attribute, key: tuple[Attribute, int]) -> SSAValue:
        if key not in self._constants:
            # constants go before everything else this builder built
            op = xarith.ConstantOp(attr)
            self.rewriter.insert(op, InsertPoint.before(self._first or self.anchor))
            value = op.result
            self._constants[key] = value
            self._constant_values.add(value)
        return self._constants[key]

    def icst(self, value: int, element: IntegerType = i32) -> SSAValue:
        """A (splat) integer constant; ``value`` wraps to ``element``'s signed range."""
        half = 1 << (element.width.data - 1)
        value = (value + half) % (2 * half) - half
        if self.vector is None:
            attr: Attribute = IntegerAttr(value, element)
        else:
            attr = DenseIntOrFPElementsAttr.from_list(self.shaped(element), [value])  # type: ignore[arg-type]
        return self._constant(attr, (element, value))

    def cst(self, value: float, element: Attribute | None = None) -> SSAValue:
        """A (splat) float constant of ``element`` (the builder's float type by default)."""
        element = self.float_type if element is None else element
        assert isinstance(element, AnyFloat)
        value = round_to(value, element)
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        key = (element, bits)
        if key in self._constants:
            return self._constants[key]
        if self.vector is None:
            return self._constant(FloatAttr(value, element), key)
        if not np.isfinite(value) and element == f32:
            # xDSL prints a NaN splat element by element (invalid for a
            # scalable vector) and mlkit's parser reads `dense<0x7F800000>`
            # as an integer value, so a non-finite vector constant is built
            # as upstream writes it unfolded: an i32 splat bitcast to f32.
            pattern = struct.unpack("<i", struct.pack("<f", value))[0]
            result = self.bitcast(self.icst(pattern), f32)
            self._constants[key] = result
            return result
        attr = DenseIntOrFPElementsAttr.from_list(self.shaped(element), [value])  # type: ignore[arg-type]
        return self._constant(attr, key)

    def f32_bits(self, bits: int) -> SSAValue:
        """The f32 constant whose bit pattern is ``bits``."""
        return self.cst(struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0], f32)

    # -- float arithmetic -----------------------------------------------------------

    def _commuted(self, lhs: SSAValue, rhs: SSAValue) -> tuple[SSAValue, SSAValue]:
        if lhs in self._constant_values and rhs not in self._constant_values:
            return rhs, lhs
        return lhs, rhs

    def add(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(xarith.AddfOp(*self._commuted(lhs, rhs)))

    def sub(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(xarith.SubfOp(lhs, rhs))

    def mul(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(xarith.MulfOp(*self._commuted(lhs, rhs)))

    def div(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(xarith.DivfOp(lhs, rhs))

    def neg(self, value: SSAValue) -> SSAValue:
        return self.insert(xarith.NegfOp(value))

    def fma(self, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        """``a * b + c``, rounded once."""
        return self.insert(math.FmaOp(a, b, c))

    def abs(self, value: SSAValue) -> SSAValue:
        return self.insert(math.AbsFOp(value))

    def floor(self, value: SSAValue) -> SSAValue:
        return self.insert(math.FloorOp(value))

    def sqrt(self, value: SSAValue) -> SSAValue:
        return self.insert(math.SqrtOp(value))

    def copysign(self, magnitude: SSAValue, sign: SSAValue) -> SSAValue:
        return self.insert(math.CopySignOp(magnitude, sign))

    def unary(self, op_type: type[Operation], value: SSAValue) -> SSAValue:
        """A math op (``math.exp``, ``math.log``, ...) that the walker
        approximates in turn."""
        return self.insert(op_type(value))  # type: ignore[call-arg]

    def polynomial(self, coefficients: list[SSAValue], x: SSAValue) -> SSAValue:
        """``sum(c[i] * x**i)`` by Horner's rule in fmas."""
        if not coefficients:
            return self.cst(0.0)
        result = coefficients[-1]
        for coefficient in reversed(coefficients[:-1]):
            result = self.fma(x, result, coefficient)
        return result

    # -- comparisons and selection --------------------------------------------------

    def cmpf(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.CmpfOp(lhs, rhs, predicate))

    def cmpi(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.CmpiOp(lhs, rhs, predicate))

    def select(self, condition: SSAValue, if_true: SSAValue, if_false: SSAValue) -> SSAValue:
        if if_true is if_false:
            return if_true
        return self.insert(arith.SelectOp(condition, if_true, if_false))

    def select_cmp(self, predicate: str, value: SSAValue, bound: SSAValue) -> SSAValue:
        """``value`` where ``value <predicate> bound`` holds, else ``bound``."""
        return self.select(self.cmpf(predicate, value, bound), value, bound)

    def min(self, value: SSAValue, bound: SSAValue) -> SSAValue:
        """The smaller of the two, NaN where ``value`` is NaN."""
        return self.select_cmp("ult", value, bound)

    def max(self, value: SSAValue, bound: SSAValue) -> SSAValue:
        """The larger of the two, NaN where ``value`` is NaN."""
        return self.select_cmp("ugt", value, bound)

    def clamp(self, value: SSAValue, lower: SSAValue, upper: SSAValue) -> SSAValue:
        return self.max(self.min(value, upper), lower)

    # -- integer and bit operations -------------------------------------------------

    def andi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(xarith.AndIOp(*self._commuted(lhs, rhs)))

    def ori(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(xarith.OrIOp(*self._commuted(lhs, rhs)))

    def addi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.AddiOp(*self._commuted(lhs, rhs), overflow=_NO_OVERFLOW))

    def shli(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.ShLIOp(lhs, rhs, overflow=_NO_OVERFLOW))

    def shrui(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.ShRUIOp(lhs, rhs))

    def shrsi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.ShRSIOp(lhs, rhs))

    def bitcast(self, value: SSAValue, element: Attribute) -> SSAValue:
        """``value``'s bits as ``element`` (same width), in this shape."""
        return self.insert(xarith.BitcastOp(value, self.shaped(element)))

    def sitofp(self, value: SSAValue) -> SSAValue:
        return self.insert(SIToFPOp(value, self.shaped(f32)))  # type: ignore[arg-type]

    def fptosi(self, value: SSAValue) -> SSAValue:
        return self.insert(FPToSIOp(value, self.shaped(i32)))  # type: ignore[arg-type]

    # -- f32 building blocks --------------------------------------------------------

    def frexp(self, value: SSAValue, positive: bool = False) -> tuple[SSAValue, SSAValue]:
        """``value`` as a fraction in [0.5, 1) and a power of two (as f32), as
        ``std::frexp``; ``positive`` when ``value`` is known to be positive."""
        bits = self.bitcast(value, i32)
        fraction_bits = self.ori(self.andi(bits, self.icst(~0x7F800000)), self.icst(0x3F000000))
        fraction = self.bitcast(fraction_bits, f32)
        magnitude = value if positive else self.abs(value)
        biased = self.shrui(self.bitcast(magnitude, i32), self.icst(23))
        exponent = self.sub(self.sitofp(biased), self.cst(126.0))
        return fraction, exponent

    def exp2_i32(self, value: SSAValue) -> SSAValue:
        """``2 ** value`` for an i32 ``value`` in [-127, 127] (0 for -127)."""
        biased = self.addi(value, self.icst(127))
        return self.bitcast(self.shli(biased, self.icst(23)), f32)
