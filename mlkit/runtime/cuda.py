"""``mlkit.runtime.cuda``: loading PTX and launching kernels on an NVIDIA GPU
through NVIDIA's ``cuda-python`` driver bindings (``cuda.bindings.driver``,
the optional extra ``mlkit-compiler[gpu]``).

It provides upstream's GPU runtime API (the ``mgpu*`` functions of
``CudaRuntimeWrappers.cpp``, which upstream ships as
``libmlir_cuda_runtime``) to compiled host code: the translation of
``gpu.binary``/``gpu.launch_func`` and ``gpu-to-llvm``'s lowering of
``gpu.alloc``, ``gpu.memcpy``, ``gpu.wait``... call them. Like upstream's
wrappers, a failing driver call is reported on stderr as
``'cuCall(...)' failed with 'CUDA_ERROR_...'`` and execution goes on: the
functions are called from compiled code, which cannot take a Python
exception.

:class:`CudaRuntime` wraps one driver module (the real one, or a stand-in a
test provides) and the device's primary context; :class:`CudaHost` holds
the one compiled code calls, and the callbacks it calls it through.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from typing import Any

from mlkit.runtime.callback_table import CallbackTable

_P = ctypes.c_void_p
_I64 = ctypes.c_int64
# upstream's runtime API: name -> (result, parameters) as ctypes types
MGPU_SIGNATURES: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "mgpuModuleLoad": (_P, (_P, _I64)),
    "mgpuModuleLoadJIT": (_P, (_P, ctypes.c_int32, _I64)),
    "mgpuModuleUnload": (None, (_P,)),
    "mgpuModuleGetFunction": (_P, (_P, _P)),
    "mgpuLaunchKernel": (None, (_P, *[_I64] * 6, ctypes.c_int32, _P, _P, _P, _I64)),
    "mgpuStreamCreate": (_P, ()),
    "mgpuStreamDestroy": (None, (_P,)),
    "mgpuStreamSynchronize": (None, (_P,)),
    "mgpuStreamWaitEvent": (None, (_P, _P)),
    "mgpuEventCreate": (_P, ()),
    "mgpuEventDestroy": (None, (_P,)),
    "mgpuEventSynchronize": (None, (_P,)),
    "mgpuEventRecord": (None, (_P, _P)),
    "mgpuMemAlloc": (_P, (ctypes.c_uint64, _P, ctypes.c_bool)),
    "mgpuMemFree": (None, (_P, _P)),
    "mgpuMemcpy": (None, (_P, _P, ctypes.c_size_t, _P)),
    "mgpuMemset32": (None, (_P, ctypes.c_uint32, ctypes.c_size_t, _P)),
    "mgpuMemset16": (None, (_P, ctypes.c_uint16, ctypes.c_size_t, _P)),
    "mgpuMemHostRegister": (None, (_P, _I64)),
    "mgpuMemHostRegisterMemRef": (None, (_I64, _P, _I64)),
    "mgpuMemHostUnregister": (None, (_P,)),
    "mgpuMemHostUnregisterMemRef": (None, (_I64, _P, _I64)),
    "mgpuSetDefaultDevice": (None, (ctypes.c_int32,)),
}
MGPU_FUNCTIONS: frozenset[str] = frozenset(MGPU_SIGNATURES)

CU_STREAM_NON_BLOCKING = 1
CU_EVENT_DISABLE_TIMING = 2
CU_MEM_ATTACH_GLOBAL = 1


class CudaUnavailable(RuntimeError):
    """No usable CUDA: cuda-python missing, no driver, or no device."""


def load_driver() -> Any:
    """NVIDIA's driver bindings, or :class:`CudaUnavailable` saying what to install."""
    try:
        from cuda.bindings import driver
    except ImportError:
        try:
            from cuda import cuda as driver  # cuda-python before 12.6
        except ImportError:
            raise CudaUnavailable(
                "running GPU code needs NVIDIA's cuda-python driver bindings: "
                "pip install 'mlkit-compiler[gpu]'"
            ) from None
    return driver


