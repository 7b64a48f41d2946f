"""The patterns of ``convert-gpu-to-nvvm`` for gpu dialect ops and math
library calls (split from :mod:`gpu_to_nvvm`, which holds the function
lowering and the pass).

Upstream's ``LowerGpuOpsToNVVMOps.cpp`` and ``GPUOpsLowering.cpp``: id and
dimension queries read PTX special registers (``i32``, with a ``range`` when
the kernel's known sizes or the op's ``upper_bound`` give one) and are
sign-extended to the index width; ``gpu.barrier`` is ``nvvm.barrier``;
``gpu.shuffle`` is ``nvvm.shfl.sync`` with the active mask computed from the
width; math ops with a libdevice function become calls of ``__nv_*``
(``f16`` operands are extended to ``f32`` and the result truncated back).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DenseArrayBase, Float16Type, Float32Type, Float64Type, IntegerAttr, UnitAttr, i1, i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects import llvm, nvvm

from mlkit.dialects.gpu import kernel as gpu_kernel

from mlkit.dialects.gpu import ops as gpu_ops
from mlkit.dialects.llvm.attrs import ConstantRangeAttr
from mlkit.passes.conversion.llvm_common.type_converter import (
    ConvertToLLVMPattern,
)
from mlkit.passes.conversion.math_to_libm import LIBM_FUNCTIONS

_REGISTERS = {
    gpu_ops.ThreadIdOp: ("tid", "known_block_size", False),
    gpu_ops.BlockDimOp: ("ntid", "known_block_size", True),
    gpu_ops.BlockIdOp: ("ctaid", "known_grid_size", False),
    gpu_ops.GridDimOp: ("nctaid", "known_grid_size", True),
}


def _known_size(op: Operation, prop: str, dim: int) -> int | None:
    func = op.parent_op()
    while func is not None and not isinstance(func, (gpu_kernel.GPUFuncOp, llvm.FuncOp)):
        func = func.parent_op()
    if func is None:
        return None
    known = func.properties.get(prop) or func.attributes.get(f"gpu.{prop}")
    if isinstance(known, DenseArrayBase):
        return known.get_values()[dim]  # type: ignore[return-value]
    return None


@dataclass
class IndexQueryLowering(ConvertToLLVMPattern):
    """``gpu.thread_id``/``block_id``/``block_dim``/``grid_dim`` and ``gpu.lane_id``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, gpu_ops.LaneIdOp):
            register = "laneid"
            lo_hi = None if op.upper_bound is None else (0, op.upper_bound.value.data)
        elif type(op) in _REGISTERS:
            base, prop, is_dim = _REGISTERS[type(op)]  # type: ignore[index]
            dim = ("x", "y", "z").index(op.dimension.data.value)  # type: ignore[attr-defined]
            register = f"{base}.{'xyz'[dim]}"
            size = _known_size(op, prop, dim)
            bound = op.upper_bound  # type: ignore[attr-defined]
            if size is not None:
                lo_hi = (size, size + 1) if is_dim else (0, size)
            elif bound is not None:
                limit = bound.value.data
                lo_hi = (1, limit + 1) if is_dim else (0, limit)
            else:
                lo_hi = None
        else:
            return
        read = nvvm.SPECIAL_REGISTER_OPS[register]()
        if lo_hi is not None:
            read.properties["range"] = ConstantRangeAttr(i32, *lo_hi)
        new_ops: list[Operation] = [read]
        value: SSAValue = read.results[0]
        width = self.converter.index_bitwidth
        if width > 32:
            new_ops.append(llvm.SExtOp(value, self.converter.index_type))
            value = new_ops[-1].results[0]
        elif width < 32:
            new_ops.append(llvm.TruncOp(value, self.converter.index_type))
            value = new_ops[-1].results[0]
        self.replace(rewriter, op, new_ops, [value])


