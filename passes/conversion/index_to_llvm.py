"""``convert-index-to-llvm``: the index dialect to the LLVM dialect.

Follows upstream's IndexToLLVM: ``index`` becomes ``iN`` (``index-bitwidth``,
0 meaning 64), arithmetic maps one to one, ``ceildivs``/``ceildivu``/
``floordivs`` expand into upstream's sequences, ``casts``/``castu``
truncate or extend (or vanish between equal widths), ``sizeof`` becomes the
index bit width, constants take the converted integer type, and
``maxs``/``mins``/``maxu``/``minu`` become ``llvm.intr.smax``/``smin``/
``umax``/``umin``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.conversion_pass import IndexBitwidthConversionPass
from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern

_BINARY: dict[str, type[Operation]] = {
    "index.add": llvm.AddOp, "index.sub": llvm.SubOp, "index.mul": llvm.MulOp,
    "index.divs": llvm.SDivOp, "index.divu": llvm.UDivOp, "index.rems": llvm.SRemOp,
    "index.remu": llvm.URemOp, "index.shl": llvm.ShlOp, "index.shrs": llvm.AShrOp,
    "index.shru": llvm.LShrOp, "index.and": llvm.AndOp, "index.or": llvm.OrOp,
    "index.xor": llvm.XOrOp,
}  # fmt: skip
_MIN_MAX: dict[str, type[Operation]] = {
    "index.maxs": llvm.SMaxOp, "index.mins": llvm.SMinOp,
    "index.maxu": llvm.UMaxOp, "index.minu": llvm.UMinOp,
}  # fmt: skip
_P = llvm.ICMP_PREDICATES


def _icmp(predicate: str, lhs: SSAValue, rhs: SSAValue) -> llvm.ICmpOp:
    return llvm.ICmpOp(_P[predicate], lhs, rhs)


def _select_on_signs(n: SSAValue, m_sign: SSAValue, zero: SSAValue, n_sign_predicate: str,
                     compare: str, chosen: SSAValue, other: SSAValue) -> list[Operation]:
    """The tail of upstream's signed ``ceildivs``/``floordivs``: ``chosen``
    where ``n``'s sign (``n n_sign_predicate 0``) compares by ``compare``
    with ``m``'s and ``n != 0``, else ``other``; the result is the last op."""
    n_sign = _icmp(n_sign_predicate, n, zero)
    signs = _icmp(compare, n_sign.res, m_sign)
    n_nonzero = _icmp("ne", n, zero)
    both = llvm.AndOp(signs.res, n_nonzero.res)
    return [n_sign, signs, n_nonzero, both, llvm.SelectOp(both.res, chosen, other)]


