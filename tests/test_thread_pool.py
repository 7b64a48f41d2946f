"""The runtime's fork-join thread pool (mlkit.runtime.threads): every index
run exactly once, the static partition, results equal to a serial run, the
default thread count from Python and from the IR itself, nested and
concurrent calls, many calls in a row, fork, the AOT flavour, and the JIT
binding compiled code's ``_mlkit_parallel_for`` to it."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import llvmlite.binding as llvm_binding
import numpy as np
import pytest

from mlkit.runtime import threads

POOL = threads.thread_pool()
pytestmark = pytest.mark.skipif(POOL is None, reason="no pthreads here")
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# Chunk functions fn(ctx, begin, end) and a driver that calls the pool
# through the JIT-resolved symbol, as compiled code does.
TEST_IR = """
declare void @_mlkit_parallel_for(ptr, ptr, i64, i64)
declare ptr @pthread_self()

; ctx = {in, out}: out[i] = in[i] * 2 + 1
define void @affine(ptr %ctx, i64 %b, i64 %e) {
entry:
  %in = load ptr, ptr %ctx
  %out.p = getelementptr inbounds ptr, ptr %ctx, i64 1
  %out = load ptr, ptr %out.p
  %empty = icmp sge i64 %b, %e
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ %b, %entry ], [ %i1, %loop ]
  %src = getelementptr inbounds double, ptr %in, i64 %i
  %x = load double, ptr %src
  %y = fmul double %x, 2.0
  %z = fadd double %y, 1.0
  %dst = getelementptr inbounds double, ptr %out, i64 %i
  store double %z, ptr %dst
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %e
  br i1 %more, label %loop, label %done
done:
  ret void
}

; ctx = {counts}: counts[i] += 1, atomically
define void @count(ptr %ctx, i64 %b, i64 %e) {
entry:
  %c = load ptr, ptr %ctx
  %empty = icmp sge i64 %b, %e
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ %b, %entry ], [ %i1, %loop ]
  %p = getelementptr inbounds i32, ptr %c, i64 %i
  %o = atomicrmw add ptr %p, i32 1 monotonic
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %e
  br i1 %more, label %loop, label %done
done:
  ret void
}

; ctx = {slot, begins, ends, tids}: record this chunk in the next slot
define void @record(ptr %ctx, i64 %b, i64 %e) {
  %slot.p = load ptr, ptr %ctx
  %s = atomicrmw add ptr %slot.p, i64 1 monotonic
  %bs.p = getelementptr inbounds ptr, ptr %ctx, i64 1
  %bs = load ptr, ptr %bs.p
  %es.p = getelementptr inbounds ptr, ptr %ctx, i64 2
  %es = load ptr, ptr %es.p
  %ts.p = getelementptr inbounds ptr, ptr %ctx, i64 3
  %ts = load ptr, ptr %ts.p
  %bd = getelementptr inbounds i64, ptr %bs, i64 %s
  store i64 %b, ptr %bd
  %ed = getelementptr inbounds i64, ptr %es, i64 %s
  store i64 %e, ptr %ed
  %self = call ptr @pthread_self()
  %td = getelementptr inbounds ptr, ptr %ts, i64 %s
  store ptr %self, ptr %td
  ret void
}

; ctx = {in, out, m}: rows [b, e) of m columns, each an inner parallel loop
define void @rows(ptr %ctx, i64 %b, i64 %e) {
entry:
  %pair = alloca [2 x ptr]
  %in = load ptr, ptr %ctx
  %out.p = getelementptr inbounds ptr, ptr %ctx, i64 1
  %out = load ptr, ptr %out.p
  %m.p = getelementptr inbounds ptr, ptr %ctx, i64 2
  %m = load i64, ptr %m.p
  %empty = icmp sge i64 %b, %e
  br i1 %empty, label %done, label %loop
loop:
  %r = phi i64 [ %b, %entry ], [ %r1, %loop ]
  %off = mul i64 %r, %m
  %rin = getelementptr inbounds double, ptr %in, i64 %off
  %rout = getelementptr inbounds double, ptr %out, i64 %off
  store ptr %rin, ptr %pair
  %second = getelementptr inbounds ptr, ptr %pair, i64 1
  store ptr %rout, ptr %second
  call void @_mlkit_parallel_for(ptr @affine, ptr %pair, i64 %m, i64 2)
  %r1 = add i64 %r, 1
  %more = icmp slt i64 %r1, %e
  br i1 %more, label %loop, label %done
done:
  ret void
}