@dataclass
class BarrierLowering(ConvertToLLVMPattern):
    """``gpu.barrier`` (any memfence) to ``nvvm.barrier``, a full CTA barrier."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, gpu_ops.BarrierOp):
            rewriter.replace(op, nvvm.BarrierOp.create(
                properties={"aligned": IntegerAttr(1, i1), "operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 0])}
            ))


_SHFL_KIND = {"xor": "bfly", "up": "up", "down": "down", "idx": "idx"}


@dataclass
class ShuffleLowering(ConvertToLLVMPattern):
    """``gpu.shuffle`` to ``nvvm.shfl.sync``: mask ``-1 >> (32 - width)``, and
    clamp ``width - 1`` (``0`` for ``up``); the validity bit is asked for only
    when it is used."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu_ops.ShuffleOp):
            return
        operands = self.operands(rewriter, op)
        if operands is None:
            return
        value, offset, width = operands
        one = self.constant(1, i32)
        minus_one = self.constant(-1, i32)
        thirty_two = self.constant(32, i32)
        inactive = llvm.SubOp(thirty_two.results[0], width)
        mask = llvm.LShrOp(minus_one.results[0], inactive.results[0])
        ops: list[Operation] = [one, minus_one, thirty_two, inactive, mask]
        mode = op.mode.data.value
        if mode == "up":
            clamp = self.constant(0, i32)
            ops.append(clamp)
        else:
            clamp = llvm.SubOp(width, one.results[0])
            ops.append(clamp)
        want_valid = bool(op.valid.uses)
        result_type: Attribute = (
            llvm.LLVMStructType([value.type, i1]) if want_valid else value.type
        )
        shfl = nvvm.ShflSyncOp.create(
            operands=[mask.results[0], value, offset, clamp.results[0]],
            result_types=[result_type],
            properties={"kind": nvvm.ShflKindAttr(nvvm.ShflKind(_SHFL_KIND[mode]))}
            | ({"return_value_and_is_valid": UnitAttr()} if want_valid else {}),
        )
        ops.append(shfl)
        if want_valid:
            result = llvm.ExtractValueOp(shfl.results[0], [0])
            valid = llvm.ExtractValueOp(shfl.results[0], [1])
            ops += [result, valid]
            self.replace(rewriter, op, ops, [result.results[0], valid.results[0]])
        else:
            # the unused validity bit: a constant true keeps the op's two results
            true = self.constant(1, i1)
            ops.append(true)
            self.replace(rewriter, op, ops, [shfl.results[0], true.results[0]])


# math op -> (f32 libdevice name, f64 libdevice name); upstream's LibDevice
# patterns: libm's functions with an ``__nv_`` prefix, ``rint`` for roundeven,
# and copysign, which libm lowering leaves alone
LIBDEVICE: dict[str, tuple[str, str]] = {
    name: (f"__nv_{fn}f", f"__nv_{fn}")
    for name, fn in {**LIBM_FUNCTIONS, "math.roundeven": "rint", "math.copysign": "copysign"}.items()
}


@dataclass
class LibDeviceLowering(ConvertToLLVMPattern):
    """Scalar ``f16``/``f32``/``f64`` math ops to libdevice calls."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        names = LIBDEVICE.get(op.name)
        if names is None or len(op.results) != 1:
            return
        type = op.results[0].type
        if not isinstance(type, (Float16Type, Float32Type, Float64Type)):
            return
        operands = self.operands(rewriter, op)
        container = _symbol_table(op)
        if operands is None or container is None:
            return
        ops: list[Operation] = []
        call_type: Attribute = type
        if isinstance(type, Float16Type):
            call_type = Float32Type()
            for i, v in enumerate(operands):
                ops.append(llvm.FPExtOp(v, call_type))
                operands[i] = ops[-1].results[0]
        name = names[1] if isinstance(type, Float64Type) else names[0]
        _declare_before_function(op, container, name,
                                 llvm.LLVMFunctionType([call_type] * len(operands), call_type))
        call = llvm.CallOp(name, operands, [call_type])
        ops.append(call)
        result = call.results[0]
        if isinstance(type, Float16Type):
            ops.append(llvm.FPTruncOp(result, type))
            result = ops[-1].results[0]
        self.replace(rewriter, op, ops, [result])


def _declare_before_function(op: Operation, table: Operation, name: str,
                             type: llvm.LLVMFunctionType) -> None:
    """Declare ``name`` right before the function holding ``op``, where
    upstream's libdevice lowering puts it, unless it exists."""
    from xdsl.rewriter import InsertPoint, Rewriter
    from xdsl.traits import SymbolTable

    if SymbolTable.lookup_symbol(table, name) is not None:
        return
    func = op
    while func.parent_op() is not table:
        func = func.parent_op()  # type: ignore[assignment]
    Rewriter.insert_op(llvm.FuncOp(name, type), InsertPoint.before(func))


def _symbol_table(op: Operation) -> Operation | None:
    """The closest ``gpu.module`` (or ``builtin.module``) that holds ``op``."""
    from xdsl.dialects.builtin import ModuleOp

    parent = op.parent_op()
    while parent is not None and not isinstance(parent, (gpu_kernel.GPUModuleOp, ModuleOp)):
        parent = parent.parent_op()
    return parent


def gpu_to_nvvm_op_patterns() -> list[ConvertToLLVMPattern]:
    return [IndexQueryLowering(), BarrierLowering(), ShuffleLowering(), LibDeviceLowering()]

