"""1-D transfers, ``vector.create_mask`` and ``vector.mask`` around a
transfer, as upstream's convert-vector-to-llvm takes them (through
vector.load/maskedload and the mask materialization patterns):

* a 1-D ``transfer_read``/``transfer_write`` of a memref with a minor
  identity map and a unit last stride: in bounds and unmasked, a plain
  ``llvm.load``/``llvm.store``; otherwise ``llvm.masked.load``/``store`` under
  ``[0, 1, ...] < dim - index`` (where not in bounds) and the op's mask, with
  the padding splatted as the pass-through;
* ``vector.create_mask %n : vector<Nxi1>``: ``splat(min(n, 2^31-1)) >
  [0, 1, ..., N-1]`` in i32 (``force-32bit-vector-indices``) or i64; an n-D
  mask row by row, a row all false where a leading size excludes it;
* ``vector.mask`` around such a transfer: the mask joins the transfer's, and
  a pass-through replaces the masked-off lanes.

Other transfers (rank > 1, permutations, broadcasts, tensors) are
``convert-vector-to-scf``'s to split first and are left.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from mlkit.dialects import llvm
from mlkit.dialects.llvm.attrs import ICMP_PREDICATES
from mlkit.dialects.vector import CreateMaskOp, MaskOp
from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern

from mlkit.passes.conversion.vector_to_llvm_ops.values import Builder, abi_alignment, row_type
from xdsl.dialects import vector
from xdsl.dialects.builtin import (
    ArrayAttr, DenseArrayBase, DenseIntOrFPElementsAttr, DictionaryAttr, IntegerAttr, IntegerType,
    MemRefType, StringAttr, VectorType, i32, i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

_INT32_MAX = 2**31 - 1


def _mangle(type: VectorType) -> str:
    element = type.element_type
    name = f"i{element.width.data}" if isinstance(element, IntegerType) else str(element)
    return f"v{type.get_shape()[0]}{name}"


def lane_mask(b: Builder, bound: SSAValue, lanes: int, force_32bit: bool) -> SSAValue:
    """``[0, 1, ..., lanes-1] < bound`` for an i64 ``bound``, as upstream
    materializes a 1-D mask."""
    index = i32 if force_32bit else i64
    if force_32bit:
        limit = b.const(_INT32_MAX, i64)
        below = b.add(llvm.ICmpOp(ICMP_PREDICATES["slt"], bound, limit))
        bound = b.add(llvm.TruncOp(b.add(llvm.SelectOp(below, bound, limit)), i32))
    step_type = VectorType(index, [lanes])
    step = b.add(llvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(step_type, list(range(lanes))),
                                 step_type))
    return b.add(llvm.ICmpOp(ICMP_PREDICATES["sgt"], b.splat(bound, step_type), step))


@dataclass
class CreateMaskLowering(ConvertToLLVMPattern):
    force_32bit_vector_indices: bool = True

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CreateMaskOp, rewriter: PatternRewriter) -> None:
        type = op.mask_vector.type
        result = self.convert(type)
        sizes = [self.remap(rewriter, s) for s in op.mask_dim_sizes]
        if not isinstance(type, VectorType) or result is None or any(s is None for s in sizes):
            return
        if any(type.get_scalable_dims()) or type.get_num_dims() == 0:
            return
        b = Builder(self.converter)
        shape = list(type.get_shape())
        row = lane_mask(b, sizes[-1], shape[-1], self.force_32bit_vector_indices)  # type: ignore[arg-type]
        if len(shape) == 1:
            self.replace(rewriter, op, b.ops, [row])
            return
        row_t = row_type(type)
        zeros = b.add(llvm.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(row_t, [0] * shape[-1]), row_t))
        value = b.poison(result)
        for lead in itertools.product(*(range(d) for d in shape[:-1])):
            inside: SSAValue | None = None
            for position, size in zip(lead, sizes):
                cond = b.add(llvm.ICmpOp(ICMP_PREDICATES["slt"], b.const(position, i64), size))  # type: ignore[arg-type]
                inside = cond if inside is None else b.add(llvm.AndOp(inside, cond))
            assert inside is not None
            value = b.insert_row(value, b.add(llvm.SelectOp(inside, row, zeros)), lead)
        self.replace(rewriter, op, b.ops, [value])


def _lowerable(op: Operation | None) -> bool:
    """A 1-D transfer on a memref along its last dimension, unit stride."""
    if not isinstance(op, (vector.TransferReadOp, vector.TransferWriteOp)):
        return False
    memref = op.source.type
    vec = op.result.type if isinstance(op, vector.TransferReadOp) else op.vector.type
    if not isinstance(memref, MemRefType) or not isinstance(vec, VectorType):
        return False
    if vec.get_num_dims() != 1 or any(vec.get_scalable_dims()) or memref.get_num_dims() == 0:
        return False
    if isinstance(memref.element_type, VectorType):
        return False
    results = op.permutation_map.data.results
    last = memref.get_num_dims() - 1
    return len(results) == 1 and isinstance(results[0], AffineDimExpr) and results[0].position == last


@dataclass
class TransferLowering(ConvertToLLVMPattern):
    """A 1-D transfer, or a ``vector.mask`` around one."""

    force_32bit_vector_indices: bool = True

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        user_mask: SSAValue | None = None
        passthru: SSAValue | None = None
        target = op
        if isinstance(op, MaskOp):
            masked = op.masked_op
            if not _lowerable(masked):
                return
            target, user_mask, passthru = masked, op.mask, op.passthru
        elif not _lowerable(op) or isinstance(op.parent_op(), MaskOp):
            return  # a masked transfer is lowered with its vector.mask
        lowered = self._lower(rewriter, target, user_mask, passthru)
        if lowered is None:
            return
        ops, results = lowered
        self.replace(rewriter, op, ops, results)

    def _lower(self, rewriter: PatternRewriter, op: Operation, user_mask: SSAValue | None,
               passthru: SSAValue | None) -> tuple[list[Operation], list[SSAValue]] | None:
        assert isinstance(op, (vector.TransferReadOp, vector.TransferWriteOp))
        memref = op.source.type
        assert isinstance(memref, MemRefType)
        layout = self.converter.strides_and_offset(memref)
        if layout is None or layout[0][-1] != 1:
            return None
        reading = isinstance(op, vector.TransferReadOp)
        vec_type = op.result.type if reading else op.vector.type  # type: ignore[union-attr]
        assert isinstance(vec_type, VectorType)
        llvm_vec = self.convert(vec_type)
        desc = self.remap(rewriter, op.source)
        indices = [self.remap(rewriter, i) for i in op.indices]
        own_mask = self.remap(rewriter, op.mask) if op.mask is not None else None
        outer_mask = self.remap(rewriter, user_mask) if user_mask is not None else None
        if llvm_vec is None or desc is None or any(i is None for i in indices):
            return None
        if (op.mask is not None and own_mask is None) or (user_mask is not None and outer_mask is None):
            return None
        b = Builder(self.converter)
        lanes = vec_type.get_shape()[0]
        pointer = b.element_pointer(desc, memref, indices)  # type: ignore[arg-type]
        alignment = abi_alignment(memref.element_type, self.converter)
        mask: SSAValue | None = None
        if not op.in_bounds.data[0].value.data:
            last = memref.get_num_dims() - 1
            size = b.size(desc, memref, last)
            left = b.add(llvm.SubOp(size, indices[-1]))  # type: ignore[arg-type]
            mask = lane_mask(b, left, lanes, self.force_32bit_vector_indices)
        for extra in (own_mask, outer_mask):
            if extra is not None:
                mask = extra if mask is None else b.add(llvm.AndOp(mask, extra))
        if reading:
            padding = self.remap(rewriter, op.padding)  # type: ignore[union-attr]
            if padding is None:
                return None
            if mask is None:
                value = b.add(llvm.LoadOp(pointer, llvm_vec, alignment))
            else:
                value = self._masked_load(b, pointer, mask, b.splat(padding, vec_type), alignment,
                                          vec_type)
            if passthru is not None:
                other = self.remap(rewriter, passthru)
                if other is None or outer_mask is None:
                    return None
                value = b.add(llvm.SelectOp(outer_mask, value, other))
            return b.ops, [value]
        stored = self.remap(rewriter, op.vector)  # type: ignore[union-attr]
        if stored is None:
            return None
        if mask is None:
            b.ops.append(llvm.StoreOp(stored, pointer, alignment))
        else:
            b.ops.append(_masked_intrinsic(
                f"llvm.masked.store.{_mangle(vec_type)}.p0", [stored, pointer, mask], 1,
                alignment, None))
        return b.ops, []

    def _masked_load(self, b: Builder, pointer: SSAValue, mask: SSAValue, passthru: SSAValue,
                     alignment: int, vec_type: VectorType) -> SSAValue:
        return b.add(_masked_intrinsic(
            f"llvm.masked.load.{_mangle(vec_type)}.p0", [pointer, mask, passthru], 0, alignment,
            vec_type))


def _masked_intrinsic(name: str, args: list[SSAValue], pointer_at: int, alignment: int,
                      result: VectorType | None) -> Operation:
    """``llvm.call_intrinsic`` of a masked load or store, the alignment on
    the pointer argument: mlkit's llvm dialect has no ``llvm.intr.masked.*``
    ops, and this call is what they translate to."""
    arg_attrs = [DictionaryAttr({}) for _ in args]
    arg_attrs[pointer_at] = DictionaryAttr({"llvm.align": IntegerAttr(alignment, i64)})
    return llvm.CallIntrinsicOp.create(
        operands=args,
        result_types=[result] if result is not None else [],
        properties={
            "intrin": StringAttr(name),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(args), 0]),
            "arg_attrs": ArrayAttr(arg_attrs),
        },
    )