; call the pool %times times in a row
define void @repeat(ptr %fn, ptr %ctx, i64 %n, i64 %t, i64 %times) {
entry:
  %none = icmp sle i64 %times, 0
  br i1 %none, label %done, label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  call void @_mlkit_parallel_for(ptr %fn, ptr %ctx, i64 %n, i64 %t)
  %k1 = add i64 %k, 1
  %more = icmp slt i64 %k1, %times
  br i1 %more, label %loop, label %done
done:
  ret void
}
"""


def _compile_test_module():
    threads.bind({"_mlkit_parallel_for"})
    llvm_binding.initialize_native_target()
    llvm_binding.initialize_native_asmprinter()
    target = llvm_binding.Target.from_triple(llvm_binding.get_process_triple())
    machine = target.create_target_machine(opt=2, codemodel="jitdefault")
    module = llvm_binding.parse_assembly(TEST_IR)
    module.verify()
    module.triple = machine.triple
    module.data_layout = str(machine.target_data)
    engine = llvm_binding.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    return engine


ENGINE = _compile_test_module() if POOL is not None else None
CHUNK_FUNCTIONS = ("affine", "count", "record", "rows")
FN = {name: ENGINE.get_function_address(name) for name in CHUNK_FUNCTIONS} if ENGINE else {}
_REPEAT = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64
)
_repeat = _REPEAT(ENGINE.get_function_address("repeat")) if ENGINE else None


def parallel_for(fn: str, ctx: ctypes.Array, n: int, threads_: int, times: int = 1) -> None:
    """Run chunk function ``fn`` through compiled code calling the pool."""
    _repeat(FN[fn], ctypes.addressof(ctx), n, threads_, times)


def affine(values: np.ndarray, threads_: int) -> np.ndarray:
    out = np.full_like(values, np.nan)
    ctx = (ctypes.c_void_p * 2)(values.ctypes.data, out.ctypes.data)
    parallel_for("affine", ctx, len(values), threads_)
    return out


def counts(n: int, threads_: int, times: int = 1) -> np.ndarray:
    hits = np.zeros(max(n, 1), np.int32)
    ctx = (ctypes.c_void_p * 1)(hits.ctypes.data)
    parallel_for("count", ctx, n, threads_, times)
    return hits[:n]


def chunks(n: int, threads_: int) -> tuple[list[tuple[int, int]], list[int]]:
    """The chunks one call ran, in order, and the thread that ran each."""
    slot = np.zeros(1, np.int64)
    begins = np.full(threads.MAX_THREADS, -1, np.int64)
    ends = np.full(threads.MAX_THREADS, -1, np.int64)
    tids = np.zeros(threads.MAX_THREADS, np.uint64)
    ctx = (ctypes.c_void_p * 4)(
        slot.ctypes.data, begins.ctypes.data, ends.ctypes.data, tids.ctypes.data
    )
    parallel_for("record", ctx, n, threads_)
    k = int(slot[0])
    ran = sorted(zip(begins[:k].tolist(), ends[:k].tolist(), tids[:k].tolist()))
    return [(b, e) for b, e, _ in ran], [t for _, _, t in ran]


def expected_chunks(n: int, t: int) -> list[tuple[int, int]]:
    t = min(t, n, threads.MAX_THREADS)
    if n <= 0:
        return []
    begin = [k * (n // t) + min(k, n % t) for k in range(t + 1)]
    return [(begin[k], begin[k + 1]) for k in range(t)]


@pytest.fixture
def default_threads():
    """The pool's default thread count, restored afterwards."""
    before = threads.get_num_threads()
    yield
    threads.set_num_threads(before)


@pytest.mark.parametrize("threads_", [0, 1, 2, 3, 8])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 1000, 1_000_003])
def test_every_index_runs_exactly_once(n: int, threads_: int) -> None:
    hits = counts(n, threads_)
    assert hits.shape == (n,)
    if n:
        assert hits.min() == 1 and hits.max() == 1


@pytest.mark.parametrize("threads_", [0, 2, 3, 8])
def test_results_equal_the_serial_run_bitwise(threads_: int) -> None:
    values = np.random.default_rng(7).standard_normal(300_007)
    serial = affine(values, 1)
    assert serial.tobytes() == (values * 2 + 1).tobytes()
    assert affine(values, threads_).tobytes() == serial.tobytes()


@pytest.mark.parametrize(
    ("n", "threads_"),
    [(1, 2), (2, 8), (3, 8), (7, 3), (10, 4), (1000, 3), (1_000_003, 8), (5, 300)],
)
def test_the_partition_is_static_contiguous_chunks(n: int, threads_: int) -> None:
    for _ in range(3):  # the same every time
        ran, tids = chunks(n, threads_)
        assert ran == expected_chunks(n, threads_)
    # the caller runs chunk 0, a worker of its own each other chunk
    assert tids[0] == threading.get_ident()
    assert len(set(tids)) == len(tids)


