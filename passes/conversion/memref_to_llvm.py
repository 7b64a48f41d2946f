"""``finalize-memref-to-llvm``: memref ops to the LLVM dialect.

As upstream's MemRefToLLVM, with the descriptor layout of
:mod:`llvm_type_converter`:

* ``alloc`` calls ``malloc`` (``aligned_alloc`` with ``use-aligned-alloc``;
  ``_mlir_memref_to_llvm_alloc``/``_free`` with ``use-generic-functions``),
  over-allocating and aligning the pointer up when an alignment is given;
  ``dealloc`` calls ``free`` on the allocated pointer; ``alloca`` becomes
  ``llvm.alloca``; dynamic sizes come from the operands;
* ``load``/``store`` address ``aligned + offset + sum(index * stride)``;
* ``dim`` and ``rank``; ``global`` becomes ``llvm.mlir.global`` of nested
  arrays and ``get_global`` its address (the allocated pointer is the
  ``0xdeadbeef`` marker, as upstream sets it);
* ``cast``, ``reinterpret_cast``, ``copy``, ``extract_strided_metadata``,
  ``extract_aligned_pointer_as_index`` and ``assume_alignment`` are in
  :mod:`memref_to_llvm_views`.

``subview``, ``expand_shape``, ``collapse_shape`` and ``view`` are left
alone, as upstream's pass leaves them: run ``expand-strided-metadata`` first.
Atomic ops, ``realloc``, ``memory_space_cast``, ``alloca_scope`` and DMA ops
are not converted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.type_converter import (
    DYNAMIC,
    ConvertToLLVMPattern,
    LLVMTypeConverter,
    apply_llvm_patterns,
    enclosing_module,
    lookup_or_declare,
)
from mlkit.passes.conversion.llvm_common.memref_descriptor import SIZES, OpBuilder

DEADBEEF = 0xDEADBEEF
GEP_INBOUNDS_NUW = 7  # inbounds | nusw | nuw, as upstream's load/store addressing
OVERFLOW_NSW_NUW = 3


@dataclass
class MemRefPattern(ConvertToLLVMPattern):
    """Base of the memref patterns: the allocation function names and a
    builder; ``lower`` returns the new ops and result values."""

    use_generic_functions: bool = False
    use_aligned_alloc: bool = False
    OP: ClassVar[type[Operation]] = Operation

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.OP):
            return
        if any(self.convert(r.type) is None for r in op.results):
            return
        operands = self.operands(rewriter, op)
        if operands is None:
            return
        builder = OpBuilder(self.converter)
        results = self.lower(op, operands, builder, rewriter)
        if results is None:
            return
        self.replace(rewriter, op, builder.ops, results)

    def lower(self, op: Operation, operands: list[SSAValue], b: OpBuilder,
              rewriter: PatternRewriter) -> list[SSAValue] | None:
        raise NotImplementedError

    def declare(self, rewriter: PatternRewriter, op: Operation, name: str,
                inputs: list[Attribute], output: Attribute | None) -> str | None:
        module = enclosing_module(op)
        if module is None:
            return None
        return lookup_or_declare(rewriter, module, name, llvm.LLVMFunctionType(inputs, output))

    def size_in_bytes(self, b: OpBuilder, element: Attribute, count: SSAValue | int) -> SSAValue:
        """``sizeof(element) * count`` the way upstream computes it: the
        address of element ``count`` past a null pointer."""
        null = b.add(llvm.ZeroOp(llvm.LLVMPointerType()))
        gep = b.gep(null, [count], element)
        return b.add(llvm.PtrToIntOp(gep, self.converter.index_type))


def _sizes_and_strides(pattern: MemRefPattern, type: MemRefType, dynamic: list[SSAValue],
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


def _alignment(op: Operation) -> int | None:
    attr = op.properties.get("alignment", op.attributes.get("alignment"))
    return attr.value.data if isinstance(attr, IntegerAttr) else None


@dataclass
class AllocPattern(MemRefPattern):
    OP: ClassVar = memref.AllocOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        type = op.results[0].type
        assert isinstance(type, MemRefType)
        if self.converter.memref_descriptor_type(type) is None:
            return None
        element = self.convert(type.get_element_type())
        sizes, strides, total = _sizes_and_strides(self, type, operands, b)
        size = self.size_in_bytes(b, element, total)
        alignment = _alignment(op)
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
        return [b.descriptor(type, allocated, aligned, b.const(0), sizes, strides)]


@dataclass
class AllocaPattern(MemRefPattern):
    OP: ClassVar = memref.AllocaOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        type = op.results[0].type
        assert isinstance(type, MemRefType)
        if self.converter.memref_descriptor_type(type) is None:
            return None
        element = self.convert(type.get_element_type())
        sizes, strides, total = _sizes_and_strides(self, type, operands, b)
        alloca = llvm.AllocaOp(total, element, _alignment(op),
                               self.converter.address_space(type) or 0)  # fmt: skip
        pointer = b.add(alloca)
        return [b.descriptor(type, pointer, pointer, b.const(0), sizes, strides)]


@dataclass
class DeallocPattern(MemRefPattern):
    OP: ClassVar = memref.DeallocOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        if not isinstance(op.operands[0].type, MemRefType):
            return None
        name = "_mlir_memref_to_llvm_free" if self.use_generic_functions else "free"
        callee = self.declare(rewriter, op, name, [llvm.LLVMPointerType()], None)
        if callee is None:
            return None
        pointer = b.extract(operands[0], 0)
        if isinstance(pointer.type, llvm.LLVMPointerType) and pointer.type.address_space:
            pointer = b.add(llvm.AddrSpaceCastOp(pointer, llvm.LLVMPointerType()))
        b.add(llvm.CallOp(callee, [pointer]))
        return []


def _address(b: OpBuilder, desc: SSAValue, type: MemRefType, indices: list[SSAValue]) -> SSAValue:
    """Element address for load and store, with upstream's no-wrap flags."""
    start = len(b.ops)
    address = b.element_pointer(desc, type, indices)
    for new in b.ops[start:]:
        if isinstance(new, (llvm.MulOp, llvm.AddOp)):
            new.properties["overflowFlags"] = IntegerAttr(OVERFLOW_NSW_NUW, 32)
        elif isinstance(new, llvm.GEPOp):
            new.properties["noWrapFlags"] = IntegerAttr(GEP_INBOUNDS_NUW, 32)
    return address


