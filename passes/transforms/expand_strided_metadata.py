"""``expand-strided-metadata``: views as explicit metadata arithmetic, as
upstream's pass does, so that only ``memref.reinterpret_cast`` and
``memref.extract_strided_metadata`` are left for the LLVM lowering.

Covered patterns (upstream's names):
- ``SubviewFolder``: subview -> extract_strided_metadata + affine.apply + reinterpret_cast;
- ``ReshapeFolder`` for expand_shape and collapse_shape;
- ``ExtractStridedMetadataOp*Folder`` for a source produced by reinterpret_cast,
  alloc, alloca, get_global, cast and extract_strided_metadata (its base buffer);
- the op's folder: offsets, sizes and strides the source type fixes become constants.
Not covered: the folders through assume_alignment and memory_space_cast, and
``RewriteExtractAlignedPointerAsIndexOfViewLikeOp``.  Offsets, sizes and strides
are computed with ``affine.apply`` whose maps have constants folded in; unlike
upstream's greedy driver, maps are not composed across ops (upstream
``canonicalize`` does that), and the rank-reduction mask of a subview is found
by matching sizes only (upstream also consults strides when unit dimensions
are ambiguous).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, IndexType, IntegerAttr, MemRefType
from xdsl.dialects.builtin import ModuleOp, NoneAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr
from xdsl.ir.affine import AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern
from xdsl.pattern_rewriter import op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from mlkit.dialects import affine
from mlkit.passes.transforms.rewrite_driver import rewrite_regions

OpFoldResult = int | SSAValue
"""A static index or an SSA index value (upstream's ``OpFoldResult``)."""


def _remap(expr: AffineExpr, symbols: Sequence[AffineExpr]) -> AffineExpr:
    """Symbols replaced; unlike xDSL's ``replace_dims_and_symbols`` this keeps
    products of symbols, which xDSL's operators refuse to build."""
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    if isinstance(expr, AffineBinaryOpExpr):
        return AffineBinaryOpExpr(expr.kind, _remap(expr.lhs, symbols), _remap(expr.rhs, symbols))
    return expr


@dataclass(frozen=True)
class Sym:
    """An affine expression over SSA symbols, constants folded as they come."""

    expr: AffineExpr
    operands: tuple[SSAValue, ...] = ()

    @staticmethod
    def of(value: OpFoldResult) -> Sym:
        if isinstance(value, int):
            return Sym(AffineExpr.constant(value))
        return Sym(AffineExpr.symbol(0), (value,))

    @property
    def const(self) -> int | None:
        return self.expr.value if isinstance(self.expr, AffineConstantExpr) else None

    def _merge(self, other: Sym) -> tuple[AffineExpr, tuple[SSAValue, ...]]:
        operands = list(self.operands)
        remap: list[AffineExpr] = []
        for v in other.operands:
            if v not in operands:
                operands.append(v)
            remap.append(AffineExpr.symbol(operands.index(v)))
        return _remap(other.expr, remap), tuple(operands)

    def __add__(self, other: Sym) -> Sym:
        if self.const == 0:
            return other
        if other.const == 0:
            return self
        rhs, operands = self._merge(other)
        return Sym(self.expr + rhs, operands)

    def __mul__(self, other: Sym) -> Sym:
        if self.const == 0 or other.const == 0:
            return Sym.of(0)
        if self.const == 1:
            return other
        if other.const == 1:
            return self
        rhs, operands = self._merge(other)
        if self.const is None and other.const is None:
            return Sym(AffineBinaryOpExpr(AffineBinaryOpKind.Mul, self.expr, rhs), operands)
        return Sym(self.expr * rhs, operands)

    def materialize(self, rewriter: PatternRewriter) -> OpFoldResult:
        """A constant, the single operand itself, or an ``affine.apply``."""
        if (c := self.const) is not None:
            return c
        if self.expr == AffineExpr.symbol(0) and len(self.operands) == 1:
            return self.operands[0]
        amap = AffineMapAttr(AffineMap(0, len(self.operands), (self.expr,)))
        return rewriter.insert(affine.ApplyOp(self.operands, amap)).result


def to_value(rewriter: PatternRewriter, value: OpFoldResult) -> SSAValue:
    if isinstance(value, int):
        return rewriter.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result
    return value


def type_strides(mtype: MemRefType) -> tuple[list[int | None], int | None]:
    """Static strides (None where dynamic) and offset of a strided memref type."""
    if isinstance(mtype.layout, NoneAttr):
        strides: list[int | None] = []
        running: int | None = 1
        for size in reversed(mtype.get_shape()):
            strides.append(running)
            running = None if running is None or size == DYNAMIC_INDEX else running * size
        return strides[::-1], 0
    strides = list(mtype.layout.get_strides() or [None] * mtype.get_num_dims())
    return strides, mtype.layout.get_offset()


@dataclass
class Metadata:
    """Base buffer, offset, sizes and strides of a memref, static where its type says so."""

    base: SSAValue
    offset: OpFoldResult
    sizes: list[OpFoldResult]
    strides: list[OpFoldResult]


def extract_metadata(rewriter: PatternRewriter, source: SSAValue) -> Metadata:
    """An ``extract_strided_metadata`` of ``source``, its results replaced by
    the static values of ``source``'s type where there are some."""
    mtype = source.type
    assert isinstance(mtype, MemRefType)
    op = rewriter.insert(memref.ExtractStridedMetaDataOp(source))
    static_strides, static_offset = type_strides(mtype)
    sizes: list[OpFoldResult] = [
        s if s != DYNAMIC_INDEX else v for s, v in zip(mtype.get_shape(), op.sizes)
    ]
    strides: list[OpFoldResult] = [s if s is not None else v for s, v in zip(static_strides, op.strides)]
    offset: OpFoldResult = static_offset if static_offset is not None else op.offset
    return Metadata(op.base_buffer, offset, sizes, strides)


def mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[OpFoldResult]:
    """Upstream's ``getMixedValues``."""
    it = iter(dynamic)
    return [next(it) if s == DYNAMIC_INDEX else s for s in static]


def reinterpret(
    rewriter: PatternRewriter,
    base: SSAValue,
    result_type: MemRefType,
    offset: OpFoldResult,
    sizes: Sequence[OpFoldResult],
    strides: Sequence[OpFoldResult],
) -> memref.ReinterpretCastOp:
    """A ``reinterpret_cast`` of ``base``; a value the result type holds
    statically is written statically (the op's verifier wants them equal)."""
    static_strides, static_offset = type_strides(result_type)
    shape = result_type.get_shape()
    offset = static_offset if static_offset is not None else offset
    sizes = [s if s != DYNAMIC_INDEX else v for s, v in zip(shape, sizes)]
    strides = [s if s is not None else v for s, v in zip(static_strides, strides)]

    def split(values: Sequence[OpFoldResult]) -> tuple[list[SSAValue], list[int]]:
        return [v for v in values if isinstance(v, SSAValue)], [
            v if isinstance(v, int) else DYNAMIC_INDEX for v in values
        ]

    (do, so), (dsz, ssz), (dst, sst) = split([offset]), split(sizes), split(strides)
    return memref.ReinterpretCastOp(base, do, dsz, dst, so, ssz, sst, result_type)


def _dropped_dims(sizes: Sequence[OpFoldResult], result_shape: Sequence[int]) -> set[int]:
    """Dimensions a rank-reducing subview drops: unit sizes not matched, in
    order, by a result dimension."""
    dropped: set[int] = set()
    j = 0
    for i, size in enumerate(sizes):
        want = result_shape[j] if j < len(result_shape) else None
        matches = want is not None and (size == want if isinstance(size, int) else want == DYNAMIC_INDEX)
        if not matches and size == 1:
            dropped.add(i)
        else:
            j += 1
    return dropped


View = tuple[OpFoldResult, list[OpFoldResult], list[OpFoldResult]]
"""The offset, sizes and strides of a view."""


class ViewFolder(RewritePattern):
    """Base of the folders that turn a view (``OP``) of ``SOURCE`` into a
    ``reinterpret_cast`` of the source's base buffer; ``view`` computes the
    view's offset, sizes and strides from the source's metadata."""

    OP: ClassVar[type[Operation]] = Operation
    SOURCE: ClassVar[str] = ""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.OP):
            return
        result_type = op.results[0].type
        assert isinstance(result_type, MemRefType)
        meta = extract_metadata(rewriter, getattr(op, self.SOURCE))
        offset, sizes, strides = self.view(op, rewriter, result_type, meta)
        rewriter.replace(op, reinterpret(rewriter, meta.base, result_type, offset, sizes, strides))

    def view(self, op: Operation, rewriter: PatternRewriter, result_type: MemRefType,
             meta: Metadata) -> View:
        raise NotImplementedError


