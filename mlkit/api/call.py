"""Calling one compiled function from Python: numpy arrays in (as memref
descriptors over their data, without copying where the layout allows),
numpy arrays out (owning their memory: copied out of the buffer compiled
code returned, which is then freed with the C library's ``free``).

A program for another target passes a :class:`Memory` that stages the
arrays where its kernels can reach them and frees what its code allocated."""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

import numpy as np

from mlkit.api.shapes import check_ties
from mlkit.api.signature import (
    DYNAMIC,
    ELEMENT_TYPES,
    Signature,
    ValueType,
    ctype_of,
    descriptor_type,
    results_struct,
)

DEADBEEF = 0xDEADBEEF  # upstream's allocated pointer for memref.get_global

_libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
_free = _libc.free
_free.argtypes = [ctypes.c_void_p]
_free.restype = None


class Memory:
    """Where arguments live during a call and how returned buffers are
    freed: host memory as it is, and the C library's ``free``."""

    def stage(self, array: np.ndarray) -> np.ndarray:
        """The array compiled code is given in place of ``array``."""
        return array

    def release(self, staged: np.ndarray) -> None:
        """The call is over and ``staged`` (from :meth:`stage`) is not needed."""

    def free(self, pointer: int) -> None:
        _free(pointer)


HOST_MEMORY = Memory()


def _dtype(v: ValueType) -> np.dtype[Any]:
    return np.dtype(ELEMENT_TYPES[v.element][0])


def _describe(i: int, v: ValueType) -> str:
    return f"argument {i} ('{v.text}')"


class BoundFunction:
    """A compiled function, callable with numpy arrays and Python numbers."""

    def __init__(self, program: Any, sig: Signature, address: int) -> None:
        self._program = program  # keeps the code alive
        self._memory: Memory = getattr(program, "memory", None) or HOST_MEMORY
        self.signature = sig
        self.name = sig.name
        results = sig.results
        self._out_kind = "none"
        argtypes: list[Any] = []
        restype: Any = None
        if len(results) == 1 and results[0].kind == "scalar":
            restype = ctype_of(results[0])
            self._out_kind = "scalar"
        elif len(results) == 1:
            self._out_type: Any = ctype_of(results[0])
            argtypes.append(ctypes.POINTER(self._out_type))
            self._out_kind = "memref"
        elif len(results) > 1:
            self._out_type = results_struct(results)
            argtypes.append(ctypes.POINTER(self._out_type))
            self._out_kind = "struct"
        for p in sig.params:
            argtypes.append(ctypes.POINTER(ctype_of(p)) if p.kind != "scalar" else ctype_of(p))
        self._cfunc = ctypes.CFUNCTYPE(restype, *argtypes)(address)

    def __repr__(self) -> str:
        params = ", ".join(p.text for p in self.signature.params)
        results = ", ".join(r.text for r in self.signature.results)
        return f"<mlkit function @{self.name}({params}) -> ({results})>"

    def __call__(self, *args: Any) -> Any:
        sig = self.signature
        if len(args) != len(sig.params):
            raise TypeError(
                f"@{self.name} takes {len(sig.params)} argument"
                f"{'s' if len(sig.params) != 1 else ''} ({', '.join(p.text for p in sig.params)}), "
                f"got {len(args)}"
            )
        # every argument is checked before any is passed or staged
        checked: list[Any] = [
            _scalar(i, value, p) if p.kind == "scalar" else _array(i, value, p)
            for i, (value, p) in enumerate(zip(args, sig.params))
        ]
        arrays = {i: c[0] for i, c in enumerate(checked) if sig.params[i].kind != "scalar"}
        check_ties(self.name, sig.ties, arrays, [q.text for q in sig.params])
        c_args: list[Any] = []
        keep: list[Any] = []
        writeback: list[tuple[np.ndarray, np.ndarray]] = []
        passed: list[tuple[int, int]] = []  # (start, end) of buffers passed in
        staged: list[np.ndarray] = []
        memory = self._memory
        for value, p, c in zip(args, sig.params, checked):
            if p.kind == "scalar":
                c_args.append(c)
                continue
            array, copied = c
            if memory is not HOST_MEMORY:
                array, copied = memory.stage(array), True
                staged.append(array)
            if copied and p.kind == "memref":
                writeback.append((value, array))
            desc = _descriptor(array)
            keep.append(array)
            keep.append(desc)
            if array.size:
                lo, hi = np.lib.array_utils.byte_bounds(array)
                passed.append((lo, hi))
            c_args.append(ctypes.byref(desc))
        out = None
        if self._out_kind in ("memref", "struct"):
            out = self._out_type()
            c_args.insert(0, ctypes.byref(out))
        try:
            value = self._cfunc(*c_args)
            for original, copy in writeback:
                original[...] = copy
            return self._results(out, value, passed)
        finally:
            for array in staged:
                memory.release(array)

    def _results(self, out: Any, value: Any, passed: list[tuple[int, int]]) -> Any:
        sig = self.signature
        if self._out_kind == "none":
            return None
        if self._out_kind == "scalar":
            return _scalar_result(value, sig.results[0])
        freed: set[int] = set()
        if self._out_kind == "memref":
            outs = [_copy_out(out, sig.results[0], passed, freed)]
        else:
            outs = [_result(getattr(out, f"r{i}"), r, passed, freed)
                    for i, r in enumerate(sig.results)]  # fmt: skip
        # free only after every result is copied: two results may share a buffer
        for ptr in freed:
            self._memory.free(ptr)
        return outs[0] if self._out_kind == "memref" else tuple(outs)


