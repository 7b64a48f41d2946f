"""mlkit's caching allocator: what compiled code's ``malloc``,
``aligned_alloc`` and ``free`` become, so that a function called again and
again on large arrays reuses the blocks it freed instead of faulting fresh
pages in on every call.

Blocks above :data:`LARGE` bytes are grouped in size classes (four per
power of two, so a block wastes at most a quarter of itself); a freed one is
kept in its class's stack, up to :data:`SLOTS` per class and
:attr:`CachingAllocator.limit` bytes in all (``$MLKIT_ALLOC_CACHE_BYTES``,
default :data:`DEFAULT_LIMIT`; 0 keeps nothing), and handed out again to the
next request of that class. Smaller requests go straight to the C library,
whose own caches already serve them well. When the C library is out of
memory, the cache is emptied and the request tried once more.

Every block is the C library's: fresh large ones come from
``aligned_alloc(64, class size)``, and ``free`` finds a block's class from
``malloc_usable_size``. So the C library's ``free`` may release any block
this allocator handed out, and this ``free`` may take any block the C
library handed out (``calloc`` that LLVM made of ``malloc`` + ``memset``, a
buffer from an external function): nothing breaks where the two meet.

It is LLVM IR compiled once per process into an engine of its own that is
never freed, so memory handed to numpy outlives the compiled program that
allocated it. Each class has its own spin lock (test-and-test-and-set,
yielding while another thread holds it); the byte count and the statistics
are atomic, so threads may allocate and free concurrently.
"""

from __future__ import annotations

import ctypes
import os
import sys
from dataclasses import dataclass
from typing import Any

LARGE = 1 << 16  # requests above this many bytes are cached
SLOTS = 7  # blocks kept per class: with the lock and count, one 64-byte line
CLASSES = 64  # classes 1..63 cover (64 KiB, 3.5 GiB]; larger ones are not kept
DEFAULT_LIMIT = 256 << 20
LIMIT_ENV = "MLKIT_ALLOC_CACHE_BYTES"

# what compiled code calls -> the allocator's entry point it is bound to
REDIRECTS: dict[str, str] = {
    "malloc": "_mlkit_malloc",
    "aligned_alloc": "_mlkit_aligned_alloc",
    "free": "_mlkit_free",
}
ENTRY_POINTS = frozenset(REDIRECTS.values())

_USABLE_SIZE = "malloc_size" if sys.platform == "darwin" else "malloc_usable_size"


def _class_of(name: str, arg: str, *, rounds_up: bool) -> str:
    """The IR of a function from a byte count above LARGE to its size class:
    the smallest class holding that many bytes (``rounds_up``) or the largest
    a block of that many usable bytes belongs to."""
    top = "%m" if rounds_up else f"%{arg}"
    first = f"  %m = sub i64 %{arg}, 1\n" if rounds_up else ""
    return f"""define internal i64 @{name}(i64 %{arg}) {{
{first}  %lz = call i64 @llvm.ctlz.i64(i64 {top}, i1 true)
  %e = sub i64 63, %lz
  %sh = sub i64 %e, 2
  %t = lshr i64 {top}, %sh
  %eb = sub i64 %e, 16
  %eb4 = shl i64 %eb, 2
  %k = add i64 %eb4, %t
  %k1 = sub i64 %k, {3 if rounds_up else 4}
  ret i64 %k1
}}
"""


