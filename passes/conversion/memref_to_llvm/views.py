"""The memref patterns of ``finalize-memref-to-llvm`` that make new views of
a buffer or move data between buffers: ``cast``, ``reinterpret_cast``,
``transpose``, ``reshape``, ``copy``, ``extract_strided_metadata``,
``extract_aligned_pointer_as_index`` and ``assume_alignment``.

``reshape`` is lowered, as upstream lowers it, when the shape operand has a
static length: sizes the result type leaves dynamic are loaded from it. With
a shape of dynamic length (an unranked result) upstream builds the ranked
descriptor in a loop on the stack; mlkit leaves that op unconverted. Where
upstream would cast a loaded shape element of another width than index
(and fail), mlkit sign-extends or truncates it, as ``arith.index_cast`` does.

``copy`` between two memrefs with identity layouts is one ``llvm.intr.memcpy``;
any other copy calls the runtime's ``memrefCopy(elemSize, src, dst)`` with
unranked descriptors on the stack, as upstream does.
``assume_alignment`` forwards its operand: upstream adds an ``llvm.intr.assume``
with an alignment bundle, which mlkit's LLVM dialect cannot express yet; the
assumption only enables optimizations, so results are the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects import memref
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, MemRefType, NoneAttr
from xdsl.dialects.builtin import UnrankedMemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from mlkit.dialects import llvm
from mlkit.dialects.memref import ReshapeOp, TransposeOp
from mlkit.passes.conversion.llvm_common.memref_descriptor import ALIGNED, ALLOCATED, OFFSET, SIZES
from mlkit.passes.conversion.llvm_common.memref_descriptor import STRIDES, OpBuilder
from mlkit.passes.conversion.llvm_common.type_converter import DYNAMIC
from mlkit.passes.conversion.memref_to_llvm.access import element_address
from mlkit.passes.conversion.memref_to_llvm.pattern import MemRefPattern


def _to_unranked(b: OpBuilder, desc: SSAValue, rank: int) -> SSAValue:
    """Spill a ranked descriptor to the stack and wrap it as unranked."""
    slot = b.alloca_one(desc.type)
    b.add(llvm.StoreOp(desc, slot))
    return b.unranked(b.const(rank), slot)


@dataclass
class CastPattern(MemRefPattern):
    """Ranked to ranked keeps the descriptor; to unranked spills it to the
    stack; from unranked loads it back."""

    OP: ClassVar = memref.CastOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        source, target = op.source.type, op.dest.type
        if isinstance(source, MemRefType) and isinstance(target, MemRefType):
            return [operands[0]]
        if isinstance(source, MemRefType) and isinstance(target, UnrankedMemRefType):
            return [_to_unranked(b, operands[0], source.get_num_dims())]
        if isinstance(source, UnrankedMemRefType) and isinstance(target, MemRefType):
            pointer = b.extract(operands[0], 1)
            return [b.add(llvm.LoadOp(pointer, self.convert(target)))]
        return None


def _static_or_dynamic(b: OpBuilder, static: DenseArrayBase, dynamic: list[SSAValue]) -> list[SSAValue]:
    values = iter(dynamic)
    return [next(values) if v == DYNAMIC else b.const(int(v)) for v in static.iter_values()]


def _pointers(b: OpBuilder, source: Attribute, desc: SSAValue) -> tuple[SSAValue, SSAValue]:
    """The allocated and aligned pointers of a ranked or unranked descriptor
    (upstream's ``extractPointersAndOffset``)."""
    if isinstance(source, UnrankedMemRefType):
        ranked = b.add(llvm.LoadOp(b.extract(desc, 1), llvm.LLVMStructType(
            [llvm.LLVMPointerType(), llvm.LLVMPointerType()])))  # fmt: skip
        return b.extract(ranked, 0), b.extract(ranked, 1)
    return b.extract(desc, ALLOCATED), b.extract(desc, ALIGNED)


@dataclass
class ReinterpretCastPattern(MemRefPattern):
    """The source's pointers with the offset, sizes and strides of the op."""

    OP: ClassVar = memref.ReinterpretCastOp
    RANKED: ClassVar = "result"

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        target = op.result.type
        allocated, aligned = _pointers(b, op.source.type, operands[0])
        rest = operands[1:]
        n_offsets, n_sizes = len(op.offsets), len(op.sizes)
        offsets = _static_or_dynamic(b, op.static_offsets, rest[:n_offsets])
        sizes = _static_or_dynamic(b, op.static_sizes, rest[n_offsets : n_offsets + n_sizes])
        strides = _static_or_dynamic(b, op.static_strides, rest[n_offsets + n_sizes :])
        return [b.descriptor(target, allocated, aligned, offsets[0], sizes, strides)]


@dataclass
class TransposePattern(MemRefPattern):
    """The source's pointers and offset, with result dimension ``i`` taking
    the size and stride of the source dimension the permutation puts there."""

    OP: ClassVar = TransposeOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        permutation = op.permutation.data
        desc = operands[0]
        if permutation == AffineMap.identity(permutation.num_dims):
            return [desc]
        order = [r.position for r in permutation.results if isinstance(r, AffineDimExpr)]
        return [b.descriptor(
            op.result.type, b.extract(desc, ALLOCATED), b.extract(desc, ALIGNED),
            b.extract(desc, OFFSET), [b.extract(desc, SIZES, d) for d in order],
            [b.extract(desc, STRIDES, d) for d in order],
        )]  # fmt: skip


@dataclass
class ReshapePattern(MemRefPattern):
    """A shape operand of static length: the source's pointers, offset 0,
    static sizes as constants and dynamic ones loaded from the shape, and
    row-major strides built from the innermost dimension out."""

    OP: ClassVar = ReshapeOp
    RANKED: ClassVar = "result"

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        shape_type, target = op.shape.type, op.result.type
        if not isinstance(shape_type, MemRefType) or not shape_type.has_static_shape():
            return None
        layout = self.converter.strides_and_offset(target)
        if layout is None or layout[1] == DYNAMIC:
            return None
        allocated, aligned = _pointers(b, op.source.type, operands[0])
        rank = target.get_num_dims()
        sizes: list[SSAValue] = [None] * rank  # type: ignore[list-item]
        strides: list[SSAValue] = [None] * rank  # type: ignore[list-item]
        stride: SSAValue | None = None
        for dim in reversed(range(rank)):
            static_stride = layout[0][dim]
            if static_stride != DYNAMIC:
                stride = b.const(static_stride)
            elif stride is None:
                stride = b.const(1)
            size = target.get_shape()[dim]
            sizes[dim] = b.const(size) if size != DYNAMIC else self._load_size(
                b, operands[1], shape_type, dim)  # fmt: skip
            strides[dim] = stride
            if dim:
                stride = b.mul(stride, sizes[dim])
        return [b.descriptor(target, allocated, aligned, b.const(layout[1]), sizes, strides)]

    def _load_size(self, b: OpBuilder, shape: SSAValue, shape_type: MemRefType, dim: int) -> SSAValue:
        """Element ``dim`` of the shape operand, as an index."""
        element = self.convert(shape_type.get_element_type())
        value = b.add(llvm.LoadOp(element_address(b, shape, shape_type, [b.const(dim)]), element))
        index = self.converter.index_type
        assert isinstance(element, IntegerType) and isinstance(index, IntegerType)
        if element.width.data < index.width.data:
            return b.add(llvm.SExtOp(value, index))
        if element.width.data > index.width.data:
            return b.add(llvm.TruncOp(value, index))
        return value


def _is_identity(type: object) -> bool:
    if isinstance(type, MemRefType):
        if isinstance(type.layout, NoneAttr):
            return True
        layout = getattr(type.layout, "data", None)
        return layout is not None and hasattr(layout, "is_identity") and layout.is_identity()
    return False


@dataclass
class CopyPattern(MemRefPattern):
    OP: ClassVar = memref.CopyOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        source, target = op.source.type, op.destination.type
        if _is_identity(source) and _is_identity(target):
            return self._memcpy(b, source, operands)
        return self._runtime_copy(op, b, rewriter, operands)

    def _memcpy(self, b: OpBuilder, type: MemRefType, operands: list[SSAValue]) -> list[SSAValue]:
        element = self.convert(type.get_element_type())
        count = b.const(1)
        for dim in range(type.get_num_dims()):
            count = b.mul(count, b.extract(operands[0], SIZES, dim))
        size = b.mul(count, b.size_in_bytes(element, 1))
        pointers = []
        for desc in operands:
            pointers.append(b.gep(b.extract(desc, ALIGNED), [b.extract(desc, OFFSET)], element))
        b.add(llvm.MemcpyOp(pointers[1], pointers[0], size))
        return []

    def _runtime_copy(self, op, b: OpBuilder, rewriter, operands: list[SSAValue]) -> list[SSAValue] | None:
        index = self.converter.index_type
        ptr = llvm.LLVMPointerType()
        callee = self.declare(rewriter, op, "memrefCopy", [index, ptr, ptr], None)
        if callee is None:
            return None
        slots: list[SSAValue] = []
        for orig, desc in zip(op.operands, operands):
            if isinstance(orig.type, MemRefType):
                desc = _to_unranked(b, desc, orig.type.get_num_dims())
            slot = b.alloca_one(desc.type)
            b.add(llvm.StoreOp(desc, slot))
            slots.append(slot)
        element = self.convert(op.source.type.get_element_type())
        b.add(llvm.CallOp(callee, [b.size_in_bytes(element, 1), *slots]))
        return []


@dataclass
class ExtractStridedMetadataPattern(MemRefPattern):
    """The base buffer (a rank-0 descriptor over the same pointers), then
    offset, sizes and strides read from the descriptor."""

    OP: ClassVar = memref.ExtractStridedMetaDataOp
    RANKED: ClassVar = "source"

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        source = op.source.type
        desc = operands[0]
        base_type = op.base_buffer.type
        base = b.descriptor(base_type, b.extract(desc, ALLOCATED), b.extract(desc, ALIGNED),
                            b.const(0), [], [])  # fmt: skip
        rank = source.get_num_dims()
        results = [base, b.extract(desc, OFFSET)]
        results += [b.extract(desc, SIZES, d) for d in range(rank)]
        results += [b.extract(desc, STRIDES, d) for d in range(rank)]
        return results


@dataclass
class ExtractAlignedPointerPattern(MemRefPattern):
    OP: ClassVar = memref.ExtractAlignedPointerAsIndexOp
    RANKED: ClassVar = "source"

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        pointer = b.extract(operands[0], ALIGNED)
        return [b.add(llvm.PtrToIntOp(pointer, self.converter.index_type))]


@dataclass
class AssumeAlignmentPattern(MemRefPattern):
    OP: ClassVar = memref.AssumeAlignmentOp

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        return [operands[0]] if op.results else []


VIEW_PATTERNS = [CastPattern, ReinterpretCastPattern, TransposePattern, ReshapePattern, CopyPattern,
                 ExtractStridedMetadataPattern, ExtractAlignedPointerPattern,
                 AssumeAlignmentPattern]  # fmt: skip
