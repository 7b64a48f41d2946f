"""Building and taking apart memref descriptors in the LLVM dialect.

Upstream's ``MemRefDescriptor`` and ``UnrankedMemRefDescriptor`` helpers
(mlir/lib/Conversion/LLVMCommon/MemRefBuilder.cpp) as an op-list builder:
each method appends the ops it creates to ``ops`` and returns the value, so
a pattern collects the whole sequence and inserts it at once.

Ranked descriptor fields: 0 allocated pointer, 1 aligned pointer, 2 offset,
3 sizes array, 4 strides array. Unranked: 0 rank, 1 pointer to a ranked
descriptor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, IndexType, MemRefType, i32
from xdsl.ir import Attribute, Operation, SSAValue

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.type_converter import DYNAMIC, LLVMTypeConverter

ALLOCATED, ALIGNED, OFFSET, SIZES, STRIDES = range(5)


@dataclass
class OpBuilder:
    """Collects LLVM ops in creation order; each helper returns a value."""

    converter: LLVMTypeConverter
    ops: list[Operation] = field(default_factory=list)

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    @property
    def index(self) -> Attribute:
        return self.converter.index_type

    def const(self, value: int, type: Attribute | None = None) -> SSAValue:
        """``llvm.mlir.constant(value : index) : iN`` (upstream keeps the
        ``index`` attribute type for index constants), or of ``type``."""
        if type is None:
            return self.add(llvm.ConstantOp(IntegerAttr(value, IndexType()), self.index))
        return self.add(llvm.ConstantOp(IntegerAttr(value, type), type))

    def poison(self, type: Attribute) -> SSAValue:
        return self.add(llvm.PoisonOp(type))

    def extract(self, struct: SSAValue, *position: int) -> SSAValue:
        return self.add(llvm.ExtractValueOp(struct, list(position)))

    def insert(self, struct: SSAValue, value: SSAValue, *position: int) -> SSAValue:
        return self.add(llvm.InsertValueOp(struct, value, list(position)))

    def mul(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.add(llvm.MulOp(lhs, rhs))

    def add_int(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.add(llvm.AddOp(lhs, rhs))

    def gep(self, base: SSAValue, indices: Sequence[int | SSAValue], element: Attribute,
            inbounds: bool = False) -> SSAValue:
        return self.add(llvm.GEPOp(base, list(indices), element, inbounds=inbounds))

    def size_in_bytes(self, element: Attribute, count: SSAValue | int,
                      pointer: llvm.LLVMPointerType | None = None) -> SSAValue:
        """``sizeof(element) * count`` the way upstream computes it: the
        address of element ``count`` past a null ``pointer`` (address space 0
        unless given), as an index."""
        null = self.add(llvm.ZeroOp(pointer or llvm.LLVMPointerType()))
        return self.add(llvm.PtrToIntOp(self.gep(null, [count], element), self.index))

    def pack_struct(self, type: llvm.LLVMStructType, values: Sequence[SSAValue]) -> SSAValue:
        """A literal struct of ``values``: poison, then one insertvalue each."""
        struct = self.poison(type)
        for i, value in enumerate(values):
            struct = self.insert(struct, value, i)
        return struct

    # ---- ranked descriptors -------------------------------------------------

    def descriptor(
        self,
        type: MemRefType,
        allocated: SSAValue,
        aligned: SSAValue,
        offset: SSAValue,
        sizes: Sequence[SSAValue],
        strides: Sequence[SSAValue],
    ) -> SSAValue:
        """A ranked descriptor from its fields, inserted in upstream's order
        (pointers, offset, then size and stride of each dimension in turn)."""
        struct_type = self.converter.memref_descriptor_type(type)
        assert struct_type is not None
        desc = self.poison(struct_type)
        desc = self.insert(desc, allocated, ALLOCATED)
        desc = self.insert(desc, aligned, ALIGNED)
        desc = self.insert(desc, offset, OFFSET)
        for dim, (size, stride) in enumerate(zip(sizes, strides)):
            desc = self.insert(desc, size, SIZES, dim)
            desc = self.insert(desc, stride, STRIDES, dim)
        return desc

    def static_descriptor(self, type: MemRefType, allocated: SSAValue, aligned: SSAValue) -> SSAValue:
        """A descriptor for a memref of static shape, strides and offset
        (upstream's ``MemRefDescriptor::fromStaticShape``)."""
        layout = self.converter.strides_and_offset(type)
        assert layout is not None
        strides, offset = layout
        struct_type = self.converter.memref_descriptor_type(type)
        assert struct_type is not None
        desc = self.poison(struct_type)
        desc = self.insert(desc, allocated, ALLOCATED)
        desc = self.insert(desc, aligned, ALIGNED)
        desc = self.insert(desc, self.const(offset), OFFSET)
        for dim, (size, stride) in enumerate(zip(type.get_shape(), strides)):
            desc = self.insert(desc, self.const(size), SIZES, dim)
            desc = self.insert(desc, self.const(stride), STRIDES, dim)
        return desc

    def unpack(self, desc: SSAValue, rank: int) -> list[SSAValue]:
        """Every field of a ranked descriptor: pointers, offset, all sizes,
        then all strides (the order of expanded function arguments)."""
        fields = [self.extract(desc, ALLOCATED), self.extract(desc, ALIGNED),
                  self.extract(desc, OFFSET)]  # fmt: skip
        fields += [self.extract(desc, SIZES, d) for d in range(rank)]
        fields += [self.extract(desc, STRIDES, d) for d in range(rank)]
        return fields

    def size(self, desc: SSAValue, type: MemRefType, dim: int) -> SSAValue:
        """The size of ``dim``: a constant when static, else read from ``desc``."""
        static = type.get_shape()[dim]
        return self.const(static) if static != DYNAMIC else self.extract(desc, SIZES, dim)

    def stride(self, desc: SSAValue, type: MemRefType, dim: int) -> SSAValue:
        """The stride of ``dim``: a constant when static, else read from ``desc``."""
        layout = self.converter.strides_and_offset(type)
        assert layout is not None
        static = layout[0][dim]
        return self.const(static) if static != DYNAMIC else self.extract(desc, STRIDES, dim)

    def offset(self, desc: SSAValue, type: MemRefType) -> SSAValue:
        layout = self.converter.strides_and_offset(type)
        assert layout is not None
        return self.const(layout[1]) if layout[1] != DYNAMIC else self.extract(desc, OFFSET)

    def element_pointer(self, desc: SSAValue, type: MemRefType,
                        indices: Sequence[SSAValue]) -> SSAValue:
        """The address of an element: aligned pointer + offset + sum of
        index * stride (upstream's ``getStridedElementPtr``)."""
        element = self.converter.convert_type(type.get_element_type())
        assert element is not None
        layout = self.converter.strides_and_offset(type)
        assert layout is not None
        strides, offset = layout
        base = self.extract(desc, ALIGNED)
        index: SSAValue | None = None
        if offset != 0:
            index = self.const(offset) if offset != DYNAMIC else self.extract(desc, OFFSET)
        for dim, value in enumerate(indices):
            term = value
            if strides[dim] != 1:
                stride = self.const(strides[dim]) if strides[dim] != DYNAMIC else self.extract(
                    desc, STRIDES, dim
                )
                term = self.mul(value, stride)
            index = term if index is None else self.add_int(index, term)
        if index is None:
            return base
        return self.gep(base, [index], element, inbounds=False)

    # ---- unranked descriptors ---------------------------------------------

    def unranked(self, rank: SSAValue, pointer: SSAValue) -> SSAValue:
        desc = self.poison(self.converter.unranked_descriptor_type())
        desc = self.insert(desc, rank, 0)
        return self.insert(desc, pointer, 1)

    def alloca_one(self, type: Attribute) -> SSAValue:
        """Stack space for one value of ``type``."""
        one = self.const(1)
        return self.add(llvm.AllocaOp(one, type))


__all__ = ["ALIGNED", "ALLOCATED", "OFFSET", "SIZES", "STRIDES", "OpBuilder", "i32"]