# Class k > 0 holds blocks of at least (4 + k % 4) << (16 + k / 4 - 2) bytes.
_IR = f"""\
%Class = type {{ i32, i32, [{SLOTS} x ptr] }}

@classes = internal global [{CLASSES} x %Class] zeroinitializer, align 64
@cached = internal global i64 0, align 64
@limit = internal global i64 0, align 8
@stats = internal global [4 x i64] zeroinitializer, align 64

declare ptr @malloc(i64)
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)
declare i64 @{_USABLE_SIZE}(ptr)
declare i32 @sched_yield()
declare i64 @llvm.ctlz.i64(i64, i1)

define internal void @lock(ptr %l) {{
entry:
  br label %try
try:
  %old = atomicrmw xchg ptr %l, i32 1 acquire
  %got = icmp eq i32 %old, 0
  br i1 %got, label %done, label %wait
wait:
  %y = call i32 @sched_yield()
  %v = load atomic i32, ptr %l monotonic, align 4
  %open = icmp eq i32 %v, 0
  br i1 %open, label %try, label %wait
done:
  ret void
}}

define internal void @unlock(ptr %l) {{
  store atomic i32 0, ptr %l release, align 4
  ret void
}}

define internal void @count(i64 %which) {{
  %p = getelementptr inbounds [4 x i64], ptr @stats, i64 0, i64 %which
  %o = atomicrmw add ptr %p, i64 1 monotonic
  ret void
}}

; the smallest class whose blocks hold %s bytes (%s > LARGE)
{_class_of("class_of_request", "s", rounds_up=True)}
; the largest class whose blocks a block of %u usable bytes can be (%u >= LARGE)
{_class_of("class_of_block", "u", rounds_up=False)}
define internal i64 @class_bytes(i64 %k) {{
  %eb = lshr i64 %k, 2
  %e2 = add i64 %eb, 14
  %r = and i64 %k, 3
  %q = add i64 %r, 4
  %b = shl i64 %q, %e2
  ret i64 %b
}}

; one kept block of the (locked) class %c of %bytes, or null when it keeps none
define internal ptr @take(ptr %c, i64 %bytes) {{
entry:
  %n.p = getelementptr inbounds %Class, ptr %c, i32 0, i32 1
  %n = load i32, ptr %n.p
  %has = icmp ne i32 %n, 0
  br i1 %has, label %pop, label %none
pop:
  %n1 = sub i32 %n, 1
  %slot = getelementptr inbounds %Class, ptr %c, i32 0, i32 2, i32 %n1
  %p = load ptr, ptr %slot
  store i32 %n1, ptr %n.p
  %o = atomicrmw sub ptr @cached, i64 %bytes monotonic
  ret ptr %p
none:
  ret ptr null
}}

define internal ptr @large(i64 %s) {{
entry:
  %k = call i64 @class_of_request(i64 %s)
  %kept = icmp ult i64 %k, {CLASSES}
  br i1 %kept, label %look, label %huge
huge:
  %s63 = add i64 %s, 63
  %s64 = and i64 %s63, -64
  %h = call ptr @aligned_alloc(i64 64, i64 %s64)
  ret ptr %h
look:
  call void @count(i64 0)
  %c = getelementptr inbounds [{CLASSES} x %Class], ptr @classes, i64 0, i64 %k
  %size = call i64 @class_bytes(i64 %k)
  call void @lock(ptr %c)
  %p = call ptr @take(ptr %c, i64 %size)
  call void @unlock(ptr %c)
  %hit = icmp ne ptr %p, null
  br i1 %hit, label %served, label %miss
served:
  call void @count(i64 1)
  ret ptr %p
miss:
  %f = call ptr @aligned_alloc(i64 64, i64 %size)
  %failed = icmp eq ptr %f, null
  br i1 %failed, label %retry, label %got
got:
  ret ptr %f
retry:
  call void @_mlkit_alloc_trim()
  %g = call ptr @aligned_alloc(i64 64, i64 %size)
  ret ptr %g
}}

define ptr @_mlkit_malloc(i64 %s) {{
entry:
  %big = icmp ugt i64 %s, {LARGE}
  br i1 %big, label %large, label %small
small:
  %p = tail call ptr @malloc(i64 %s)
  ret ptr %p
large:
  %q = tail call ptr @large(i64 %s)
  ret ptr %q
}}

; alignments up to 64 share the cache: every cached block is 64-aligned
define ptr @_mlkit_aligned_alloc(i64 %a, i64 %s) {{
entry:
  %big = icmp ugt i64 %s, {LARGE}
  %fits = icmp ule i64 %a, 64
  %cache = and i1 %big, %fits
  br i1 %cache, label %large, label %direct
direct:
  %p = tail call ptr @aligned_alloc(i64 %a, i64 %s)
  ret ptr %p
large:
  %q = tail call ptr @large(i64 %s)
  ret ptr %q
}}

define void @_mlkit_free(ptr %p) {{
entry:
  %null = icmp eq ptr %p, null
  br i1 %null, label %done, label %measure
measure:
  %u = call i64 @{_USABLE_SIZE}(ptr %p)
  %big = icmp uge i64 %u, {LARGE}
  br i1 %big, label %large, label %release
large:
  call void @count(i64 2)
  %k = call i64 @class_of_block(i64 %u)
  %i = ptrtoint ptr %p to i64
  %misaligned = and i64 %i, 63
  %aligned = icmp eq i64 %misaligned, 0
  %lo = icmp ne i64 %k, 0
  %hi = icmp ult i64 %k, {CLASSES}
  %ok1 = and i1 %aligned, %lo
  %ok = and i1 %ok1, %hi
  br i1 %ok, label %budget, label %release
budget:
  %bytes = call i64 @class_bytes(i64 %k)
  %before = atomicrmw add ptr @cached, i64 %bytes monotonic
  %after = add i64 %before, %bytes
  %lim = load atomic i64, ptr @limit monotonic, align 8
  %room = icmp ule i64 %after, %lim
  br i1 %room, label %keep, label %refund
keep:
  %c = getelementptr inbounds [{CLASSES} x %Class], ptr @classes, i64 0, i64 %k
  call void @lock(ptr %c)
  %n.p = getelementptr inbounds %Class, ptr %c, i32 0, i32 1
  %n = load i32, ptr %n.p
  %space = icmp ult i32 %n, {SLOTS}
  br i1 %space, label %push, label %full
push:
  %slot = getelementptr inbounds %Class, ptr %c, i32 0, i32 2, i32 %n
  store ptr %p, ptr %slot
  %n1 = add i32 %n, 1
  store i32 %n1, ptr %n.p
  call void @unlock(ptr %c)
  call void @count(i64 3)
  ret void
full:
  call void @unlock(ptr %c)
  br label %refund
refund:
  %o = atomicrmw sub ptr @cached, i64 %bytes monotonic
  br label %release
release:
  tail call void @free(ptr %p)
  br label %done
done:
  ret void
}}

; give every kept block back to the C library
define void @_mlkit_alloc_trim() {{
entry:
  br label %class
class:
  %k = phi i64 [ 1, %entry ], [ %k1, %emptied ]
  %c = getelementptr inbounds [{CLASSES} x %Class], ptr @classes, i64 0, i64 %k
  %bytes = call i64 @class_bytes(i64 %k)
  call void @lock(ptr %c)
  br label %slot
slot:
  %p = call ptr @take(ptr %c, i64 %bytes)
  %has = icmp ne ptr %p, null
  br i1 %has, label %pop, label %emptied
pop:
  call void @free(ptr %p)
  br label %slot
emptied:
  call void @unlock(ptr %c)
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, {CLASSES}
  br i1 %more, label %class, label %done
done:
  ret void
}}

define void @_mlkit_alloc_set_limit(i64 %bytes) {{
  store atomic i64 %bytes, ptr @limit monotonic, align 8
  ret void
}}

; large requests, of them served from the cache, large frees, of them kept,
; bytes kept, the limit
define void @_mlkit_alloc_stats(ptr %out) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %from = getelementptr inbounds [4 x i64], ptr @stats, i64 0, i64 %i
  %v = load atomic i64, ptr %from monotonic, align 8
  %to = getelementptr inbounds i64, ptr %out, i64 %i
  store i64 %v, ptr %to
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, 4
  br i1 %more, label %loop, label %tail
tail:
  %c = load atomic i64, ptr @cached monotonic, align 8
  %c.p = getelementptr inbounds i64, ptr %out, i64 4
  store i64 %c, ptr %c.p
  %l = load atomic i64, ptr @limit monotonic, align 8
  %l.p = getelementptr inbounds i64, ptr %out, i64 5
  store i64 %l, ptr %l.p
  ret void
}}
"""