def test_the_default_thread_count_picks_the_partition(default_threads) -> None:
    threads.set_num_threads(3)
    assert chunks(100, 0)[0] == expected_chunks(100, 3)
    threads.set_num_threads(1)
    assert chunks(100, 0)[0] == [(0, 100)]
    assert chunks(100, 2)[0] == expected_chunks(100, 2)  # an explicit count wins


def test_set_and_get_num_threads_round_trip(default_threads) -> None:
    assert POOL is not None
    for n, got in ((5, 5), (1, 1), (0, 1), (-3, 1), (64, 64)):
        threads.set_num_threads(n)
        assert threads.get_num_threads() == got == POOL.num_threads
    POOL.num_threads = 2
    assert threads.get_num_threads() == 2


def test_default_num_threads_follows_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("MLKIT_NUM_THREADS", "3")
    monkeypatch.setenv("OMP_NUM_THREADS", "5")
    assert threads.default_num_threads() == 3
    monkeypatch.setenv("MLKIT_NUM_THREADS", "0")  # not positive: ignored
    assert threads.default_num_threads() == 5
    monkeypatch.setenv("OMP_NUM_THREADS", "6,2")  # nested counts: the outer one
    assert threads.default_num_threads() == 6
    monkeypatch.delenv("MLKIT_NUM_THREADS")
    monkeypatch.setenv("OMP_NUM_THREADS", "many")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert threads.default_num_threads() == cpus


def _run_script(script: str, env: dict[str, str] | None = None) -> str:
    full = {**os.environ, **(env or {})}
    full["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(HERE), full.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True, text=True, env=full, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_ir_takes_its_own_default_from_the_environment() -> None:
    """As an AOT object does: the IR alone, Python setting nothing."""
    out = _run_script(
        """
        import ctypes, os
        import llvmlite.binding as b
        from mlkit.runtime.threads import pool_ir

        b.initialize_native_target(); b.initialize_native_asmprinter()
        machine = b.Target.from_triple(b.get_process_triple()).create_target_machine()
        engines = []
        def first_default():
            module = b.parse_assembly(pool_ir())
            engine = b.create_mcjit_compiler(module, machine)
            engine.finalize_object()
            engines.append(engine)
            address = engine.get_function_address("_mlkit_get_num_threads")
            return ctypes.CFUNCTYPE(ctypes.c_int64)(address)()
        seen = [first_default()]
        for env in ({"OMP_NUM_THREADS": "5"}, {"MLKIT_NUM_THREADS": "junk"}, {}):
            os.environ.pop("MLKIT_NUM_THREADS", None); os.environ.pop("OMP_NUM_THREADS", None)
            os.environ.update(env)
            seen.append(first_default())
        print(*seen)
        """,
        {"MLKIT_NUM_THREADS": "3", "OMP_NUM_THREADS": "4"},
    )
    cpus = os.sysconf("SC_NPROCESSORS_ONLN")
    assert out.split() == ["3", "5", str(cpus), str(cpus)]


def test_a_nested_call_runs_serially_and_right() -> None:
    rows, m = 16, 5003
    values = np.random.default_rng(1).standard_normal(rows * m)
    out = np.full_like(values, np.nan)
    ctx = (ctypes.c_void_p * 3)(values.ctypes.data, out.ctypes.data, m)
    for t in (1, 2, 4):
        out[:] = np.nan
        parallel_for("rows", ctx, rows, t)
        assert out.tobytes() == (values * 2 + 1).tobytes()


def test_a_thousand_calls_in_a_row() -> None:
    for t, times in ((0, 1000), (2, 1000), (8, 200)):
        hits = counts(257, t, times)
        assert (hits == times).all()


def test_calls_from_several_python_threads_at_once() -> None:
    values = np.random.default_rng(3).standard_normal(100_003)
    want = (values * 2 + 1).tobytes()
    failures: list[str] = []

    def work(k: int) -> None:
        try:
            for i in range(30):
                if affine(values, (2, 3, 0, 8)[(i + k) % 4]).tobytes() != want:
                    failures.append(f"affine {k}/{i}")
                hits = counts(1001, 2 + k % 3, 3)
                if not (hits == 3).all():
                    failures.append(f"count {k}/{i}")
        except Exception as exc:  # pragma: no cover - reported below
            failures.append(repr(exc))

    workers = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
    assert not any(w.is_alive() for w in workers), "deadlock"
    assert failures == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork test on Linux only")
def test_a_forked_child_gets_workers_of_its_own() -> None:
    out = _run_script(
        """
        import os, threading, warnings
        import numpy as np
        import test_thread_pool as t

        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads running
        ran, tids = t.chunks(1000, 3)
        assert len(set(tids)) == 3, tids  # the parent's workers exist
        pid = os.fork()
        if pid == 0:
            ok = False
            try:
                ran, tids = t.chunks(1000, 4)
                values = np.arange(10_001, dtype=np.float64)
                ok = (ran == t.expected_chunks(1000, 4) and len(set(tids)) == 4
                      and t.affine(values, 3).tobytes() == (values * 2 + 1).tobytes()
                      and (t.counts(999, 2, 50) == 50).all())
            finally:
                os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        print("parent", t.chunks(1000, 3)[0] == t.expected_chunks(1000, 3))
        """
    )
    assert out.split() == ["child", "0", "parent", "True"]


@pytest.mark.parametrize("triple", ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu",
                                    "arm64-apple-macosx14.0.0"])