class SubviewFolder(ViewFolder):
    """offset = base offset + sum(offset_i * stride_i); stride_i = base stride_i * step_i."""

    OP: ClassVar = memref.SubviewOp
    SOURCE: ClassVar = "source"

    def view(self, op: memref.SubviewOp, rewriter: PatternRewriter, result_type: MemRefType,  # type: ignore[override]
             meta: Metadata) -> View:
        offsets = mixed(op.static_offsets.get_values(), op.offsets)
        sizes = mixed(op.static_sizes.get_values(), op.sizes)
        steps = mixed(op.static_strides.get_values(), op.strides)
        offset = Sym.of(meta.offset)
        for off, stride in zip(offsets, meta.strides):
            offset = offset + Sym.of(off) * Sym.of(stride)
        strides = [(Sym.of(s) * Sym.of(t)) for s, t in zip(meta.strides, steps)]
        # Strides first, then the offset, in upstream's order.
        final_strides = [s.materialize(rewriter) for s in strides]
        final_offset = offset.materialize(rewriter)
        dropped = _dropped_dims(sizes, result_type.get_shape()) if len(sizes) != result_type.get_num_dims() else set()
        kept = [i for i in range(len(sizes)) if i not in dropped]
        return final_offset, [sizes[i] for i in kept], [final_strides[i] for i in kept]


