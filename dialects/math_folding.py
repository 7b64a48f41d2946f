"""Upstream's folders of the ``math`` ops (``MathOps.cpp``), so ``canonicalize``
folds a math op of constants to a constant as ``mlir-opt`` does.

The rules are upstream's:
- operands are scalar constants or dense constants (splat or not) of one
  type; an element the rule refuses leaves the whole op unfolded;
- the libm functions (``sin``, ``exp``, ``powf``, ``round``, ``trunc``, ...)
  fold only ``f32`` (through the C library's ``sinf``) and ``f64`` (``sin``):
  upstream calls the host's libm, and so does this, through ``ctypes``, so the
  last bit and the sign of a NaN are the ones ``mlir-opt`` gets on this host;
- ``log``/``log2``/``log10``/``sqrt``/``rsqrt`` leave a negative operand
  (``-0.0`` and a negative NaN included) unfolded, ``log1p`` one below ``-1``;
- ``ceil``/``floor``/``roundeven`` (IEEE rounding to integral) and ``absf``/
  ``copysign`` fold every float type; ``round`` rounds halves away from zero,
  ``roundeven`` to even;
- ``ctlz``/``cttz``/``ctpop``/``absi``/``ipowi`` fold integers of any width
  (``index`` is 64 bits), ``ipowi`` not ``i1`` and not ``0`` to a negative
  power; ``fpowi`` folds f32 and f64 by square-and-multiply in the base's
  type, as upstream's newest folder does (not by calling ``pow``);
- the classification ops (``isnan``, ...) fold a scalar or a splat only.

xDSL's math ops have no folders; :data:`FOLDS_CONSTANTS` is the trait that
adds them (see :mod:`mlkit.dialects.math`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from collections.abc import Callable, Sequence
from functools import cache

from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import AnyFloat, BFloat16Type, DenseIntOrFPElementsAttr, FloatAttr
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, Float80Type
from xdsl.dialects.builtin import Float128Type
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import HasFolder

from mlkit.dialects.constant_folding import Constant, Rule, bool_attr, element_type
from mlkit.dialects.constant_folding import fold_elementwise, is_splat, operand_constants
from mlkit.dialects.constant_folding import signed, width

__all__ = ["FOLDED", "FOLDS_CONSTANTS", "FoldsConstants", "MathConstantMaterialization"]

Type = Attribute

# the smallest normal number of each float type (for ``isnormal``)
_MIN_NORMAL: dict[type, float] = {
    Float16Type: 2.0**-14, BFloat16Type: 2.0**-126, Float32Type: 2.0**-126,
    Float64Type: 2.0**-1022, Float80Type: 2.0**-16382, Float128Type: 2.0**-16382,
}  # fmt: skip


# -- the host's libm -----------------------------------------------------------


@cache
def _libm() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("m")
    try:
        return ctypes.CDLL(name)  # None: the symbols the process has
    except OSError:
        return None


@cache
def _c_function(name: str, arity: int, single: bool) -> Callable[..., float] | None:
    library = _libm()
    function = getattr(library, name, None) if library is not None else None
    if function is None:
        return None
    c_type = ctypes.c_float if single else ctypes.c_double
    function.argtypes = [c_type] * arity
    function.restype = c_type
    return function


def libm(name: str, type_: Type, arity: int = 1) -> Callable[..., float] | None:
    """The libm function upstream calls for ``type_``: ``namef`` for ``f32``,
    ``name`` for ``f64``; None for other types (upstream folds only these two)."""
    if isinstance(type_, Float64Type):
        return _c_function(name, arity, False)
    if isinstance(type_, Float32Type):
        return _c_function(f"{name}f", arity, True)
    return None


# -- element rules -------------------------------------------------------------


def _negative(x: float) -> bool:
    """APFloat's ``isNegative``: the sign bit, also of ``-0.0`` and a NaN."""
    return math.copysign(1.0, x) < 0


