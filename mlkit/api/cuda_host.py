"""Programs for the CUDA target run on the CPU: ``mlkit.compile(...,
target="cuda")`` with every kernel run by its host copy, to check what a
GPU program computes on a machine without a GPU.

    gpu = HostGpu()
    with gpu:
        program = compile_on_host(text)
        c = program.matmul(a, b)
    gpu.launches  # [Launch(kernel, module, grid, block, smem), ...]

The pipeline is ``lower-to-cuda{host-kernels}``: the kernels go to PTX as
always, and ``gpu-kernels-to-host`` adds a host copy of each that runs its
whole grid as loops. Before the host code is JIT-compiled
(:meth:`HostKernelBackend.prepare_host`), the copies move into a module of
their own, compiled for this machine and handed to the installed
:class:`~mlkit.runtime.gpu_host.HostDriver`; so the host code that runs is
what the GPU target runs, launch sizes and parameter packing included. The
program's functions must be called while the :class:`HostGpu` is installed
(``with gpu:``): it is the runtime their ``mgpu*`` calls reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Operation

from mlkit.api.cuda import CudaBackend
from mlkit.runtime.gpu_host import GRID_PARAMETERS, HostDriver, HostGpu, HostKernel, HostKernels
from mlkit.runtime.gpu_host import installed_driver

if TYPE_CHECKING:
    from mlkit.api.call import Memory
    from mlkit.api.program import CompiledProgram

__all__ = ["HostGpu", "HostKernelBackend", "compile_on_host", "split_host_kernels"]

PIPELINE = "builtin.module(lower-to-cuda{host-kernels})"
BACKEND = "mlkit.api.cuda_host:HostKernelBackend"


def _ctype(type_: Attribute) -> Any:
    """The ctypes type of a host-copy parameter of LLVM type ``type_``."""
    import ctypes

    from mlkit.dialects import llvm

    integers = {1: ctypes.c_bool, 8: ctypes.c_int8, 16: ctypes.c_int16,
                32: ctypes.c_int32, 64: ctypes.c_int64}  # fmt: skip
    if isinstance(type_, llvm.LLVMPointerType):
        return ctypes.c_void_p
    if isinstance(type_, IntegerType) and type_.width.data in integers:
        return integers[type_.width.data]
    if isinstance(type_, Float32Type):
        return ctypes.c_float
    if isinstance(type_, Float64Type):
        return ctypes.c_double
    raise ValueError(f"a kernel parameter of type {type_} cannot be passed on the host")


def _name(op: Operation) -> str | None:
    return getattr(op.properties.get("sym_name"), "data", None)


def _symbol_refs(op: Operation) -> set[str]:
    return {
        attr.root_reference.data
        for nested in op.walk()
        for attr in (*nested.properties.values(), *nested.attributes.values())
        if isinstance(attr, SymbolRefAttr)
    }


def split_host_kernels(module: ModuleOp) -> ModuleOp:
    """Move the host copies of the kernels (llvm dialect, from
    ``gpu-kernels-to-host``) out of ``module`` into a module of their own,
    with copies of the declarations and globals they use."""
    from mlkit.dialects import llvm
    from mlkit.passes.transforms.gpu_kernels_to_host import HOST_KERNEL_PREFIX

    table = {name: op for op in module.ops if (name := _name(op)) is not None}
    copies = [op for op in module.ops if isinstance(op, llvm.FuncOp)
              and (_name(op) or "").startswith(HOST_KERNEL_PREFIX)]  # fmt: skip
    for op in copies:
        op.detach()
    ops: list[Operation] = list(copies)
    done = {_name(op) for op in copies}
    pending = [name for op in copies for name in _symbol_refs(op)]
    while pending:
        name = pending.pop()
        if name in done or name not in table:
            continue
        done.add(name)
        clone = table[name].clone()
        ops.insert(0, clone)
        pending.extend(_symbol_refs(clone))
    attributes = {k: v for k, v in module.attributes.items() if k != "gpu.container_module"}
    return ModuleOp(ops, attributes)


def _images(module: ModuleOp) -> list[tuple[bytes, str]]:
    """The objects of ``module``'s gpu.binary ops, each with its module's name."""
    from mlkit.dialects.gpu.module import BinaryOp

    return [
        (obj.object.data.encode("latin-1"), op.sym_name.data)
        for op in module.walk()
        if isinstance(op, BinaryOp)
        for obj in op.objects.data
    ]


def _driver() -> HostDriver:
    driver = installed_driver()
    if driver is None:
        raise ValueError(
            "kernels run on the CPU only under mlkit.runtime.gpu_host.HostGpu: "
            "compile with mlkit.api.cuda_host.compile_on_host, inside `with HostGpu():`"
        )
    return driver


class HostKernelBackend(CudaBackend):
    """The CUDA target with its kernels run on the CPU by their host copies."""

    pipeline = PIPELINE

    def memory(self) -> Memory:
        _driver()
        return super().memory()

    def prepare_host(self, module: ModuleOp) -> None:
        from mlkit.execution.jit import JitOptions, jit_compile
        from mlkit.passes.transforms.gpu_kernels_to_host import host_kernel_name

        driver = _driver()
        compiled = jit_compile(split_host_kernels(module), JitOptions(opt_level=2))
        images = _images(module)
        # the longest module name first, should one be a prefix of another
        prefixes = sorted(((host_kernel_name(m, ""), m) for _, m in images), key=lambda p: -len(p[0]))
        kernels: dict[tuple[str, str], HostKernel] = {}
        for name, type_ in compiled.functions.items():
            found = next(((p, m) for p, m in prefixes if name.startswith(p)), None)
            if found is None or type_ is None:
                continue
            params = [_ctype(t) for t in type_.inputs.data[GRID_PARAMETERS:]]
            kernels[found[1], name[len(found[0]) :]] = HostKernel(compiled.address(name), params)
        driver.kernels.append(HostKernels(images, kernels, compiled))
        super().prepare_host(module)


def compile_on_host(
    source: str | Operation, pipeline: str | None = None, opt_level: int = 3
) -> CompiledProgram:
    """``mlkit.compile(source, target="cuda")`` with the kernels on the CPU,
    under the installed :class:`HostGpu`; ``pipeline`` must keep the host
    copies (``lower-to-cuda{host-kernels}``, the default, does)."""
    from mlkit.api.compile import Compiler

    compiler = Compiler(backends={"cuda": BACKEND})
    return compiler.compile(source, pipeline, opt_level, cache=False, target="cuda")
