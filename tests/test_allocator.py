"""The runtime's caching allocator (mlkit.runtime.allocator): size classes,
reuse, the bound, trimming, agreement with the C library's free, threads,
and the JIT binding compiled code's malloc/aligned_alloc/free to it."""

from __future__ import annotations

import ctypes
import ctypes.util
import threading

import pytest

from mlkit.runtime import allocator as alloc_module
from mlkit.runtime.allocator import LARGE, caching_allocator

ALLOCATOR = caching_allocator()
pytestmark = pytest.mark.skipif(ALLOCATOR is None, reason="no malloc_usable_size here")

_libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.free.argtypes = [ctypes.c_void_p]


@pytest.fixture
def fresh():
    """The allocator with nothing kept, its limit restored afterwards."""
    assert ALLOCATOR is not None
    limit = ALLOCATOR.limit
    ALLOCATOR.trim()
    yield ALLOCATOR
    ALLOCATOR.limit = limit
    ALLOCATOR.trim()


def test_small_requests_go_to_the_c_library(fresh) -> None:
    before = fresh.stats()
    p = fresh.malloc(1000)
    assert p
    fresh.free(p)
    after = fresh.stats()
    assert (after.large_allocations, after.large_frees) == (
        before.large_allocations,
        before.large_frees,
    )


def test_a_freed_large_block_is_reused_by_its_size_class(fresh) -> None:
    p = fresh.malloc(3 << 20)
    assert p % 64 == 0  # large blocks are cache-line aligned
    ctypes.memset(p, 1, 3 << 20)  # all of it is usable
    fresh.free(p)
    kept = fresh.stats()
    assert kept.kept >= 1 and kept.cached_bytes >= 3 << 20
    q = fresh.malloc((3 << 20) - 1000)  # same class
    assert q == p
    assert fresh.stats().reused == kept.reused + 1
    assert fresh.stats().cached_bytes == kept.cached_bytes - (3 << 20)
    r = fresh.malloc(6 << 20)  # another class: fresh memory
    assert r != p
    fresh.free(q)
    fresh.free(r)


def test_classes_hold_what_they_promise(fresh) -> None:
    # every size just above a class boundary and at it gets a block that holds it
    sizes = [LARGE + 1, 81920, 81921, 98304, 131072, 131073, (1 << 24) + 1, 5 << 20]
    blocks = [(s, fresh.malloc(s)) for s in sizes]
    for s, p in blocks:
        ctypes.memset(p, 0xAB, s)
    for _, p in blocks:
        fresh.free(p)
    again = [(s, fresh.malloc(s)) for s in sizes]
    for s, p in again:
        ctypes.memset(p, 0xCD, s)
        fresh.free(p)


def test_the_bound_is_kept_and_trim_empties(fresh) -> None:
    fresh.limit = 8 << 20
    blocks = [fresh.malloc(3 << 20) for _ in range(5)]
    for p in blocks:
        fresh.free(p)
    stats = fresh.stats()
    assert 0 < stats.cached_bytes <= 8 << 20
    fresh.trim()
    assert fresh.stats().cached_bytes == 0
    fresh.limit = 0  # keeps nothing
    p = fresh.malloc(3 << 20)
    fresh.free(p)
    assert fresh.stats().cached_bytes == 0


def test_blocks_cross_with_the_c_library(fresh) -> None:
    """Its blocks are the C library's: libc's free takes them, and its free
    takes (and may keep) libc's."""
    p = fresh.malloc(2 << 20)
    _libc.free(p)
    q = _libc.malloc(2 << 20)
    fresh.free(q)
    r = fresh.malloc(2 << 20)
    ctypes.memset(r, 0, 2 << 20)
    fresh.free(r)


def test_threads_allocate_and_free_concurrently(fresh) -> None:
    # ctypes drops the GIL around each call, so these really race
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            sizes = [(1 << 17) * (1 + (seed * 7 + i) % 13) for i in range(300)]
            held = []
            for s in sizes:
                p = fresh.malloc(s)
                ctypes.memset(p, seed & 0xFF, 64)
                held.append((p, seed & 0xFF))
                if len(held) > 3:
                    q, mark = held.pop(0)
                    assert ctypes.string_at(q, 64) == bytes([mark]) * 64
                    fresh.free(q)
            for q, _ in held:
                fresh.free(q)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert 0 <= fresh.stats().cached_bytes <= fresh.limit


LOOP = """
func.func @twice(%a: memref<?xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %r = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  linalg.add ins(%a, %a : memref<?xf32>, memref<?xf32>) outs(%r : memref<?xf32>)
  return %r : memref<?xf32>
}
"""


def _llvm_ir(options) -> str:
    from mlkit.context import make_context
    from mlkit.execution.jit import jit_compile
    from mlkit.pipeline.manager import PassRunner, PipelineBuilder
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module

    registry = default_registry()
    ctx = make_context(registry)
    module = parse_module(ctx, LOOP, "<test>")
    pm = PipelineBuilder(registry).parse(
        "builtin.module(lower-to-cpu{deallocation=false})", top_anchor="builtin.module"
    )
    PassRunner(ctx).run(pm, module)
    return jit_compile(module, options).llvm_ir


def test_the_jit_binds_compiled_allocations_to_it() -> None:
    from mlkit.execution.jit import JitOptions

    ir = _llvm_ir(JitOptions(opt_level=2))
    assert "@_mlkit_malloc(" in ir and "@malloc(" not in ir
    plain = _llvm_ir(JitOptions(opt_level=2, caching_allocator=False))
    assert "@malloc(" in plain and "_mlkit_malloc" not in plain


def test_entry_points_are_runtime_symbols() -> None:
    from mlkit.runtime import provided_symbols

    assert alloc_module.ENTRY_POINTS <= provided_symbols()
