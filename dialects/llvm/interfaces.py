"""What many LLVM ops share through upstream's op classes and interfaces.

* :class:`LLVMOp`: upstream's ``LLVM_Op``, which reads inherent attributes
  written in its attribute dictionary; :class:`PureOp` adds ``Pure``.
* :class:`FastMathOp`: ``LLVM_FastmathFlagsInterface``'s ``fastmathFlags``
  property, ``#llvm.fastmath<none>`` by default.
* :class:`AliasAnalysisOp`: the memory accesses (load, store, atomicrmw,
  cmpxchg, memcpy, memset) implement ``AccessGroupOpInterface`` and
  ``AliasAnalysisOpInterface``, which add the same four optional inherent
  attributes to each; :class:`MemoryAccessOp` adds the alignment, volatility
  and sync scope of loads, stores and atomics.

An op lists these among its bases after the class holding its operands: IRDL
appends a base's fields after the subclass's, so operand order is unchanged
and these properties come last, as upstream's.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr, UnitAttr
from xdsl.irdl import AnyAttr, IRDLOperation, ParsePropInAttrDict, opt_prop_def, prop_def
from xdsl.irdl import traits_def
from xdsl.traits import Pure

from mlkit.dialects.llvm.attrs import NO_FASTMATH, FastMathAttr


class LLVMOp(IRDLOperation):
    """An LLVM op: inherent attributes may be written in its attribute dictionary."""

    irdl_options = (ParsePropInAttrDict(),)


class PureOp(LLVMOp):
    """A side-effect-free LLVM op."""

    traits = traits_def(Pure())


class FastMathOp(IRDLOperation):
    """An op with fastmath flags."""

    fastmathFlags = prop_def(FastMathAttr, default_value=NO_FASTMATH)


class AliasAnalysisOp(IRDLOperation):
    """``access_groups``, ``alias_scopes``, ``noalias_scopes`` and ``tbaa``."""

    access_groups = opt_prop_def(AnyAttr())
    alias_scopes = opt_prop_def(AnyAttr())
    noalias_scopes = opt_prop_def(AnyAttr())
    tbaa = opt_prop_def(AnyAttr())


class MemoryAccessOp(AliasAnalysisOp, LLVMOp):
    """What every load, store and atomic access also carries: ``alignment``,
    ``volatile_`` and the ``syncscope`` of an atomic access."""

    alignment = opt_prop_def(IntegerAttr)
    volatile_ = opt_prop_def(UnitAttr)
    syncscope = opt_prop_def(StringAttr)
