"""Floats printed digit for digit as mlir-opt prints them.

Upstream's ``printFloatValue`` first tries ``APFloat::toString`` with six
digits in exponent form (``1.500000e+00``) and keeps it if it reads back to the
same bits; otherwise it prints APFloat's natural form, and NaN and infinity as
the bits in upper-case hex (``0x7FC00000``). APFloat's digits are not Python's:
it cuts the exact decimal expansion down to ``2 + precision * 59 / 196`` digits
by *truncating* first and rounding only the last few digits
(``7.3890562`` where ``%.9g`` gives ``7.38905621``), so this module ports that
algorithm on Python integers. It also makes xDSL's dense splat test bitwise,
as upstream's is, so ``dense<[0.0, -0.0]>`` is not printed as one zero.
"""

from __future__ import annotations

import math
from fractions import Fraction

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

# precision (significand bits, with the implicit one) and minimum exponent
_SEMANTICS: dict[str, tuple[int, int]] = {
    "f16": (11, -14),
    "bf16": (8, -126),
    "tf32": (11, -126),
    "f32": (24, -126),
    "f64": (53, -1022),
}


def semantics_of(type_name: str) -> tuple[int, int] | None:
    """The (precision, min exponent) of a float type mlkit prints this way."""
    return _SEMANTICS.get(type_name)


def _decimal(value: float) -> tuple[int, int]:
    """``value`` (finite, non-zero, positive) as ``digits * 10**exp``, exactly,
    with no trailing binary zeros: APFloat's starting point."""
    mantissa, exponent = math.frexp(value)
    significand = int(mantissa * (1 << 53))
    exp = exponent - 53
    trailing = (significand & -significand).bit_length() - 1
    significand >>= trailing
    exp += trailing
    if exp >= 0:
        return significand << exp, 0
    return significand * 5 ** (-exp), exp


def _to_string(value: float, precision_bits: int, precision: int, max_padding: int,
               truncate_zero: bool) -> str:
    """``APFloat::toString(Str, precision, max_padding, truncate_zero)``."""
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        if max_padding:
            return sign + "0"
        if truncate_zero:
            return sign + "0.0E+0"
        return sign + "0.0" + "0" * max(precision - 1, 0) + "e+00"
    if not precision:
        precision = 2 + precision_bits * 59 // 196
    significand, exp = _decimal(abs(value))
    # drop whole decimal digits beyond what the precision needs, truncating
    bits = significand.bit_length()
    required = (precision * 196 + 58) // 59
    if bits > required:
        removable = (bits - required) * 59 // 196
        if removable:
            exp += removable
            significand //= 10**removable
    digits = str(significand).rstrip("0")
    exp += len(str(significand)) - len(digits)
    if len(digits) > precision:  # round the last digits, half up
        cut = len(digits) - precision
        kept, dropped = digits[:precision], digits[precision]
        exp += cut
        if dropped >= "5":
            kept = str(int(kept) + 1)
            if len(kept) > precision:
                kept, exp = kept[:-1], exp + 1
        digits = kept.rstrip("0")
        exp += len(kept) - len(digits)
    return sign + _format(digits, exp, precision, max_padding, truncate_zero)


def _format(digits: str, exp: int, precision: int, max_padding: int, truncate_zero: bool) -> str:
    """APFloat's layout of the digits: plain, or scientific when padding would
    be too long."""
    count = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or count + exp > precision
    else:
        msd = exp + count - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        e = exp + count - 1
        text = digits[0] + "." + (digits[1:] or ("0" if truncate_zero else ""))
        if not truncate_zero and precision > count - 1:
            text += "0" * (precision - count + 1)
        power = str(abs(e))
        if not truncate_zero and len(power) < 2:
            power = "0" + power
        return f"{text}{'E' if truncate_zero else 'e'}{'+' if e >= 0 else '-'}{power}"
    if exp >= 0:
        return digits + "0" * exp
    whole = exp + count
    if whole > 0:
        return digits[:whole] + "." + digits[whole:]
    return "0." + "0" * -whole + digits


def _round_to(text: str, precision_bits: int, min_exp: int) -> float:
    """The decimal ``text`` read into the format, rounding to nearest even."""
    exact = Fraction(text)
    if exact == 0:
        return -0.0 if text.startswith("-") else 0.0
    sign = -1 if exact < 0 else 1
    exact = abs(exact)
    exp = max(math.floor(math.log2(exact)), min_exp)
    while Fraction(2) ** exp > exact and exp > min_exp:
        exp -= 1
    while Fraction(2) ** (exp + 1) <= exact:
        exp += 1
    ulp = Fraction(2) ** (exp - precision_bits + 1)
    units = exact / ulp
    whole = math.floor(units)
    rest = units - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2):
        whole += 1
    try:
        return sign * float(whole * ulp)
    except OverflowError:
        return sign * math.inf


def format_float(value: float, type_name: str) -> str | None:
    """The text upstream prints for a finite ``value`` of ``type_name``, or None
    when it prints the bits in hex (or the type is not one this module knows)."""
    semantics = semantics_of(type_name)
    if semantics is None or not math.isfinite(value):
        return None
    bits, min_exp = semantics
    text = _to_string(value, bits, 6, 0, False)
    back = _round_to(text, bits, min_exp)
    if back == value and math.copysign(1.0, back) == math.copysign(1.0, value):
        return text
    text = _to_string(value, bits, 0, 3, True)
    return text if "." in text else None


def _bitwise_is_splat(self: DenseIntOrFPElementsAttr) -> bool:
    """Upstream's ``isSplat``: every element has the same bits (so -0.0 is not
    0.0, and a NaN splat is a splat)."""
    raw = self.data.data
    count = len(self)
    if count <= 1:
        return True
    width = len(raw) // count
    first = raw[:width]
    return all(raw[i : i + width] == first for i in range(width, len(raw), width))


DenseIntOrFPElementsAttr.is_splat = _bitwise_is_splat  # pyright: ignore[reportAttributeAccessIssue]
