"""``vector.contract`` and ``vector.outerproduct`` to LLVM.

An outer product is upstream's: each row a splat of one ``lhs`` lane times
``rhs``, accumulated with ``llvm.intr.fmuladd`` (float ``add``) or a
multiply and the kind's combination.

A contraction of any indexing maps is unrolled along its result's innermost
dimension: for each row of the accumulator and each point of the reduction
dimensions, the matching 1-D slices of ``lhs`` and ``rhs`` (a row, a splat
of one element, or lanes gathered one by one) are multiplied into the row, as
upstream's outer-product strategy does for a matmul; a scalar result (a dot
product) multiplies slices along the last reduction dimension and reduces
each product into the accumulator in order, as its dot strategy does.
Under ``vector.mask`` (iteration-space mask), a row keeps its old lanes where
the point is masked off; a masked dot of kind add/mul reduces the neutral
element there.
Narrower operand elements are extended to the accumulator's (``sext``,
``fpext``) before they multiply.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from mlkit.dialects import llvm
from mlkit.dialects.vector import ContractionOp, MaskOp, OuterProductOp
from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern
from mlkit.passes.conversion.vector_to_llvm_ops.values import Builder
from mlkit.passes.conversion.vector_to_llvm_reduction import combine, reduce_float, reduce_int
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerType, VectorType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern


def multiply_accumulate(b: Builder, kind: str, lhs: SSAValue, rhs: SSAValue,
                        acc: SSAValue | None) -> SSAValue | None:
    """``acc kind (lhs * rhs)``, one fused multiply-add for float ``add``."""
    element = lhs.type.element_type if isinstance(lhs.type, VectorType) else lhs.type
    is_float = isinstance(element, AnyFloat)
    if acc is not None and is_float and kind == "add":
        return b.add(llvm.FMulAddOp(lhs, rhs, acc))
    product = b.add((llvm.FMulOp if is_float else llvm.MulOp)(lhs, rhs))
    return product if acc is None else combine(kind, acc, product, b.ops)


@dataclass
class OuterProductLowering(ConvertToLLVMPattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: OuterProductOp, rewriter: PatternRewriter) -> None:
        result = self.convert(op.result.type)
        operands = self.operands(rewriter, op)
        if result is None or operands is None:
            return
        lhs, rhs = operands[0], operands[1]
        acc = operands[2] if len(operands) > 2 else None
        kind = str(op.kind.data.value)
        b = Builder(self.converter)
        lhs_type = op.lhs.type
        assert isinstance(lhs_type, VectorType)
        if not isinstance(op.rhs.type, VectorType):
            value = multiply_accumulate(b, kind, lhs, b.splat(rhs, lhs_type), acc)
        else:
            rhs_type = op.rhs.type
            value = b.poison(result)
            for i in range(lhs_type.get_shape()[0]):
                lane = b.splat(b.element(lhs, 1, [i]), rhs_type)
                acc_row = b.row(acc, 2, [i]) if acc is not None else None
                row = multiply_accumulate(b, kind, lane, rhs, acc_row)
                if row is None:
                    return
                value = b.insert_row(value, row, [i])
        if value is None:
            return
        self.replace(rewriter, op, b.ops, [value])


def _extendable(source: Attribute, target: Attribute) -> bool:
    """An operand element type the accumulator's is, or extends (signed
    integers, floats), as upstream's contraction lowering promotes them."""
    if source == target:
        return True
    if isinstance(source, IntegerType) and isinstance(target, IntegerType):
        return source.width.data < target.width.data
    if isinstance(source, AnyFloat) and isinstance(target, AnyFloat):
        return source.bitwidth < target.bitwidth
    return False


def _dims(op: ContractionOp) -> list[list[int]]:
    return [[e.position for e in m.results if isinstance(e, AffineDimExpr)] for m in op.maps]


