"""A stand-in for NVIDIA's driver bindings (``cuda.bindings.driver``) that
runs on any machine: "device" memory is host memory, and a launched kernel
runs a Python model of it that the test supplies.

The kernel's parameters are read from the launch's ``void**`` array with the
types its PTX ``.entry`` declares, so a test checks what the compiled host
code really passes: how many parameters, of which types, with which values.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mlkit.runtime.gpu_host import CUevent, CUfunction, CUjit_option, CUmodule, CUresult, CUstream

_PTX_TYPES = {"u64": ctypes.c_uint64, "s64": ctypes.c_int64, "b64": ctypes.c_uint64,
              "u32": ctypes.c_uint32, "s32": ctypes.c_int32, "b32": ctypes.c_uint32,
              "f32": ctypes.c_float, "f64": ctypes.c_double, "u8": ctypes.c_uint8,
              "b8": ctypes.c_uint8, "u16": ctypes.c_uint16, "b16": ctypes.c_uint16}  # fmt: skip


@dataclass
class Launch:
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    smem: int
    params: list[Any]


@dataclass
class FakeDriver:
    """The driver calls mlkit.runtime.cuda makes, over host memory."""

    kernels: dict[str, Callable[[Launch], None]] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    launches: list[Launch] = field(default_factory=list)
    modules: dict[int, str] = field(default_factory=dict)
    jit_levels: list[int] = field(default_factory=list)
    functions: dict[int, tuple[str, list[str]]] = field(default_factory=dict)
    buffers: dict[int, Any] = field(default_factory=dict)
    registered: list[tuple[int, int]] = field(default_factory=list)
    _next: int = 1

    CUresult = CUresult
    CUjit_option = CUjit_option
    CUmodule = CUmodule
    CUfunction = CUfunction
    CUstream = CUstream
    CUevent = CUevent

    def _ok(self, name: str, *values: Any) -> tuple[Any, ...]:
        self.calls.append(name)
        return (CUresult.CUDA_SUCCESS, *values)

    def _handle(self) -> int:
        self._next += 1
        return self._next * 16

    def cuInit(self, flags: int) -> tuple[Any, ...]:  # the driver's names
        return self._ok("cuInit")

    def cuDeviceGetCount(self) -> tuple[Any, ...]:
        return self._ok("cuDeviceGetCount", 1)

    def cuDeviceGet(self, ordinal: int) -> tuple[Any, ...]:
        return self._ok("cuDeviceGet", ordinal)

    def cuDevicePrimaryCtxRetain(self, device: int) -> tuple[Any, ...]:
        return self._ok("cuDevicePrimaryCtxRetain", 1)

    def cuCtxSetCurrent(self, ctx: Any) -> tuple[Any, ...]:
        return self._ok("cuCtxSetCurrent")

    def _load(self, image: int) -> int:
        handle = self._handle()
        self.modules[handle] = ctypes.string_at(image).decode()
        return handle

    def cuModuleLoadData(self, image: int) -> tuple[Any, ...]:
        return self._ok("cuModuleLoadData", CUmodule(self._load(image)))

    def cuModuleLoadDataEx(self, image: int, n: int, options: list[Any], values: list[int]) -> tuple[Any, ...]:
        self.jit_levels += [v for o, v in zip(options, values) if o == CUjit_option.CU_JIT_OPTIMIZATION_LEVEL]
        return self._ok("cuModuleLoadDataEx", CUmodule(self._load(image)))

    def cuModuleUnload(self, module: CUmodule) -> tuple[Any, ...]:
        self.modules.pop(int(module))
        return self._ok("cuModuleUnload")

    def cuModuleGetFunction(self, module: CUmodule, name: bytes) -> tuple[Any, ...]:
        ptx = self.modules[int(module)]
        entry = re.search(rf"\.entry {re.escape(name.decode())}\(([^)]*)\)", ptx)
        if entry is None:
            return (CUresult.CUDA_ERROR_NOT_FOUND, None)
        types = re.findall(r"\.param\s+\.(\w+)", entry.group(1))
        handle = self._handle()
        self.functions[handle] = (name.decode(), types)
        return self._ok("cuModuleGetFunction", CUfunction(handle))

    def cuLaunchKernel(self, f: CUfunction, gx: int, gy: int, gz: int, bx: int, by: int, bz: int,
                       smem: int, stream: CUstream, params: int, extra: int) -> tuple[Any, ...]:  # fmt: skip
        name, types = self.functions[int(f)]
        slots = ctypes.cast(params, ctypes.POINTER(ctypes.c_void_p))
        values = [ctypes.cast(slots[i], ctypes.POINTER(_PTX_TYPES[t])).contents.value
                  for i, t in enumerate(types)]  # fmt: skip
        launch = Launch(name, (gx, gy, gz), (bx, by, bz), smem, values)
        self.launches.append(launch)
        self.kernels[name](launch)
        return self._ok("cuLaunchKernel")

    def cuStreamCreate(self, flags: int) -> tuple[Any, ...]:
        return self._ok("cuStreamCreate", CUstream(self._handle()))

    def cuStreamSynchronize(self, stream: Any) -> tuple[Any, ...]:
        return self._ok("cuStreamSynchronize")

    def cuStreamDestroy(self, stream: Any) -> tuple[Any, ...]:
        return self._ok("cuStreamDestroy")

    def cuMemAlloc(self, size: int) -> tuple[Any, ...]:
        buffer = ctypes.create_string_buffer(size)
        self.buffers[ctypes.addressof(buffer)] = buffer
        return self._ok("cuMemAlloc", ctypes.addressof(buffer))

    def cuMemAllocManaged(self, size: int, flags: int) -> tuple[Any, ...]:
        _, address = self.cuMemAlloc(size)
        self.calls[-1] = "cuMemAllocManaged"
        return (CUresult.CUDA_SUCCESS, address)

    def cuMemFree(self, address: int) -> tuple[Any, ...]:
        if self.buffers.pop(int(address), None) is None:
            return (CUresult.CUDA_ERROR_INVALID_VALUE,)
        return self._ok("cuMemFree")

    def cuMemcpyAsync(self, dst: int, src: int, size: int, stream: Any) -> tuple[Any, ...]:
        ctypes.memmove(dst, src, size)
        return self._ok("cuMemcpyAsync")

    def cuMemsetD32Async(self, dst: int, value: int, count: int, stream: Any) -> tuple[Any, ...]:
        (ctypes.c_uint32 * count).from_address(dst)[:] = [value] * count
        return self._ok("cuMemsetD32Async")

    def cuMemHostRegister(self, address: int, size: int, flags: int) -> tuple[Any, ...]:
        self.registered.append((address, size))
        return self._ok("cuMemHostRegister")

    def cuMemHostUnregister(self, address: int) -> tuple[Any, ...]:
        self.registered = [r for r in self.registered if r[0] != address]
        return self._ok("cuMemHostUnregister")