class CudaRuntime:
    """Upstream's GPU runtime API over one driver module and one device's
    primary context."""

    def __init__(self, driver: Any, device: int = 0) -> None:
        self.driver = driver
        self.ok = driver.CUresult.CUDA_SUCCESS
        try:
            self.check(driver.cuInit(0), "cuInit(0)")
            (count,) = self.check(driver.cuDeviceGetCount(), "cuDeviceGetCount(&count)")
        except Exception as exc:  # noqa: BLE001 - no driver library is an exception too
            raise CudaUnavailable(f"CUDA is not usable here: {exc}") from None
        if count < 1:
            raise CudaUnavailable("CUDA is not usable here: no CUDA device")
        self.select(device)

    def select(self, device: int) -> None:
        """Make ``device``'s primary context current (``mgpuSetDefaultDevice``)."""
        d = self.driver
        (self.device,) = self.check(d.cuDeviceGet(device), f"cuDeviceGet(&device, {device})")
        (self.context,) = self.check(
            d.cuDevicePrimaryCtxRetain(self.device), "cuDevicePrimaryCtxRetain(&ctx, device)"
        )
        self.check(d.cuCtxSetCurrent(self.context), "cuCtxSetCurrent(ctx)")

    # -- errors ----------------------------------------------------------------------------
    def check(self, result: Any, call: str) -> tuple[Any, ...]:
        """The values a driver call returned; an exception naming the call
        and the error if it failed."""
        status, *values = result if isinstance(result, tuple) else (result,)
        if status != self.ok:
            name = getattr(status, "name", str(status))
            raise CudaError(f"'{call}' failed with '{name}'")
        return tuple(values)

    # -- what the mgpu functions do ---------------------------------------------------------
    def module_load(self, data: int, size: int, jit_opt: int | None = None) -> int:
        d = self.driver
        if jit_opt is None:
            (module,) = self.check(d.cuModuleLoadData(data), "cuModuleLoadData(&module, data)")
        else:
            options = [d.CUjit_option.CU_JIT_OPTIMIZATION_LEVEL]
            (module,) = self.check(
                d.cuModuleLoadDataEx(data, 1, options, [max(0, min(jit_opt, 4))]),
                "cuModuleLoadDataEx(&module, data, numOptions, jitOptions, jitOptionsVals)",
            )
        return int(module)

    def module_unload(self, module: int) -> None:
        self.check(self.driver.cuModuleUnload(self.driver.CUmodule(module)), "cuModuleUnload(module)")

    def module_function(self, module: int, name: bytes) -> int:
        (function,) = self.check(
            self.driver.cuModuleGetFunction(self.driver.CUmodule(module), name),
            "cuModuleGetFunction(&function, module, name)",
        )
        return int(function)

    def launch(
        self,
        function: int,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        smem: int,
        stream: int,
        params: int,
    ) -> None:
        d = self.driver
        kernel = d.CUfunction(function)
        self.check(
            d.cuLaunchKernel(kernel, *grid, *block, smem, d.CUstream(stream), params, 0),
            "cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, smem, "
            "stream, params, extra)",
        )

    def stream_create(self) -> int:
        (stream,) = self.check(
            self.driver.cuStreamCreate(CU_STREAM_NON_BLOCKING),
            "cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING)",
        )
        return int(stream)

    def stream(self, stream: int) -> Any:
        return self.driver.CUstream(stream)

    def event(self, event: int) -> Any:
        return self.driver.CUevent(event)

    def alloc(self, size: int, host_shared: bool) -> int:
        if size == 0:
            return 0
        d = self.driver
        if host_shared:
            (ptr,) = self.check(d.cuMemAllocManaged(size, CU_MEM_ATTACH_GLOBAL),
                                "cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL)")  # fmt: skip
        else:
            (ptr,) = self.check(d.cuMemAlloc(size), "cuMemAlloc(&ptr, sizeBytes)")
        return int(ptr)

    def call(self, name: str, *args: Any) -> tuple[Any, ...]:
        """A driver call whose failure is reported as upstream reports it."""
        return self.check(getattr(self.driver, name)(*args), f"{name}(...)")


class CudaError(RuntimeError):
    """A driver call failed; the message is upstream's report of it."""


def _dense_bytes(rank: int, descriptor: int, element_size: int) -> tuple[int, int]:
    """(start, size in bytes) of a ranked memref descriptor's contiguous data,
    as upstream's ``mgpuMemHostRegisterMemRef`` computes it."""
    words = ctypes.cast(descriptor, ctypes.POINTER(ctypes.c_int64))
    aligned, offset = words[1], words[2]
    sizes = [words[3 + i] for i in range(rank)]
    count = 1
    for size in sizes:
        count *= size
    return aligned + offset * element_size, count * element_size


