"""LLVM IR spellings of types, identifiers and constants for the translator.

Types are spelled from mlkit's LLVM dialect types and the builtin integer,
float and vector types (upstream's ``LLVM::isCompatibleType``). Float
constants are written in LLVM's exact hexadecimal forms, so no value changes
on the way through text. Identified structs are collected as they are met, so
the module can define them before use.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, BFloat16Type, DenseIntOrFPElementsAttr, FloatAttr
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, Float80Type, Float128Type
from xdsl.dialects.builtin import IntegerAttr, IntegerType, Signedness, StringAttr, VectorType
from xdsl.ir import Attribute

from mlkit.dialects.llvm import LLVMArrayType, LLVMFunctionType, LLVMLabelType, LLVMMetadataType
from mlkit.dialects.llvm import LLVMPointerType, LLVMPPCFP128Type, LLVMStructType, LLVMVoidType
from mlkit.dialects.llvm import LLVMX86AMXType


class TranslationFailure(Exception):
    """A construct with no LLVM IR form; the translator adds the op's location."""


_FLOAT_NAMES: dict[type[Attribute], str] = {
    Float16Type: "half",
    BFloat16Type: "bfloat",
    Float32Type: "float",
    Float64Type: "double",
    Float80Type: "x86_fp80",
    Float128Type: "fp128",
    LLVMPPCFP128Type: "ppc_fp128",
}
_SIMPLE_TYPES: dict[type[Attribute], str] = {
    LLVMVoidType: "void",
    LLVMLabelType: "label",
    LLVMMetadataType: "metadata",
    LLVMX86AMXType: "x86_amx",
}
_PLAIN_NAME = re.compile(r"[-a-zA-Z$._][-a-zA-Z$._0-9]*\Z")


def quote_bytes(data: bytes) -> str:
    """The body of an LLVM string literal: printable ASCII as is, the rest as ``\\XX``."""
    return "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}" for b in data)


def identifier(sigil: str, name: str) -> str:
    """``@name``/``%name``, quoted when the name needs it."""
    if _PLAIN_NAME.match(name):
        return sigil + name
    return f'{sigil}"{quote_bytes(name.encode())}"'


@dataclass
class TypeTable:
    """Spells types; remembers the identified structs met, in order."""

    structs: dict[str, str | None] = field(default_factory=dict[str, "str | None"])

    def spell(self, type: Attribute) -> str:
        if isinstance(type, IntegerType):
            if type.signedness.data != Signedness.SIGNLESS:
                raise TranslationFailure(f"type '{type}' is not signless; LLVM IR has no such type")
            return f"i{type.width.data}"
        if (name := _FLOAT_NAMES.get(type.__class__)) is not None:
            return name
        if (name := _SIMPLE_TYPES.get(type.__class__)) is not None:
            return name
        if isinstance(type, LLVMPointerType):
            space = type.address_space
            return f"ptr addrspace({space})" if space else "ptr"
        if isinstance(type, LLVMArrayType):
            return f"[{type.size.data} x {self.spell(type.type)}]"
        if isinstance(type, VectorType):
            return self._vector(type)
        if isinstance(type, LLVMStructType):
            return self._struct(type)
        if isinstance(type, LLVMFunctionType):
            return f"{self.spell(type.output)} {self.signature(type)}"
        raise TranslationFailure(f"type '{type}' has no LLVM IR equivalent")

    def signature(self, fn: LLVMFunctionType) -> str:
        """``(T, U, ...)`` of a function type."""
        params = [self.spell(t) for t in fn.inputs]
        if fn.is_variadic:
            params.append("...")
        return f"({', '.join(params)})"

    def _vector(self, type: VectorType) -> str:
        if type.get_num_dims() != 1:
            raise TranslationFailure(f"type '{type}' is not a 1-D vector; LLVM IR has no such type")
        element = type.element_type
        if not isinstance(element, (IntegerType, LLVMPointerType, *_FLOAT_NAMES)):
            raise TranslationFailure(f"type '{type}' has no LLVM IR equivalent")
        scalable = "vscale x " if any(type.get_scalable_dims()) else ""
        return f"<{scalable}{type.get_shape()[0]} x {self.spell(element)}>"

    def _struct(self, type: LLVMStructType) -> str:
        if not type.is_identified:
            return self.literal_body(type)
        name = type.struct_name.data
        if name not in self.structs:
            self.structs[name] = None  # a placeholder first, for recursive bodies
            if type.is_opaque:
                self.structs[name] = "opaque"
            elif type.body.__class__ is ArrayAttr:
                self.structs[name] = self.literal_body(type)
        elif self.structs[name] is None and type.body.__class__ is ArrayAttr:
            self.structs[name] = self.literal_body(type)
        return identifier("%", name)

    def literal_body(self, type: LLVMStructType) -> str:
        inner = ", ".join(self.spell(t) for t in type.types)
        body = f"{{ {inner} }}" if inner else "{}"
        return f"<{body}>" if type.is_packed else body

    def definitions(self) -> list[str]:
        """``%name = type {...}`` lines for the identified structs met."""
        return [
            f"{identifier('%', name)} = type {body or 'opaque'}"
            for name, body in self.structs.items()
        ]


