"""mlkit's fork-join thread pool: what compiled code calls to run a parallel
loop on every core, on the C library's pthreads and nothing else.

``_mlkit_parallel_for(fn, ctx, n, threads)`` runs ``fn(ctx, begin, end)``
over [0, n) in T contiguous chunks, chunk t beginning at
``t * (n / T) + min(t, n % T)``: a thread count always gives the same
partition, so results do not depend on timing. The caller runs chunk 0
itself and workers 1..T-1 the others; it returns once every chunk has
finished, their stores visible to it. T is ``threads`` if positive, else
the pool's default (:func:`set_num_threads`), then at most n and
:data:`MAX_THREADS`. A call that finds the pool busy, whether from another
thread or nested inside a chunk, runs ``fn(ctx, 0, n)`` on its own thread:
no deadlock and the same results. (No thread-local storage: MCJIT handles
it poorly, and the busy flag is enough.)

Workers are created lazily, up to ``MAX_THREADS - 1``, and never exit. A job
is published as one atomic word, generation << 16 | T, so that a worker
reads its job's generation and size in one load: a worker that is part of
the job (index < T) is certain the job's fields stay put until it has
finished, since the job cannot end before it does; one that is not reads
nothing else. After its chunk a worker spins a while for the next
generation, yields a while (on a machine with more threads than cores, the
chunk it waits for may need its core), then sleeps on a condition variable
of its own, which a job wakes only if the worker is part of it: workers
left over from an earlier, larger job sleep through smaller ones instead of
waking on every job. The caller spins for ``remaining`` to reach 0, then
yields. After ``fork()`` the child has no workers: the pool sees another
``getpid()`` and starts again with none. The pthread objects, whose size
differs by platform, live in 128-byte slots and are initialised with
``pthread_mutex_init``/``pthread_cond_init`` (the mutex on first use, while
the caller holds the busy flag, so once; a worker's condition variable
before the worker is created). 64-bit targets only.

It is LLVM IR (no C compiler is needed), compiled once per process into an
engine of its own that is never freed, since its workers run its code for
good. For an object file compiled ahead of time, :func:`pool_ir` with
``for_object=True`` makes the entry points and the pool's state weak, so
any number of objects that carry the pool link into one pool; there the IR
takes its default from ``$MLKIT_NUM_THREADS``, ``$OMP_NUM_THREADS`` or the
online CPUs on first use, as the JIT's pool does before Python sets the
default from :func:`default_num_threads`.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from typing import Any

MAX_THREADS = 256  # the caller and 255 workers; T fits the job word's 16 bits
WORKER_SPINS = 4096  # pause hints a worker spends waiting for the next job, then
WORKER_YIELDS = 64  # yields (letting a thread that shares its core run), then it sleeps
CALLER_SPINS = 1024  # pause hints the caller spends waiting before it yields
MIN_STACK = 8 << 20  # workers' stack at least this (macOS gives threads 512 KiB)
THREADS_ENV = "MLKIT_NUM_THREADS"
OMP_ENV = "OMP_NUM_THREADS"

ENTRY_POINTS = frozenset(
    {"_mlkit_parallel_for", "_mlkit_set_num_threads", "_mlkit_get_num_threads"}
)

# glibc and musl, and the BSD-derived C libraries
_NPROCESSORS_ONLN = {"linux": 84, "darwin": 58, "macos": 58, "ios": 58, "freebsd": 58}


def _pause_ir(triple: str) -> tuple[str, str]:
    """The declaration and call of the spin-wait hint for ``triple``'s architecture."""
    arch = triple.split("-", 1)[0].lower()
    if arch in ("x86_64", "amd64"):
        return "declare void @llvm.x86.sse2.pause()\n", "  call void @llvm.x86.sse2.pause()\n"
    if arch in ("aarch64", "arm64", "aarch64_be"):
        return "declare void @llvm.aarch64.hint(i32)\n", "  call void @llvm.aarch64.hint(i32 1)\n"
    return "", ""


