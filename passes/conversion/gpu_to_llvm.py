"""``gpu-to-llvm``: the host side of GPU programs to the llvm dialect, as
upstream's ``GpuToLLVMConversionPass``.

The GPU runtime ops become calls of upstream's ``mgpu*`` runtime API and
``!gpu.async.token`` becomes ``!llvm.ptr`` (a stream or an event); see
:mod:`gpu_runtime_calls` for each op. As upstream now does,
``gpu.launch_func`` stays a ``gpu.launch_func`` whose operands are in LLVM
types, with its stream as the async object: launch sizes become ``i64`` and
a memref kernel operand expands into its descriptor's fields (allocated and
aligned pointer, offset, sizes, strides), or into its aligned pointer with
``use-bare-pointers-for-kernels``; the kernel module is then loaded and
launched by the translation of the binary's offloading handler. The rest of
the host code goes through the shared arith, cf, func, index, math, memref
and vector patterns (``use-bare-pointers-for-host`` sets the host's
convention).

Upstream's pass first runs a greedy rewrite (for vector transfers) whose
driver also erases trivially dead ops; mlkit erases unused ``gpu.alloc`` ops
likewise, so that no allocation call is made for them.

Not supported: the sparse ops (``gpu.create_coo`` ..., ``gpu.spmv`` ...,
which mlkit's gpu dialect does not have), ``async.yield`` of GPU tokens and
the async dialect's structural type conversions (mlkit has no async dialect),
``intersperse-sizes-for-kernels`` (setting it is an error), and upstream's greedy pre-pass beyond dead
``gpu.alloc`` ops (vector transfer lowering, folding, block merging).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlkit.dialects.gpu import kernel as gpu_kernel

from mlkit.dialects.gpu import memory as gpu_memory
from mlkit.passes.conversion.gpu_runtime_calls import (
    PTR,
    STREAM_CREATE,
    GpuLLVMTypeConverter,
    RuntimeCallPattern,
    RuntimeState,
    finish_runtime_lowering,
    runtime_patterns,
)
from mlkit.passes.conversion.llvm_common.type_converter import (
    ConversionState,
    ConvertToLLVMPattern,
)
from mlkit.passes.conversion.llvm_common.memref_descriptor import ALIGNED, OpBuilder
from mlkit.diagnostics.emit import emit_error
from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import Rewriter

from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns


@dataclass
class LaunchFuncLowering(RuntimeCallPattern):
    """``gpu.launch_func`` with LLVM-typed sizes and kernel operands, its
    stream as the async object (upstream's ``LegalizeLaunchFuncOpPattern``).

    A memref kernel operand expands into its descriptor's fields, or into
    its aligned pointer with ``kernel_bare_ptr``. The stream is the first
    dependency (the others are waited for through events), a new stream for
    ``async`` without dependencies, and none for a synchronous launch (an
    async object given there is dropped, as upstream drops it)."""

    kernel_bare_ptr: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu_kernel.LaunchFuncOp) or self.is_replaced(op):
            return
        if not op.results and all(self.converter.is_legal(o.type) for o in op.operands):
            return  # legal: already lowered
        tokens = list(op.asyncDependencies)
        deps = self.values(rewriter, tokens)
        sizes = self.values(rewriter, [op.gridSizeX, op.gridSizeY, op.gridSizeZ,
                                       op.blockSizeX, op.blockSizeY, op.blockSizeZ])
        clusters = self.values(rewriter, [v for v in (op.clusterSizeX, op.clusterSizeY,
                                                      op.clusterSizeZ) if v is not None])
        operands = self.values(rewriter, list(op.kernelOperands))
        shared = [] if op.dynamicSharedMemorySize is None else [op.dynamicSharedMemorySize]
        if deps is None or sizes is None or clusters is None or operands is None:
            return
        b = OpBuilder(self.converter)
        stream: SSAValue | None = None
        if deps:
            stream = deps[0]
            events = self.events_of(rewriter, op, b, tokens[1:], deps[1:])
            self.wait_events(b, op, stream, events)
        elif op.asyncToken is not None:
            stream = self.call(b, op, STREAM_CREATE, [], PTR)
        args: list[SSAValue] = []
        for value, converted in zip(op.kernelOperands, operands):
            if not isinstance(value.type, MemRefType):
                args.append(converted)
            elif self.kernel_bare_ptr:
                args.append(b.extract(converted, ALIGNED))
            else:
                args += b.unpack(converted, value.type.get_num_dims())
        new = gpu_kernel.LaunchFuncOp.build(
            operands=[[], *sizes, clusters[:1], clusters[1:2], clusters[2:3], shared, args,
                      [] if stream is None else [stream]],
            properties={"kernel": op.kernel},
            result_types=[[]],
            attributes=dict(op.attributes),
        )
        b.ops.append(new)
        self.done(rewriter, op, b, [] if stream is None else [stream])




@dataclass(frozen=True)
class GpuToLLVMConversionPass(ModulePass):
    """Convert GPU dialect to LLVM dialect with GPU runtime calls"""

    name = "gpu-to-llvm"

    use_bare_pointers_for_host: bool = False
    use_bare_pointers_for_kernels: bool = False
    intersperse_sizes_for_kernels: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from mlkit.passes.conversion.convert_to_llvm import DIALECT_PATTERNS

        if self.intersperse_sizes_for_kernels:
            raise emit_error(ctx, op, "intersperse-sizes-for-kernels is not supported by mlkit")

        for alloc in [o for o in op.walk() if isinstance(o, gpu_memory.AllocOp)]:
            if all(not r.uses for r in alloc.results):
                Rewriter.erase_op(alloc)
        converter = GpuLLVMTypeConverter(use_bare_ptr_call_conv=self.use_bare_pointers_for_host)
        runtime = RuntimeState()
        patterns: list[ConvertToLLVMPattern] = [
            LaunchFuncLowering(converter, runtime=runtime,
                               kernel_bare_ptr=self.use_bare_pointers_for_kernels),
            *runtime_patterns(converter, runtime),
        ]
        for dialect in ("arith", "cf", "func", "index", "math", "memref", "vector"):
            patterns += DIALECT_PATTERNS[dialect](converter)
        # kernel modules are already in the llvm dialect: nothing there matches
        casts = ConversionState()
        for pattern in patterns:
            pattern.state = casts
        apply_conversion_patterns(op, patterns, apply_recursively=False)
        finish_runtime_lowering(runtime, casts)
        casts.cleanup()
