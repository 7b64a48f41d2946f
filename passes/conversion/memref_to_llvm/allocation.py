"""The memref patterns of ``finalize-memref-to-llvm`` that make and free
buffers.

* ``alloc`` calls ``malloc`` (``aligned_alloc`` with ``use-aligned-alloc``;
  ``_mlir_memref_to_llvm_alloc``/``_free`` with ``use-generic-functions``),
  over-allocating and aligning the pointer up when an alignment is given;
  ``alloca`` becomes ``llvm.alloca``; dynamic sizes come from the operands;
* ``dealloc`` calls ``free`` on the allocated pointer;
* ``global`` becomes ``llvm.mlir.global`` of nested arrays and
  ``get_global`` its address.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects import memref
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, MemRefType, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.memref_descriptor import OpBuilder
from mlkit.passes.conversion.llvm_common.type_converter import DYNAMIC, LLVMTypeConverter
from mlkit.passes.conversion.memref_to_llvm.pattern import MemRefPattern, alignment_of

DEADBEEF = 0xDEADBEEF


def _sizes_and_strides(type: MemRefType, dynamic: list[SSAValue],
                       b: OpBuilder) -> tuple[list[SSAValue], list[SSAValue], SSAValue]:
    """Sizes, identity-layout strides and element count of a new buffer
    (upstream's ``getMemRefDescriptorSizes``): static products fold into
    constants, dynamic ones multiply at run time."""
    dynamic_sizes = iter(dynamic)
    shape = type.get_shape()
    sizes = [next(dynamic_sizes) if s == DYNAMIC else b.const(s) for s in shape]
    strides: list[SSAValue] = [None] * len(sizes)  # type: ignore[list-item]
    static_running = 1
    running: SSAValue | None = None
    for dim in reversed(range(len(sizes))):
        strides[dim] = running if running is not None else b.const(static_running)
        if running is None and shape[dim] != DYNAMIC:
            static_running *= shape[dim]
        else:
            running = b.mul(strides[dim], sizes[dim])
    total = running if running is not None else b.const(static_running)
    return sizes, strides, total


@dataclass
class AllocLikePattern(MemRefPattern):
    """Upstream's ``AllocLikeOpLLVMLowering``: the new buffer's sizes,
    strides and element count, then ``allocate`` gives its allocated and
    aligned pointers, and the descriptor holds them at offset 0."""

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        type = op.results[0].type
        assert isinstance(type, MemRefType)
        if self.converter.memref_descriptor_type(type) is None:
            return None
        element = self.convert(type.get_element_type())
        sizes, strides, total = _sizes_and_strides(type, operands, b)
        pointers = self.allocate(op, b, rewriter, type, element, total)
        if pointers is None:
            return None
        allocated, aligned = pointers
        return [b.descriptor(type, allocated, aligned, b.const(0), sizes, strides)]

    def allocate(self, op: Operation, b: OpBuilder, rewriter: PatternRewriter, type: MemRefType,
                 element: Attribute, count: SSAValue) -> tuple[SSAValue, SSAValue] | None:
        raise NotImplementedError


@dataclass
class AllocPattern(AllocLikePattern):
    OP: ClassVar = memref.AllocOp

    def allocate(self, op, b, rewriter, type, element, count):  # type: ignore[override]
        size = b.size_in_bytes(element, count)
        alignment = alignment_of(op)
        ptr = llvm.LLVMPointerType(self.converter.address_space(type) or 0)
        index = self.converter.index_type
        if self.use_aligned_alloc:
            align = b.const(alignment or 16)
            # aligned_alloc wants a size that is a multiple of the alignment
            bump = b.add_int(size, b.add(llvm.SubOp(align, b.const(1))))
            size = b.add(llvm.SubOp(bump, b.add(llvm.URemOp(bump, align))))
            name = "_mlir_memref_to_llvm_aligned_alloc" if self.use_generic_functions else "aligned_alloc"
            callee = self.declare(rewriter, op, name, [index, index], llvm.LLVMPointerType())
            allocated = b.add(llvm.CallOp(callee, [align, size], [llvm.LLVMPointerType()]))
            aligned = allocated
        else:
            if alignment is not None:
                align = b.const(alignment)
                size = b.add_int(size, align)
            name = "_mlir_memref_to_llvm_alloc" if self.use_generic_functions else "malloc"
            callee = self.declare(rewriter, op, name, [index], llvm.LLVMPointerType())
            if callee is None:
                return None
            allocated = b.add(llvm.CallOp(callee, [size], [llvm.LLVMPointerType()]))
            aligned = allocated
            if alignment is not None:
                as_int = b.add(llvm.PtrToIntOp(allocated, index))
                bumped = b.add_int(as_int, b.add(llvm.SubOp(align, b.const(1))))
                rounded = b.add(llvm.SubOp(bumped, b.add(llvm.URemOp(bumped, align))))
                aligned = b.add(llvm.IntToPtrOp(rounded, ptr))
        if ptr.address_space:
            allocated = b.add(llvm.AddrSpaceCastOp(allocated, ptr))
            if aligned.type != ptr:
                aligned = b.add(llvm.AddrSpaceCastOp(aligned, ptr))
        return allocated, aligned


@dataclass
class AllocaPattern(AllocLikePattern):
    OP: ClassVar = memref.AllocaOp

    def allocate(self, op, b, rewriter, type, element, count):  # type: ignore[override]
        alloca = llvm.AllocaOp(count, element, alignment_of(op),
                               self.converter.address_space(type) or 0)  # fmt: skip
        pointer = b.add(alloca)
        return pointer, pointer


@dataclass
class DeallocPattern(MemRefPattern):
    OP: ClassVar = memref.DeallocOp
    RANKED: ClassVar = "memref"

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        name = "_mlir_memref_to_llvm_free" if self.use_generic_functions else "free"
        callee = self.declare(rewriter, op, name, [llvm.LLVMPointerType()], None)
        if callee is None:
            return None
        pointer = b.extract(operands[0], 0)
        if isinstance(pointer.type, llvm.LLVMPointerType) and pointer.type.address_space:
            pointer = b.add(llvm.AddrSpaceCastOp(pointer, llvm.LLVMPointerType()))
        b.add(llvm.CallOp(callee, [pointer]))
        return []


def global_array_type(converter: LLVMTypeConverter, type: MemRefType) -> Attribute | None:
    """The LLVM type of a global holding a memref: nested arrays."""
    result = converter.convert_type(type.get_element_type())
    if result is None:
        return None
    for size in reversed(type.get_shape()):
        result = llvm.LLVMArrayType(size, result)
    return result


@dataclass
class GlobalPattern(MemRefPattern):
    """``memref.global`` to ``llvm.mlir.global``; private visibility maps to
    private linkage, an initial value as a dense tensor attribute."""

    OP: ClassVar = memref.GlobalOp

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, memref.GlobalOp):
            return
        type = op.type
        if not isinstance(type, MemRefType) or not type.has_static_shape():
            return
        array = global_array_type(self.converter, type)
        space = self.converter.address_space(type)
        if array is None or space is None:
            return
        value: Attribute | None = None
        initial = op.initial_value
        if isinstance(initial, DenseIntOrFPElementsAttr):
            value = initial
            if type.get_num_dims() == 0:
                value = next(iter(initial.get_attrs()), None)
        private = isinstance(op.sym_visibility, StringAttr) and op.sym_visibility.data == "private"
        new = llvm.GlobalOp(
            array, op.sym_name.data, linkage="private" if private else "external",
            value=value, constant=op.constant is not None, alignment=alignment_of(op),
            addr_space=space,
        )  # fmt: skip
        rewriter.replace(op, new, [])


@dataclass
class GetGlobalPattern(MemRefPattern):
    """The global's address; the allocated pointer is the ``0xdeadbeef``
    marker, as upstream sets it."""

    OP: ClassVar = memref.GetGlobalOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        type = op.memref.type
        array = global_array_type(self.converter, type)
        space = self.converter.address_space(type)
        if array is None or space is None:
            return None
        ptr = llvm.LLVMPointerType(space)
        address = b.add(llvm.AddressOfOp(op.name_, ptr))
        first = b.gep(address, [0] * (type.get_num_dims() + 1), array)
        marker = b.add(llvm.IntToPtrOp(b.const(DEADBEEF), ptr))
        return [b.static_descriptor(type, marker, first)]


ALLOCATION_PATTERNS = [AllocPattern, AllocaPattern, DeallocPattern, GlobalPattern, GetGlobalPattern]