def _sysconf_nprocessors(triple: str | None) -> int | None:
    """``_SC_NPROCESSORS_ONLN`` for ``triple``'s C library (None: unknown)."""
    if triple is not None:
        system = triple.lower().split("-")
        for name, value in _NPROCESSORS_ONLN.items():
            if any(part.startswith(name) for part in system[1:]):
                return value
    return os.sysconf_names.get("SC_NPROCESSORS_ONLN") if hasattr(os, "sysconf_names") else None


def _cstring(name: str, text: str) -> str:
    return f'@{name} = private unnamed_addr constant [{len(text) + 1} x i8] c"{text}\\00"\n'


def pool_ir(triple: str | None = None, *, for_object: bool = False) -> str:
    """The pool's LLVM IR for ``triple`` (the process's by default).

    For the JIT (``for_object=False``) the entry points are external and the
    pool's state internal to its module. With ``for_object=True`` both are
    ``weak``, named ``_mlkit_pool_*``: link it into every object that calls
    the pool (or link its module into the program's), and the linker keeps
    one pool however many objects carry it. Such a program needs pthreads
    (``-lpthread`` where the C library does not hold them)."""
    if triple is None:
        import llvmlite.binding as llvm_binding

        triple = llvm_binding.get_process_triple()
    state = "weak" if for_object else "internal"
    entry = "weak " if for_object else ""
    pause_decl, pause_body = _pause_ir(triple)
    nproc = _sysconf_nprocessors(triple)
    cpus = (
        f"  %c = call i64 @sysconf(i32 {nproc})\n" if nproc is not None else "  %c = add i64 1, 0\n"
    )
    g = "@_mlkit_pool"
    return f"""\
{g}_busy = {state} global i32 0, align 64
{g}_word = {state} global i64 0, align 64
{g}_remaining = {state} global i64 0, align 64
{g}_fn = {state} global ptr null, align 64
{g}_ctx = {state} global ptr null, align 8
{g}_n = {state} global i64 0, align 8
{g}_workers = {state} global i64 0, align 8
{g}_pid = {state} global i32 0, align 4
{g}_ready = {state} global i32 0, align 4
{g}_default = {state} global i64 0, align 64
{g}_start = {state} global [{MAX_THREADS} x i64] zeroinitializer, align 8
{g}_mutex = {state} global [128 x i8] zeroinitializer, align 16
{g}_conds = {state} global [{MAX_THREADS} x [128 x i8]] zeroinitializer, align 16
{g}_asleep = {state} global [{MAX_THREADS} x i32] zeroinitializer, align 4
{_cstring(".str.mlkit_threads", THREADS_ENV)}{_cstring(".str.omp_threads", OMP_ENV)}
declare ptr @getenv(ptr)
declare i64 @atol(ptr)
declare i64 @sysconf(i32)
declare i32 @getpid()
declare i32 @sched_yield()
declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_detach(ptr)
declare i32 @pthread_attr_init(ptr)
declare i32 @pthread_attr_getstacksize(ptr, ptr)
declare i32 @pthread_attr_setstacksize(ptr, i64)
declare i32 @pthread_attr_destroy(ptr)
declare i32 @pthread_mutex_init(ptr, ptr)
declare i32 @pthread_mutex_lock(ptr)
declare i32 @pthread_mutex_unlock(ptr)
declare i32 @pthread_cond_init(ptr, ptr)
declare i32 @pthread_cond_wait(ptr, ptr)
declare i32 @pthread_cond_signal(ptr)
{pause_decl}
define internal void {g}_pause() {{
{pause_body}  ret void
}}

; a pause hint while %k < %spins, then yields of the core
define internal void {g}_backoff(i64 %k, i64 %spins) {{
  %pausing = icmp ult i64 %k, %spins
  br i1 %pausing, label %pause, label %yield
pause:
  call void {g}_pause()
  ret void
yield:
  %y = call i32 @sched_yield()
  ret void
}}

; a positive integer from the environment variable %name, else 0
define internal i64 {g}_env(ptr %name) {{
entry:
  %s = call ptr @getenv(ptr %name)
  %none = icmp eq ptr %s, null
  br i1 %none, label %unset, label %parse
parse:
  %v = call i64 @atol(ptr %s)
  %pos = icmp sgt i64 %v, 0
  %r = select i1 %pos, i64 %v, i64 0
  ret i64 %r
unset:
  ret i64 0
}}

define {entry}void @_mlkit_set_num_threads(i64 %n) {{
  %ok = icmp sgt i64 %n, 0
  %v = select i1 %ok, i64 %n, i64 1
  store atomic i64 %v, ptr {g}_default monotonic, align 8
  ret void
}}

; the default T, from the environment on first use unless set before
define {entry}i64 @_mlkit_get_num_threads() {{
entry:
  %d = load atomic i64, ptr {g}_default monotonic, align 8
  %set = icmp sgt i64 %d, 0
  br i1 %set, label %known, label %first
known:
  ret i64 %d
first:
  %a = call i64 {g}_env(ptr @.str.mlkit_threads)
  %ha = icmp sgt i64 %a, 0
  br i1 %ha, label %have, label %omp
omp:
  %b = call i64 {g}_env(ptr @.str.omp_threads)
  %hb = icmp sgt i64 %b, 0
  br i1 %hb, label %have, label %cpus
cpus:
{cpus}  %hc = icmp sgt i64 %c, 0
  %c1 = select i1 %hc, i64 %c, i64 1
  br label %have
have:
  %v = phi i64 [ %a, %first ], [ %b, %omp ], [ %c1, %cpus ]
  %x = cmpxchg ptr {g}_default, i64 0, i64 %v monotonic monotonic
  %old = extractvalue {{ i64, i1 }} %x, 0
  %won = extractvalue {{ i64, i1 }} %x, 1
  %r = select i1 %won, i64 %v, i64 %old
  ret i64 %r
}}

; where chunk %t of [0, %n) in %T chunks begins (%T > 0)
define internal i64 {g}_begin(i64 %t, i64 %n, i64 %T) {{
  %q = udiv i64 %n, %T
  %r = urem i64 %n, %T
  %tq = mul i64 %t, %q
  %lt = icmp ult i64 %t, %r
  %m = select i1 %lt, i64 %t, i64 %r
  %b = add i64 %tq, %m
  ret i64 %b
}}

; worker %arg (1..): wait for a new job word, run its chunk if it is part of it
define internal ptr {g}_worker(ptr %arg) {{
entry:
  %i = ptrtoint ptr %arg to i64
  %start.p = getelementptr inbounds [{MAX_THREADS} x i64], ptr {g}_start, i64 0, i64 %i
  %seen0 = load i64, ptr %start.p, align 8
  %cond = getelementptr inbounds [{MAX_THREADS} x [128 x i8]], ptr {g}_conds, i64 0, i64 %i
  %asleep = getelementptr inbounds [{MAX_THREADS} x i32], ptr {g}_asleep, i64 0, i64 %i
  br label %wait
wait:
  %seen = phi i64 [ %seen0, %entry ], [ %word, %run ]
  br label %spin
spin:
  %k = phi i64 [ 0, %wait ], [ %k1, %again ]
  %w1 = load atomic i64, ptr {g}_word acquire, align 8
  %new1 = icmp ne i64 %w1, %seen
  br i1 %new1, label %job, label %again
again:
  %k1 = add i64 %k, 1
  call void {g}_backoff(i64 %k, i64 {WORKER_SPINS})
  %more = icmp ult i64 %k1, {WORKER_SPINS + WORKER_YIELDS}
  br i1 %more, label %spin, label %sleep
sleep:
  %old = phi i64 [ %seen, %again ], [ %word, %job ]
  %l = call i32 @pthread_mutex_lock(ptr {g}_mutex)
  br label %check
check:
  %w2 = load atomic i64, ptr {g}_word acquire, align 8
  %new2 = icmp ne i64 %w2, %old
  br i1 %new2, label %woken, label %block
block:
  store i32 1, ptr %asleep, align 4
  %cw = call i32 @pthread_cond_wait(ptr %cond, ptr {g}_mutex)
  store i32 0, ptr %asleep, align 4
  br label %check
woken:
  %u = call i32 @pthread_mutex_unlock(ptr {g}_mutex)
  br label %job
job:
  %word = phi i64 [ %w1, %spin ], [ %w2, %woken ]
  %T = and i64 %word, 65535
  %part = icmp ult i64 %i, %T
  ; not part of this job: back to sleep at once, to be woken when it is
  br i1 %part, label %run, label %sleep
run:
  %fn = load ptr, ptr {g}_fn, align 8
  %ctx = load ptr, ptr {g}_ctx, align 8
  %n = load i64, ptr {g}_n, align 8
  %b = call i64 {g}_begin(i64 %i, i64 %n, i64 %T)
  %i1 = add i64 %i, 1
  %e = call i64 {g}_begin(i64 %i1, i64 %n, i64 %T)
  call void %fn(ptr %ctx, i64 %b, i64 %e)
  %o = atomicrmw sub ptr {g}_remaining, i64 1 release
  br label %wait
}}

; create workers until there are %want (the pool held); how many there are
define internal i64 {g}_grow(i64 %want) {{
entry:
  %tid = alloca [16 x i8], align 16
  %attr = alloca [128 x i8], align 16
  %stack = alloca i64, align 8
  %have = load i64, ptr {g}_workers, align 8
  %enough0 = icmp uge i64 %have, %want
  br i1 %enough0, label %done, label %setup
setup:
  %ai = call i32 @pthread_attr_init(ptr %attr)
  store i64 0, ptr %stack, align 8
  %ag = call i32 @pthread_attr_getstacksize(ptr %attr, ptr %stack)
  %size = load i64, ptr %stack, align 8
  %small = icmp ult i64 %size, {MIN_STACK}
  br i1 %small, label %grow_stack, label %loop
grow_stack:
  %as = call i32 @pthread_attr_setstacksize(ptr %attr, i64 {MIN_STACK})
  br label %loop
loop:
  %k = phi i64 [ %have, %setup ], [ %have, %grow_stack ], [ %i, %made ]
  %enough = icmp uge i64 %k, %want
  br i1 %enough, label %finish, label %make
make:
  %i = add i64 %k, 1
  %w = load atomic i64, ptr {g}_word monotonic, align 8
  %start.p = getelementptr inbounds [{MAX_THREADS} x i64], ptr {g}_start, i64 0, i64 %i
  store i64 %w, ptr %start.p, align 8
  %cond = getelementptr inbounds [{MAX_THREADS} x [128 x i8]], ptr {g}_conds, i64 0, i64 %i
  %ci = call i32 @pthread_cond_init(ptr %cond, ptr null)
  %asleep = getelementptr inbounds [{MAX_THREADS} x i32], ptr {g}_asleep, i64 0, i64 %i
  store i32 0, ptr %asleep, align 4
  %arg = inttoptr i64 %i to ptr
  %rc = call i32 @pthread_create(ptr %tid, ptr %attr, ptr {g}_worker, ptr %arg)
  %ok = icmp eq i32 %rc, 0
  br i1 %ok, label %made, label %finish
made:
  %t = load ptr, ptr %tid, align 16
  %dt = call i32 @pthread_detach(ptr %t)
  store i64 %i, ptr {g}_workers, align 8
  br label %loop
finish:
  %got = phi i64 [ %k, %loop ], [ %k, %make ]
  %ad = call i32 @pthread_attr_destroy(ptr %attr)
  br label %done
done:
  %r = phi i64 [ %have, %entry ], [ %got, %finish ]
  ret i64 %r
}}

define {entry}void @_mlkit_parallel_for(ptr %fn, ptr %ctx, i64 %n, i64 %threads) {{
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %pick, label %none
none:
  ret void
pick:
  %given = icmp sgt i64 %threads, 0
  br i1 %given, label %chosen, label %default
default:
  %d = call i64 @_mlkit_get_num_threads()
  br label %chosen
chosen:
  %t0 = phi i64 [ %threads, %pick ], [ %d, %default ]
  %c1 = icmp slt i64 %t0, %n
  %t1 = select i1 %c1, i64 %t0, i64 %n
  %c2 = icmp slt i64 %t1, {MAX_THREADS}
  %t2 = select i1 %c2, i64 %t1, i64 {MAX_THREADS}
  %many = icmp sgt i64 %t2, 1
  br i1 %many, label %take, label %serial
take:
  %x = cmpxchg ptr {g}_busy, i32 0, i32 1 acquire monotonic
  %got = extractvalue {{ i32, i1 }} %x, 1
  br i1 %got, label %held, label %serial
serial:
  call void %fn(ptr %ctx, i64 0, i64 %n)
  ret void
held:
  ; first use, or the first in a forked child (whose parent's workers are gone)
  %pid = call i32 @getpid()
  %ready = load i32, ptr {g}_ready, align 4
  %was = load i32, ptr {g}_pid, align 4
  %isready = icmp ne i32 %ready, 0
  %same = icmp eq i32 %pid, %was
  %fine = and i1 %isready, %same
  br i1 %fine, label %grow, label %init
init:
  %mi = call i32 @pthread_mutex_init(ptr {g}_mutex, ptr null)
  store i64 0, ptr {g}_workers, align 8
  store i32 %pid, ptr {g}_pid, align 4
  store i32 1, ptr {g}_ready, align 4
  br label %grow
grow:
  %want = sub i64 %t2, 1
  %have = call i64 {g}_grow(i64 %want)
  %h1 = add i64 %have, 1
  %c3 = icmp ult i64 %h1, %t2
  %T = select i1 %c3, i64 %h1, i64 %t2
  %par = icmp ugt i64 %T, 1
  br i1 %par, label %publish, label %alone
alone:
  call void %fn(ptr %ctx, i64 0, i64 %n)
  store atomic i32 0, ptr {g}_busy release, align 4
  ret void
publish:
  store ptr %fn, ptr {g}_fn, align 8
  store ptr %ctx, ptr {g}_ctx, align 8
  store i64 %n, ptr {g}_n, align 8
  %rem = sub i64 %T, 1
  store atomic i64 %rem, ptr {g}_remaining monotonic, align 8
  %l = call i32 @pthread_mutex_lock(ptr {g}_mutex)
  %w = load atomic i64, ptr {g}_word monotonic, align 8
  %gen = lshr i64 %w, 16
  %gen1 = add i64 %gen, 1
  %high = shl i64 %gen1, 16
  %word = or i64 %high, %T
  store atomic i64 %word, ptr {g}_word release, align 8
  br label %wake
wake:
  %j = phi i64 [ 1, %publish ], [ %j1, %woke ]
  %asleep = getelementptr inbounds [{MAX_THREADS} x i32], ptr {g}_asleep, i64 0, i64 %j
  %sleeps = load i32, ptr %asleep, align 4
  %signal = icmp ne i32 %sleeps, 0
  br i1 %signal, label %rouse, label %woke
rouse:
  store i32 0, ptr %asleep, align 4
  %cond = getelementptr inbounds [{MAX_THREADS} x [128 x i8]], ptr {g}_conds, i64 0, i64 %j
  %sg = call i32 @pthread_cond_signal(ptr %cond)
  br label %woke
woke:
  %j1 = add i64 %j, 1
  %others = icmp ult i64 %j1, %T
  br i1 %others, label %wake, label %woken
woken:
  %u = call i32 @pthread_mutex_unlock(ptr {g}_mutex)
  %e0 = call i64 {g}_begin(i64 1, i64 %n, i64 %T)
  call void %fn(ptr %ctx, i64 0, i64 %e0)
  br label %wait
wait:
  %k = phi i64 [ 0, %woken ], [ %k1, %next ]
  %left = load atomic i64, ptr {g}_remaining acquire, align 8
  %finished = icmp eq i64 %left, 0
  br i1 %finished, label %done, label %next
next:
  %k1 = add i64 %k, 1
  call void {g}_backoff(i64 %k, i64 {CALLER_SPINS})
  br label %wait
done:
  store atomic i32 0, ptr {g}_busy release, align 4
  ret void
}}
"""


