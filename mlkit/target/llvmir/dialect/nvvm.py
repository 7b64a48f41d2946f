"""Translation of nvvm dialect ops, and of the NVVM function attributes
``convert-gpu-to-nvvm`` writes, to LLVM IR (upstream's
``NVVMToLLVMIRTranslation``).

* ``nvvm.read.ptx.sreg.*`` call ``llvm.nvvm.read.ptx.sreg.*``, with the
  op's ``range`` as a return ``range(...)`` attribute;
* ``nvvm.barrier0`` and ``nvvm.barrier`` without operands are a full,
  aligned CTA barrier (``llvm.nvvm.barrier0``, which LLVM upgrades);
* ``nvvm.shfl.sync`` calls ``llvm.nvvm.shfl.sync.<kind>.{i32,f32}`` (``p``
  suffix when it also returns the validity bit);
* ``nvvm.rcp.approx.ftz.f``, ``nvvm.fence.sc.cluster`` and
  ``nvvm.bar.warp.sync`` call the intrinsic of the same name, and
  ``nvvm.cluster.arrive``/``wait`` call ``llvm.nvvm.barrier.cluster.*``
  (``.aligned`` with ``aligned``);
* a function with ``nvvm.kernel`` is a PTX kernel (``ptx_kernel`` calling
  convention, which LLVM 20+ uses instead of ``nvvm.annotations``), and
  ``nvvm.maxntid``/``nvvm.reqntid``/``nvvm.minctasm``/``nvvm.maxnreg``
  become the string function attributes NVPTX reads.

:class:`NVVMTranslation` is the nvvm dialect's translation interface
(:mod:`mlkit.target.llvmir.interface`), registered by :mod:`mlkit.target`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType
from xdsl.ir import Operation

from mlkit.dialects import llvm, nvvm
from mlkit.target.llvmir.interface import FunctionContext, FunctionHead
from mlkit.target.llvmir.interface import LLVMTranslationDialectInterface
from mlkit.target.llvmir.types import TranslationFailure

_SREG = "nvvm.read.ptx.sreg."
_STRING_ATTRS = ("nvvm.maxntid", "nvvm.reqntid", "nvvm.cluster_dim")
_INT_ATTRS = ("nvvm.minctasm", "nvvm.maxnreg")
_SAME_NAME = ("nvvm.rcp.approx.ftz.f", "nvvm.fence.sc.cluster", "nvvm.bar.warp.sync")
_CLUSTER_BARRIERS = {"nvvm.cluster.arrive": "arrive", "nvvm.cluster.wait": "wait"}


class NVVMTranslation(LLVMTranslationDialectInterface):
    """nvvm ops inside kernels, and the NVVM attributes of kernel functions."""

    def convert_operation(self, function: FunctionContext, op: Operation) -> str:
        return translate_nvvm_op(function, op)

    def amend_function(self, func: llvm.FuncOp, head: FunctionHead) -> None:
        """A function marked ``nvvm.kernel`` is a PTX kernel (unless it
        names a calling convention of its own); launch bounds become NVPTX's
        string function attributes."""
        if "nvvm.kernel" in func.attributes and head.calling_convention is None:
            head.calling_convention = "ptx_kernel"
        head.attributes += nvvm_function_attrs(func)


def translate_nvvm_op(t: FunctionContext, op: Operation) -> str:
    """The LLVM instruction text of one nvvm op."""
    if op.name.startswith(_SREG):
        result = op.results[0].type
        name = f"llvm.nvvm.read.ptx.sreg.{op.name[len(_SREG):]}"
        callee = t.module.intrinsics.declare(name, result, [], exact=True)
        attr = op.properties.get("range")
        prefix = ""
        if attr is not None:
            lower = attr.lower.value.data  # type: ignore[attr-defined]
            upper = attr.upper.value.data  # type: ignore[attr-defined]
            prefix = f"range({t.ty(result)} {lower}, {upper}) "
        return f"call {prefix}{t.ty(result)} {callee}()"
    if isinstance(op, nvvm.Barrier0Op) or (isinstance(op, nvvm.BarrierOp) and not op.operands):
        barrier = t.module.intrinsics.declare("llvm.nvvm.barrier0", None, [], exact=True)
        return f"call void {barrier}()"
    if isinstance(op, nvvm.ShflSyncOp):
        value_type = op.val.type
        if isinstance(value_type, IntegerType) and value_type.width.data == 32:
            suffix = "i32"
        elif t.ty(value_type) == "float":
            suffix = "f32"
        else:
            raise TranslationFailure(f"shuffles of '{value_type}' have no NVVM intrinsic")
        with_valid = op.return_value_and_is_valid is not None
        name = f"llvm.nvvm.shfl.sync.{op.kind.data.value}.{suffix}{'p' if with_valid else ''}"
        result = op.res.type
        params = [o.type for o in op.operands]
        callee = t.module.intrinsics.declare(name, result, params, exact=True)
        args = ", ".join(t.typed(o) for o in op.operands)
        return f"call {t.ty(result)} {callee}({args})"
    if op.name in _SAME_NAME or op.name in _CLUSTER_BARRIERS:
        name = f"llvm.{op.name}"
        if op.name in _CLUSTER_BARRIERS:
            aligned = ".aligned" if "aligned" in op.properties else ""
            name = f"llvm.nvvm.barrier.cluster.{_CLUSTER_BARRIERS[op.name]}{aligned}"
        result = op.results[0].type if op.results else None
        callee = t.module.intrinsics.declare(name, result, [o.type for o in op.operands], exact=True)
        args = ", ".join(t.typed(o) for o in op.operands)
        return f"call {t.ty(result) if result is not None else 'void'} {callee}({args})"
    raise TranslationFailure("the nvvm op has no translation")


def nvvm_function_attrs(op: Operation) -> list[str]:
    """NVPTX's string function attributes from ``nvvm.*`` attributes."""
    words = []
    for key in _STRING_ATTRS:
        value = op.attributes.get(key)
        if isinstance(value, DenseArrayBase):
            words.append(f'"{key}"="{",".join(str(v) for v in value.get_values())}"')
    for key in _INT_ATTRS:
        value = op.attributes.get(key)
        if isinstance(value, IntegerAttr):
            words.append(f'"{key}"="{value.value.data}"')
    return words
