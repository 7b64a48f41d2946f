"""Text of memrefs exactly as upstream's runner utils print them.

Upstream (``mlir/include/mlir/ExecutionEngine/RunnerUtils.h``) writes to a
C++ ``ostream``: a metadata header, then the elements in nested brackets
(``MemRefDataPrinter``). Numbers print as ``ostream`` prints them: floats
with 6 significant digits in ``%g`` style (``-nan`` for a NaN with its sign
bit set, as glibc does), ``int8_t`` as a raw character, complex numbers as
``(re,im)``, index values as ``uint64_t``.

Formatting is done for all elements at once: one ``%`` over a repeated
format string, then joins per nesting level, so a 10^5-element memref takes
milliseconds rather than a Python loop per element.
"""

from __future__ import annotations

import numpy as np

from mlkit.runtime.memref_view import ELEMENT_DTYPES, MemrefView

_SEP = "\x00"


def _format_floats(values: np.ndarray) -> list[str]:
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    n = flat.size
    if n == 0:
        return []
    texts = ((("%g" + _SEP) * n) % tuple(flat.tolist())).split(_SEP)
    texts.pop()
    negative_nan = np.isnan(flat) & np.signbit(flat)
    for index in np.flatnonzero(negative_nan).tolist():
        texts[index] = "-nan"
    return texts


def _format_ints(values: np.ndarray) -> list[str]:
    flat = values.ravel()
    n = flat.size
    if n == 0:
        return []
    texts = ((("%d" + _SEP) * n) % tuple(flat.tolist())).split(_SEP)
    texts.pop()
    return texts


def bf16_to_f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def format_elements(values: np.ndarray, kind: str) -> list[str]:
    """Each element (row-major order) as upstream's ostream prints it."""
    if kind in ("F16", "F32", "F64"):
        return _format_floats(values)
    if kind == "BF16":
        return _format_floats(bf16_to_f32(np.asarray(values)))
    if kind == "I8":  # int8_t is a char to an ostream
        return [chr(b) for b in values.astype(np.uint8).ravel().tolist()]
    if kind in ("C32", "C64"):
        flat = np.ascontiguousarray(values).ravel()
        real = _format_floats(flat.real)
        imag = _format_floats(flat.imag)
        return [f"({r},{i})" for r, i in zip(real, imag)]
    return _format_ints(values)


def format_scalar(value: object, kind: str) -> str:
    return format_elements(np.asarray([value], ELEMENT_DTYPES[kind]), kind)[0]


def layout(texts: list[str], sizes: tuple[int, ...]) -> str:
    """The nested-bracket text of ``MemRefDataPrinter`` for row-major ``texts``."""
    rank = len(sizes)
    if rank == 0:
        return f"[{texts[0]}]"
    if 0 in sizes:
        return _empty_layout(sizes, rank, rank)
    inner = sizes[-1]
    separator = ", " + " " * rank
    parts = [
        "[" + separator.join(texts[i : i + inner]) + "]" for i in range(0, len(texts), inner)
    ]
    for dim in range(2, rank + 1):
        count = sizes[rank - dim]
        separator = ",\n" + " " * (rank - dim + 1)
        parts = [
            "[" + separator.join(parts[i : i + count]) + "]"
            for i in range(0, len(parts), count)
        ]
    return parts[0]


def _empty_layout(sizes: tuple[int, ...], rank: int, dim: int) -> str:
    """Upstream's brackets around a memref with no elements. Upstream reads
    (and prints) one element even where a size is 0; no element exists to
    print here, so that place stays empty."""
    if dim == 0:
        return ""
    size = sizes[rank - dim]
    sub = _empty_layout(sizes, rank, dim - 1)
    if size <= 1:
        return f"[{sub}]"
    separator = ", " + ("\n" if dim > 1 else "") + " " * (rank - dim + 1)
    return "[" + separator.join([sub] * size) + "]"


def pointer_text(address: int) -> str:
    """A ``void *`` through libstdc++'s ostream: hex with 0x, but null is ``0``."""
    return f"0x{address:x}" if address else "0"


def metadata(view: MemrefView) -> str:
    """``printMemRefMetaData``: base, rank, offset, sizes and strides."""
    sizes = ", ".join(str(s) for s in view.sizes)
    strides = ", ".join(str(s) for s in view.strides)
    return (
        f"base@ = {pointer_text(view.aligned)} rank = {view.rank} offset = {view.offset}"
        f" sizes = [{sizes}] strides = [{strides}]"
    )


def format_memref(view: MemrefView, kind: str, prefix: str = "Unranked Memref ") -> str:
    """``printMemRef``: header line, then the data and a newline."""
    values = view.array(ELEMENT_DTYPES[kind])
    if view.element_count == 0:
        data = layout([], view.sizes) if view.rank else "[]"
    else:
        data = layout(format_elements(values, kind), view.sizes)
    return f"{prefix}{metadata(view)} data = \n{data}\n"


def format_shape(view: MemrefView, prefix: str = "Unranked Memref ") -> str:
    """``printMemrefShape*``: the header without data."""
    return f"{prefix}{metadata(view)}\n"