def _implementations(current: Callable[[], CudaRuntime]) -> dict[str, Callable[..., Any]]:
    """Python bodies of the mgpu functions, each on the runtime ``current`` gives."""

    def run(work: Callable[[CudaRuntime], Any]) -> Any:
        try:
            return work(current())
        except (CudaError, CudaUnavailable) as exc:
            sys.stdout.flush()
            print(exc, file=sys.stderr, flush=True)
        except Exception as exc:  # noqa: BLE001 - must not unwind into compiled code
            print(f"mlkit GPU runtime: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return None

    def register(r: CudaRuntime, ptr: int, size: int) -> None:
        r.call("cuMemHostRegister", ptr, size, 0)

    return {
        "mgpuModuleLoad": lambda data, size: run(lambda r: r.module_load(data, size)),
        "mgpuModuleLoadJIT": lambda data, opt, size: run(lambda r: r.module_load(data, size, opt)),
        "mgpuModuleUnload": lambda m: run(lambda r: r.module_unload(m)),
        "mgpuModuleGetFunction": lambda m, name: run(
            lambda r: r.module_function(m, ctypes.string_at(name))
        ),
        "mgpuLaunchKernel": lambda f, gx, gy, gz, bx, by, bz, smem, stream, params, extra, n: run(
            lambda r: r.launch(f, (gx, gy, gz), (bx, by, bz), smem, stream or 0, params or 0)
        ),
        "mgpuStreamCreate": lambda: run(lambda r: r.stream_create()),
        "mgpuStreamDestroy": lambda s: run(lambda r: r.call("cuStreamDestroy", r.stream(s or 0))),
        "mgpuStreamSynchronize": lambda s: run(
            lambda r: r.call("cuStreamSynchronize", r.stream(s or 0))
        ),
        "mgpuStreamWaitEvent": lambda s, e: run(
            lambda r: r.call("cuStreamWaitEvent", r.stream(s or 0), r.event(e), 0)
        ),
        "mgpuEventCreate": lambda: run(
            lambda r: int(r.call("cuEventCreate", CU_EVENT_DISABLE_TIMING)[0])
        ),
        "mgpuEventDestroy": lambda e: run(lambda r: r.call("cuEventDestroy", r.event(e))),
        "mgpuEventSynchronize": lambda e: run(lambda r: r.call("cuEventSynchronize", r.event(e))),
        "mgpuEventRecord": lambda e, s: run(
            lambda r: r.call("cuEventRecord", r.event(e), r.stream(s or 0))
        ),
        "mgpuMemAlloc": lambda size, stream, shared: run(lambda r: r.alloc(size, shared)),
        "mgpuMemFree": lambda ptr, stream: run(lambda r: r.call("cuMemFree", ptr or 0)),
        "mgpuMemcpy": lambda dst, src, size, s: run(
            lambda r: r.call("cuMemcpyAsync", dst or 0, src or 0, size, r.stream(s or 0))
        ),
        "mgpuMemset32": lambda dst, value, count, s: run(
            lambda r: r.call("cuMemsetD32Async", dst or 0, value, count, r.stream(s or 0))
        ),
        "mgpuMemset16": lambda dst, value, count, s: run(
            lambda r: r.call("cuMemsetD16Async", dst or 0, value, count, r.stream(s or 0))
        ),
        "mgpuMemHostRegister": lambda ptr, size: run(lambda r: register(r, ptr or 0, size)),
        "mgpuMemHostRegisterMemRef": lambda rank, desc, elem: run(
            lambda r: register(r, *_dense_bytes(rank, desc, elem))
        ),
        "mgpuMemHostUnregister": lambda ptr: run(lambda r: r.call("cuMemHostUnregister", ptr or 0)),
        "mgpuMemHostUnregisterMemRef": lambda rank, desc, elem: run(
            lambda r: r.call("cuMemHostUnregister", _dense_bytes(rank, desc, elem)[0])
        ),
        "mgpuSetDefaultDevice": lambda device: run(lambda r: r.select(device)),
    }


class CudaHost:
    """The CUDA runtime that compiled host code calls (made over the real
    driver on first use, or one a test installs), and the ctypes callbacks
    of upstream's ``mgpu*`` functions, which call it. LLVM's table of added
    symbols is process-wide, so one host serves the process: :data:`HOST`."""

    def __init__(self, make_runtime: Callable[[], CudaRuntime] | None = None) -> None:
        self._make_runtime = make_runtime or (lambda: CudaRuntime(load_driver()))
        self._runtime: CudaRuntime | None = None
        bodies = _implementations(self.current)
        self.callbacks = CallbackTable({
            name: _callback_factory(restype, argtypes, bodies[name])
            for name, (restype, argtypes) in MGPU_SIGNATURES.items()
        })  # fmt: skip

    def current(self) -> CudaRuntime:
        """The runtime compiled code calls, made on first use."""
        if self._runtime is None:
            self._runtime = self._make_runtime()
        return self._runtime

    def use(self, runtime: CudaRuntime | None) -> CudaRuntime | None:
        """Make ``runtime`` the one compiled code calls (None: the real
        driver's, on next use); returns the previous one."""
        previous, self._runtime = self._runtime, runtime
        return previous

    def available(self) -> bool:
        """Whether a CUDA device can run kernels here (bindings, driver, a device)."""
        try:
            self.current()
        except CudaUnavailable:
            return False
        return True


def _callback_factory(
    restype: Any, argtypes: tuple[Any, ...], body: Callable[..., Any]
) -> Callable[[], Any]:
    return lambda: ctypes.CFUNCTYPE(restype, *argtypes)(body)


HOST = CudaHost()


def current() -> CudaRuntime:
    """The process's runtime (:meth:`CudaHost.current` of :data:`HOST`)."""
    return HOST.current()


def use_runtime(runtime: CudaRuntime | None) -> CudaRuntime | None:
    """Make ``runtime`` the one compiled code calls (tests pass a runtime over
    a stand-in driver); returns the previous one."""
    return HOST.use(runtime)


def available() -> bool:
    """Whether a CUDA device can run kernels here (bindings, driver, a device)."""
    return HOST.available()


def callback_address(name: str) -> int:
    """The address of the callback implementing the mgpu function ``name``."""
    return HOST.callbacks.address(name)
