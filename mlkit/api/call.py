"""Calling one compiled function from Python: numpy arrays in (as memref
descriptors over their data, without copying where the layout allows),
numpy arrays out, without copying: an array over a buffer compiled code
allocated owns it (through its ``base``, an :class:`Allocation`) and frees
it when the last array over it dies. A result that aliases an argument or a
global is copied instead, so that no array outlives what it points into.

``out=`` (numpy's convention) takes the arrays to write results into; see
:meth:`BoundFunction.__call__`.

A program for another target passes a :class:`Memory` that stages the
arrays where its kernels can reach them and frees what its code allocated."""

from __future__ import annotations

import ctypes
from typing import Any, ClassVar

import numpy as np

from mlkit.api.shapes import check_ties
from mlkit.api.signature import DYNAMIC, ELEMENT_TYPES, Signature, ValueType, ctype_of
from mlkit.api.signature import descriptor_type, results_struct

DEADBEEF = 0xDEADBEEF  # upstream's allocated pointer for memref.get_global


_MISSING = object()  # a parameter no argument was given for

class Memory:
    """Where arguments live during a call and how returned buffers are
    freed: host memory as it is, freed with the runtime's ``free`` (the
    caching allocator compiled code is bound to, :mod:`mlkit.runtime.allocator`)."""

    # whether result buffers become numpy arrays as they are (else: copied, then freed)
    hands_over: ClassVar[bool] = True
    _free: Any = None

    def stage(self, array: np.ndarray) -> np.ndarray:
        """The array compiled code is given in place of ``array``."""
        return array

    def release(self, staged: np.ndarray) -> None:
        """The call is over and ``staged`` (from :meth:`stage`) is not needed."""

    def free(self, pointer: int) -> None:
        free = Memory._free
        if free is None:
            from mlkit.runtime.allocator import free_function

            free = Memory._free = free_function()
        free(pointer)


HOST_MEMORY = Memory()


class Allocation:
    """A buffer compiled code allocated, freed by its memory when the last
    array over it (whose ``base`` leads here) is gone."""

    __slots__ = ("pointer", "memory")

    def __init__(self, pointer: int, memory: Memory) -> None:
        self.pointer = pointer
        self.memory = memory

    def __del__(self) -> None:
        try:
            self.memory.free(self.pointer)
        except Exception:  # noqa: BLE001 - at interpreter exit ctypes may be gone
            pass

    def __repr__(self) -> str:
        return f"<mlkit Allocation 0x{self.pointer:x}>"


class _View:
    """What numpy builds a result array on: the memory's layout, and the
    allocation that must outlive the array (None while it is being copied)."""

    __slots__ = ("__array_interface__", "allocation")

    def __init__(self, interface: dict[str, Any], allocation: Allocation | None) -> None:
        self.__array_interface__ = interface
        self.allocation = allocation


def _dtype(v: ValueType) -> np.dtype[Any]:
    return np.dtype(ELEMENT_TYPES[v.element][0])


class ArgumentOverflowError(OverflowError, ValueError):
    """A Python number too large for the parameter it is passed to (both an
    OverflowError and, like the other argument errors, a ValueError)."""


def _describe(sig: Signature, i: int) -> str:
    """``@f: argument 1 %n ('i32')``: the function, the argument's position,
    its name in the source where it has one, and its type."""
    name = sig.param_name(i)
    return f"@{sig.name}: argument {i}{f' %{name}' if name else ''} ('{sig.params[i].text}')"


def _number(value: int) -> str:
    """``value`` for a message: its digits, or its size where they would be
    too many (Python refuses to print ints of over 4,300 digits)."""
    return str(value) if value.bit_length() <= 128 else f"an integer of {value.bit_length()} bits"