def _calls(name: str, refuse: Callable[[float], bool] | None = None) -> Rule:
    """``name`` from libm on f32/f64, unless ``refuse`` says no for the operand."""

    def rule(x: float, type_: Type) -> float | None:
        function = libm(name, type_)
        if function is None or (refuse is not None and refuse(x)):
            return None
        return function(x)

    return rule


def _rsqrt(x: float, type_: Type) -> float | None:
    """``1 / sqrt(x)``, the division in the type's precision (double's is
    enough for f32: its rounding then rounds as f32 would)."""
    sqrt = libm("sqrt", type_)
    if sqrt is None or _negative(x):
        return None
    return _reciprocal(sqrt(x))


def _log1p(x: float, type_: Type) -> float | None:
    if _negative(x + 1.0):  # the sum's sign is the same in f32
        return None
    return _calls("log1p")(x, type_)


def _atan2(y: float, x: float, type_: Type) -> float | None:
    if y == 0 and x == 0:  # upstream's NaN, on any float type
        return math.nan
    atan2 = libm("atan2", type_, 2)
    return None if atan2 is None else atan2(y, x)


def _powf(x: float, y: float, type_: Type) -> float | None:
    pow_ = libm("pow", type_, 2)
    return None if pow_ is None else pow_(x, y)


def _to_integral(round_: Callable[[float], int]) -> Rule:
    """APFloat's ``roundToIntegral``: any float type (the integer is one the
    type holds); the result keeps the operand's sign (``ceil(-0.5)`` is
    ``-0.0``), infinities and NaNs stay."""

    def rule(x: float, type_: Type) -> float | None:
        if not math.isfinite(x):
            return x
        return math.copysign(float(round_(x)), x)

    return rule


def _absi(x: int, type_: Type) -> int:
    bits = width(type_)
    return abs(signed(x, bits)) & ((1 << bits) - 1)


def _ctlz(x: int, type_: Type) -> int:
    return width(type_) - x.bit_length()


def _cttz(x: int, type_: Type) -> int:
    return (x & -x).bit_length() - 1 if x else width(type_)


def _ctpop(x: int, type_: Type) -> int:
    return bin(x).count("1")


def _ipowi(base: int, power: int, type_: Type) -> int | None:
    bits = width(type_)
    mask = (1 << bits) - 1
    if bits == 1:  # ambiguous with signed semantics: upstream leaves it
        return None
    if power == 0:
        return 1
    if signed(power, bits) < 0:
        if base == 0:  # 0 to a negative power
            return None
        if base == 1:
            return 1
        if base != mask:  # |base| > 1
            return 0
        return mask if power & 1 else 1  # base -1
    return pow(base, power, 1 << bits) & mask


def _fpowi(exponent_type: Type) -> Rule:
    """``base ** n`` by square-and-multiply in the base's type (f32 or f64),
    ``1 / result`` for a negative ``n``: the multiplications ``powi``'s
    expansion makes, which upstream's folder repeats."""
    bits = width(exponent_type)

    def rule(base: float, exponent: int, type_: Type) -> float | None:
        if not isinstance(type_, Float32Type | Float64Type):
            return None
        rounded = _to_f32 if isinstance(type_, Float32Type) else float
        power = signed(exponent, bits)
        result, square, n = 1.0, base, abs(power)
        while n:
            if n & 1:
                result = rounded(result * square)
            n >>= 1
            if n:
                square = rounded(square * square)
        return rounded(_reciprocal(result)) if power < 0 else result

    return rule


def _to_f32(x: float) -> float:
    """``x`` rounded to f32 (to infinity past its range); double products and
    quotients of f32 values round to the f32 IEEE arithmetic would give."""
    return ctypes.c_float(x).value


def _reciprocal(x: float) -> float:
    return math.copysign(math.inf, x) if x == 0 else 1.0 / x