# -- constants -----------------------------------------------------------------


def _float_bits(value: float, exponent_bits: int, mantissa_bits: int) -> int:
    """IEEE bits of ``value`` in a binary format wider than or equal to double."""
    sign = 1 if math.copysign(1.0, value) < 0 else 0
    bias = (1 << (exponent_bits - 1)) - 1
    top = (1 << exponent_bits) - 1
    if math.isnan(value):
        return (
            (sign << (exponent_bits + mantissa_bits))
            | (top << mantissa_bits)
            | (1 << (mantissa_bits - 1))
        )
    if math.isinf(value):
        return (sign << (exponent_bits + mantissa_bits)) | (top << mantissa_bits)
    if value == 0:
        return sign << (exponent_bits + mantissa_bits)
    mantissa, exponent = math.frexp(abs(value))  # value = mantissa * 2**exponent, 0.5 <= m < 1
    fraction = int(mantissa * (1 << 53)) << (mantissa_bits - 52)  # 53 significant bits
    fraction &= (1 << mantissa_bits) - 1
    return (
        (sign << (exponent_bits + mantissa_bits))
        | ((exponent - 1 + bias) << mantissa_bits)
        | fraction
    )


def float_text(value: float, type: Attribute) -> str:
    """An exact LLVM IR literal of ``value`` in ``type``."""
    if isinstance(type, Float64Type):
        return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"
    if isinstance(type, Float32Type):
        narrowed = _to_f32(value)
        return f"0x{struct.unpack('<Q', struct.pack('<d', narrowed))[0]:016X}"
    if isinstance(type, Float16Type):
        return f"0xH{struct.unpack('<H', struct.pack('<e', _clamp_half(value)))[0]:04X}"
    if isinstance(type, BFloat16Type):
        bits = struct.unpack("<I", struct.pack("<f", _to_f32(value)))[0]
        if math.isnan(value):
            return "0xR7FC0"
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even
        return f"0xR{rounded & 0xFFFF:04X}"
    if isinstance(type, Float80Type):
        bits = _float_bits(value, 15, 63)  # without the explicit integer bit
        sign_exp = bits >> 63
        integer_bit = 0 if value == 0 or (sign_exp & 0x7FFF) == 0 else 1
        return f"0xK{sign_exp:04X}{(integer_bit << 63) | (bits & ((1 << 63) - 1)):016X}"
    if isinstance(type, Float128Type):
        bits = _float_bits(value, 15, 112)
        return f"0xL{bits & ((1 << 64) - 1):016X}{bits >> 64:016X}"
    if isinstance(type, LLVMPPCFP128Type):
        high = struct.unpack("<Q", struct.pack("<d", value))[0]
        return f"0xM{high:016X}{0:016X}"
    raise TranslationFailure(f"float constant of type '{type}' has no LLVM IR form")


def _to_f32(value: float) -> float:
    if math.isnan(value) or math.isinf(value):
        return value
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _clamp_half(value: float) -> float:
    if math.isfinite(value) and abs(value) >= 65520.0:
        return math.copysign(math.inf, value)
    return value


def int_text(value: int, width: int) -> str:
    """``value`` wrapped to ``width`` bits and written signed (``true``/``false`` for i1)."""
    value &= (1 << width) - 1
    if width == 1:
        return "true" if value else "false"
    if value >> (width - 1):
        value -= 1 << width
    return str(value)