def test_the_object_flavour_is_weak_and_links_into_one_pool(triple: str) -> None:
    text = threads.pool_ir(triple, for_object=True)
    assert ("sse2.pause" in text) == triple.startswith("x86_64")
    assert ("aarch64.hint" in text) == (not triple.startswith("x86_64"))
    assert f"@sysconf(i32 {84 if 'linux' in triple else 58})" in text
    first = llvm_binding.parse_assembly(text)
    first.verify()
    weak = llvm_binding.Linkage.weak_any
    assert {f.linkage for f in first.functions if f.name in threads.ENTRY_POINTS} == {weak}
    assert {g.linkage for g in first.global_variables if g.name.startswith("_mlkit_pool_")} \
        == {weak}
    first.link_in(llvm_binding.parse_assembly(text))  # two objects carrying the pool: one pool
    first.verify()
    llvm_binding.initialize_all_targets()
    llvm_binding.initialize_all_asmprinters()
    machine = llvm_binding.Target.from_triple(triple).create_target_machine()
    first.triple = triple
    assert machine.emit_object(first)
    jit_flavour = llvm_binding.parse_assembly(threads.pool_ir(triple))
    with pytest.raises(RuntimeError):  # external entry points clash
        jit_flavour.link_in(llvm_binding.parse_assembly(threads.pool_ir(triple)))


def test_the_runtime_provides_the_pool() -> None:
    from mlkit import runtime

    assert POOL is not None
    assert threads.ENTRY_POINTS <= runtime.provided_symbols()
    assert runtime.provide(threads.ENTRY_POINTS) is None  # nothing to compile: bound
    for name in threads.ENTRY_POINTS:
        assert llvm_binding.address_of_symbol(name) == POOL.addresses[name]


def test_compiled_code_calls_the_pool_through_the_jit(default_threads) -> None:
    from mlkit.context import make_context
    from mlkit.execution.jit import jit_compile
    from mlkit.syntax.parser import parse_module

    compiled = jit_compile(parse_module(make_context(), """
llvm.func @_mlkit_get_num_threads() -> i64
llvm.func @_mlkit_set_num_threads(i64)
llvm.func @_mlkit_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
llvm.func @mark(%ctx: !llvm.ptr, %b: i64, %e: i64) {
  %p = llvm.getelementptr %ctx[%b] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %e, %p : i64, !llvm.ptr
  llvm.return
}
llvm.func @run(%ctx: !llvm.ptr, %n: i64, %t: i64) -> i64 {
  %f = llvm.mlir.addressof @mark : !llvm.ptr
  llvm.call @_mlkit_set_num_threads(%t) : (i64) -> ()
  %z = llvm.mlir.constant(0 : i64) : i64
  llvm.call @_mlkit_parallel_for(%f, %ctx, %n, %z) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
  %r = llvm.call @_mlkit_get_num_threads() : () -> i64
  llvm.return %r : i64
}
""", "<test>"))
    run = compiled.ctypes_function("run", ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                                   ctypes.c_int64)
    marks = np.zeros(10, np.int64)
    assert run(marks.ctypes.data, 10, 3) == 3 == threads.get_num_threads()
    # chunk [b, e) stores e at b: the three chunks' begins hold their ends
    assert marks.tolist() == [4, 0, 0, 0, 7, 0, 0, 10, 0, 0]


def test_without_a_pool_the_runtime_says_why(monkeypatch) -> None:
    from mlkit import runtime

    monkeypatch.setattr(threads, "thread_pool", lambda: None)
    with pytest.raises(runtime.RuntimeUnavailable, match="thread pool.*_mlkit_parallel_for"):
        runtime.provide({"_mlkit_parallel_for", "printNewline"})
    assert threads.get_num_threads() == 1  # everything runs serially
