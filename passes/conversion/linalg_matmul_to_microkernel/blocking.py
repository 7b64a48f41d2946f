"""Register and cache blocking for the matmul micro-kernel, from the target.

The micro-kernel keeps an ``MR x NR`` tile of the output in vector registers
(``NR`` a multiple of the vector length ``VL``): ``MR * NR / VL``
accumulators, plus ``NR / VL`` registers for the row of packed B and one for
a broadcast element of A, must fit the vector register file (32 with AVX-512
and on AArch64, 16 with AVX/AVX2 and SSE). Of the tiles that fit, the one
with the most accumulators (which hides the FMA latency and does the most
FMAs per load) is chosen, with two vectors per row as BLIS's Haswell and
Skylake-X kernels have.

Cache blocking (see :mod:`.kernel` for the loop order): a ``KC x NR`` sliver
of packed B fills L1, the ``KC x NC`` block of packed B that the kernel sweeps
past one A sliver fills L2, and a ``MC x KC`` block of packed A takes an
eighth of L2. Where B is narrow (a static k whose whole ``k x N`` B block
fits a quarter of L2, and whose ``MR x k`` A sliver fits L1, as in a
convolution's im2col), the whole k is one slice, so that each C tile is
written once (measured on AVX-512: 1.2x on a 3x3, 64-channel convolution).
On a 32 KiB L1 / 1 MiB L2 AVX-512 machine this gives the measured best for
f32: 8 x 32 tiles, KC 256, NC 1024, MC 128. Cache sizes are the host's
(``/sys/devices/system/cpu/cpu0/cache``) when code is generated for the host,
else common sizes (32 KiB, 1 MiB, 8 MiB).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["Blocking", "CacheSizes", "choose_blocking", "host_cache_sizes"]

_CACHE_DIR = Path("/sys/devices/system/cpu/cpu0/cache")


@dataclass(frozen=True)
class CacheSizes:
    """Data cache sizes in bytes."""

    l1: int = 32 * 1024
    l2: int = 1024 * 1024
    l3: int = 8 * 1024 * 1024


@dataclass(frozen=True)
class Blocking:
    """The micro-kernel's tile (``mr`` rows by ``nr`` columns, ``vl`` lanes per
    vector) and the cache blocks ``kc``, ``mc`` (a multiple of ``mr``) and
    ``nc`` (a multiple of ``nr``)."""

    vl: int
    mr: int
    nr: int
    kc: int
    mc: int
    nc: int
    # a static k up to ``kc_max`` is one slice where its B block fits
    # ``panel_bytes`` (0: KC is the user's, never grown)
    kc_max: int = 0
    panel_bytes: int = 0

    @property
    def vectors_per_row(self) -> int:
        return self.nr // self.vl


def _parse_size(text: str) -> int | None:
    text = text.strip().upper()
    scale = {"K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024}.get(text[-1:], 1)
    digits = text.rstrip("KMG")
    return int(digits) * scale if digits.isdigit() else None


@cache
def host_cache_sizes() -> CacheSizes:
    """The host's data cache sizes per level, the defaults where unreadable."""
    found: dict[int, int] = {}
    try:
        for index in sorted(_CACHE_DIR.glob("index*")):
            kind = (index / "type").read_text().strip()
            if kind not in ("Data", "Unified"):
                continue
            level = int((index / "level").read_text())
            size = _parse_size((index / "size").read_text())
            if size:
                found[level] = size
    except (OSError, ValueError):
        found = {}
    default = CacheSizes()
    return CacheSizes(
        found.get(1, default.l1), found.get(2, default.l2), found.get(3, found.get(2, default.l3))
    )


def register_tile(registers: int, max_rows: int = 8) -> tuple[int, int]:
    """``(mr, vectors per row)``: two vectors per row and as many rows (up to
    ``max_rows``) as fit beside the B row and one broadcast."""
    per_row = 2
    return max(1, min(max_rows, (registers - per_row - 1) // per_row)), per_row


def _round_down(value: int, multiple: int) -> int:
    return max(multiple, value // multiple * multiple)


def choose_blocking(
    element_bytes: int,
    vector_bits: int,
    registers: int,
    caches: CacheSizes,
    *,
    mr: int = 0,
    nr: int = 0,
    kc: int = 0,
    mc: int = 0,
    nc: int = 0,
) -> Blocking:
    """The blocking for ``element_bytes``-wide floats; a nonzero argument
    overrides the heuristic (``nr`` is rounded to whole vectors, ``mc`` to
    whole ``mr`` and ``nc`` to whole ``nr``)."""
    vl = max(1, vector_bits // (8 * element_bytes))
    tile_mr, per_row = register_tile(registers)
    mr = mr or tile_mr
    nr = _round_down(nr, vl) if nr else per_row * vl
    # narrow vectors would make KC long and MC short: keep KC in [64, 512]
    # an A sliver of a whole k up to L1 is worth it where B is narrow (a
    # convolution's 64 filters): C is then written once, not once per slice
    kc_max = 0 if kc else caches.l1 // (mr * element_bytes)
    kc = kc or min(512, max(64, _round_down(caches.l1 // (nr * element_bytes), 8)))
    mc = _round_down(mc or max(4 * mr, caches.l2 // 8 // (kc * element_bytes)), mr)
    nc = _round_down(nc or caches.l2 // (kc * element_bytes), nr)
    return Blocking(vl, mr, nr, kc, mc, nc, kc_max, caches.l2 // 4)