@dataclass
class IndexToLLVMPattern(ConvertToLLVMPattern):
    """Every op of the index dialect, dispatched by name."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.name.startswith("index."):
            return
        types = [self.convert(r.type) for r in op.results]
        if any(t is None for t in types):
            return
        operands = self.operands(rewriter, op)
        if operands is None:
            return
        lowered = self._lower(op, operands, types)  # type: ignore[arg-type]
        if lowered is None:
            return
        new_ops, result = lowered
        self.replace(rewriter, op, new_ops, [result])

    def _lower(
        self, op: Operation, v: list[SSAValue], t: list[Attribute]
    ) -> tuple[list[Operation], SSAValue] | None:
        name = op.name
        if name in _BINARY:
            new = _BINARY[name].create(operands=v, result_types=[v[0].type])
            return [new], new.results[0]
        if name in _MIN_MAX:
            new = _MIN_MAX[name](v[0], v[1])
            return [new], new.results[0]
        if name == "index.cmp":
            predicate = op.properties["pred"]
            cmp = _icmp(str(getattr(predicate, "data").value), v[0], v[1])
            return [cmp], cmp.res
        if name in ("index.constant", "index.bool.constant"):
            value = op.properties["value"]
            assert isinstance(value, IntegerAttr)
            const = llvm.ConstantOp(IntegerAttr(value.value.data, t[0]), t[0])
            return [const], const.res
        if name == "index.sizeof":
            const = self.constant(self.converter.index_bitwidth)
            return [const], const.results[0]
        if name in ("index.casts", "index.castu"):
            return self._cast(v[0], t[0], signed=name == "index.casts")
        expand = {"index.ceildivs": self._ceildivs, "index.ceildivu": self._ceildivu,
                  "index.floordivs": self._floordivs}.get(name)  # fmt: skip
        return None if expand is None else expand(v[0], v[1])

    @staticmethod
    def _cast(value: SSAValue, target: Attribute, signed: bool) -> tuple[list[Operation], SSAValue]:
        assert isinstance(value.type, IntegerType) and isinstance(target, IntegerType)
        source_width, target_width = value.type.width.data, target.width.data
        if source_width == target_width:
            return [], value
        if source_width > target_width:
            new: Operation = llvm.TruncOp(value, target)
        else:
            new = (llvm.SExtOp if signed else llvm.ZExtOp)(value, target)
        return [new], new.results[0]

    def _ceildivs(self, n: SSAValue, m: SSAValue) -> tuple[list[Operation], SSAValue]:
        """x = m > 0 ? -1 : 1; n and m with the same sign and n != 0 ?
        (n + x) / m + 1 : -(-n / m)."""
        zero, pos_one, neg_one = self.constant(0), self.constant(1), self.constant(-1)
        m_pos = _icmp("sgt", m, zero.results[0])
        x = llvm.SelectOp(m_pos.res, neg_one.results[0], pos_one.results[0])
        n_plus_x = llvm.AddOp(n, x.res)
        div = llvm.SDivOp(n_plus_x.res, m)
        pos_res = llvm.AddOp(div.res, pos_one.results[0])
        neg_n = llvm.SubOp(zero.results[0], n)
        neg_div = llvm.SDivOp(neg_n.res, m)
        neg_res = llvm.SubOp(zero.results[0], neg_div.res)
        tail = _select_on_signs(n, m_pos.res, zero.results[0], "sgt", "eq", pos_res.res, neg_res.res)
        return [zero, pos_one, neg_one, m_pos, x, n_plus_x, div, pos_res, neg_n, neg_div,
                neg_res, *tail], tail[-1].results[0]  # fmt: skip

    def _ceildivu(self, n: SSAValue, m: SSAValue) -> tuple[list[Operation], SSAValue]:
        """n == 0 ? 0 : (n - 1) / m + 1."""
        zero, one = self.constant(0), self.constant(1)
        minus_one = llvm.SubOp(n, one.results[0])
        quotient = llvm.UDivOp(minus_one.res, m)
        plus_one = llvm.AddOp(quotient.res, one.results[0])
        is_zero = _icmp("eq", n, zero.results[0])
        result = llvm.SelectOp(is_zero.res, zero.results[0], plus_one.res)
        return [zero, one, minus_one, quotient, plus_one, is_zero, result], result.res

    def _floordivs(self, n: SSAValue, m: SSAValue) -> tuple[list[Operation], SSAValue]:
        """x = m < 0 ? 1 : -1; n and m with different signs and n != 0 ?
        -1 - (x - n) / m : n / m."""
        zero, pos_one, neg_one = self.constant(0), self.constant(1), self.constant(-1)
        m_neg = _icmp("slt", m, zero.results[0])
        x = llvm.SelectOp(m_neg.res, pos_one.results[0], neg_one.results[0])
        x_minus_n = llvm.SubOp(x.res, n)
        div = llvm.SDivOp(x_minus_n.res, m)
        neg_res = llvm.SubOp(neg_one.results[0], div.res)
        pos_res = llvm.SDivOp(n, m)
        tail = _select_on_signs(n, m_neg.res, zero.results[0], "slt", "ne", neg_res.res, pos_res.res)
        return [zero, pos_one, neg_one, m_neg, x, x_minus_n, div, neg_res, pos_res,
                *tail], tail[-1].results[0]  # fmt: skip


@dataclass(frozen=True)
class ConvertIndexToLLVM(IndexBitwidthConversionPass):
    """Lower the `index` dialect to the `llvm` dialect."""

    name = "convert-index-to-llvm"
    display_name: ClassVar[str] = "ConvertIndexToLLVMPass"
    PATTERNS: ClassVar = (IndexToLLVMPattern,)