def _scalar(i: int, value: Any, p: ValueType) -> Any:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, np.generic):
        value = value.item()
    if p.element.startswith("f"):
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TypeError(
                f"{_describe(i, p)}: expected a Python float, got {type(value).__name__}"
            )
        if p.element == "f16":
            return int(np.array(value, np.float16).view(np.uint16))
        return float(value)
    if not isinstance(value, int):
        raise TypeError(f"{_describe(i, p)}: expected a Python int, got {type(value).__name__}")
    if p.element == "i1":
        return bool(value)
    bits = 64 if p.element == "index" else int(p.element[1:])
    if not -(1 << (bits - 1)) <= value < (1 << bits):
        raise ValueError(f"{_describe(i, p)}: {value} does not fit in {p.element}")
    if value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def _array(i: int, value: Any, p: ValueType) -> tuple[np.ndarray, bool]:
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{_describe(i, p)}: expected a numpy array, got {type(value).__name__}")
    want = _dtype(p)
    if value.dtype != want:
        raise TypeError(f"{_describe(i, p)}: expected dtype {want}, got {value.dtype}")
    if value.ndim != len(p.shape):
        raise ValueError(
            f"{_describe(i, p)}: expected rank {len(p.shape)}, got rank {value.ndim} "
            f"(shape {value.shape})"
        )
    for d, (want_size, got) in enumerate(zip(p.shape, value.shape)):
        if want_size != DYNAMIC and want_size != got:
            raise ValueError(
                f"{_describe(i, p)}: expected shape {_shape(p.shape)}, got "
                f"{value.shape} (dimension {d})"
            )
    if p.kind == "memref" and not value.flags.writeable:
        raise ValueError(f"{_describe(i, p)}: the array is read-only, but a memref may be written")
    if not value.flags.aligned:  # compiled code may assume aligned elements
        return np.ascontiguousarray(value), True
    item = value.itemsize
    ok_strides = all(s >= 0 and s % item == 0 for s in value.strides)
    if p.strided and ok_strides:
        return value, False
    if not p.strided and value.flags.c_contiguous:
        return value, False
    return np.ascontiguousarray(value), True


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join("?" if s == DYNAMIC else str(s) for s in shape) + ")"


def _descriptor(array: np.ndarray) -> ctypes.Structure:
    rank = array.ndim
    desc = descriptor_type(rank)()
    ptr = array.ctypes.data
    desc.allocated = ptr
    desc.aligned = ptr
    desc.offset = 0
    if rank:
        item = array.itemsize
        for d in range(rank):
            desc.sizes[d] = array.shape[d]
            # a size-1 dimension's stride does not matter; numpy may give any
            desc.strides[d] = array.strides[d] // item
    return desc


def _scalar_result(value: Any, r: ValueType) -> Any:
    if r.element == "f16":
        return float(np.array(value, np.uint16).view(np.float16))
    if r.element == "i1":
        return bool(value)
    return value


def _result(field: Any, r: ValueType, passed: list[tuple[int, int]], freed: set[int]) -> Any:
    if r.kind == "scalar":
        return _scalar_result(field, r)
    return _copy_out(field, r, passed, freed)


def _copy_out(
    desc: Any, r: ValueType, passed: list[tuple[int, int]], freed: set[int]
) -> np.ndarray:
    """A numpy array owning a copy of what ``desc`` describes; its buffer is
    added to ``freed`` when compiled code allocated it (not a global, not a
    caller's array)."""
    dtype = _dtype(r)
    rank = len(r.shape)
    item = dtype.itemsize
    shape = tuple(desc.sizes[d] for d in range(rank)) if rank else ()
    strides = tuple(desc.strides[d] * item for d in range(rank)) if rank else ()
    aligned = desc.aligned or 0
    allocated = desc.allocated or 0
    count = int(np.prod(shape)) if shape else 1
    if count == 0:
        array = np.empty(shape, dtype)
    else:
        base = aligned + desc.offset * item
        lo = min(0, *(s * (n - 1) for s, n in zip(strides, shape))) if rank else 0
        hi = max(0, *(s * (n - 1) for s, n in zip(strides, shape))) if rank else 0
        nbytes = hi - lo + item
        raw = (ctypes.c_char * nbytes).from_address(base + lo)
        flat = np.frombuffer(raw, dtype=np.uint8)
        view = (
            np.lib.stride_tricks.as_strided(
                flat[-lo:].view(dtype) if lo == 0 else flat.view(dtype)[(-lo) // item :],
                shape=shape,
                strides=strides,
            )
            if rank
            else flat.view(dtype).reshape(())
        )
        array = np.array(view, copy=True, order="C")
    if (
        allocated
        and allocated != DEADBEEF
        and not any(lo_ <= allocated < hi_ for lo_, hi_ in passed)
    ):
        freed.add(allocated)
    return array
