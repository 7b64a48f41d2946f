"""``convert-gpu-to-nvvm``: the contents of a ``gpu.module`` to the llvm and
nvvm dialects, as upstream's ``LowerGpuOpsToNVVMOpsPass``.

* GPU memory spaces first become NVVM address spaces (global 1, workgroup
  3, private 0, as upstream's NVVM mapping has it);
* ``gpu.func`` becomes ``llvm.func``; a kernel gets ``gpu.kernel`` and
  ``nvvm.kernel``, and its known block size ``nvvm.maxntid``; memref
  arguments expand to descriptor fields, or to one pointer with
  ``use-bare-ptr-memref-call-conv``; workgroup attributions become
  ``internal`` globals ``__wg_<func>_<i>`` in address space 3, private ones
  ``llvm.alloca``s;
* gpu ops and libdevice math calls: :mod:`gpu_to_nvvm_ops`;
* arith, cf, func, index, math, memref and vector with the shared patterns
  of ``convert-to-llvm``, at ``index-bitwidth``.

Before the conversion, as upstream's ``populateGpuRewritePatterns`` does,
``gpu.global_id`` becomes ``block_id * block_dim + thread_id`` (``index``
ops), uniform ``gpu.all_reduce`` ops become subgroup shuffles and
workgroup memory, and shuffles of 64-bit values two shuffles of 32 bits
(:mod:`gpu_all_reduce`).

Not supported: non-uniform ``gpu.all_reduce``, ``gpu.subgroup_reduce``,
``gpu.printf``, subgroup queries, the ``has-redux`` and ``allowed-dialects``
options.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import llvm

from mlkit.dialects.gpu import kernel as gpu_kernel
from mlkit.dialects.gpu.attrs import AddressSpace, AddressSpaceAttr
from mlkit.passes.conversion.func_to_llvm import FuncOpToLLVMPattern
from mlkit.passes.conversion.gpu_all_reduce import rewrite_all_reduces, rewrite_wide_shuffles
from mlkit.passes.conversion.gpu_to_nvvm_ops import gpu_to_nvvm_op_patterns
from mlkit.passes.conversion.llvm_common.type_converter import (
    ConvertToLLVMPattern,
    LLVMTypeConverter,
    apply_llvm_patterns,
)
from mlkit.passes.conversion.llvm_common.memref_descriptor import OpBuilder

NVVM_ADDRESS_SPACES = {AddressSpace.GLOBAL: 1, AddressSpace.WORKGROUP: 3, AddressSpace.PRIVATE: 0}


def _map_space(type: Attribute) -> Attribute:
    if isinstance(type, MemRefType) and isinstance(type.memory_space, AddressSpaceAttr):
        space = NVVM_ADDRESS_SPACES[type.memory_space.data]
        return MemRefType(
            type.element_type, type.get_shape(), type.layout,
            IntegerAttr(space, i64) if space else NoneAttr(),
        )
    if isinstance(type, FunctionType):
        return FunctionType.from_lists(
            [_map_space(t) for t in type.inputs], [_map_space(t) for t in type.outputs]
        )
    return type


def convert_memory_spaces(root: Operation) -> None:
    """Upstream's ``populateGpuMemorySpaceAttributeConversions`` for NVVM."""
    for op in root.walk():
        for region in op.regions:
            for block in region.blocks:
                for arg in list(block.args):
                    new = _map_space(arg.type)
                    if new != arg.type:
                        Rewriter.replace_value_with_new_type(arg, new)
        for result in list(op.results):
            new = _map_space(result.type)
            if new != result.type:
                Rewriter.replace_value_with_new_type(result, new)
        if isinstance(op, gpu_kernel.GPUFuncOp):
            op.properties["function_type"] = _map_space(op.function_type)