@dataclass
class ContractionLowering(ConvertToLLVMPattern):
    """A contraction, or a ``vector.mask`` (without pass-through) around one,
    whose iteration points masked off contribute nothing."""

    def match_and_rewrite(self, root: Operation, rewriter: PatternRewriter) -> None:
        mask: SSAValue | None = None
        if isinstance(root, MaskOp):
            op = root.masked_op
            if not isinstance(op, ContractionOp) or root.passthru is not None:
                return
            mask = self.remap(rewriter, root.mask)
            if mask is None:
                return
        elif isinstance(root, ContractionOp) and not isinstance(root.parent_op(), MaskOp):
            op = root
        else:
            return
        lowered = self._lower(op, rewriter, mask)
        if lowered is not None:
            self.replace(rewriter, root, *lowered)

    def _lower(self, op: ContractionOp, rewriter: PatternRewriter, mask: SSAValue | None
               ) -> tuple[list[Operation], list[SSAValue]] | None:
        lhs_t, rhs_t, acc_t = op.lhs.type, op.rhs.type, op.acc.type
        element = acc_t.element_type if isinstance(acc_t, VectorType) else acc_t
        assert isinstance(lhs_t, VectorType) and isinstance(rhs_t, VectorType)
        if not all(_extendable(t.element_type, element) for t in (lhs_t, rhs_t)):
            return None
        if any(lhs_t.get_scalable_dims()) or any(rhs_t.get_scalable_dims()):
            return None
        kind = str(op.kind.data.value)
        if mask is not None and not isinstance(acc_t, VectorType) and kind not in _NEUTRAL:
            return None  # a masked dot of this kind needs its neutral element
        result = self.convert(acc_t)
        operands = self.operands(rewriter, op)
        if result is None or operands is None:
            return None
        lhs, rhs, acc = operands
        value_types = {lhs: lhs_t.element_type, rhs: rhs_t.element_type}
        if mask is not None:
            value_types[mask] = i1
        all_dims = list(range(len(op.iterators)))
        lhs_dims, rhs_dims, acc_dims = _dims(op)
        sizes = op.extents()
        reductions = [d for d, it in enumerate(op.iterators) if it == "reduction"]
        b = Builder(self.converter)

        def slice_(value: SSAValue, dims: list[int], at: dict[int, int], lane: int) -> SSAValue:
            """The 1-D slice of an operand along dimension ``lane``, extended
            to the accumulator's element type."""
            n = sizes[lane]
            source = value_types[value]
            slice_type = VectorType(source, [n])
            position = [at.get(d, 0) for d in dims]
            if lane not in dims:
                found = b.splat(b.element(value, len(dims), position), slice_type)
            elif dims[-1] == lane:
                found = b.row(value, len(dims), position[:-1])
            else:
                found = b.poison(slice_type)
                for t in range(n):
                    point = [t if d == lane else p for d, p in zip(dims, position)]
                    found = b.insert_element(found, b.element(value, len(dims), point), t)
            if source == element or source == i1:
                return found
            extend = llvm.FPExtOp if isinstance(element, AnyFloat) else llvm.SExtOp
            return b.add(extend(found, VectorType(element, [n])))

        def points(dims: Sequence[int]) -> itertools.product[tuple[int, ...]]:
            return itertools.product(*(range(sizes[d]) for d in dims))

        if isinstance(acc_t, VectorType):
            lane, lead_dims = acc_dims[-1], acc_dims[:-1]
            rank = len(acc_dims)
            value = acc if rank == 1 else b.poison(result)
            for lead in points(lead_dims):
                row: SSAValue | None = b.row(acc, rank, lead)
                for red in points(reductions):
                    at = {**dict(zip(lead_dims, lead)), **dict(zip(reductions, red))}
                    l_slice = slice_(lhs, lhs_dims, at, lane)
                    r_slice = slice_(rhs, rhs_dims, at, lane)
                    updated = multiply_accumulate(b, kind, l_slice, r_slice, row)
                    if updated is None:
                        return None
                    if mask is not None:
                        assert row is not None
                        updated = b.add(llvm.SelectOp(slice_(mask, all_dims, at, lane), updated, row))
                    row = updated
                assert row is not None
                value = row if rank == 1 else b.insert_row(value, row, lead)
        else:
            lane, outer = reductions[-1], reductions[:-1]
            value = acc
            for red in points(outer):
                at = dict(zip(outer, red))
                product = multiply_accumulate(
                    b, "add", slice_(lhs, lhs_dims, at, lane), slice_(rhs, rhs_dims, at, lane), None
                )
                assert product is not None
                if mask is not None:
                    neutral = b.splat(self._neutral(b, kind, element), product.type)  # type: ignore[arg-type]
                    product = b.add(llvm.SelectOp(slice_(mask, all_dims, at, lane), product, neutral))
                if isinstance(element, AnyFloat):
                    reduced = reduce_float(kind, llvm.FastMathAttr(), product, value, element, b.ops)
                else:
                    reduced = reduce_int(kind, product, value, b.ops)
                if reduced is None:
                    return None
                value = reduced
        return b.ops, [value]

    @staticmethod
    def _neutral(b: Builder, kind: str, element: Attribute) -> SSAValue:
        """What a masked-off product contributes: -0.0/0 to a sum, 1 to a product."""
        value = _NEUTRAL[kind]
        if isinstance(element, AnyFloat):
            return b.add(llvm.ConstantOp(FloatAttr(-0.0 if value == 0 else 1.0, element), element))
        return b.const(value, element)


_NEUTRAL = {"add": 0, "mul": 1}