@dataclass(frozen=True)
class AllocatorStats:
    """Counters since the process started: large requests (above
    :data:`LARGE` bytes) and how many the cache served, frees of large
    blocks and how many it kept; bytes kept now and the limit."""

    large_allocations: int
    reused: int
    large_frees: int
    kept: int
    cached_bytes: int
    limit: int


class CachingAllocator:
    """The process's caching allocator: the addresses compiled code is
    bound to, and ``free``/``trim``/``stats`` for Python."""

    def __init__(self, engine: Any, limit: int) -> None:
        self._engine = engine
        self.addresses = {name: engine.get_function_address(name) for name in ENTRY_POINTS}
        self.free = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self.addresses["_mlkit_free"])
        self.malloc = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64)(
            self.addresses["_mlkit_malloc"]
        )
        self._trim = ctypes.CFUNCTYPE(None)(engine.get_function_address("_mlkit_alloc_trim"))
        self._set_limit = ctypes.CFUNCTYPE(None, ctypes.c_int64)(
            engine.get_function_address("_mlkit_alloc_set_limit")
        )
        self._stats = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(
            engine.get_function_address("_mlkit_alloc_stats")
        )
        self.limit = limit

    def stats(self) -> AllocatorStats:
        out = (ctypes.c_int64 * 6)()
        self._stats(ctypes.addressof(out))
        return AllocatorStats(*out)

    @property
    def limit(self) -> int:
        """Bytes the cache may keep; setting it does not release what it keeps."""
        return self.stats().limit

    @limit.setter
    def limit(self, nbytes: int) -> None:
        self._set_limit(max(0, int(nbytes)))

    def trim(self) -> None:
        """Give every kept block back to the C library."""
        self._trim()


