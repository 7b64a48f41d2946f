"""Memref descriptors in memory (upstream's ABI) read as numpy views.

A ranked descriptor is ``{ptr allocated, ptr aligned, i64 offset, i64
sizes[R], i64 strides[R]}``; an unranked one is ``{i64 rank, ptr
descriptor}``. The views alias the memory the descriptor describes (no copy),
with the descriptor's element strides, so the runtime's printers and the
embedding API read data in bulk rather than element by element.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

# Element kinds of the runner utils' suffixes (printMemrefF32, ...) and the
# numpy dtype that holds one element. BF16 has no numpy dtype: it is read as
# its 16 bits and widened by the formatter.
ELEMENT_DTYPES: dict[str, np.dtype] = {
    "I8": np.dtype(np.int8),
    "I16": np.dtype(np.int16),
    "I32": np.dtype(np.int32),
    "I64": np.dtype(np.int64),
    "F16": np.dtype(np.float16),
    "BF16": np.dtype(np.uint16),
    "F32": np.dtype(np.float32),
    "F64": np.dtype(np.float64),
    "Ind": np.dtype(np.uint64),  # upstream's index_type is uint64_t
    "C32": np.dtype(np.complex64),
    "C64": np.dtype(np.complex128),
}


@dataclass(frozen=True)
class MemrefView:
    """The fields of a ranked descriptor; ``aligned`` is where data starts."""

    allocated: int
    aligned: int
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]

    @property
    def rank(self) -> int:
        return len(self.sizes)

    @property
    def element_count(self) -> int:
        count = 1
        for size in self.sizes:
            count *= size
        return count

    def array(self, dtype: np.dtype) -> np.ndarray:
        """A numpy view of the elements (shape ``sizes``), aliasing the memory."""
        if self.element_count == 0 or any(s < 0 for s in self.sizes):
            return np.empty([max(s, 0) for s in self.sizes], dtype)
        low = high = self.offset
        for size, stride in zip(self.sizes, self.strides):
            reach = (size - 1) * stride
            if reach < 0:
                low += reach
            else:
                high += reach
        itemsize = dtype.itemsize
        count = high - low + 1
        buffer = (ctypes.c_char * (count * itemsize)).from_address(self.aligned + low * itemsize)
        return np.ndarray(
            self.sizes,
            dtype,
            buffer=buffer,
            offset=(self.offset - low) * itemsize,
            strides=[s * itemsize for s in self.strides],
        )


def read_ranked(address: int, rank: int) -> MemrefView:
    """The ranked descriptor of ``rank`` dimensions at ``address``."""
    if not address:
        raise ValueError("null memref descriptor")
    if rank < 0 or rank > 1 << 16:
        raise ValueError(f"invalid memref rank {rank}")
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(address)
    fields = list(words)
    return MemrefView(
        fields[0] & 0xFFFFFFFFFFFFFFFF,
        fields[1] & 0xFFFFFFFFFFFFFFFF,
        fields[2],
        tuple(fields[3 : 3 + rank]),
        tuple(fields[3 + rank :]),
    )


def read_unranked(address: int) -> MemrefView:
    """The ranked descriptor an unranked ``{i64 rank, ptr}`` at ``address`` points to."""
    if not address:
        raise ValueError("null unranked memref")
    rank = ctypes.c_int64.from_address(address).value
    descriptor = ctypes.c_void_p.from_address(address + 8).value or 0
    return read_ranked(descriptor, rank)
