"""``mlkit.runtime.gpu_host``: a GPU made of this process's CPU, to check
what programs compiled for the GPU compute on a machine without one.

:class:`HostDriver` stands in for NVIDIA's driver bindings under
:mod:`mlkit.runtime.cuda`'s runtime, over host memory, so compiled host code
runs as it runs on a GPU: its ``mgpu*`` calls load images, look kernels up
and launch them. The kernels are host functions (:class:`HostKernels`;
:mod:`mlkit.api.cuda_host` compiles them from ``gpu-kernels-to-host``'s
copies): loading an image finds the gpu.module it was compiled from, and a
launch calls the kernel's host function as ``kernel(grid x, y, z, block x,
y, z, <the kernel's parameters>)``, the parameters read from the launch's
``void**`` array with the types the host function takes. Launches are
recorded (:class:`Launch`); one that no GPU could run (more than 1024
threads per block, ...) fails as it would on a GPU. Launches and copies are
synchronous.

``with HostGpu():`` makes such a driver the one compiled code calls.
"""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass, field
from typing import Any

from mlkit.runtime import cuda

GRID_PARAMETERS = 6  # a host kernel's first parameters: grid x, y, z, block x, y, z

ALIGNMENT = 256  # what cuMemAlloc guarantees
# CUDA's limits on every GPU since sm_30
MAX_BLOCK = (1024, 1024, 64)
MAX_THREADS_PER_BLOCK = 1024
MAX_GRID = ((1 << 31) - 1, 65535, 65535)