def _limit_from_environment() -> int:
    text = os.environ.get(LIMIT_ENV, "")
    try:
        return max(0, int(text)) if text.strip() else DEFAULT_LIMIT
    except ValueError:
        return DEFAULT_LIMIT


def _compile() -> CachingAllocator | None:
    from mlkit.runtime.engine import compile_for_good

    # codegen at -O0 (fast instruction selection): a quarter of the compile time,
    # and what the code costs is the memory it hands out, not its instructions.
    # Never freed, not even at exit: arrays may hold its blocks until the end.
    engine = compile_for_good(_IR, 0, (_USABLE_SIZE, "aligned_alloc"))
    return CachingAllocator(engine, _limit_from_environment()) if engine is not None else None


_ALLOCATOR: list[CachingAllocator | None] = []  # made on first use, then for good


def caching_allocator() -> CachingAllocator | None:
    """The process's allocator, compiled on first use; None where the C
    library cannot tell a block's size (no ``malloc_usable_size``)."""
    if not _ALLOCATOR:
        _ALLOCATOR.append(_compile() if os.name == "posix" else None)
    return _ALLOCATOR[0]


def bind(names: set[str]) -> None:
    """Make the allocator's entry points among ``names`` resolvable by the JIT."""
    import llvmlite.binding as llvm_binding

    wanted = names & ENTRY_POINTS
    if not wanted:
        return
    allocator = caching_allocator()
    for name in sorted(wanted):
        if allocator is not None:
            address = allocator.addresses[name]
        else:  # IR renamed elsewhere: the C library's functions do the same job
            libc = next(c for c, entry in REDIRECTS.items() if entry == name)
            address = llvm_binding.address_of_symbol(libc)
            if not address:
                continue
        llvm_binding.add_symbol(name, address)


def redirect(llvm_module: Any) -> list[str]:
    """Rename ``llvm_module``'s declarations of ``malloc``/``aligned_alloc``/
    ``free`` to the allocator's entry points (after LLVM has optimized the
    module knowing what they are) and bind those; returns the new names.
    Does nothing where there is no caching allocator."""
    declared = {
        fn.name: fn
        for fn in llvm_module.functions
        if fn.is_declaration and fn.name in REDIRECTS
    }
    if not declared or caching_allocator() is None:
        return []
    for name, fn in declared.items():
        fn.name = REDIRECTS[name]
    renamed = [REDIRECTS[n] for n in declared]
    bind(set(renamed))
    return renamed


def free_function() -> Any:
    """The ``free`` that returns blocks to this allocator, or the C
    library's where there is none: either releases any C library block."""
    allocator = caching_allocator()
    if allocator is not None:
        return allocator.free
    import ctypes.util

    libc_free = ctypes.CDLL(ctypes.util.find_library("c") or None).free
    libc_free.argtypes = [ctypes.c_void_p]
    libc_free.restype = None
    return libc_free
