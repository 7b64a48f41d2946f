"""The runner utils implemented in Python and called from compiled code
through ctypes: upstream's memref printers (both ABI forms), shape printers
and ``verifyMemRef*``.

Each call reads its memref in bulk through numpy, formats it in one go
(:mod:`mlkit.runtime.memref_format`) and writes it with one write. C's
stdio buffer is flushed first (``fflush(NULL)``) and Python's after, so the
text lands in order with ``printf`` output of compiled code and of the native
runner utils.

Each callback object is made once and kept for the life of the process by
:data:`CALLBACKS` (see :mod:`mlkit.runtime.callback_table`).
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from mlkit.runtime.callback_table import CallbackTable
from mlkit.runtime.memref_format import format_elements, format_memref, format_shape, metadata
from mlkit.runtime.memref_view import ELEMENT_DTYPES, MemrefView, read_ranked, read_unranked

_PRINT = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p)
_PRINT_CIFACE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_VERIFY = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)
_VERIFY_CIFACE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)

PRINT_KINDS = ("I8", "I16", "I32", "I64", "F16", "BF16", "F32", "F64", "Ind", "C32", "C64")
VERIFY_KINDS = ("I32", "F32", "F64", "Ind", "C32", "C64")
RANKED_PRINTERS = {
    **{f"{r}dF32": (r, "F32") for r in range(5)},
    **{f"1d{k}": (1, k) for k in ("I8", "I32", "I64", "F64", "Ind", "C32", "C64")},
}
VERIFY_PRINT_LIMIT = 10  # upstream's MemRefDataVerifier::printLimit


@cache
def _libc_fflush() -> Callable[[Any], int]:
    fflush = ctypes.CDLL(None).fflush
    fflush.argtypes = [ctypes.c_void_p]
    fflush.restype = ctypes.c_int
    return fflush


def flush_c_stdio() -> None:
    """``fflush(NULL)``: push out what compiled code wrote through C's stdio."""
    _libc_fflush()(None)


def _write(stream: Any, text: str) -> None:
    """One write of ``text`` after flushing C's stdio; ``int8`` elements are
    raw bytes, so text is written as Latin-1 where the stream takes bytes."""
    flush_c_stdio()
    stream.flush()
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        buffer.write(text.encode("latin-1", "replace"))
        buffer.flush()
    else:
        stream.write(text)
        stream.flush()


def write_stdout(text: str) -> None:
    _write(sys.stdout, text)


def write_stderr(text: str) -> None:
    _write(sys.stderr, text)


def _guarded(name: str, work: Callable[..., Any], failed: Any = None) -> Callable[..., Any]:
    """A Python error inside a callback cannot unwind through compiled code:
    report it on one line and return ``failed``."""

    def call(*args: Any) -> Any:
        try:
            return work(*args)
        except Exception as exc:  # no traceback through the JIT's frames
            try:
                write_stderr(f"mlkit runtime: error in {name}: {exc}\n")
            except Exception:
                pass
            return failed

    return call


# -- printers ---------------------------------------------------------------------------
def _printer(kind: str) -> Callable[[int, int], None]:
    def print_memref(rank: int, descriptor: int) -> None:
        write_stdout(format_memref(read_ranked(descriptor or 0, rank), kind))

    return print_memref


def _printer_ciface(kind: str) -> Callable[[int], None]:
    def print_memref(unranked: int) -> None:
        write_stdout(format_memref(read_unranked(unranked or 0), kind))

    return print_memref


def _ranked_printer(rank: int, kind: str) -> Callable[[int], None]:
    def print_memref(descriptor: int) -> None:
        write_stdout(format_memref(read_ranked(descriptor or 0, rank), kind, prefix="Memref "))

    return print_memref


def _shape_printer(unranked_form: bool) -> Callable[..., None]:
    def print_shape(*args: int) -> None:
        view = read_unranked(args[0] or 0) if unranked_form else read_ranked(args[1] or 0, args[0])
        write_stdout(format_shape(view))

    return print_shape