class BoundFunction:
    """A compiled function, callable with numpy arrays and Python numbers."""

    def __init__(self, program: Any, sig: Signature, address: int, guard: int = 0) -> None:
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
        # with runtime checks: the guard, which returns 1 after a failed check
        self._restype = restype
        self._guard = (
            ctypes.CFUNCTYPE(ctypes.c_int32, *argtypes, ctypes.c_void_p)(guard) if guard else None
        )

    def __repr__(self) -> str:
        params = ", ".join(p.text for p in self.signature.params)
        results = ", ".join(r.text for r in self.signature.results)
        return f"<mlkit function @{self.name}({params}) -> ({results})>"

    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """Arguments by position and by parameter name (``%x`` is ``x=``), as
        a Python function binds them."""
        if not kwargs:
            return args
        names = [self.signature.param_name(i) for i in range(len(self.signature.params))]
        bound: list[Any] = list(args) + [_MISSING] * (len(names) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"@{self.name} got an unexpected keyword argument '{key}'")
            i = names.index(key)
            if i < len(args):
                raise TypeError(f"@{self.name} got multiple values for argument '{key}'")
            bound[i] = value
        missing = [names[i] or f"#{i}" for i, v in enumerate(bound) if v is _MISSING]
        if missing:
            raise TypeError(f"@{self.name} missing argument(s): {', '.join(missing)}")
        return tuple(bound)

    def __call__(self, *args: Any, out: Any = None, **kwargs: Any) -> Any:
        """Call with one numpy array per tensor/memref parameter and one
        Python number per scalar parameter.

        Results come back as numpy arrays over the buffers compiled code
        allocated, without a copy. With ``out`` (an array for a function of
        one result; else a tuple with an array or None per result) each
        result is written into its array, which must be writable,
        C-contiguous and of the result's dtype and shape, and that array is
        returned in its place. The code still allocates the result, so
        ``out`` costs one copy of it; the buffer goes straight back to the
        caching allocator for the next call. Arguments may also be given by
        the parameters' names in the source (``f(x=a)`` for ``%x``).
        """
        sig = self.signature
        args = self._bind(args, kwargs)
        if len(args) != len(sig.params):
            raise TypeError(
                f"@{self.name} takes {len(sig.params)} argument"
                f"{'s' if len(sig.params) != 1 else ''} ({', '.join(p.text for p in sig.params)}), "
                f"got {len(args)}"
            )
        # every argument is checked before any is passed or staged
        checked: list[Any] = [
            _scalar(_describe(sig, i), value, p)
            if p.kind == "scalar"
            else _array(_describe(sig, i), value, p)
            for i, (value, p) in enumerate(zip(args, sig.params))
        ]
        outs = _outs(self.name, out, sig.results)
        arrays = {i: c[0] for i, c in enumerate(checked) if sig.params[i].kind != "scalar"}
        check_ties(self.name, sig.ties, arrays, [q.text for q in sig.params])
        c_args: list[Any] = []
        keep: list[Any] = []
        writeback: list[tuple[np.ndarray, np.ndarray]] = []
        passed: list[tuple[int, int]] = []  # [start, end) of buffers passed in
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
            else:  # an empty array's pointer is still the caller's
                passed.append((array.ctypes.data, array.ctypes.data + 1))
            c_args.append(ctypes.byref(desc))
        results = None
        if self._out_kind in ("memref", "struct"):
            results = self._out_type()
            c_args.insert(0, ctypes.byref(results))
        try:
            value = self._cfunc(*c_args) if self._guard is None else self._checked(c_args)
            for original, copy in writeback:
                original[...] = copy
            return self._results(results, value, passed, outs)
        finally:
            for array in staged:
                memory.release(array)

    def _checked(self, c_args: list[Any]) -> Any:
        """Call through the guard; a failed runtime check raises
        :class:`~mlkit.runtime.checks.RuntimeCheckError` with its message."""
        from mlkit.runtime import checks

        assert self._guard is not None
        value = self._restype() if self._restype is not None else None
        checks.clear_message()
        if self._guard(*c_args, ctypes.byref(value) if value is not None else None):
            message = checks.last_message() or "a runtime check failed"
            raise checks.RuntimeCheckError(f"@{self.name}: {message}")
        return value.value if value is not None else None

    def _results(
        self, results: Any, value: Any, passed: list[tuple[int, int]], outs: list[Any]
    ) -> Any:
        sig = self.signature
        if self._out_kind == "none":
            return None
        if self._out_kind == "scalar":
            return _scalar_result(value, sig.results[0])
        # buffers by allocated pointer: results may share one, freed once all are done
        owners: dict[int, Allocation] = {}
        if self._out_kind == "memref":
            return self._array_result(results, 0, passed, owners, outs[0])
        return tuple(
            _scalar_result(getattr(results, f"r{i}"), r)
            if r.kind == "scalar"
            else self._array_result(getattr(results, f"r{i}"), i, passed, owners, outs[i])
            for i, r in enumerate(sig.results)
        )

    def _array_result(
        self,
        desc: Any,
        index: int,
        passed: list[tuple[int, int]],
        owners: dict[int, Allocation],
        out: np.ndarray | None,
    ) -> np.ndarray:
        """Result ``index`` (described by ``desc``) as an array: over the
        buffer itself when compiled code allocated it, else a copy; or
        written into ``out``."""
        r = self.signature.results[index]
        allocated = desc.allocated or 0
        allocation: Allocation | None = None
        if (
            allocated
            and allocated != DEADBEEF
            and not any(lo <= allocated < hi for lo, hi in passed)
        ):
            allocation = owners.get(allocated)
            if allocation is None:
                allocation = owners[allocated] = Allocation(allocated, self._memory)
        hand_over = allocation is not None and out is None and self._memory.hands_over
        view = _view(desc, r, allocation if hand_over else None)
        if out is not None:
            if view.shape != out.shape:
                raise ValueError(
                    f"@{self.name}: {_out_name(index, len(self.signature.results))} has shape "
                    f"{out.shape}, but result {index} ('{r.text}') has shape {view.shape}"
                )
            np.copyto(out, view, casting="no")
            return out
        return view if hand_over else np.array(view, copy=True, order="C")