class ExpandShapeFolder(ViewFolder):
    """Upstream's ``ReshapeFolder<ExpandShapeOp>``: each group's inner stride
    is the source stride, outer ones multiply in the inner sizes."""

    OP: ClassVar = memref.ExpandShapeOp
    SOURCE: ClassVar = "src"

    def view(self, op: memref.ExpandShapeOp, rewriter: PatternRewriter, result_type: MemRefType,  # type: ignore[override]
             meta: Metadata) -> View:
        sizes = mixed(op.static_output_shape.get_values(), op.output_shape)
        strides: list[OpFoldResult] = [0] * len(sizes)
        for group, src_stride in zip(op.reassociation, meta.strides):
            running = Sym.of(src_stride)
            for dim in reversed([d.value.data for d in group]):
                strides[dim] = running.materialize(rewriter)
                running = running * Sym.of(sizes[dim])
        return meta.offset, sizes, strides


class CollapseShapeFolder(ViewFolder):
    """Upstream's ``ReshapeFolder<CollapseShapeOp>``: sizes multiply, the
    stride is the innermost non-unit dimension's."""

    OP: ClassVar = memref.CollapseShapeOp
    SOURCE: ClassVar = "src"

    def view(self, op: memref.CollapseShapeOp, rewriter: PatternRewriter, result_type: MemRefType,  # type: ignore[override]
             meta: Metadata) -> View:
        source_type = op.src.type
        assert isinstance(source_type, MemRefType)
        src_shape = source_type.get_shape()
        sizes: list[OpFoldResult] = []
        strides: list[OpFoldResult] = []
        result_strides, _ = type_strides(result_type)
        for k, group in enumerate(op.reassociation):
            dims = [d.value.data for d in group]
            size = Sym.of(1)
            for dim in dims:
                size = size * Sym.of(meta.sizes[dim])
            sizes.append(size.materialize(rewriter))
            non_unit = [d for d in dims if src_shape[d] != 1]
            if non_unit:
                strides.append(meta.strides[non_unit[-1]])
            elif (static := result_strides[k]) is not None:
                strides.append(static)
            else:
                strides.append(next(meta.strides[d] for d in dims if not isinstance(meta.strides[d], int)))
        return meta.offset, sizes, strides


def _replace_metadata(
    rewriter: PatternRewriter,
    op: memref.ExtractStridedMetaDataOp,
    base: SSAValue,
    offset: OpFoldResult,
    sizes: Sequence[OpFoldResult],
    strides: Sequence[OpFoldResult],
) -> None:
    values = [base, *(to_value(rewriter, v) for v in (offset, *sizes, *strides))]
    rewriter.replace(op, [], values)