# -- verifyMemRef -------------------------------------------------------------------------
def verify_views(actual: MemrefView, expected: MemrefView, kind: str) -> tuple[int, str]:
    """upstream's ``verifyMemRef``: the number of differing elements (-1 when
    the shapes differ) and what it writes to stderr."""
    for i in range(actual.rank):
        if (
            expected.rank != actual.rank
            or actual.offset != expected.offset
            or actual.sizes[i] != expected.sizes[i]
            or actual.strides[i] != expected.strides[i]
        ):
            return -1, metadata(actual) + metadata(expected)
    dtype = ELEMENT_DTYPES[kind]
    got = actual.array(dtype)
    want = expected.array(dtype)
    if kind in ("F32", "F64"):
        epsilon = dtype.type(1e-6 if kind == "F32" else 1e-12)
        with np.errstate(all="ignore"):
            delta = np.abs(got - want)
            ok = np.isfinite(got) & np.isfinite(want) & (delta <= epsilon * np.abs(want))
    else:
        ok = got == want
    bad = np.flatnonzero(~np.asarray(ok).ravel())
    if bad.size == 0:
        return 0, ""
    shown = bad[:VERIFY_PRINT_LIMIT]
    index = np.unravel_index(shown, actual.sizes) if actual.rank else ()
    offsets = np.full(shown.size, actual.offset, dtype=np.int64)
    for axis, stride in enumerate(actual.strides):
        offsets += np.asarray(index[axis], dtype=np.int64) * stride
    got_text = format_elements(got.ravel()[shown], kind)
    want_text = format_elements(want.ravel()[shown], kind)
    lines = [
        f"{g} != {w} offset = {o}\n" for g, w, o in zip(got_text, want_text, offsets.tolist())
    ]
    return int(bad.size), "".join(lines)


def _verifier(kind: str, unranked_form: bool) -> Callable[..., int]:
    def verify(*args: int) -> int:
        if unranked_form:
            actual, expected = read_unranked(args[0] or 0), read_unranked(args[1] or 0)
        else:
            actual = read_ranked(args[1] or 0, args[0])
            expected = read_ranked(args[2] or 0, args[0])
        errors, report = verify_views(actual, expected, kind)
        if report:
            write_stderr(report)
        return errors

    return verify


def _factories() -> dict[str, Callable[[], Any]]:
    """symbol -> a function making its ctypes callback."""
    table: dict[str, Callable[[], Any]] = {}

    def add(name: str, proto: Any, work: Callable[..., Any], failed: Any = None) -> None:
        table[name] = lambda: proto(_guarded(name, work, failed))

    for kind in PRINT_KINDS:
        add(f"printMemref{kind}", _PRINT, _printer(kind))
        add(f"_mlir_ciface_printMemref{kind}", _PRINT_CIFACE, _printer_ciface(kind))
        add(f"printMemrefShape{kind}", _PRINT, _shape_printer(False))
        add(f"_mlir_ciface_printMemrefShape{kind}", _PRINT_CIFACE, _shape_printer(True))
    for suffix, (rank, kind) in RANKED_PRINTERS.items():
        add(f"_mlir_ciface_printMemref{suffix}", _PRINT_CIFACE, _ranked_printer(rank, kind))
    for kind in VERIFY_KINDS:
        add(f"verifyMemRef{kind}", _VERIFY, _verifier(kind, False), -1)
        add(f"_mlir_ciface_verifyMemRef{kind}", _VERIFY_CIFACE, _verifier(kind, True), -1)
    return table


CALLBACKS = CallbackTable(_factories())
CALLBACK_FUNCTIONS: frozenset[str] = CALLBACKS.names


def callback_address(name: str) -> int:
    """The address of the callback implementing ``name``, made on first use."""
    return CALLBACKS.address(name)
