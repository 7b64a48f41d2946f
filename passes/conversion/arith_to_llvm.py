"""``convert-arith-to-llvm``: arith ops on scalars and 1-D vectors to the LLVM dialect.

Follows upstream's ArithToLLVM patterns: one-to-one ops keep their overflow
and fast-math flags, ``index`` becomes ``iN`` (``index-bitwidth``, 0 meaning
64 as upstream derives it from the default data layout), ``index_cast``
truncates or extends by bit width, and ``ceildivsi``, ``floordivsi``,
``ceildivui``, ``mulsi_extended`` and ``mului_extended`` expand into the
same instruction sequences as upstream's.

Differences from upstream, all with the same semantics:

* ``maxsi``/``minsi``/``maxui``/``minui`` become ``llvm.icmp`` + ``llvm.select``,
  and ``addui_extended`` becomes ``llvm.add`` + ``llvm.icmp "ult"``: mlkit's
  LLVM dialect has no ``llvm.intr.smax``/``smin``/``umax``/``umin`` or
  ``llvm.intr.uadd.with.overflow`` ops.
* n-D vectors become nested arrays of 1-D vectors and each elementwise op
  works slice by slice, as upstream's ``handleMultidimensionalVectors``; the
  ops with two results (``addui_extended``, ``mul*_extended``) and ops on
  tensors are left unconverted on them, as is ``arith.truncf`` with a rounding
  mode.
* The op-folding upstream's conversion driver does on the side is left to
  ``canonicalize``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.conversion_pass import IndexBitwidthConversionPass
from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern
from mlkit.passes.conversion.vector_to_llvm_nd import unroll_nd

def _one_to_one(pairs: str) -> dict[str, type[Operation]]:
    """``arith.<op>`` -> the llvm op class, from ``"op:Class ..."``."""
    return {f"arith.{op}": getattr(llvm, cls) for op, cls in (p.split(":") for p in pairs.split())}


_INT_OVERFLOW = _one_to_one("addi:AddOp subi:SubOp muli:MulOp shli:ShlOp")
_INT_PLAIN = _one_to_one(
    "divsi:SDivOp divui:UDivOp remsi:SRemOp remui:URemOp andi:AndOp ori:OrOp xori:XOrOp "
    "shrsi:AShrOp shrui:LShrOp"
)
_FLOAT_BINARY = _one_to_one(
    "addf:FAddOp subf:FSubOp mulf:FMulOp divf:FDivOp remf:FRemOp maximumf:MaximumOp "
    "minimumf:MinimumOp maxnumf:MaxNumOp minnumf:MinNumOp"
)
_CASTS = _one_to_one(
    "extsi:SExtOp extui:ZExtOp trunci:TruncOp sitofp:SIToFPOp uitofp:UIToFPOp fptosi:FPToSIOp "
    "fptoui:FPToUIOp extf:FPExtOp truncf:FPTruncOp bitcast:BitcastOp"
)
_MIN_MAX = {"arith.maxsi": "sgt", "arith.minsi": "slt", "arith.maxui": "ugt", "arith.minui": "ult"}
_OVERFLOW_BITS = {"nsw": 1, "nuw": 2}
_CMPI = "eq ne slt sle sgt sge ult ule ugt uge".split()


def _with_nneg(cast: Operation, op: Operation) -> Operation:
    """``cast`` with arith's ``nneg`` flag where the llvm op takes one
    (``zext``, ``uitofp``), as upstream's lowering keeps it."""
    flag = op.properties.get("nonNeg")
    if flag is not None and "nonNeg" in type(cast).get_irdl_definition().properties:  # type: ignore[attr-defined]
        cast.properties["nonNeg"] = flag
    return cast


def fastmath_of(op: Operation) -> llvm.FastMathAttr:
    """arith's ``fastmath`` property as ``#llvm.fastmath``."""
    attr = op.properties.get("fastmath")
    flags = getattr(attr, "data", frozenset())
    return llvm.FastMathAttr([str(f.value) for f in flags])


