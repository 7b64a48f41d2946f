"""``convert-vector-to-scf``: transfers of rank > 1 split into lower-rank
transfers, guarded by ``scf.if`` where a dimension may run out of bounds, as
upstream's VectorToSCF does with ``full-unroll``.

* A ``transfer_read``/``transfer_write`` of a vector of rank above
  ``target-rank`` becomes one transfer per position of its leading dimension
  (``vector.extract``/``vector.insert`` of the rows and of the mask rows),
  each under ``scf.if (index + i < dim)`` unless that dimension is in bounds;
  a read starts from the padding splatted and keeps it where out of bounds.
  A broadcast leading dimension reads the same row every time.
* A 1-D transfer whose dimension is not the memref's last (a strided or
  transposed one, or a broadcast) becomes an ``scf.for`` over its lanes of ``memref.load``
  + ``vector.insert`` (``vector.extract`` + ``memref.store``), each lane under
  ``scf.if`` where out of bounds or masked.
* ``vector.mask`` (without pass-through) around a transfer becomes the
  transfer's mask operand (and'ed with its own), as upstream lowers masks
  first.

mlkit always emits the unrolled form: upstream's default form stages through
a ``memref.alloca`` and ``vector.type_cast``, which mlkit lacks, so
``full-unroll=false`` yields the same unrolled IR. Transfers on tensors are
split only with ``lower-tensors``. 1-D minor-identity transfers are left for
``convert-vector-to-llvm``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from mlkit.dialects import tensor
from mlkit.dialects.vector import ExtractOp, InsertOp, MaskOp
from mlkit.passes.transforms.rewrite_driver import apply_greedily
from xdsl.builder import Builder, InsertPoint
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    AffineMapAttr, ArrayAttr, BoolAttr, DenseArrayBase, IndexType, IntegerAttr, MemRefType,
    ModuleOp, TensorType, VectorType, i1, i32,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

Transfer = vector.TransferReadOp | vector.TransferWriteOp


def _vec_type(op: Transfer) -> VectorType:
    type = op.result.type if isinstance(op, vector.TransferReadOp) else op.vector.type
    assert isinstance(type, VectorType)
    return type


def _index(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


def _in_bounds(b: Builder, source: SSAValue, dim: int, index: SSAValue) -> SSAValue:
    """``dim(source, dim) > index``, as upstream compares."""
    at = _index(b, dim)
    if isinstance(source.type, TensorType):
        size = b.insert(tensor.DimOp(source, at)).results[0]
    else:
        size = b.insert(memref.DimOp(source, at)).result
    return b.insert(arith.CmpiOp(size, index, "sgt")).result


def _guarded(b: Builder, guard: SSAValue | None, body: Block, results: list[SSAValue],
             otherwise: list[SSAValue]) -> list[SSAValue]:
    """``body``'s ops at ``b`` (yielding ``results``), or under ``scf.if
    guard`` yielding ``otherwise`` when it fails."""
    if guard is None:
        for moved in list(body.ops):
            moved.detach()
            b.insert(moved)
        return results
    body.add_op(scf.YieldOp(*results))
    branch = b.insert(scf.IfOp(guard, [r.type for r in results], Region(body),
                               Region(Block([scf.YieldOp(*otherwise)]))))
    return list(branch.results)


@dataclass
class FoldMask(RewritePattern):
    """``vector.mask`` around an unmasked transfer: the mask as its operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MaskOp, rewriter: PatternRewriter) -> None:
        masked = op.masked_op
        if op.passthru is not None or not isinstance(masked, Transfer):
            return
        masked.detach()
        new_ops: list[Operation] = []
        if masked.mask is not None:  # both masks apply
            both = _and_rows(op.mask, masked.mask, new_ops)
            masked.operands = [*masked.operands[:-1], both]
        else:
            masked.operands = [*masked.operands, op.mask]
            sizes = masked.properties["operandSegmentSizes"]
            assert isinstance(sizes, DenseArrayBase)
            counts = [int(c) for c in sizes.get_values()]
            masked.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [*counts[:-1], 1])
        rewriter.replace(op, [*new_ops, masked], list(masked.results))


def _and_rows(a: SSAValue, b: SSAValue, ops: list[Operation]) -> SSAValue:
    """``a & b`` of two masks, row by row: 1-D ``arith.andi`` is what the
    conversion to LLVM takes."""
    type = a.type
    assert isinstance(type, VectorType)
    if type.get_num_dims() == 1:
        ops.append(both := arith.AndIOp(a, b))
        return both.result
    row = VectorType(type.element_type, type.get_shape()[-1:])
    value = a
    for lead in itertools.product(*(range(n) for n in type.get_shape()[:-1])):
        rows = [ExtractOp(m, list(lead), row) for m in (a, b)]
        both = arith.AndIOp(rows[0].result, rows[1].result)
        insert = InsertOp(both.result, value, list(lead))
        ops += [*rows, both, insert]
        value = insert.result
    return value


def _row_props(op: Transfer) -> tuple[AffineMapAttr, ArrayAttr[BoolAttr]]:
    """The permutation map and in_bounds of a transfer of one row: the
    leading vector dimension dropped."""
    pmap = op.permutation_map.data
    rest = AffineMap(pmap.num_dims, 0, pmap.results[1:])
    return AffineMapAttr(rest), ArrayAttr(list(op.in_bounds.data[1:]))