class ThreadPool:
    """The process's pool: the addresses compiled code is bound to, and the
    default thread count and ``parallel_for`` for Python."""

    def __init__(self, engine: Any, num_threads: int) -> None:
        self._engine = engine
        self.addresses = {name: engine.get_function_address(name) for name in ENTRY_POINTS}
        self._set = ctypes.CFUNCTYPE(None, ctypes.c_int64)(
            self.addresses["_mlkit_set_num_threads"]
        )
        self._set(max(1, num_threads))
        self._get = ctypes.CFUNCTYPE(ctypes.c_int64)(self.addresses["_mlkit_get_num_threads"])
        # ctypes releases the GIL for the call: other Python threads run meanwhile
        self.parallel_for = ctypes.CFUNCTYPE(
            None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64
        )(self.parallel_for_address)

    @property
    def parallel_for_address(self) -> int:
        return self.addresses["_mlkit_parallel_for"]

    @property
    def num_threads(self) -> int:
        """The default T of calls that pass ``threads <= 0``."""
        return int(self._get())

    @num_threads.setter
    def num_threads(self, n: int) -> None:
        self._set(int(n))  # values below 1 mean 1


def _positive(text: str | None) -> int:
    """The integer ``text`` begins with, as C's ``atol`` reads it, if positive; else 0."""
    match = re.match(r"\s*([+-]?\d+)", text or "")
    value = int(match.group(1)) if match else 0
    return value if value > 0 else 0