class CUresult(enum.Enum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_INVALID_IMAGE = 200
    CUDA_ERROR_INVALID_HANDLE = 400
    CUDA_ERROR_NOT_FOUND = 500


class CUjit_option(enum.IntEnum):  # the driver's spelling
    CU_JIT_OPTIMIZATION_LEVEL = 7


class _Handle:
    def __init__(self, value: Any = 0) -> None:
        self.value = int(value or 0)

    def __int__(self) -> int:
        return self.value


class CUmodule(_Handle): ...


class CUfunction(_Handle): ...


class CUstream(_Handle): ...


class CUevent(_Handle): ...


@dataclass
class Launch:
    """One kernel launch, as the host code asked for it."""

    kernel: str
    module: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    smem: int

    @property
    def threads_per_block(self) -> int:
        x, y, z = self.block
        return x * y * z


@dataclass
class HostKernel:
    """A kernel's host function: where it starts, and the ctypes types of
    the kernel's own parameters (after the grid and block sizes)."""

    address: int
    params: list[Any]


@dataclass
class HostKernels:
    """The kernels of one program: the images its host code loads, each with
    the name of its gpu.module, and the host function of each kernel by
    (module, kernel) name; ``owner`` keeps their code alive."""

    images: list[tuple[bytes, str]]
    kernels: dict[tuple[str, str], HostKernel]
    owner: Any = None

    def module_of(self, image: int) -> str | None:
        """The gpu.module whose image starts at address ``image``."""
        text = ctypes.string_at(image)
        candidates = sorted((i for i in self.images if i[0].startswith(text)), key=lambda i: len(i[0]))
        for data, name in candidates:
            if data.rstrip(b"\0") == text or ctypes.string_at(image, len(data)) == data:
                return name
        return None


@dataclass
class _Function:
    name: str
    module: str
    call: Any  # ctypes function of the host function
    params: list[Any]


@dataclass
class HostDriver:
    """The driver calls :mod:`mlkit.runtime.cuda` makes, over host memory,
    with kernels run by their host functions (:class:`HostKernels`, one
    entry per program, the latest first when an image is looked up)."""

    kernels: list[HostKernels] = field(default_factory=list[HostKernels])
    launches: list[Launch] = field(default_factory=list[Launch])
    buffers: dict[int, Any] = field(default_factory=dict[int, Any])
    modules: dict[int, tuple[str, HostKernels]] = field(default_factory=dict)
    functions: dict[int, _Function] = field(default_factory=dict[int, _Function])
    _next: int = 0

    CUresult = CUresult
    CUjit_option = CUjit_option
    CUmodule = CUmodule
    CUfunction = CUfunction
    CUstream = CUstream
    CUevent = CUevent

    def _handle(self) -> int:
        self._next += 1
        return self._next * 16

    @staticmethod
    def _ok(*values: Any) -> tuple[Any, ...]:
        return (CUresult.CUDA_SUCCESS, *values)

    # -- device and context ---------------------------------------------------------------
    def cuInit(self, flags: int) -> tuple[Any, ...]:  # the driver's names
        return self._ok()

    def cuDeviceGetCount(self) -> tuple[Any, ...]:
        return self._ok(1)

    def cuDeviceGet(self, ordinal: int) -> tuple[Any, ...]:
        return self._ok(ordinal) if ordinal == 0 else (CUresult.CUDA_ERROR_INVALID_VALUE, None)

    def cuDevicePrimaryCtxRetain(self, device: int) -> tuple[Any, ...]:
        return self._ok(1)

    def cuCtxSetCurrent(self, ctx: Any) -> tuple[Any, ...]:
        return self._ok()

    # -- modules and kernels ----------------------------------------------------------------
    def _load(self, image: int) -> tuple[Any, ...]:
        for kernels in reversed(self.kernels):  # the latest program first
            name = kernels.module_of(image)
            if name is not None:
                handle = self._handle()
                self.modules[handle] = (name, kernels)
                return self._ok(CUmodule(handle))
        return (CUresult.CUDA_ERROR_INVALID_IMAGE, None)

    def cuModuleLoadData(self, image: int) -> tuple[Any, ...]:
        return self._load(image)

    def cuModuleLoadDataEx(self, image: int, n: int, options: Any, values: Any) -> tuple[Any, ...]:
        return self._load(image)

    def cuModuleUnload(self, module: CUmodule) -> tuple[Any, ...]:
        if self.modules.pop(int(module), None) is None:
            return (CUresult.CUDA_ERROR_INVALID_HANDLE,)
        return self._ok()

    def cuModuleGetFunction(self, module: CUmodule, name: bytes) -> tuple[Any, ...]:
        loaded = self.modules.get(int(module))
        if loaded is None:
            return (CUresult.CUDA_ERROR_INVALID_HANDLE, None)
        module_name, kernels = loaded
        kernel = kernels.kernels.get((module_name, name.decode()))
        if kernel is None:  # the program was compiled without host copies
            return (CUresult.CUDA_ERROR_NOT_FOUND, None)
        call = ctypes.CFUNCTYPE(None, *[ctypes.c_int64] * GRID_PARAMETERS, *kernel.params)(kernel.address)
        handle = self._handle()
        self.functions[handle] = _Function(name.decode(), module_name, call, kernel.params)
        return self._ok(CUfunction(handle))

    def cuLaunchKernel(self, f: CUfunction, gx: int, gy: int, gz: int, bx: int, by: int, bz: int,
                       smem: int, stream: Any, params: int, extra: Any) -> tuple[Any, ...]:  # fmt: skip
        function = self.functions.get(int(f))
        if function is None:
            return (CUresult.CUDA_ERROR_INVALID_HANDLE,)
        grid, block = (gx, gy, gz), (bx, by, bz)
        if (
            any(not 1 <= n <= limit for n, limit in zip((*grid, *block), (*MAX_GRID, *MAX_BLOCK)))
            or bx * by * bz > MAX_THREADS_PER_BLOCK
        ):
            return (CUresult.CUDA_ERROR_INVALID_VALUE,)
        slots = ctypes.cast(params, ctypes.POINTER(ctypes.c_void_p))
        values = [ctypes.cast(slots[i], ctypes.POINTER(t)).contents.value
                  for i, t in enumerate(function.params)]  # fmt: skip
        self.launches.append(Launch(function.name, function.module, grid, block, smem))
        function.call(*grid, *block, *values)
        return self._ok()

    # -- streams and events: every launch and copy is done when its call returns ------------
    def _done(self, *args: Any) -> tuple[Any, ...]:
        """Synchronizing, destroying, recording and waiting on streams and events,
        and registering host memory: nothing to do where every call has finished
        its work when it returns and memory is host memory."""
        return self._ok()

    cuStreamSynchronize = cuStreamDestroy = cuStreamWaitEvent = _done
    cuEventDestroy = cuEventSynchronize = cuEventRecord = _done
    cuMemHostRegister = cuMemHostUnregister = _done

    def cuStreamCreate(self, flags: int) -> tuple[Any, ...]:
        return self._ok(CUstream(self._handle()))

    def cuEventCreate(self, flags: int) -> tuple[Any, ...]:
        return self._ok(CUevent(self._handle()))

    # -- memory: host memory, aligned as the driver aligns ----------------------------------
    def cuMemAlloc(self, size: int) -> tuple[Any, ...]:
        buffer = ctypes.create_string_buffer(size + ALIGNMENT)
        address = -(-ctypes.addressof(buffer) // ALIGNMENT) * ALIGNMENT
        self.buffers[address] = buffer
        return self._ok(address)

    def cuMemAllocManaged(self, size: int, flags: int) -> tuple[Any, ...]:
        return self.cuMemAlloc(size)

    def cuMemFree(self, address: int) -> tuple[Any, ...]:
        if self.buffers.pop(int(address or 0), None) is None:
            return (CUresult.CUDA_ERROR_INVALID_VALUE,)
        return self._ok()

    def cuMemcpyAsync(self, dst: int, src: int, size: int, stream: Any) -> tuple[Any, ...]:
        ctypes.memmove(dst, src, size)
        return self._ok()

    def cuMemsetD32Async(self, dst: int, value: int, count: int, stream: Any) -> tuple[Any, ...]:
        (ctypes.c_uint32 * count).from_address(dst)[:] = [value] * count
        return self._ok()

    def cuMemsetD16Async(self, dst: int, value: int, count: int, stream: Any) -> tuple[Any, ...]:
        (ctypes.c_uint16 * count).from_address(dst)[:] = [value] * count
        return self._ok()



class HostGpu:
    """A :class:`HostDriver` under :mod:`mlkit.runtime.cuda`'s runtime;
    ``with gpu:`` makes it the runtime compiled code calls (and restores the
    previous one after). :meth:`mlkit.api.cuda_host.compile_on_host`
    compiles programs for it."""

    def __init__(self) -> None:
        self.driver = HostDriver()
        self.runtime = cuda.CudaRuntime(self.driver)
        self._previous: list[cuda.CudaRuntime | None] = []

    def __enter__(self) -> HostGpu:
        self._previous.append(cuda.use_runtime(self.runtime))
        return self

    def __exit__(self, *exc: object) -> None:
        cuda.use_runtime(self._previous.pop())

    @property
    def launches(self) -> list[Launch]:
        return self.driver.launches


def installed_driver() -> HostDriver | None:
    """The driver compiled code calls now, if it is a :class:`HostDriver`."""
    try:
        driver = cuda.current().driver
    except cuda.CudaUnavailable:
        return None
    return driver if isinstance(driver, HostDriver) else None
