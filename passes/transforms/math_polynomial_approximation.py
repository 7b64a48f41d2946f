"""``test-math-polynomial-approximation``: math functions on f32 as
polynomial and rational approximations in arith and math.fma ops, as
upstream's PolynomialApproximation patterns build them.

A transcendental op lowered to libm costs one call per vector lane; these
approximations are straight-line arith code, so a vector op stays one vector
computation. Approximated, with upstream's algorithms and constants (so the
numbers are upstream's): ``tanh``, ``exp``, ``expm1``, ``log``, ``log2``,
``log1p``, ``erf``, ``sin``, ``cos``, ``atan``, ``atan2``, ``asin``,
``acos`` and ``cbrt``, on ``f32`` scalars and vectors (fixed or scalable, any
rank). ``f16``, ``bf16`` and other narrower floats are extended to ``f32``
and the result truncated back, except for ``asin`` and ``acos``, which
upstream approximates in ``f16`` itself (and leaves alone in ``bf16``).

Left alone, as upstream leaves them: ``f64`` and wider, tensors, every other
math op, and ``rsqrt``. Upstream approximates ``rsqrt`` only with
``enable-avx2``, through ``x86vector.avx.rsqrt``; mlkit has no x86vector
dialect, so that option is accepted and does nothing. ``erfc`` is upstream's
too, but xDSL's math dialect has no ``math.erfc``.

What upstream's approximations compute at the edges, and so these do:
``exp`` flushes results below 2^-126 to zero; ``log``/``log2``/``log1p``
treat inputs below 2^-126 as 2^-126; ``sin``/``cos`` reduce their argument
by a single f32 multiple of pi/2, so lose accuracy as |x| grows;
``atan2(0, 0)`` is NaN and ``atan2(+-0, x<0)`` is +pi.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import math
from xdsl.dialects.builtin import AnyFloat, Float16Type, Float32Type, VectorType, f32, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from mlkit.dialects.arith.casts import ExtFOp, TruncFOp
from mlkit.passes.transforms.approximation_builder import ShapedBuilder, element_type
from mlkit.passes.transforms.rewrite_driver import rewrite_regions

LN2 = 0.693147180559945309417232121458176568075500134360255254120680009493393621
LOG2E = 1.442695040888963407359924681001892137426645954152985934135449406931109219
PI = 3.14159265358979323846264338327950288
TWO_OVER_PI = 0.6366197723675813430755350534900574481378385829618257949906693762
PI_OVER_2 = 1.5707963267948966192313216916397514420985846996875529104874722961


def _approximable(op: Operation, elements: tuple[type[Attribute], ...] = (Float32Type,)) -> bool:
    """All of ``op``'s operands and its result are one scalar or vector type
    whose element is one of ``elements``."""
    type_ = op.results[0].type
    if any(operand.type != type_ for operand in op.operands):
        return False
    return isinstance(element_type(type_), elements)


class _Approximation(RewritePattern):
    """Rewrites ops named ``OP`` whose type suits :meth:`matches` into the
    value :meth:`build` computes."""

    OP: str  # a class constant, or set per instance by variants

    def matches(self, op: Operation) -> bool:
        return _approximable(op)

    def build(self, b: ShapedBuilder, *operands: SSAValue) -> SSAValue:
        raise NotImplementedError

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != self.OP or not self.matches(op):
            return
        b = ShapedBuilder(rewriter, op, op.results[0].type)
        result = self.build(b, *op.operands)
        rewriter.replace(op, [], [result])


class ReuseF32Expansion(RewritePattern):
    """An op on a float narrower than f32 (``f16``, ``bf16``, ...) as the f32
    op between ``arith.extf`` and ``arith.truncf``, for the f32 patterns."""

    def __init__(self, op_names: frozenset[str]) -> None:
        self.op_names = op_names

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in self.op_names or len(op.results) != 1:
            return
        type_ = op.results[0].type
        element = element_type(type_)
        if any(operand.type != type_ for operand in op.operands):
            return
        if not isinstance(element, AnyFloat) or element.bitwidth >= 32:
            return
        wide = (
            VectorType(f32, type_.get_shape(), type_.scalable_dims)
            if isinstance(type_, VectorType)
            else f32
        )
        extended = [ExtFOp(operand, wide) for operand in op.operands]
        wide_op = type(op).create(
            operands=[e.result for e in extended],
            result_types=[wide],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        truncated = TruncFOp(wide_op.results[0], type_)
        rewriter.insert([*extended, wide_op], InsertPoint.before(op))
        rewriter.replace(op, truncated)


# -- trigonometric functions ------------------------------------------------------


class AtanApproximation(_Approximation):
    """atan(x) from Cephes' rational approximation on [0, 0.66] and the
    reductions atan(x) = pi/4 + atan((x-1)/(x+1)) and pi/2 - atan(1/x)."""

    OP = "math.atan"

    def build(self, b: ShapedBuilder, operand: SSAValue) -> SSAValue:  # type: ignore[override]
        one = b.cst(1.0)
        abs_x = b.abs(operand)
        middle = b.cmpf("ogt", abs_x, b.cst(0.66))
        numerator = b.select(middle, b.sub(abs_x, one), abs_x)
        denominator = b.select(middle, b.add(abs_x, one), one)
        large = b.cmpf("ogt", abs_x, b.cst(2.41421356237309504880))
        numerator = b.select(large, one, numerator)
        denominator = b.select(large, abs_x, denominator)
        x = b.div(numerator, denominator)
        xx = b.mul(x, x)

        p = [-8.750608600031904122785e-01, -1.615753718733365076637e01,
             -7.500855792314704667340e01, -1.228866684490136173410e02,
             -6.485021904942025371773e01]  # fmt: skip
        q = [2.485846490142306297962e01, 1.650270098316988542046e02,
             4.328810604912902668951e02, 4.853903996359136964868e02,
             1.945506571482613964425e02]  # fmt: skip
        n = b.cst(p[0])
        for c in p[1:]:
            n = b.fma(xx, n, b.cst(c))
        n = b.mul(n, xx)
        d = b.cst(q[0])
        for c in q[1:]:
            d = b.fma(xx, d, b.cst(c))

        theta = b.fma(b.div(n, d), x, x)
        result = b.select(middle, b.add(b.cst(PI / 4), theta), theta)
        result = b.select(large, b.sub(b.cst(PI / 2), theta), result)
        return b.copysign(result, operand)


class Atan2Approximation(_Approximation):
    """atan2(y, x) from atan(y / x), turned by pi into the right quadrant,
    with x == 0 decided by the sign of y."""

    OP = "math.atan2"

    def build(self, b: ShapedBuilder, y: SSAValue, x: SSAValue) -> SSAValue:  # type: ignore[override]
        atan = b.unary(math.AtanOp, b.div(y, x))
        zero = b.cst(0.0)
        pi = b.cst(3.14159265359)
        add_pi = b.add(atan, pi)
        sub_pi = b.sub(atan, pi)
        flipped = b.select(b.cmpf("ogt", atan, zero), sub_pi, add_pi)
        result = b.select(b.cmpf("ogt", x, zero), atan, flipped)

        x_zero = b.cmpf("oeq", x, zero)
        up = b.andi(x_zero, b.cmpf("ogt", y, zero))
        result = b.select(up, b.cst(1.57079632679), result)
        down = b.andi(x_zero, b.cmpf("olt", y, zero))
        result = b.select(down, b.cst(-1.57079632679), result)
        origin = b.andi(x_zero, b.cmpf("oeq", y, zero))
        return b.select(origin, b.f32_bits(0x7FC00000), result)


class AsinApproximation(_Approximation):
    """asin(x) by an odd polynomial on [0, sqrt(1/2)] and, above it,
    asin(x) = pi/2 - asin(sqrt(1 - x^2)); in f32 or f16."""

    OP = "math.asin"

    def matches(self, op: Operation) -> bool:
        return _approximable(op, (Float32Type, Float16Type))

    def build(self, b: ShapedBuilder, operand: SSAValue) -> SSAValue:  # type: ignore[override]
        abs_x = b.abs(operand)
        square = b.mul(operand, operand)
        opposite = b.sqrt(b.sub(b.cst(1.0), square))
        above = b.cmpf("ogt", square, b.cst(0.5))
        x = b.select(above, opposite, abs_x)

        s = b.mul(x, x)
        q = b.mul(s, s)
        r = b.cst(5.5579749017470502e-2)
        t = b.cst(-6.2027913464120114e-2)
        for rc, tc in (
            (5.4224464349245036e-2, -1.1326992890324464e-2),
            (1.5268872539397656e-2, 1.0493798473372081e-2),
            (1.4106045900607047e-2, 1.7339776384962050e-2),
            (2.2372961589651054e-2, 3.0381912707941005e-2),
            (4.4642857881094775e-2, 7.4999999991367292e-2),
        ):
            r = b.fma(r, q, b.cst(rc))
            t = b.fma(t, q, b.cst(tc))
        r = b.fma(r, s, t)
        r = b.fma(r, s, b.cst(1.6666666666670193e-1))
        r = b.fma(r, b.mul(x, s), x)

        r = b.select(above, b.sub(b.cst(1.57079632679), r), r)
        return b.copysign(r, operand)


class AcosApproximation(_Approximation):
    """acos(x) through asin: pi/2 + asin(-|x|) near zero, 2 asin(sqrt((1 -
    |x|) / 2)) away from it, reflected for negative x; in f32 or f16."""

    OP = "math.acos"

    def matches(self, op: Operation) -> bool:
        return _approximable(op, (Float32Type, Float16Type))

    def build(self, b: ShapedBuilder, operand: SSAValue) -> SSAValue:  # type: ignore[override]
        negated = b.neg(operand)
        zero = b.cst(0.0)
        half = b.cst(0.5)
        r = b.select(b.cmpf("ogt", operand, zero), negated, operand)
        near_zero = b.cmpf("ogt", r, b.cst(-0.5625))
        half_pi_factor = b.cst(1.6839188885261840e00)
        if_near = b.fma(b.cst(9.3282184640716537e-1), half_pi_factor, b.unary(math.AsinOp, r))
        if_far = b.unary(math.AsinOp, b.sqrt(b.fma(half, r, half)))
        if_far = b.mul(b.cst(2.0), if_far)
        r = b.select(near_zero, if_near, if_far)

        negative = b.andi(
            b.cmpf("oge", operand, b.cst(-1.0)), b.cmpf("olt", operand, zero)
        )
        reflected = b.fma(b.cst(1.8656436928143307e00), half_pi_factor, b.neg(r))
        return b.select(negative, reflected, r)


class SinCosApproximation(_Approximation):
    """sin(x) or cos(x) from minimax polynomials of sin and cos on [0, pi/2],
    after reducing x by k * pi/2; k mod 4 picks the polynomial and sign."""

    def __init__(self, sine: bool) -> None:
        self.sine = sine
        self.OP = "math.sin" if sine else "math.cos"

    def build(self, b: ShapedBuilder, x: SSAValue) -> SSAValue:  # type: ignore[override]
        k = b.floor(b.mul(x, b.cst(TWO_OVER_PI)))
        y = b.sub(x, b.mul(k, b.cst(PI_OVER_2)))
        one = b.cst(1.0)
        minus_one = b.cst(-1.0)
        sin_c = [-0.16666667163372039794921875, 8.333347737789154052734375e-3,
                 -1.9842604524455964565277099609375e-4,
                 2.760012648650445044040679931640625e-6,
                 -2.50293279435709337121807038784027099609375e-8]  # fmt: skip
        cos_c = [-0.5, 4.166664183139801025390625e-2,
                 -1.388833043165504932403564453125e-3,
                 2.47562347794882953166961669921875e-5,
                 -2.59630184018533327616751194000244140625e-7]  # fmt: skip
        sin_cst = [b.cst(c) for c in sin_c]
        cos_cst = [b.cst(c) for c in cos_c]

        quadrant = b.andi(b.fptosi(k), b.icst(3))
        is_q = [b.cmpi("eq", quadrant, b.icst(i)) for i in range(4)]
        if self.sine:
            use_cos = b.ori(is_q[1], is_q[3])
            negative = b.cmpi("sgt", quadrant, b.icst(1))
        else:
            use_cos = b.ori(is_q[0], is_q[2])
            negative = b.ori(is_q[1], is_q[2])

        y2 = b.mul(y, y)
        base = b.select(use_cos, one, y)
        c = [b.select(use_cos, cc, sc) for cc, sc in zip(cos_cst, sin_cst)]
        v = b.fma(y2, c[4], c[3])
        v = b.fma(y2, v, c[2])
        v = b.fma(y2, v, c[1])
        v = b.fma(y2, v, c[0])
        v = b.fma(y2, v, one)
        v = b.mul(base, v)
        return b.select(negative, b.mul(minus_one, v), v)


# -- exponentials and logarithms ---------------------------------------------------


class ExpApproximation(_Approximation):
    """e^x = e^a * 2^n with n = round(x / ln 2): Cephes' polynomial for e^a,
    2^n built in the exponent bits; n clamped to [-127, 127]."""

    OP = "math.exp"

    def build(self, b: ShapedBuilder, x: SSAValue) -> SSAValue:  # type: ignore[override]
        half = b.cst(0.5)
        one = b.cst(1.0)
        x = b.select_cmp("ule", b.select_cmp("uge", x, b.cst(-87.8)), b.cst(88.8))
        n = b.floor(b.fma(x, b.cst(1.44269504088896341), half))
        n = b.select_cmp("ule", b.select_cmp("uge", n, b.cst(-127.0)), b.cst(127.0))
        a = b.fma(b.cst(-0.693359375), n, x)
        a = b.fma(b.cst(2.12194440e-4), n, a)

        z = b.fma(a, b.cst(1.9875691500e-4), b.cst(1.3981999507e-3))
        for c in (8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1):
            z = b.fma(z, a, b.cst(c))
        z = b.fma(z, b.mul(a, a), a)
        z = b.add(one, z)
        return b.mul(z, b.exp2_i32(b.fptosi(n)))


class ExpM1Approximation(_Approximation):
    """expm1(x) = (u - 1) * x / log(u) with u = e^x (Kahan's trick), exact
    near 0 and at the limits -1 and +inf."""

    OP = "math.expm1"

    def build(self, b: ShapedBuilder, x: SSAValue) -> SSAValue:  # type: ignore[override]
        one = b.cst(1.0)
        minus_one = b.cst(-1.0)
        u = b.unary(math.ExpOp, x)
        u_is_one_or_nan = b.cmpf("ueq", u, one)
        u_minus_one = b.sub(u, one)
        is_minus_one = b.cmpf("oeq", u_minus_one, minus_one)
        log_u = b.unary(math.LogOp, u)
        is_inf = b.cmpf("oeq", log_u, u)
        result = b.mul(u_minus_one, b.div(x, log_u))
        result = b.select(is_inf, u, result)
        result = b.select(is_minus_one, minus_one, result)
        return b.select(u_is_one_or_nan, x, result)


class LogApproximation(_Approximation):
    """log(x) or log2(x) from Cephes/Pommier: x = m * 2^e with m in
    [sqrt(1/2), sqrt(2)), a degree-8 polynomial for log(m), and 0, negative
    and +inf inputs answered as IEEE does."""

    def __init__(self, base2: bool) -> None:
        self.base2 = base2
        self.OP = "math.log2" if base2 else "math.log"

    def build(self, b: ShapedBuilder, operand: SSAValue) -> SSAValue:  # type: ignore[override]
        zero = b.cst(0.0)
        one = b.cst(1.0)
        minus_half = b.cst(-0.5)
        min_normal = b.f32_bits(0x00800000)
        minus_inf = b.f32_bits(0xFF800000)
        plus_inf = b.f32_bits(0x7F800000)
        nan = b.f32_bits(0x7FC00000)
        sqrt_half = b.cst(0.707106781186547524)
        p = [b.cst(c) for c in (
            7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
            1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
            3.3333331174e-1,
        )]  # fmt: skip

        x, e = b.frexp(b.max(operand, min_normal), positive=True)
        below = b.cmpf("olt", x, sqrt_half)
        tmp = b.select(below, x, zero)
        x = b.sub(x, one)
        e = b.sub(e, b.select(below, one, zero))
        x = b.add(x, tmp)

        x2 = b.mul(x, x)
        x3 = b.mul(x2, x)
        y0 = b.fma(p[0], x, p[1])
        y1 = b.fma(p[3], x, p[4])
        y2 = b.fma(p[6], x, p[7])
        y0 = b.fma(y0, x, p[2])
        y1 = b.fma(y1, x, p[5])
        y2 = b.fma(y2, x, p[8])
        y0 = b.fma(y0, x3, y1)
        y0 = b.fma(y0, x3, y2)
        y0 = b.mul(y0, x3)
        y0 = b.fma(minus_half, x2, y0)
        x = b.add(x, y0)
        if self.base2:
            x = b.fma(x, b.cst(LOG2E), e)
        else:
            x = b.fma(e, b.cst(LN2), x)

        invalid = b.cmpf("ult", operand, zero)
        is_zero = b.cmpf("oeq", operand, zero)
        is_inf = b.cmpf("oeq", operand, plus_inf)
        result = b.select(is_inf, plus_inf, x)
        result = b.select(invalid, nan, result)
        return b.select(is_zero, minus_inf, result)


class Log1pApproximation(_Approximation):
    """log1p(x) = x * log(u) / (u - 1) with u = 1 + x (Kahan's trick), x
    itself where u rounds to 1 or is +inf."""

    OP = "math.log1p"

    def build(self, b: ShapedBuilder, x: SSAValue) -> SSAValue:  # type: ignore[override]
        one = b.cst(1.0)
        u = b.add(x, one)
        u_is_one = b.cmpf("oeq", u, one)
        log_u = b.unary(math.LogOp, u)
        u_is_inf = b.cmpf("oeq", u, log_u)
        large = b.mul(x, b.div(log_u, b.sub(u, one)))
        return b.select(b.ori(u_is_one, u_is_inf), x, large)


# -- tanh, erf, cbrt -------------------------------------------------------------------


class TanhApproximation(_Approximation):
    """tanh(x) as an odd/even rational function of x clamped to
    [-7.9988, 7.9988]; x itself where |x| < 0.0004."""

    OP = "math.tanh"

    def build(self, b: ShapedBuilder, operand: SSAValue) -> SSAValue:  # type: ignore[override]
        bound = 7.99881172180175781
        x = b.clamp(operand, b.cst(-bound), b.cst(bound))
        tiny = b.cmpf("olt", b.abs(operand), b.cst(0.0004))
        alpha = [b.cst(c) for c in (
            4.89352455891786e-03, 6.37261928875436e-04, 1.48572235717979e-05,
            5.12229709037114e-08, -8.60467152213735e-11, 2.00018790482477e-13,
            -2.76076847742355e-16,
        )]  # fmt: skip
        beta = [b.cst(c) for c in (
            4.89352518554385e-03, 2.26843463243900e-03, 1.18534705686654e-04,
            1.19825839466702e-06,
        )]  # fmt: skip
        x2 = b.mul(x, x)
        p = b.mul(x, b.polynomial(alpha, x2))
        q = b.polynomial(beta, x2)
        return b.select(tiny, x, b.div(p, q))


# erf on [0, 0.8), [0.8, 2) and [2, 3.75): offset + P(x) / Q(x), degree 4 each
_ERF_P = (
    (0.0, 1.12837916222975858, -5.23018562988006470e-01, 2.09741709609267072e-01,
     2.58146801602987875e-02),
    (0.0, 1.12750687816789140, -3.64721408487825775e-01, 1.18407396425136952e-01,
     3.70645533056476558e-02),
    (-3.30093071049483172e-03, 3.51961938357697011e-03, -1.41373622814988039e-03,
     2.53447094961941348e-04, -1.71048029455037401e-05),
)  # fmt: skip
_ERF_Q = (
    (1.0, -4.635138185962547255e-01, 5.192301327279782447e-01, -1.318089722204810087e-01,
     7.397964654672315005e-02),
    (1.0, -3.27607011824493086e-01, 4.48369090658821977e-01, -8.83462621207857930e-02,
     5.72442770283176093e-02),
    (1.0, -2.06069165953913769, 1.62705939945477759, -5.83389859211130017e-01,
     8.21908939856640930e-02),
)  # fmt: skip
_ERF_OFFSETS = (0.0, 0.0, 1.0)
_ERF_BOUNDS = (0.8, 2.0, 3.75)


class ErfApproximation(_Approximation):
    """erf(x) as offset + P(|x|) / Q(|x|) with coefficients picked per
    interval (Remez minimax, error ~2.5e-7), 1 beyond 3.75, odd in x."""

    OP = "math.erf"

    def matches(self, op: Operation) -> bool:
        return _approximable(op, (Float32Type, Float16Type))

    def build(self, b: ShapedBuilder, operand: SSAValue) -> SSAValue:  # type: ignore[override]
        zero = b.cst(0.0)
        one = b.cst(1.0)
        pp = [[b.cst(c) for c in row] for row in _ERF_P]
        qq = [[b.cst(c) for c in row] for row in _ERF_Q]
        offsets = [b.cst(c) for c in _ERF_OFFSETS]
        bounds = [b.cst(c) for c in _ERF_BOUNDS]

        negative = b.cmpf("olt", operand, zero)
        x = b.select(negative, b.neg(operand), operand)
        p, q, offset = list(pp[0]), list(qq[0]), offsets[0]
        for j in range(len(bounds) - 1):
            below = b.cmpf("olt", x, bounds[j])
            for i in range(len(p)):
                p[i] = b.select(below, p[i], pp[j + 1][i])
                q[i] = b.select(below, q[i], qq[j + 1][i])
            offset = b.select(below, offset, offsets[j + 1])
        in_range = b.cmpf("ult", x, bounds[-1])

        ratio = b.div(b.polynomial(p, x), b.polynomial(q, x))
        result = b.select(in_range, b.add(offset, ratio), one)
        return b.select(negative, b.neg(result), result)


class CbrtApproximation(_Approximation):
    """cbrt(x): an initial guess from the exponent bits (Hacker's Delight)
    refined by two Newton steps; sign restored, zero kept."""

    OP = "math.cbrt"

    def build(self, b: ShapedBuilder, operand: SSAValue) -> SSAValue:  # type: ignore[override]
        two_i, four_i, eight_i = b.icst(2), b.icst(4), b.icst(8)
        magic = b.icst(0x2A5137A0)
        third, two, zero = b.cst(0.33333333), b.cst(2.0), b.cst(0.0)

        abs_x = b.abs(operand)
        bits = b.bitcast(abs_x, i32)
        bits = b.addi(b.shrsi(bits, two_i), b.shrsi(bits, four_i))
        bits = b.addi(bits, b.shrsi(bits, four_i))
        bits = b.addi(bits, b.shrsi(bits, eight_i))
        bits = b.addi(bits, magic)
        value = b.bitcast(bits, f32)
        for _ in range(2):
            square = b.mul(value, value)
            doubled = b.mul(value, two)
            value = b.mul(b.add(doubled, b.div(abs_x, square)), third)

        value = b.select(b.cmpf("oeq", abs_x, zero), zero, value)
        return b.copysign(value, operand)


APPROXIMATIONS: tuple[type[_Approximation], ...] = (
    AcosApproximation, AsinApproximation, AtanApproximation, Atan2Approximation,
    CbrtApproximation, ErfApproximation, ExpApproximation, ExpM1Approximation,
    Log1pApproximation, TanhApproximation,
)  # fmt: skip

# ops computed in f32 when given a narrower float (upstream's list; asin and
# acos are not on it: they have an f16 approximation of their own)
F32_EXPANDED: frozenset[str] = frozenset({
    "math.atan", "math.atan2", "math.tanh", "math.log", "math.log2", "math.log1p",
    "math.erf", "math.exp", "math.expm1", "math.cbrt", "math.sin", "math.cos",
})  # fmt: skip


def polynomial_approximation_patterns() -> list[RewritePattern]:
    """The patterns of this pass, for other passes to include. The f32
    expansion comes first, so an f16 ``erf`` is computed in f32, as upstream's
    pattern order has it."""
    variants = [SinCosApproximation(sine=True), SinCosApproximation(sine=False), LogApproximation(base2=False), LogApproximation(base2=True)]
    return [ReuseF32Expansion(F32_EXPANDED), *(cls() for cls in APPROXIMATIONS), *variants]


@dataclass(frozen=True)
class MathPolynomialApproximation(ModulePass):
    """Approximate math functions with polynomials built from arith ops"""

    name = "test-math-polynomial-approximation"
    display_name: ClassVar[str] = "TestMathPolynomialApproximationPass"

    enable_avx2: bool = field(
        default=False,
        metadata={
            "help": "Enable approximations that emit AVX2 intrinsics via the X86Vector "
            "dialect (accepted; mlkit has no x86vector dialect, so rsqrt stays)"
        },
    )

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        rewrite_regions(op, GreedyRewritePatternApplier(polynomial_approximation_patterns()))