def default_num_threads() -> int:
    """``$MLKIT_NUM_THREADS``, else ``$OMP_NUM_THREADS`` (read as the IR reads
    them), else the CPUs this process may run on."""
    for name in (THREADS_ENV, OMP_ENV):
        value = _positive(os.environ.get(name))
        if value:
            return value
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


_REQUIRED = ("pthread_create", "pthread_cond_wait", "sched_yield", "getenv")


def _compile() -> ThreadPool | None:
    import llvmlite.binding as llvm_binding

    from mlkit.runtime.engine import compile_for_good

    # -O2: the caller's and workers' waiting loops are what a parallel loop costs
    engine = compile_for_good(pool_ir(llvm_binding.get_process_triple()), 2, _REQUIRED)
    return ThreadPool(engine, default_num_threads()) if engine is not None else None


_POOL: list[ThreadPool | None] = []  # made on first use, then for good
_POOL_LOCK = threading.Lock()


def thread_pool() -> ThreadPool | None:
    """The process's pool, compiled on first use; None where there are no
    pthreads (not POSIX, or the process does not have them)."""
    if not _POOL:
        with _POOL_LOCK:
            if not _POOL:
                _POOL.append(_compile() if os.name == "posix" else None)
    return _POOL[0]


def bind(names: set[str]) -> None:
    """Make the pool's entry points among ``names`` resolvable by the JIT
    (nothing where there is no pool: the caller reports that)."""
    import llvmlite.binding as llvm_binding

    wanted = names & ENTRY_POINTS
    if not wanted:
        return
    pool = thread_pool()
    if pool is None:
        return
    for name in sorted(wanted):
        llvm_binding.add_symbol(name, pool.addresses[name])


def set_num_threads(n: int) -> None:
    """Set the default T (values below 1 mean 1); nothing without a pool."""
    pool = thread_pool()
    if pool is not None:
        pool.num_threads = n


def get_num_threads() -> int:
    """The default T (1 without a pool, where everything runs serially)."""
    pool = thread_pool()
    return pool.num_threads if pool is not None else 1


__all__ = [
    "ENTRY_POINTS",
    "MAX_THREADS",
    "ThreadPool",
    "bind",
    "default_num_threads",
    "get_num_threads",
    "pool_ir",
    "set_num_threads",
    "thread_pool",
]
