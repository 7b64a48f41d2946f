"""Reading and writing ``f80`` and ``f128`` constants.

xDSL holds every float constant as a Python float (an f64) and has no struct
format for the x87 ``f80`` or IEEE ``f128`` encodings, so printing
``arith.constant 1.5 : f80`` raised ``NotImplementedError`` and so did reading
a hexadecimal bit pattern of either type. Every f64 is exactly an f80 and an
f128, so the value is printed as upstream's ``printFloatValue`` does: six
digits in exponent form when they read back to the same value, else a longer
decimal, and Inf or NaN as the bit pattern of the wide type. A bit pattern
that no f64 holds exactly is refused rather than silently rounded.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

from xdsl.dialects.builtin import Float80Type, Float128Type
from xdsl.ir import Attribute

EXP_BIAS = 16383
EXP_MAX = 0x7FFF


def is_wide_float(type: Attribute) -> bool:
    return isinstance(type, Float80Type | Float128Type)


def _f64_parts(value: float) -> tuple[int, int]:
    """Sign bit and 52-bit fraction of an f64."""
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    return bits >> 63, bits & ((1 << 52) - 1)


def special_bits(value: float, type: Attribute) -> int:
    """The f80 or f128 bit pattern of an infinity or NaN (payload kept)."""
    sign, fraction = _f64_parts(value)
    nan = math.isnan(value)
    if isinstance(type, Float80Type):
        mantissa = (1 << 63) | (fraction << 11 if nan else 0)
        return (sign << 79) | (EXP_MAX << 64) | mantissa
    return (sign << 127) | (EXP_MAX << 112) | (fraction << 60 if nan else 0)


def format_wide_float(value: float, type: Attribute) -> str:
    """The literal upstream prints for this value of an f80 or f128."""
    if math.isnan(value) or math.isinf(value):
        return f"0x{special_bits(value, type):X}"
    short = f"{value:.6e}"
    if float(short) == value:
        return short
    text = repr(value)  # the shortest decimal that reads back to this value
    if "." not in text:  # MLIR's float literals need a point: 1e-07 -> 1.0e-07
        mantissa, _, exponent = text.partition("e")
        text = f"{mantissa}.0" + (f"e{exponent}" if exponent else "")
    return text


def wide_float_from_bits(bits: int, type: Attribute) -> float | None:
    """The value of an f80 or f128 bit pattern, or None when no f64 holds it
    exactly (NaN payloads beyond an f64's are dropped, as they carry no value)."""
    if isinstance(type, Float80Type):  # 1 sign, 15 exponent, 64 mantissa bits
        sign, exp, width = bits >> 79, (bits >> 64) & EXP_MAX, 63
        significand = bits & ((1 << 64) - 1)  # the integer bit is explicit
        fraction = significand & ((1 << 63) - 1)
    else:  # 1 sign, 15 exponent, 112 fraction bits
        sign, exp, width = bits >> 127, (bits >> 112) & EXP_MAX, 112
        fraction = bits & ((1 << 112) - 1)
        significand = fraction | ((1 << 112) if exp else 0)
    if exp == EXP_MAX:
        return _special(sign, fraction)
    exact = Fraction(significand) * Fraction(2) ** (max(exp, 1) - EXP_BIAS - width)
    try:
        value = float(exact)
    except OverflowError:
        return None
    if Fraction(value) != exact:
        return None
    return -value if sign else value


def _special(sign: int, fraction: int) -> float:
    value = math.nan if fraction else math.inf
    return -value if sign else value