def _scalar(where: str, value: Any, p: ValueType) -> Any:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, np.generic):
        value = value.item()
    if p.element.startswith("f"):
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TypeError(
                f"{where}: expected a Python float, got {type(value).__name__}"
            )
        try:
            as_float = float(value)
        except OverflowError:
            raise ArgumentOverflowError(
                f"{where}: {_number(value)} is too large for {p.element}"
            ) from None
        if p.element == "f16":
            return int(np.array(as_float, np.float16).view(np.uint16))
        return as_float
    if not isinstance(value, int):
        raise TypeError(f"{where}: expected a Python int, got {type(value).__name__}")
    if p.element == "i1":
        return bool(value)
    bits = 64 if p.element == "index" else int(p.element[1:])
    if not -(1 << (bits - 1)) <= value < (1 << bits):
        raise ArgumentOverflowError(
            f"{where}: {_number(value)} does not fit in {p.element} "
            f"(-2**{bits - 1} to 2**{bits}-1, the upper half as negatives)"
        )
    if value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def _array(where: str, value: Any, p: ValueType) -> tuple[np.ndarray, bool]:
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{where}: expected a numpy array, got {type(value).__name__}")
    want = _dtype(p)
    if value.dtype != want:
        raise TypeError(f"{where}: expected dtype {want}, got {value.dtype}")
    if value.ndim != len(p.shape):
        raise ValueError(
            f"{where}: expected rank {len(p.shape)}, got rank {value.ndim} "
            f"(shape {value.shape})"
        )
    for d, (want_size, got) in enumerate(zip(p.shape, value.shape)):
        if want_size != DYNAMIC and want_size != got:
            raise ValueError(
                f"{where}: expected shape {_shape(p.shape)}, got "
                f"{value.shape} (dimension {d})"
            )
    if p.kind == "memref" and not value.flags.writeable:
        raise ValueError(f"{where}: the array is read-only, but a memref may be written")
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


def _view(desc: Any, r: ValueType, allocation: Allocation | None) -> np.ndarray:
    """An array over the memory ``desc`` describes (no copy); its base keeps
    ``allocation`` alive."""
    dtype = _dtype(r)
    rank = len(r.shape)
    shape = tuple(desc.sizes[d] for d in range(rank)) if rank else ()
    if any(n == 0 for n in shape):
        return np.empty(shape, dtype)
    aligned = desc.aligned or 0
    if not aligned:
        raise RuntimeError(f"compiled code returned a null buffer for '{r.text}'")
    item = dtype.itemsize
    interface = {
        "version": 3,
        "data": (aligned + desc.offset * item, False),
        "shape": shape,
        "strides": tuple(desc.strides[d] * item for d in range(rank)) if rank else None,
        "typestr": dtype.str,
    }
    return np.asarray(_View(interface, allocation))


def allocation_of(array: np.ndarray) -> Allocation | None:
    """The buffer compiled code allocated that ``array`` (or the array it
    views) lives in, or None for memory numpy or the caller owns."""
    base: Any = array
    while isinstance(base, np.ndarray):
        base = base.base
    return base.allocation if isinstance(base, _View) else None


def _out_name(index: int, count: int) -> str:
    return "out" if count == 1 else f"out[{index}]"


def _outs(name: str, out: Any, results: tuple[ValueType, ...]) -> list[np.ndarray | None]:
    """``out`` as one entry per result, each checked against its result
    before the call (the sizes the code computes are checked after it)."""
    count = len(results)
    if out is None:
        return [None] * count
    if count == 0:
        raise TypeError(f"@{name} returns nothing: out must be None")
    if count == 1:
        entries = list(out) if isinstance(out, tuple) and len(out) == 1 else [out]
    elif isinstance(out, tuple) and len(out) == count:
        entries = list(out)
    else:
        raise TypeError(
            f"@{name} returns {count} results: out must be a tuple of {count} entries, "
            f"a numpy array or None for each, got {type(out).__name__}"
            + (f" of {len(out)}" if isinstance(out, tuple) else "")
        )
    for i, (o, r) in enumerate(zip(entries, results)):
        if o is None:
            continue
        where = _out_name(i, count)
        if r.kind == "scalar":
            raise TypeError(
                f"@{name}: result {i} ('{r.text}') is a scalar, so {where} must be None"
            )
        if not isinstance(o, np.ndarray):
            raise TypeError(f"@{name}: {where} must be a numpy array, got {type(o).__name__}")
        want = _dtype(r)
        if o.dtype != want:
            raise TypeError(
                f"@{name}: {where} has dtype {o.dtype}, but result {i} ('{r.text}') is {want}"
            )
        if o.ndim != len(r.shape) or any(
            s != DYNAMIC and s != n for s, n in zip(r.shape, o.shape)
        ):
            raise ValueError(
                f"@{name}: {where} has shape {o.shape}, but result {i} ('{r.text}') has shape "
                f"{_shape(r.shape)}"
            )
        if not o.flags.writeable:
            raise ValueError(f"@{name}: {where} is read-only")
        if not o.flags.c_contiguous or not o.flags.aligned:
            raise ValueError(f"@{name}: {where} must be C-contiguous and aligned")
    return entries