@dataclass
class GPUFuncLowering(FuncOpToLLVMPattern):
    """``gpu.func`` to ``llvm.func`` with its attributions materialized."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:  # type: ignore[override]
        if not isinstance(op, gpu_kernel.GPUFuncOp):
            return
        signature = self.converter.convert_function_signature(op.function_type)
        if signature is None:
            return
        name = op.sym_name.data
        new = llvm.FuncOp(name, signature.llvm_type)
        for key, value in op.attributes.items():
            if key != "sym_name":
                new.attributes[key] = value
        if op.kernel is not None:
            new.attributes["gpu.kernel"] = UnitAttr()
            new.attributes["nvvm.kernel"] = UnitAttr()
        for prop in ("known_block_size", "known_grid_size", "known_cluster_size"):
            value = op.properties.get(prop)
            if isinstance(value, DenseArrayBase):
                new.attributes[f"gpu.{prop}"] = value
                if prop == "known_block_size" and op.kernel is not None:
                    new.attributes["nvvm.maxntid"] = value
        workgroup = list(op.workgroup_args())
        private = list(op.private_args())
        module = op.parent_op()
        assert module is not None
        builder = OpBuilder(self.converter)
        replacements: list[tuple[Block, object]] = []
        for index, arg in enumerate(workgroup):
            memref, element, count = self._attribution(arg)
            array = llvm.LLVMArrayType(count, element)
            global_name = f"__wg_{name}_{index}"
            glob = llvm.GlobalOp(array, global_name, linkage="internal")
            glob.properties["addr_space"] = IntegerAttr(3, i32)
            rewriter.insert(glob, InsertPoint.before(op))
            address = builder.add(llvm.AddressOfOp(global_name, llvm.LLVMPointerType(3)))
            base = builder.gep(address, [0, 0], array)
            desc = builder.static_descriptor(memref, base, base)
            replacements.append((arg, desc))  # type: ignore[arg-type]
        for arg in private:
            memref, element, count = self._attribution(arg)
            size_value = builder.const(count, i64)
            ptr = builder.add(llvm.AllocaOp.create(
                operands=[size_value], result_types=[llvm.LLVMPointerType(0)],
                properties={"elem_type": element},
            ))
            desc = builder.static_descriptor(memref, ptr, ptr)
            replacements.append((arg, desc))  # type: ignore[arg-type]
        region = rewriter.move_region_contents_to_new_regions(op.body)
        for block in list(region.blocks):
            new.body.add_block(region.detach_block(block))
        entry = new.body.blocks[0]
        from xdsl.dialects.builtin import UnrealizedConversionCastOp

        for arg, desc in replacements:
            cast, value = UnrealizedConversionCastOp.cast_one(desc, arg.type)  # type: ignore[attr-defined]
            builder.add(cast)
            self.state.casts.append(cast)
            arg.replace_all_uses_with(value)  # type: ignore[attr-defined]
        for arg in reversed(workgroup + private):
            entry.erase_arg(arg)
        rewriter.insert(builder.ops, InsertPoint.at_start(entry))
        self._convert_entry_block(rewriter, entry, signature.arg_types)
        rewriter.replace(op, new, [])

    def _attribution(self, arg: BlockArgument) -> tuple[MemRefType, Attribute | None, int]:
        """A workgroup or private attribution's memref type, its converted
        element type and its number of elements."""
        memref = arg.type
        assert isinstance(memref, MemRefType)
        element = self.converter.convert_type(memref.element_type)
        return memref, element, math.prod(memref.get_shape())


@dataclass
class GPUReturnLowering(ConvertToLLVMPattern):
    """``gpu.return`` to ``llvm.return``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu_kernel.ReturnOp):
            return
        operands = self.operands(rewriter, op)
        if operands is None or len(operands) > 1:
            return
        self.replace(rewriter, op, [llvm.ReturnOp.create(operands=operands)], [])


def nvvm_patterns(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    """Everything convert-gpu-to-nvvm applies, sharing ``converter``."""
    from mlkit.passes.conversion.convert_to_llvm import DIALECT_PATTERNS

    patterns: list[ConvertToLLVMPattern] = [GPUFuncLowering(converter), GPUReturnLowering(converter)]
    for pattern in gpu_to_nvvm_op_patterns():
        pattern.converter = converter
        patterns.append(pattern)
    for dialect in ("arith", "cf", "func", "index", "math", "memref", "vector"):
        patterns += DIALECT_PATTERNS[dialect](converter)
    return patterns


@dataclass(frozen=True)
class ConvertGpuOpsToNVVMOps(ModulePass):
    """Generate NVVM operations for gpu operations"""

    name = "convert-gpu-to-nvvm"
    anchor: ClassVar[str] = "gpu.module"

    index_bitwidth: int = 0
    has_redux: bool = False
    use_bare_ptr_memref_call_conv: bool = False
    allowed_dialects: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        converter = LLVMTypeConverter.from_options(
            self.index_bitwidth, self.use_bare_ptr_memref_call_conv
        )
        rewrite_global_ids(op)
        rewrite_all_reduces(op)
        rewrite_wide_shuffles(op)
        convert_memory_spaces(op)
        apply_llvm_patterns(op, nvvm_patterns(converter))


def rewrite_global_ids(root: Operation) -> None:
    """Upstream's ``GpuGlobalIdRewriter``: ``gpu.global_id d`` is
    ``index.add(thread_id d, index.mul(block_id d, block_dim d))``."""
    from mlkit.dialects import index
    from mlkit.dialects.gpu import ops as gpu_ops

    for op in [o for o in root.walk() if isinstance(o, gpu_ops.GlobalIdOp)]:
        dim = {"dimension": op.dimension}
        block_id = gpu_ops.BlockIdOp.create(properties=dim, result_types=[op.result.type])
        block_dim = gpu_ops.BlockDimOp.create(properties=dim, result_types=[op.result.type])
        scaled = index.MulOp(block_id, block_dim)
        thread_id = gpu_ops.ThreadIdOp.create(properties=dim, result_types=[op.result.type])
        Rewriter.replace_op(op, [block_id, block_dim, scaled, thread_id, index.AddOp(thread_id, scaled)])