def scalar_text(value: int | float, type: Attribute) -> str:
    if isinstance(type, IntegerType):
        return int_text(int(value), type.width.data)
    return float_text(float(value), type)


class ConstantBuilder:
    """Spells constant attributes (``llvm.mlir.constant``, global values) as
    typed LLVM IR constants: ``<type> <value>``."""

    def __init__(self, types: TypeTable) -> None:
        self.types = types

    def typed(self, attr: Attribute, type: Attribute) -> str:
        return f"{self.types.spell(type)} {self.value(attr, type)}"

    def value(self, attr: Attribute, type: Attribute) -> str:
        """The constant ``attr`` as a value of ``type`` (without the type)."""
        self.types.spell(type)  # fails on a type LLVM IR does not have
        if isinstance(attr, (IntegerAttr, FloatAttr)):
            number = attr.value.data
            if isinstance(type, VectorType):
                return f"splat ({self.typed(attr, type.element_type)})"
            if isinstance(type, (IntegerType, *_FLOAT_NAMES)):
                return scalar_text(number, type)
            raise TranslationFailure(f"cannot use a scalar constant as a value of type '{type}'")
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return self._dense(list(attr.get_values()), type, attr)
        if isinstance(attr, StringAttr):
            if not (isinstance(type, LLVMArrayType) and type.type == IntegerType(8)):
                raise TranslationFailure(f"a string constant needs an i8 array type, not '{type}'")
            data = attr.data.encode("latin-1", "replace")
            if len(data) != type.size.data:
                raise TranslationFailure(f"string of {len(data)} bytes does not fit type '{type}'")
            return f'c"{quote_bytes(data)}"'
        if isinstance(attr, ArrayAttr):
            return self._aggregate(list(attr.data), type)
        raise TranslationFailure(f"constant attribute '{attr}' has no LLVM IR form")

    def _dense(self, values: list[int | float], type: Attribute, attr: Attribute) -> str:
        if isinstance(type, VectorType):
            element = type.element_type
            if len(values) != type.get_shape()[0]:
                raise TranslationFailure(f"'{attr}' does not have the shape of '{type}'")
            spelled = self.types.spell(element)
            return "<" + ", ".join(f"{spelled} {scalar_text(v, element)}" for v in values) + ">"
        if isinstance(type, LLVMArrayType):
            count = type.size.data
            if count == 0 or len(values) % count:
                raise TranslationFailure(f"'{attr}' does not have the shape of '{type}'")
            step = len(values) // count
            inner = self.types.spell(type.type)
            parts = [
                f"{inner} {self._dense(values[i * step : (i + 1) * step], type.type, attr)}"
                for i in range(count)
            ]
            return "[" + ", ".join(parts) + "]"
        if len(values) == 1 and isinstance(type, (IntegerType, *_FLOAT_NAMES)):
            return scalar_text(values[0], type)
        raise TranslationFailure(f"'{attr}' does not have the shape of '{type}'")

    def _aggregate(self, items: Sequence[Attribute], type: Attribute) -> str:
        if isinstance(type, LLVMStructType):
            fields = list(type.types)
            if len(fields) != len(items):
                raise TranslationFailure(f"expected {len(fields)} constants for '{type}'")
            body = "{ " + ", ".join(self.typed(a, t) for a, t in zip(items, fields)) + " }"
            return f"<{body}>" if type.is_packed else body
        if isinstance(type, LLVMArrayType):
            if len(items) != type.size.data:
                raise TranslationFailure(f"expected {type.size.data} constants for '{type}'")
            return "[" + ", ".join(self.typed(a, type.type) for a in items) + "]"
        if isinstance(type, VectorType):
            return "<" + ", ".join(self.typed(a, type.element_type) for a in items) + ">"
        raise TranslationFailure(f"an array constant needs an aggregate type, not '{type}'")


def zero_value(type: Attribute) -> str:
    """LLVM's null value of ``type``, as ``llvm.mlir.zero`` makes it."""
    if isinstance(type, IntegerType):
        return "false" if type.width.data == 1 else "0"
    if isinstance(type, LLVMPointerType):
        return "null"
    if type.__class__ in _FLOAT_NAMES:
        return (
            float_text(0.0, type) if type.__class__ is not LLVMPPCFP128Type else "zeroinitializer"
        )
    return "zeroinitializer"