def overflow_of(op: Operation) -> IntegerAttr:
    """arith's ``overflowFlags`` as the LLVM ops' i32 bit mask."""
    attr = op.properties.get("overflowFlags")
    flags = getattr(attr, "data", frozenset())
    return IntegerAttr(sum(_OVERFLOW_BITS[str(f.value)] for f in flags), 32)


def _element(type: Attribute) -> Attribute:
    return type.element_type if isinstance(type, VectorType) else type


def _width(type: Attribute) -> int:
    element = _element(type)
    assert isinstance(element, IntegerType)
    return element.width.data


def splat(value: int, type: Attribute) -> llvm.ConstantOp:
    """``llvm.mlir.constant`` of ``value`` as an integer or a splat vector."""
    if isinstance(type, VectorType):
        return llvm.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(type, [value] * type.element_count()), type
        )
    return llvm.ConstantOp(IntegerAttr(value, type), type)


def _is_supported(type: Attribute) -> bool:
    """Scalars and 1-D vectors; arith on tensors (left for bufferization) and
    the casts of memrefs (which upstream's ArithToLLVM leaves too) are not."""
    if isinstance(type, TensorType | UnrankedTensorType | MemRefType | UnrankedMemRefType):
        return False
    return not isinstance(type, VectorType) or type.get_num_dims() == 1


def _is_nd(type: Attribute) -> bool:
    return isinstance(type, VectorType) and type.get_num_dims() > 1


def _is_scalar(type: Attribute) -> bool:
    return not isinstance(type, VectorType | TensorType | UnrankedTensorType | MemRefType)


class _NotUnrolled(Exception):
    """A slice of an n-D op the 1-D lowering does not rewrite."""


Lowering = Callable[[Operation, list[SSAValue], list[Attribute]], list[Operation] | None]


