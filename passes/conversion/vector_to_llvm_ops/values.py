"""Building blocks on lowered vectors: an n-D vector is nested
``!llvm.array``s of 1-D vectors, so an element is an ``extractvalue`` of its
row and an ``extractelement`` of its lane."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.memref_descriptor import OpBuilder
from mlkit.passes.conversion.llvm_common.type_converter import LLVMTypeConverter
from xdsl.dialects.builtin import VectorType, i32
from xdsl.ir import Attribute, SSAValue


@dataclass
class Builder(OpBuilder):
    """The memref descriptor builder, with vector rows and lanes."""

    def row(self, value: SSAValue, rank: int, lead: Sequence[int]) -> SSAValue:
        """The 1-D vector (or sub-array) at leading positions ``lead``."""
        if not lead or rank <= 1:
            return value
        return self.add(llvm.ExtractValueOp(value, list(lead)))

    def element(self, value: SSAValue, rank: int, position: Sequence[int]) -> SSAValue:
        """The scalar at ``position`` of a lowered rank-``rank`` vector."""
        row = self.row(value, rank, position[:-1])
        return self.add(llvm.ExtractElementOp(row, self.const(position[-1])))

    def insert_row(self, into: SSAValue, row: SSAValue, lead: Sequence[int]) -> SSAValue:
        return self.add(llvm.InsertValueOp(into, row, list(lead)))

    def insert_element(self, into: SSAValue, value: SSAValue, lane: int) -> SSAValue:
        return self.add(llvm.InsertElementOp(into, value, self.const(lane)))

    def splat(self, value: SSAValue, type: VectorType) -> SSAValue:
        """A 1-D vector of ``value`` in every lane."""
        poison = self.poison(type)
        first = self.add(llvm.InsertElementOp(poison, value, self.const(0, i32)))
        return self.add(llvm.ShuffleVectorOp(first, poison, [0] * type.get_shape()[0]))


def outer_shape(type: Attribute) -> tuple[int, ...]:
    """A vector's shape without its last dimension (the rows of its array)."""
    assert isinstance(type, VectorType)
    return tuple(type.get_shape()[:-1])


def row_type(type: VectorType) -> VectorType:
    """The 1-D vector type of ``type``'s rows."""
    return VectorType(type.element_type, [type.get_shape()[-1]])


def _pow2_bytes(bits: int) -> int:
    size = max(1, (bits + 7) // 8)
    return 1 << (size - 1).bit_length()


def abi_alignment(type: Attribute, converter: LLVMTypeConverter) -> int:
    """The default data layout's ABI alignment: integers and floats their
    size rounded up to a power of two (integers at most 8), vectors their
    whole size rounded up."""
    type = converter.convert_type(type) or type
    if isinstance(type, VectorType):
        element = type.element_type
        bits = element.bitwidth if hasattr(element, "bitwidth") else element.width.data  # type: ignore[attr-defined]
        return _pow2_bytes(bits * type.get_shape()[0])
    if hasattr(type, "bitwidth"):
        return _pow2_bytes(type.bitwidth)  # type: ignore[attr-defined]
    return min(8, _pow2_bytes(type.width.data))  # type: ignore[attr-defined]