UNARY: dict[str, Rule] = {
    "math.absf": lambda x, t: math.fabs(x),
    "math.absi": _absi,
    "math.ceil": _to_integral(math.ceil),
    "math.floor": _to_integral(math.floor),
    "math.roundeven": _to_integral(round),  # Python rounds halves to even
    "math.ctlz": _ctlz,
    "math.cttz": _cttz,
    "math.ctpop": _ctpop,
    "math.rsqrt": _rsqrt,
    "math.log1p": _log1p,
    **{f"math.{name}": _calls(name, _negative) for name in ("log", "log2", "log10", "sqrt")},
    **{
        f"math.{name}": _calls(name)
        for name in (
            "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cos", "cosh", "erf",
            "erfc", "exp", "exp2", "expm1", "round", "sin", "sinh", "tan", "tanh", "trunc",
        )
    },
}  # fmt: skip

BINARY: dict[str, Rule] = {
    "math.atan2": _atan2,
    "math.copysign": lambda x, y, t: math.copysign(x, y),
    "math.powf": _powf,
    "math.ipowi": _ipowi,
}


def _isnormal(x: float, type_: Type) -> bool | None:
    smallest = _MIN_NORMAL.get(type(type_))
    return None if smallest is None else math.isfinite(x) and abs(x) >= smallest


CLASSIFY: dict[str, Callable[[float, Type], bool | None]] = {
    "math.isnan": lambda x, t: math.isnan(x),
    "math.isinf": lambda x, t: math.isinf(x),
    "math.isfinite": lambda x, t: math.isfinite(x),
    "math.isnormal": _isnormal,
}


def _fold_classification(op: Operation, operand: Attribute) -> Attribute | None:
    """``isnan`` and its kin: a scalar or a splat only, as upstream."""
    value: bool | None = None
    if isinstance(operand, FloatAttr):
        value = CLASSIFY[op.name](operand.value.data, operand.type)
    elif isinstance(operand, DenseIntOrFPElementsAttr) and is_splat(operand):
        element = operand.get_element_type()
        if isinstance(element, AnyFloat):
            value = CLASSIFY[op.name](operand.get_values()[0], element)  # type: ignore[arg-type]
    return None if value is None else bool_attr(op.results[0].type, value)


def fold_math(op: Operation, operands: Sequence[Attribute]) -> Sequence[Attribute] | None:
    """The constants ``op`` folds to, given its operands' constants."""
    result_type = op.results[0].type
    folded: Attribute | None = None
    if op.name in UNARY or op.name in BINARY:
        folded = fold_elementwise({**UNARY, **BINARY}[op.name], operands, result_type)
    elif op.name == "math.fpowi":
        rule = _fpowi(element_type(operands[1])) if isinstance(operands[1], Constant) else None
        folded = None if rule is None else fold_elementwise(rule, operands, result_type)
    elif op.name in CLASSIFY:
        folded = _fold_classification(op, operands[0])
    elif op.name == "math.sincos":
        sin = fold_elementwise(_calls("sin"), operands, result_type)
        cos = fold_elementwise(_calls("cos"), operands, result_type)
        return None if sin is None or cos is None else (sin, cos)
    return None if folded is None else (folded,)


FOLDED = frozenset({*UNARY, *BINARY, *CLASSIFY, "math.fpowi", "math.sincos"})
"""The ops upstream folds (all but ``fma`` and ``clampf``)."""


class FoldsConstants(HasFolder):
    """Upstream's ``fold`` of a math op: constants in, constants out."""

    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        operands = operand_constants(op)
        if any(a is None for a in operands):
            return None
        return fold_math(op, operands)  # type: ignore[arg-type]


FOLDS_CONSTANTS = FoldsConstants()


class MathConstantMaterialization(ConstantMaterializationInterface):
    """Upstream's ``MathDialect::materializeConstant``: an ``arith.constant``."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        if not isinstance(value, Constant):
            return None
        return ConstantOp(value, type)