@dataclass
class UnrollTransfer(RewritePattern):
    """A transfer above ``target_rank`` into one transfer per leading row."""

    target_rank: int = 1
    lower_tensors: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, Transfer) or isinstance(op.parent_op(), MaskOp):
            return
        vec, source = _vec_type(op), op.source.type
        if vec.get_num_dims() <= max(self.target_rank, 1) or any(vec.get_scalable_dims()):
            return
        if not isinstance(source, MemRefType) and not (self.lower_tensors and isinstance(source, TensorType)):
            return
        if not isinstance(source, (MemRefType, TensorType)) or isinstance(source.element_type, VectorType):
            return
        pmap = op.permutation_map.data
        if op.mask is not None and not pmap.is_minor_identity():
            return  # a mask in the permuted space: left, as upstream's unrolling leaves it
        first = pmap.results[0]
        row = VectorType(vec.element_type, vec.get_shape()[1:])
        row_map, row_bounds = _row_props(op)
        b = Builder(InsertPoint.before(op))
        reading = isinstance(op, vector.TransferReadOp)
        if reading:
            carried = b.insert(vector.BroadcastOp(op.padding, vec)).vector  # type: ignore[union-attr]
        else:
            carried = op.source  # a tensor: each row's write yields the next one
        for i in range(vec.get_shape()[0]):
            indices = list(op.indices)
            guard: SSAValue | None = None
            if isinstance(first, AffineDimExpr):  # else a broadcast row: the same indices
                d = first.position
                if i:
                    indices[d] = b.insert(arith.AddiOp(indices[d], _index(b, i))).result
                if not op.in_bounds.data[0].value.data:
                    guard = _in_bounds(b, carried if not reading else op.source, d, indices[d])
            body = Block()
            inner = Builder(InsertPoint.at_end(body))
            mask = None
            if op.mask is not None:
                mask_type = op.mask.type
                assert isinstance(mask_type, VectorType)
                row_mask = VectorType(mask_type.element_type, mask_type.get_shape()[1:])
                mask = inner.insert(ExtractOp(op.mask, [i], row_mask)).result
            if reading:
                read = inner.insert(vector.TransferReadOp(
                    op.source, indices, op.padding, row, row_bounds, row_map, mask))  # type: ignore[union-attr]
                new = inner.insert(InsertOp(read.result, carried, [i])).result
                (carried,) = _guarded(b, guard, body, [new], [carried])
                continue
            piece = inner.insert(ExtractOp(op.vector, [i], row)).result  # type: ignore[union-attr]
            tensor_type = carried.type if isinstance(carried.type, TensorType) else None
            write = inner.insert(vector.TransferWriteOp(
                piece, carried, indices, row_bounds, mask, row_map, tensor_type))
            written = list(write.results)
            out = _guarded(b, guard, body, written, [carried] if written else [])
            if written:
                carried = out[0]
        if reading or op.results:
            rewriter.replace(op, [], [carried])
        else:
            rewriter.erase(op)


@dataclass
class StridedTransfer(RewritePattern):
    """A 1-D transfer of a memref along a dimension other than its last, or
    a broadcast, lane by lane."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, Transfer) or isinstance(op.parent_op(), MaskOp):
            return
        vec, source = _vec_type(op), op.source.type
        if vec.get_num_dims() != 1 or not isinstance(source, MemRefType) or any(vec.get_scalable_dims()):
            return
        results = op.permutation_map.data.results
        if isinstance(source.element_type, VectorType):
            return
        # a broadcast (the constant 0) reads one element for every lane
        d = results[0].position if isinstance(results[0], AffineDimExpr) else None
        if d == source.get_num_dims() - 1:
            return  # along the last dimension: convert-vector-to-llvm's
        reading = isinstance(op, vector.TransferReadOp)
        b = Builder(InsertPoint.before(op))
        lower, upper, one = _index(b, 0), _index(b, vec.get_shape()[0]), _index(b, 1)
        init = [b.insert(vector.BroadcastOp(op.padding, vec)).vector] if reading else []  # type: ignore[union-attr]
        loop_body = Block(arg_types=[IndexType(), *(v.type for v in init)])
        inner = Builder(InsertPoint.at_end(loop_body))
        lane, carried = loop_body.args[0], list(loop_body.args[1:])
        indices = list(op.indices)
        guards: list[SSAValue] = []
        if d is not None:
            indices[d] = inner.insert(arith.AddiOp(indices[d], lane)).result
            if not op.in_bounds.data[0].value.data:
                guards.append(_in_bounds(inner, op.source, d, indices[d]))
        if op.mask is not None:
            guards.append(inner.insert(ExtractOp(op.mask, [lane], i1)).result)
        guard = guards[0] if guards else None
        if len(guards) == 2:
            guard = inner.insert(arith.AndIOp(*guards)).result
        body = Block()
        work = Builder(InsertPoint.at_end(body))
        results: list[SSAValue] = []
        if reading:
            element = work.insert(memref.LoadOp.get(op.source, indices)).res
            results = [work.insert(InsertOp(element, carried[0], [lane])).result]
        else:
            element = work.insert(ExtractOp(op.vector, [lane], vec.element_type)).result  # type: ignore[union-attr]
            work.insert(memref.StoreOp.get(element, op.source, indices))
        inner.insert(scf.YieldOp(*_guarded(inner, guard, body, results, carried)))
        loop = b.insert(scf.ForOp(lower, upper, one, init, Region(loop_body)))
        rewriter.replace(op, [], list(loop.results))


@dataclass(frozen=True)
class ConvertVectorToSCFPass(ModulePass):
    """Lower the operations from the vector dialect into the SCF dialect"""

    name = "convert-vector-to-scf"

    full_unroll: bool = False
    target_rank: int = 1
    lower_tensors: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_greedily(op, [
            FoldMask(), UnrollTransfer(self.target_rank, self.lower_tensors), StridedTransfer(),
        ], ctx)
