"""The CUDA target of ``mlkit.compile``: kernels in PTX, host code on the
shared JIT calling upstream's GPU runtime API (:mod:`mlkit.runtime.cuda`).

Memory is CUDA managed memory, reachable from the host and from kernels:
each numpy argument is copied into a managed buffer for the call (and a
memref argument copied back after it), and the host code's own allocations
(``malloc``/``aligned_alloc``/``free`` after lowering) become
``mgpuMemAlloc`` of host-shared memory and ``mgpuMemFree``, so buffers the
program allocates for its results are visible to its kernels and to Python.
Constants the host code keeps in LLVM globals are not visible to kernels.
"""

from __future__ import annotations

import ctypes

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.api.backend import Backend
from mlkit.api.call import Memory
from mlkit.dialects import llvm

CUDA_PIPELINE = "builtin.module(lower-to-cuda)"
_ALLOCATORS = {"malloc": -1, "aligned_alloc": -1}  # the size is the last argument


def managed_host_allocations(module: ModuleOp) -> None:
    """Turn the host code's C allocations into upstream's host-shared GPU
    allocations: ``mgpuMemAlloc(size, null stream, true)`` and
    ``mgpuMemFree(ptr, null stream)``."""
    ptr, i64, i8 = llvm.LLVMPointerType(), IntegerType(64), IntegerType(8)
    calls = [
        op for op in module.walk()
        if isinstance(op, llvm.CallOp) and isinstance(op.callee, SymbolRefAttr)
        and op.callee.root_reference.data in (*_ALLOCATORS, "free")
    ]  # fmt: skip
    if not calls:
        return
    for op in calls:
        assert op.callee is not None
        name = op.callee.root_reference.data
        stream = llvm.ZeroOp(ptr)
        if name == "free":
            new_ops: list[Operation] = [stream, llvm.CallOp("mgpuMemFree", [op.operands[0], stream.results[0]])]
        else:
            shared = llvm.ConstantOp(IntegerAttr(1, i8), i8)
            call = llvm.CallOp("mgpuMemAlloc", [op.operands[_ALLOCATORS[name]], stream.results[0],
                                                 shared.results[0]], [ptr])  # fmt: skip
            new_ops = [stream, shared, call]
        Rewriter.replace_op(op, new_ops, [new_ops[-1].results[0]] if op.results else [])
    declared = {
        o.properties["sym_name"].data: o  # type: ignore[union-attr]
        for o in module.ops
        if isinstance(o, llvm.FuncOp) and isinstance(o.properties.get("sym_name"), StringAttr)
    }
    block = module.body.blocks[0]
    for name, type_ in (("mgpuMemAlloc", llvm.LLVMFunctionType([i64, ptr, i8], ptr)),
                        ("mgpuMemFree", llvm.LLVMFunctionType([ptr, ptr]))):  # fmt: skip
        if name not in declared:
            Rewriter.insert_op(llvm.FuncOp(name, type_), InsertPoint.at_start(block))


class CudaMemory(Memory):
    """Arguments in managed memory; returned buffers copied into numpy
    arrays, then freed with ``cuMemFree``."""

    # Handing managed buffers to numpy would free them at garbage collection,
    # in any thread and possibly after the CUDA context is gone: not yet.
    hands_over = False

    def __init__(self) -> None:
        from mlkit.runtime import cuda

        self.runtime = cuda.current()

    def stage(self, array: np.ndarray) -> np.ndarray:
        nbytes = max(array.nbytes, 1)
        address = self.runtime.alloc(nbytes, True)
        buffer = (ctypes.c_char * nbytes).from_address(address)
        staged = np.frombuffer(buffer, dtype=array.dtype, count=array.size).reshape(array.shape)
        staged[...] = array
        return staged

    def release(self, staged: np.ndarray) -> None:
        self.free(staged.ctypes.data)

    def free(self, pointer: int) -> None:
        self.runtime.call("cuMemFree", pointer)


class CudaBackend(Backend):
    """Kernels on the GPU, host code in this process, data in managed memory."""

    name = "cuda"
    pipeline = CUDA_PIPELINE

    def memory(self) -> Memory:
        """Managed memory, or ValueError if CUDA is not usable here."""
        from mlkit.runtime import cuda

        try:
            return CudaMemory()
        except cuda.CudaUnavailable as exc:
            raise ValueError(f"target 'cuda': {exc}") from None

    def prepare_host(self, module: ModuleOp) -> None:
        managed_host_allocations(module)

    def enter_thread(self) -> None:
        """Make the device's primary context current on this thread too: the
        module's constructors load its kernels into it when it is JIT-compiled."""
        from mlkit.runtime import cuda

        runtime = cuda.current()
        runtime.check(runtime.driver.cuCtxSetCurrent(runtime.context), "cuCtxSetCurrent(ctx)")
