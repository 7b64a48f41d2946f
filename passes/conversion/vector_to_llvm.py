"""``convert-vector-to-llvm``: the vector ops later vectorization needs, as
upstream's VectorToLLVM lowers them.

Covered:
* ``vector.broadcast`` of a scalar or a vector, with duplicated leading and
  stretched unit dimensions (``insertelement`` + zero-mask ``shufflevector``);
* ``vector.extract`` and ``vector.insert`` with static positions at any rank,
  and a dynamic position on a 1-D vector (``extractvalue``/``insertvalue``
  for the leading positions, ``extractelement``/``insertelement`` for the last);
* ``vector.shuffle`` (1-D equal lengths: ``shufflevector``; otherwise
  element by element or row by row), ``vector.bitcast``, ``vector.fma``
  (``llvm.intr.fmuladd``), unrolled over the 1-D vectors of n-D values;
* ``vector.reduction`` of every combining kind (see
  :mod:`vector_to_llvm_reduction`);
* ``vector.load`` and ``vector.store`` of 1-D vectors on memrefs with a
  strided layout, through the memref descriptor, with upstream's alignment
  (the element's, or the vector's with ``use-vector-alignment``).

* ``vector.contract``, ``vector.outerproduct``, ``vector.print``,
  ``vector.create_mask``, 1-D ``transfer_read``/``transfer_write`` and
  ``vector.mask`` around them (see :mod:`vector_to_llvm_ops`), which
  upstream first rewrites to other vector ops.

Not covered (left unconverted): ``vector.maskedload``/``maskedstore``,
transfers of rank > 1 or with permutations (``convert-vector-to-scf`` splits
them first), scalable and 0-d vectors, and a dynamic position into an n-D
vector (upstream leaves that one too). ``vector.transpose`` and the other
vector-to-vector lowerings upstream runs are not here. ``vector.splat``, ``insertelement`` and ``extractelement`` are
gone from upstream's vector dialect, and xDSL lacks ``from_elements``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.type_converter import (
    ConversionState,
    ConvertToLLVMPattern,
    LLVMTypeConverter,
)
from mlkit.passes.conversion.llvm_common.memref_descriptor import OpBuilder
from mlkit.passes.conversion.vector_to_llvm_nd import run_conversion, unroll_nd
from mlkit.passes.conversion.vector_to_llvm_ops.contract import (
    ContractionLowering,
    OuterProductLowering,
)
from mlkit.passes.conversion.vector_to_llvm_ops.printing import PrintLowering
from mlkit.passes.conversion.vector_to_llvm_ops.transfer import CreateMaskLowering, TransferLowering
from mlkit.passes.conversion.vector_to_llvm_ops.values import abi_alignment
from mlkit.passes.conversion.vector_to_llvm_reduction import ReductionLowering
from xdsl.context import Context
from xdsl.dialects import vector
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    ModuleOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)


def _const(value: int, type: Attribute) -> llvm.ConstantOp:
    return llvm.ConstantOp(IntegerAttr(value, type), type)


def _splat(value: SSAValue, type: VectorType, ops: list[Operation]) -> SSAValue:
    """A 1-D vector of ``value`` everywhere: insert at 0, zero-mask shuffle."""
    poison = llvm.PoisonOp(type)
    zero = _const(0, i32)
    insert = llvm.InsertElementOp(poison.results[0], value, zero.results[0])
    shuffle = llvm.ShuffleVectorOp(insert.results[0], poison.results[0], [0] * type.get_shape()[0])
    ops += [poison, zero, insert, shuffle]
    return shuffle.results[0]


def _static(position: Sequence[int | SSAValue]) -> list[int] | None:
    return None if any(not isinstance(p, int) for p in position) else list(position)  # type: ignore[misc]


def _positions(op: vector.ExtractOp | vector.InsertOp) -> list[int | SSAValue]:
    dynamic = iter(op.dynamic_position)
    return [next(dynamic) if p == vector.DYNAMIC_INDEX else p for p in op.static_position.get_values()]


@dataclass
class BroadcastLowering(ConvertToLLVMPattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BroadcastOp, rewriter: PatternRewriter) -> None:
        result = op.vector.type
        res_llvm = self.convert(result)
        source = self.remap(rewriter, op.source)
        if res_llvm is None or source is None or any(result.get_scalable_dims()):
            return
        shape = list(result.get_shape())
        src_type = op.source.type
        src_shape = list(src_type.get_shape()) if isinstance(src_type, VectorType) else []
        row_type = _inner(res_llvm)
        ops: list[Operation] = []
        rows: dict[tuple[int, ...], SSAValue] = {}

        def row(position: tuple[int, ...]) -> SSAValue:
            if not src_shape:
                key: tuple[int, ...] = ()
            else:
                lead = len(shape) - len(src_shape)
                key = tuple(0 if src_shape[j] == 1 else position[lead + j] for j in range(len(src_shape) - 1))
            if key in rows:
                return rows[key]
            if not src_shape:
                value = _splat(source, row_type, ops)
            else:
                vec = source
                if key:
                    extract = llvm.ExtractValueOp(source, list(key))
                    ops.append(extract)
                    vec = extract.results[0]
                if src_shape[-1] == shape[-1]:
                    value = vec
                else:
                    zero = _const(0, i64)
                    element = llvm.ExtractElementOp(vec, zero.results[0])
                    ops.extend([zero, element])
                    value = _splat(element.results[0], row_type, ops)
            rows[key] = value
            return value

        if len(shape) == 1:
            value = row(())
        else:
            poison = llvm.PoisonOp(res_llvm)
            ops.append(poison)
            value = poison.results[0]
            for position in itertools.product(*(range(d) for d in shape[:-1])):
                insert = llvm.InsertValueOp(value, row(position), list(position))
                ops.append(insert)
                value = insert.results[0]
        self.replace(rewriter, op, ops, [value])


def _inner(type: Attribute) -> VectorType:
    while isinstance(type, llvm.LLVMArrayType):
        type = type.type
    assert isinstance(type, VectorType)
    return type


@dataclass
class ExtractLowering(ConvertToLLVMPattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter) -> None:
        src_type = op.vector.type
        positions = _positions(op)
        rank = src_type.get_num_dims()
        if rank == 0 or any(src_type.get_scalable_dims()):
            return
        if _static(positions[:-1]) is None:
            return  # a dynamic position into an n-D vector: upstream leaves it
        if self.convert(op.result.type) is None:
            return
        source = self.remap(rewriter, op.vector)
        if source is None:
            return
        if not positions:
            rewriter.replace(op, [], [op.vector])
            return
        ops: list[Operation] = []
        value = source
        lead: list[int] = positions[:-1] if len(positions) == rank else positions  # type: ignore[assignment]
        if lead:
            extract = llvm.ExtractValueOp(value, lead)
            ops.append(extract)
            value = extract.results[0]
        if len(positions) == rank:
            index = self._index(rewriter, positions[-1], ops)
            if index is None:
                return
            element = llvm.ExtractElementOp(value, index)
            ops.append(element)
            value = element.results[0]
        self.replace(rewriter, op, ops, [value])

    def _index(self, rewriter: PatternRewriter, position: int | SSAValue,
               ops: list[Operation]) -> SSAValue | None:
        if isinstance(position, int):
            const = _const(position, i64)
            ops.append(const)
            return const.results[0]
        return self.remap(rewriter, position)


@dataclass
class InsertLowering(ExtractLowering):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InsertOp, rewriter: PatternRewriter) -> None:  # type: ignore[override]
        dest_type = op.dest.type
        positions = _positions(op)
        rank = dest_type.get_num_dims()
        if rank == 0 or any(dest_type.get_scalable_dims()) or _static(positions[:-1]) is None:
            return
        dest = self.remap(rewriter, op.dest)
        source = self.remap(rewriter, op.source)
        if dest is None or source is None:
            return
        if not positions:
            rewriter.replace(op, [], [op.source])
            return
        ops: list[Operation] = []
        if len(positions) < rank:
            insert = llvm.InsertValueOp(dest, source, positions)  # type: ignore[arg-type]
            ops.append(insert)
            self.replace(rewriter, op, ops, [insert.results[0]])
            return
        lead: list[int] = positions[:-1]  # type: ignore[assignment]
        row = dest
        if lead:
            extract = llvm.ExtractValueOp(dest, lead)
            ops.append(extract)
            row = extract.results[0]
        index = self._index(rewriter, positions[-1], ops)
        if index is None:
            return
        element = llvm.InsertElementOp(row, source, index)
        ops.append(element)
        value = element.results[0]
        if lead:
            insert = llvm.InsertValueOp(dest, value, lead)
            ops.append(insert)
            value = insert.results[0]
        self.replace(rewriter, op, ops, [value])


@dataclass
class ElementwiseLowering(ConvertToLLVMPattern):
    """``vector.fma`` and ``vector.bitcast``: one LLVM op per 1-D vector."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, vector.FMAOp):
            build = lambda t, vs: [llvm.FMulAddOp(*vs)]  # type: ignore[attr-defined]
        elif isinstance(op, vector.BitcastOp):
            build = lambda t, vs: [llvm.BitcastOp(vs[0], t)]
        else:
            return
        result = self.convert(op.results[0].type)
        operands = self.operands(rewriter, op)
        if result is None or operands is None:
            return
        if isinstance(result, VectorType):
            ops = build(result, operands)
            self.replace(rewriter, op, ops, [ops[-1].results[0]])
            return
        ops, value = unroll_nd(result, operands, build)
        self.replace(rewriter, op, ops, [value])


