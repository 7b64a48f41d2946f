"""The memref patterns of ``finalize-memref-to-llvm`` that read and write
elements and query shapes: ``load`` and ``store`` address
``aligned + offset + sum(index * stride)``; ``prefetch`` becomes
``llvm.intr.prefetch`` at such an address; ``dim`` and ``rank``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects import memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, UnitAttr, UnrankedMemRefType
from xdsl.ir import Operation, SSAValue

from mlkit.dialects import llvm
from mlkit.dialects.memref import PrefetchOp
from mlkit.passes.conversion.llvm_common.memref_descriptor import SIZES, OpBuilder
from mlkit.passes.conversion.memref_to_llvm.pattern import MemRefPattern

GEP_INBOUNDS_NUW = 7  # inbounds | nusw | nuw, as upstream's load/store addressing
OVERFLOW_NSW_NUW = 3


def element_address(b: OpBuilder, desc: SSAValue, type: MemRefType, indices: list[SSAValue]) -> SSAValue:
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
class LoadStorePattern(MemRefPattern):
    """Base of ``load`` and ``store`` (upstream's ``LoadStoreOpLowering``):
    the element's address from the converted memref (operand ``MEMREF``)
    and the indices after it; ``access`` makes the LLVM op that reads or
    writes there, ``nontemporal`` where the memref op is."""

    RANKED: ClassVar = "memref"
    MEMREF: ClassVar[int] = 0

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        desc, indices = operands[self.MEMREF], operands[self.MEMREF + 1 :]
        new = self.access(op, operands, element_address(b, desc, op.memref.type, indices))
        if op.nontemporal is not None and op.nontemporal.value.data:
            new.properties["nontemporal"] = UnitAttr()
        b.add(new)
        return list(new.results)

    def access(self, op: memref.LoadOp | memref.StoreOp, operands: list[SSAValue],
               address: SSAValue) -> Operation:
        raise NotImplementedError


@dataclass
class LoadPattern(LoadStorePattern):
    OP: ClassVar = memref.LoadOp

    def access(self, op, operands, address):  # type: ignore[override]
        return llvm.LoadOp(address, self.convert(op.res.type))


@dataclass
class StorePattern(LoadStorePattern):
    OP: ClassVar = memref.StoreOp
    MEMREF: ClassVar = 1

    def access(self, op, operands, address):  # type: ignore[override]
        return llvm.StoreOp(operands[0], address)


@dataclass
class PrefetchPattern(MemRefPattern):
    """``llvm.intr.prefetch`` of the element's address; upstream computes that
    address without the no-wrap flags loads and stores get."""

    OP: ClassVar = PrefetchOp
    RANKED: ClassVar = "memref"

    def lower(self, op, operands, b, rewriter):  # type: ignore[override]
        address = b.element_pointer(operands[0], op.memref.type, operands[1:])
        rw, cache = (int(bool(flag.value.data)) for flag in (op.isWrite, op.isDataCache))
        b.add(llvm.PrefetchOp(address, rw, op.localityHint.value.data, cache))
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


ACCESS_PATTERNS = [LoadPattern, StorePattern, PrefetchPattern, DimPattern, RankPattern]
