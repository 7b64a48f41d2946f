"""``gpu-to-llvm``: the host side of GPU programs to the llvm dialect, as
upstream's ``GpuToLLVMConversionPass``.

As upstream now does, ``gpu.launch_func`` stays a ``gpu.launch_func`` whose
operands are in LLVM types: launch sizes become ``i64`` and a memref kernel
operand expands into its descriptor's fields (allocated and aligned pointer,
offset, sizes, strides), or into its aligned pointer with
``kernel-bare-ptr-calling-convention``; the kernel module is then loaded and
launched by the translation of the binary's offloading handler. The rest of
the host code goes through the shared arith, cf, func, index, math, memref
and vector patterns (``use-bare-pointers-for-host`` sets the host's
convention).

Not supported yet: lowering ``gpu.alloc``, ``gpu.dealloc``, ``gpu.memcpy``,
``gpu.memset`` and ``gpu.wait`` into ``mgpu*`` runtime calls; those ops are
left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects import gpu_kernel, llvm
from mlkit.passes.conversion.llvm_type_converter import (
    ConvertToLLVMPattern,
    LLVMTypeConverter,
    apply_llvm_patterns,
)

LOWERED_ATTR = "mlkit.gpu_to_llvm.lowered"


@dataclass
class LaunchFuncLowering(ConvertToLLVMPattern):
    """``gpu.launch_func`` with LLVM-typed sizes and kernel operands."""

    kernel_bare_ptr: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu_kernel.LaunchFuncOp) or LOWERED_ATTR in op.attributes:
            return
        new_ops: list[Operation] = []

        def remap(value: SSAValue) -> SSAValue:
            converted = self.remap(rewriter, value)
            assert converted is not None
            return converted

        sizes = [remap(v) for v in (op.gridSizeX, op.gridSizeY, op.gridSizeZ,
                                     op.blockSizeX, op.blockSizeY, op.blockSizeZ)]
        clusters = [remap(v) for v in (op.clusterSizeX, op.clusterSizeY, op.clusterSizeZ) if v is not None]
        args: list[SSAValue] = []
        for value in op.kernelOperands:
            if self.convert(value.type) is None:
                return
            converted = remap(value)
            if isinstance(value.type, MemRefType):
                rank = value.type.get_num_dims()
                if self.kernel_bare_ptr:
                    new_ops.append(llvm.ExtractValueOp(converted, [1]))
                    args.append(new_ops[-1].results[0])
                    continue
                positions = [[0], [1], [2]] + [[3, i] for i in range(rank)] + [[4, i] for i in range(rank)]
                for position in positions:
                    new_ops.append(llvm.ExtractValueOp(converted, position))
                    args.append(new_ops[-1].results[0])
            else:
                args.append(converted)
        shared = [] if op.dynamicSharedMemorySize is None else [op.dynamicSharedMemorySize]
        new = gpu_kernel.LaunchFuncOp.build(
            operands=[list(op.asyncDependencies), *sizes,
                      clusters[:1], clusters[1:2], clusters[2:3], shared, args,
                      [] if op.asyncObject is None else [op.asyncObject]],
            properties={"kernel": op.kernel},
            result_types=[[] if op.asyncToken is None else [op.asyncToken.type]],
            attributes={**op.attributes, LOWERED_ATTR: UnitAttr()},
        )
        new_ops.append(new)
        self.replace(rewriter, op, new_ops, list(new.results))


@dataclass(frozen=True)
class GpuToLLVMConversionPass(ModulePass):
    """Convert GPU dialect to LLVM dialect with GPU runtime calls."""

    name = "gpu-to-llvm"
    display_name: ClassVar[str] = "GpuToLLVMConversionPass"

    use_bare_pointers_for_host: bool = False
    use_bare_pointers_for_kernels: bool = False
    intersperse_sizes_for_kernels: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from mlkit.passes.conversion.convert_to_llvm import DIALECT_PATTERNS

        converter = LLVMTypeConverter(use_bare_ptr_call_conv=self.use_bare_pointers_for_host)
        patterns: list[ConvertToLLVMPattern] = [
            LaunchFuncLowering(converter, kernel_bare_ptr=self.use_bare_pointers_for_kernels)
        ]
        for dialect in ("arith", "cf", "func", "index", "math", "memref", "vector"):
            patterns += DIALECT_PATTERNS[dialect](converter)
        # kernel modules are already in the llvm dialect: nothing there matches
        apply_llvm_patterns(op, patterns)
        for launch in [o for o in op.walk() if isinstance(o, gpu_kernel.LaunchFuncOp)]:
            launch.attributes.pop(LOWERED_ATTR, None)