@dataclass
class ShuffleLowering(ConvertToLLVMPattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ShuffleOp, rewriter: PatternRewriter) -> None:
        result = self.convert(op.result.type)
        operands = self.operands(rewriter, op)
        if result is None or operands is None:
            return
        v1, v2 = operands
        mask = list(op.mask.get_values())
        if isinstance(result, VectorType) and v1.type == v2.type:
            shuffle = llvm.ShuffleVectorOp(v1, v2, mask)
            self.replace(rewriter, op, [shuffle], [shuffle.results[0]])
            return
        first = op.v1.type.get_shape()[0]
        poison = llvm.PoisonOp(result)
        ops: list[Operation] = [poison]
        value = poison.results[0]
        for position, index in enumerate(mask):
            source, at = (v1, index) if index < first else (v2, index - first)
            if isinstance(result, VectorType):
                at_const, to_const = _const(at, i64), _const(position, i64)
                extract = llvm.ExtractElementOp(source, at_const.results[0])
                insert = llvm.InsertElementOp(value, extract.results[0], to_const.results[0])
                ops += [at_const, extract, to_const, insert]
            else:
                extract = llvm.ExtractValueOp(source, [at])
                insert = llvm.InsertValueOp(value, extract.results[0], [position])
                ops += [extract, insert]
            value = insert.results[0]
        self.replace(rewriter, op, ops, [value])