class ExtractStridedMetadataFolder(RewritePattern):
    """Upstream's ``ExtractStridedMetadataOp*Folder`` patterns: metadata of a
    value whose producer says what it is."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter) -> None:
        source = op.source
        producer = source.owner
        mtype = source.type
        assert isinstance(mtype, MemRefType)
        if isinstance(producer, memref.ReinterpretCastOp):
            inner = extract_metadata(rewriter, producer.source)
            _replace_metadata(
                rewriter,
                op,
                inner.base,
                mixed(producer.static_offsets.get_values(), producer.offsets)[0],
                mixed(producer.static_sizes.get_values(), producer.sizes),
                mixed(producer.static_strides.get_values(), producer.strides),
            )
        elif isinstance(producer, (memref.AllocOp, memref.AllocaOp, memref.GetGlobalOp)):
            if not isinstance(mtype.layout, NoneAttr):
                return  # upstream also requires an identity layout
            dynamic = iter(producer.dynamic_sizes) if not isinstance(producer, memref.GetGlobalOp) else iter(())
            sizes: list[OpFoldResult] = [next(dynamic) if s == DYNAMIC_INDEX else s for s in mtype.get_shape()]
            strides: list[OpFoldResult] = []
            running = Sym.of(1)
            for size in reversed(sizes):
                strides.append(running.materialize(rewriter))
                running = running * Sym.of(size)
            base_type = op.base_buffer.type
            base = rewriter.insert(memref.ReinterpretCastOp(source, [], [], [], [0], [], [], base_type)).result
            _replace_metadata(rewriter, op, base, 0, sizes, strides[::-1])
        elif isinstance(producer, memref.CastOp):
            inner = extract_metadata(rewriter, producer.source)
            _replace_metadata(rewriter, op, inner.base, inner.offset, inner.sizes, inner.strides)
        elif isinstance(producer, memref.ExtractStridedMetaDataOp) and source is producer.base_buffer:
            _replace_metadata(rewriter, op, source, 0, [], [])


class StaticMetadataFolder(RewritePattern):
    """Upstream's ``ExtractStridedMetadataOp::fold``: the offset, sizes and
    strides the source's type fixes become constants. As upstream's greedy
    driver places folded constants, they go at the start of the enclosing
    isolated region's entry block, one per value, in the order they are made."""

    def __init__(self) -> None:
        self._made: dict[tuple[Block, int], SSAValue] = {}
        self._last: dict[Block, Operation] = {}

    def _constant(self, rewriter: PatternRewriter, near: Operation, value: int) -> SSAValue:
        scope = near
        while (parent := scope.parent_op()) is not None and not parent.has_trait(IsolatedFromAbove):
            scope = parent
        entry = scope.parent_block()
        assert entry is not None
        found = self._made.get((entry, value))
        if found is not None and found.owner.parent is entry:  # not erased since
            return found
        constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
        last = self._last.get(entry)
        if last is not None and last.parent is entry:
            where = InsertPoint.after(last)
        else:
            where = InsertPoint.at_start(entry)
        rewriter.insert(constant, where)
        self._last[entry] = constant
        self._made[(entry, value)] = constant.result
        return constant.result

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter) -> None:
        mtype = op.source.type
        if not isinstance(mtype, MemRefType):
            return
        strides, offset = type_strides(mtype)
        sizes = [None if s == DYNAMIC_INDEX else s for s in mtype.get_shape()]
        static = [offset, *sizes, *strides]
        for result, value in zip(op.results[1:], static, strict=True):
            if value is None or value < 0 or not result.uses:
                continue
            rewriter.replace_all_uses_with(result, self._constant(rewriter, op, value))


@dataclass(frozen=True)
class ExpandStridedMetadata(ModulePass):
    """Expand memref operations into easier to analyze constructs"""

    name = "expand-strided-metadata"
    display_name: ClassVar[str] = "ExpandStridedMetadataPass"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [SubviewFolder(), ExpandShapeFolder(), CollapseShapeFolder(),
                    ExtractStridedMetadataFolder(), StaticMetadataFolder()]  # fmt: skip
        rewrite_regions(op, GreedyRewritePatternApplier(patterns))