@dataclass
class ArithToLLVMPattern(ConvertToLLVMPattern):
    """Every arith op upstream's ArithToLLVM converts, dispatched by name."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.name.startswith("arith."):
            return
        lower = self._lowering(op.name)
        if lower is None:
            return
        types = [self.convert(r.type) for r in op.results]
        if any(t is None or not _is_supported(t) for t in types):
            return
        # (an n-D constant is one llvm.mlir.constant of the array type)
        if op.operands and any(_is_nd(v.type) for v in (*op.operands, *op.results)):
            self._rewrite_nd(op, rewriter, lower, types)
            return
        if any(not _is_supported(o.type) for o in op.operands):
            return
        operands = self.operands(rewriter, op)
        if operands is None:
            return
        new_ops = lower(op, operands, types)  # type: ignore[arg-type]
        if new_ops is None:
            return
        values = self._results(op, new_ops, operands)
        self.replace(rewriter, op, new_ops, values)

    def _rewrite_nd(
        self, op: Operation, rewriter: PatternRewriter, lower: Lowering, types: list[Attribute]
    ) -> None:
        """An elementwise op on n-D vectors, one 1-D slice at a time over the
        nested arrays they lower to (upstream's
        ``handleMultidimensionalVectors``); scalar operands (a select's
        condition) are shared by every slice."""
        if len(op.results) != 1 or not isinstance(types[0], llvm.LLVMArrayType):
            return
        if not all(_is_nd(o.type) or _is_scalar(o.type) for o in op.operands):
            return
        operands = self.operands(rewriter, op)
        if operands is None:
            return
        sliced = [_is_nd(o.type) for o in op.operands]

        def build(inner: Attribute, pieces: Sequence[SSAValue]) -> list[Operation]:
            slices = iter(pieces)
            full = [next(slices) if nd else v for v, nd in zip(operands, sliced)]
            built = lower(op, full, [inner])
            if not built:  # a no-op slice (an index_cast between equal widths)
                raise _NotUnrolled
            return built

        arrays = [v for v, nd in zip(operands, sliced) if nd]
        try:
            new_ops, result = unroll_nd(types[0], arrays, build)
        except _NotUnrolled:
            return
        self.replace(rewriter, op, new_ops, [result])

    def _results(self, op: Operation, new_ops: list[Operation], operands: list[SSAValue]) -> list[SSAValue]:
        if op.name in ("arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended"):
            return [new_ops[i].results[0] for i in self._extended_result_positions(op, new_ops)]
        if not new_ops:  # an index_cast between equal widths
            return [operands[0]]
        return [new_ops[-1].results[0]]

    @staticmethod
    def _extended_result_positions(op: Operation, new_ops: list[Operation]) -> tuple[int, int]:
        if op.name == "arith.addui_extended":
            return 0, 1
        return 3, len(new_ops) - 1

    def _lowering(self, name: str) -> Lowering | None:
        if name in _INT_OVERFLOW:
            cls = _INT_OVERFLOW[name]
            return lambda op, v, t: [cls(v[0], v[1], overflowFlags=overflow_of(op))]
        if name in _INT_PLAIN:
            plain = _INT_PLAIN[name]
            return lambda op, v, t: [plain(v[0], v[1])]
        if name in _FLOAT_BINARY:
            binary = _FLOAT_BINARY[name]
            return lambda op, v, t: [_with_fastmath(binary(v[0], v[1]), op)]
        if name in _CASTS:
            cast = _CASTS[name]
            return lambda op, v, t: (
                None if "roundingmode" in op.properties else [_with_nneg(cast(v[0], t[0]), op)]
            )
        if name in _MIN_MAX:
            predicate = llvm.ICMP_PREDICATES[_MIN_MAX[name]]

            def min_max(op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
                cmp = llvm.ICmpOp(predicate, v[0], v[1])
                return [cmp, llvm.SelectOp(cmp.res, v[0], v[1])]

            return min_max
        return getattr(self, "_" + name.removeprefix("arith."), None)

    # ---- ops with their own lowering --------------------------------------

    def _constant(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation] | None:
        value = op.properties.get("value", op.attributes.get("value"))
        if value is None:
            return None
        return [llvm.ConstantOp(value, t[0])]

    def _negf(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        return [_with_fastmath(llvm.FNegOp(v[0]), op)]

    def _select(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        return [llvm.SelectOp(v[0], v[1], v[2])]

    def _cmpi(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        predicate = op.properties["predicate"]
        assert isinstance(predicate, IntegerAttr)
        return [llvm.ICmpOp(llvm.ICMP_PREDICATES[_CMPI[predicate.value.data]], v[0], v[1])]

    def _cmpf(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        predicate = op.properties["predicate"]
        assert isinstance(predicate, IntegerAttr)
        cmp = llvm.FCmpOp(predicate.value.data, v[0], v[1])
        return [_with_fastmath(cmp, op)]

    def _index_cast(self, op: Operation, v: list[SSAValue], t: list[Attribute],
                    extend: type[llvm.CastOp] = llvm.SExtOp) -> list[Operation]:
        source, target = _width(v[0].type), _width(t[0])
        if source == target:
            return []
        if source < target:
            return [extend(v[0], t[0])]
        return [llvm.TruncOp(v[0], t[0])]

    def _index_castui(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        return [_with_nneg(cast, op) for cast in self._index_cast(op, v, t, llvm.ZExtOp)]

    def _ceildivsi(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        """q = a / b; q + 1 if a != q * b and a, b have the same sign."""
        a, b = v
        zero, one = splat(0, t[0]), splat(1, t[0])
        q = llvm.SDivOp(a, b)
        back = llvm.MulOp(q.res, b)
        inexact = llvm.ICmpOp(llvm.ICMP_PREDICATES["ne"], a, back.res)
        a_neg = llvm.ICmpOp(llvm.ICMP_PREDICATES["slt"], a, zero.res)
        b_neg = llvm.ICmpOp(llvm.ICMP_PREDICATES["slt"], b, zero.res)
        same = llvm.ICmpOp(llvm.ICMP_PREDICATES["eq"], a_neg.res, b_neg.res)
        bump = llvm.AndOp(inexact.res, same.res)
        plus = llvm.AddOp(q.res, one.res)
        return [zero, one, q, back, inexact, a_neg, b_neg, same, bump, plus,
                llvm.SelectOp(bump.res, plus.res, q.res)]  # fmt: skip

    def _floordivsi(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        """q = a / b; q - 1 if a != q * b and a, b have different signs."""
        a, b = v
        q = llvm.SDivOp(a, b)
        back = llvm.MulOp(q.res, b)
        inexact = llvm.ICmpOp(llvm.ICMP_PREDICATES["ne"], a, back.res)
        zero = splat(0, t[0])
        a_neg = llvm.ICmpOp(llvm.ICMP_PREDICATES["slt"], a, zero.res)
        b_neg = llvm.ICmpOp(llvm.ICMP_PREDICATES["slt"], b, zero.res)
        differ = llvm.ICmpOp(llvm.ICMP_PREDICATES["ne"], a_neg.res, b_neg.res)
        bump = llvm.AndOp(inexact.res, differ.res)
        minus_one = splat(-1, t[0])
        minus = llvm.AddOp(q.res, minus_one.res)
        return [q, back, inexact, zero, a_neg, b_neg, differ, bump, minus_one, minus,
                llvm.SelectOp(bump.res, minus.res, q.res)]  # fmt: skip

    def _ceildivui(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        """a == 0 ? 0 : (a - 1) / b + 1."""
        a, b = v
        zero = splat(0, t[0])
        is_zero = llvm.ICmpOp(llvm.ICMP_PREDICATES["eq"], a, zero.res)
        one = splat(1, t[0])
        less = llvm.SubOp(a, one.res)
        q = llvm.UDivOp(less.res, b)
        plus = llvm.AddOp(q.res, one.res)
        return [zero, is_zero, one, less, q, plus, llvm.SelectOp(is_zero.res, zero.res, plus.res)]

    def _addui_extended(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        total = llvm.AddOp(v[0], v[1])
        return [total, llvm.ICmpOp(llvm.ICMP_PREDICATES["ult"], total.res, v[0])]

    def _mul_extended(self, v: list[SSAValue], t: list[Attribute],
                      extend: type[llvm.CastOp]) -> list[Operation]:
        width = _width(t[0])
        wide: Attribute = IntegerType(2 * width)
        if isinstance(t[0], VectorType):
            wide = VectorType(wide, t[0].get_shape())
        lhs, rhs = extend(v[0], wide), extend(v[1], wide)
        product = llvm.MulOp(lhs.res, rhs.res)
        low = llvm.TruncOp(product.res, t[0])
        shift = splat(width, wide)
        high = llvm.LShrOp(product.res, shift.res)
        return [lhs, rhs, product, low, shift, high, llvm.TruncOp(high.res, t[0])]

    def _mulsi_extended(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        return self._mul_extended(v, t, llvm.SExtOp)

    def _mului_extended(self, op: Operation, v: list[SSAValue], t: list[Attribute]) -> list[Operation]:
        return self._mul_extended(v, t, llvm.ZExtOp)


def _with_fastmath(new: Operation, op: Operation) -> Operation:
    flags = fastmath_of(op)
    if flags.flag_set:
        new.properties["fastmathFlags"] = flags
    return new


@dataclass(frozen=True)
class ConvertArithToLLVM(IndexBitwidthConversionPass):
    """Convert Arith dialect to LLVM dialect"""

    name = "convert-arith-to-llvm"
    display_name: ClassVar[str] = "ArithToLLVMConversionPass"
    PATTERNS: ClassVar = (ArithToLLVMPattern,)