@dataclass
class LoadStoreLowering(ConvertToLLVMPattern):
    use_vector_alignment: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, (vector.LoadOp, vector.StoreOp)):
            return
        memref_type = op.base.type
        vec_type = op.result.type if isinstance(op, vector.LoadOp) else op.vector.type
        if not isinstance(memref_type, MemRefType) or not isinstance(vec_type, VectorType):
            return
        if vec_type.get_num_dims() != 1 or any(vec_type.get_scalable_dims()):
            return
        llvm_vec = self.convert(vec_type)
        desc = self.remap(rewriter, op.base)
        indices = [self.remap(rewriter, i) for i in op.indices]
        if llvm_vec is None or desc is None or any(i is None for i in indices):
            return
        builder = OpBuilder(self.converter)
        pointer = builder.element_pointer(desc, memref_type, indices)  # type: ignore[arg-type]
        align_type = vec_type if self.use_vector_alignment else memref_type.element_type
        alignment = abi_alignment(align_type, self.converter)
        if isinstance(op, vector.LoadOp):
            load = llvm.LoadOp(pointer, llvm_vec, alignment)
            self.replace(rewriter, op, [*builder.ops, load], [load.results[0]])
            return
        value = self.remap(rewriter, op.vector)
        if value is None:
            return
        self.replace(rewriter, op, [*builder.ops, llvm.StoreOp(value, pointer, alignment)], [])


def vector_to_llvm_patterns(
    converter: LLVMTypeConverter | None = None,
    state: ConversionState | None = None,
    reassociate_fp_reductions: bool = False,
    use_vector_alignment: bool = False,
    force_32bit_vector_indices: bool = True,
) -> list[RewritePattern]:
    """The patterns of this conversion, for ``convert-to-llvm`` to include."""
    shared = {"converter": converter or LLVMTypeConverter(), "state": state or ConversionState()}
    return [
        BroadcastLowering(**shared),  # type: ignore[arg-type]
        ExtractLowering(**shared),  # type: ignore[arg-type]
        InsertLowering(**shared),  # type: ignore[arg-type]
        ElementwiseLowering(**shared),  # type: ignore[arg-type]
        ShuffleLowering(**shared),  # type: ignore[arg-type]
        LoadStoreLowering(**shared, use_vector_alignment=use_vector_alignment),  # type: ignore[arg-type]
        ReductionLowering(**shared, reassociate_fp_reductions=reassociate_fp_reductions),  # type: ignore[arg-type]
        OuterProductLowering(**shared),  # type: ignore[arg-type]
        ContractionLowering(**shared),  # type: ignore[arg-type]
        PrintLowering(**shared),  # type: ignore[arg-type]
        CreateMaskLowering(**shared, force_32bit_vector_indices=force_32bit_vector_indices),  # type: ignore[arg-type]
        TransferLowering(**shared, force_32bit_vector_indices=force_32bit_vector_indices),  # type: ignore[arg-type]
    ]


@dataclass(frozen=True)
class ConvertVectorToLLVMPass(ModulePass):
    """Lower the operations from the vector dialect into the LLVM dialect"""

    name = "convert-vector-to-llvm"

    reassociate_fp_reductions: bool = False
    force_32bit_vector_indices: bool = True
    use_vector_alignment: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        state = ConversionState()
        patterns = vector_to_llvm_patterns(
            LLVMTypeConverter(), state, self.reassociate_fp_reductions, self.use_vector_alignment,
            self.force_32bit_vector_indices,
        )
        run_conversion(op, patterns, state)