@dataclass
class LoadPattern(MemRefPattern):
    OP: ClassVar = memref.LoadOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        type = op.memref.type
        if not isinstance(type, MemRefType):
            return None
        address = _address(b, operands[0], type, operands[1:])
        load = llvm.LoadOp(address, self.convert(op.res.type))
        if op.nontemporal is not None and op.nontemporal.value.data:
            load.properties["nontemporal"] = UnitAttr()
        return [b.add(load)]


@dataclass
class StorePattern(MemRefPattern):
    OP: ClassVar = memref.StoreOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        type = op.memref.type
        if not isinstance(type, MemRefType):
            return None
        address = _address(b, operands[1], type, operands[2:])
        store = llvm.StoreOp(operands[0], address)
        if op.nontemporal is not None and op.nontemporal.value.data:
            store.properties["nontemporal"] = UnitAttr()
        b.add(store)
        return []


def constant_index(value: SSAValue) -> int | None:
    """The value of an index defined by ``arith.constant``,
    ``llvm.mlir.constant`` or ``index.constant`` (through casts)."""
    owner = value.owner
    while isinstance(owner, Operation) and owner.name == "builtin.unrealized_conversion_cast":
        if len(owner.operands) != 1:
            return None
        owner = owner.operands[0].owner
    if not isinstance(owner, Operation):
        return None
    attr = owner.properties.get("value")
    if owner.name in ("arith.constant", "llvm.mlir.constant", "index.constant") and isinstance(
        attr, IntegerAttr
    ):
        return attr.value.data
    return None


@dataclass
class DimPattern(MemRefPattern):
    """A static size, a size read at a constant index, or (dynamic index)
    the size array spilled to the stack and indexed, as upstream does."""

    OP: ClassVar = memref.DimOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        type = op.source.type
        index = constant_index(op.index)
        if isinstance(type, UnrankedMemRefType):
            return [self._unranked(b, type, operands)]
        assert isinstance(type, MemRefType)
        if index is not None and 0 <= index < type.get_num_dims():
            return [b.size(operands[0], type, index)]
        rank = type.get_num_dims()
        sizes = b.extract(operands[0], SIZES)
        array = llvm.LLVMArrayType(rank, self.converter.index_type)
        slot = b.add(llvm.AllocaOp(b.const(1), array))
        b.add(llvm.StoreOp(sizes, slot))
        address = b.gep(slot, [0, operands[1]], array)
        return [b.add(llvm.LoadOp(address, self.converter.index_type))]

    def _unranked(self, b: OpBuilder, type: UnrankedMemRefType, operands: list[SSAValue]) -> SSAValue:
        """In the ranked descriptor behind the pointer, sizes start after
        two pointers and the offset: index 3 + i of an array of iN... read
        through a GEP over the descriptor's leading fields."""
        pointer = b.extract(operands[0], 1)
        index_type = self.converter.index_type
        ptr = llvm.LLVMPointerType()
        header = llvm.LLVMStructType([ptr, ptr, index_type])
        offset_field = b.gep(pointer, [0, 2], header)
        first_size = b.gep(offset_field, [1], index_type)
        size_address = b.gep(first_size, [operands[1]], index_type)
        return b.add(llvm.LoadOp(size_address, index_type))


@dataclass
class RankPattern(MemRefPattern):
    OP: ClassVar = memref.RankOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        type = op.source.type
        if isinstance(type, UnrankedMemRefType):
            return [b.extract(operands[0], 0)]
        return [b.const(type.get_num_dims())]  # type: ignore[union-attr]


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
            value=value, constant=op.constant is not None, alignment=_alignment(op),
            addr_space=space,
        )  # fmt: skip
        rewriter.replace(op, new, [])


@dataclass
class GetGlobalPattern(MemRefPattern):
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


def memref_to_llvm_patterns(
    converter: LLVMTypeConverter, use_generic_functions: bool = False, use_aligned_alloc: bool = False
) -> list[ConvertToLLVMPattern]:
    """Every pattern of the pass, for ``convert-to-llvm`` too."""
    from mlkit.passes.conversion.memref_to_llvm_views import VIEW_PATTERNS

    classes = [AllocPattern, AllocaPattern, DeallocPattern, LoadPattern, StorePattern, DimPattern,
               RankPattern, GlobalPattern, GetGlobalPattern, *VIEW_PATTERNS]  # fmt: skip
    return [cls(converter, use_generic_functions=use_generic_functions,
                use_aligned_alloc=use_aligned_alloc) for cls in classes]  # fmt: skip


@dataclass(frozen=True)
class FinalizeMemRefToLLVM(ModulePass):
    """Finalize MemRef dialect to LLVM dialect conversion"""

    name = "finalize-memref-to-llvm"
    display_name: ClassVar[str] = "FinalizeMemRefToLLVMConversionPass"

    use_aligned_alloc: bool = False
    index_bitwidth: int = 0
    use_generic_functions: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter(index_bitwidth=self.index_bitwidth or 64)
        apply_llvm_patterns(
            op, memref_to_llvm_patterns(converter, self.use_generic_functions, self.use_aligned_alloc)
        )
