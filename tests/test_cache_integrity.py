"""mlkit.compile's disk cache does not trust its files: damaged, edited or
inconsistent entries are discarded and compiled afresh (never a wrong answer,
never a crash), writes are atomic, and the key covers the loaded plugins'
code. Also: deep region nesting compiles (a deep-stack thread), and a Python
number too large for its parameter is an error naming it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mlkit
from mlkit.api import cache as cache_mod
from mlkit.api import compile as compile_api
from mlkit.api.cache import FORMAT, CacheWarning, CompileCache, payload_checksum
from mlkit.api.fingerprint import compiler_fingerprint, environment_fingerprint, hash_files
from mlkit.execution.jit import JitOptions

FINGERPRINT = compile_api.default_compiler().cache.fingerprint()

SOURCE = """
func.func @five(%x: f64) -> f64 {
  %c = arith.constant 5.0 : f64
  %r = arith.addf %x, %c : f64
  return %r : f64
}
func.func @scale(%a: memref<4xf64>, %k: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf64>
    %w = arith.mulf %v, %k : f64
    memref.store %w, %a[%i] : memref<4xf64>
  }
  return
}
"""

FIVE_IR = "5.000000e+00"  # the constant in the optimized LLVM IR


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv("MLKIT_CACHE_DIR", str(path))
    return path


def compiler() -> compile_api.Compiler:
    """A compiler with a cache of its own (nothing in memory), over the
    shared disk directory."""
    return compile_api.Compiler(CompileCache(fingerprint=FINGERPRINT))


def only_entry(cache_dir: Path) -> Path:
    entries = list(cache_dir.glob("*.json"))
    assert len(entries) == 1, entries
    return entries[0]


def read_entry(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def write_entry(path: Path, payload: dict[str, Any], checksum: str | None = None) -> None:
    """Write ``payload`` as a well-formed entry (a checksum recomputed unless given)."""
    entry = {"format": FORMAT, "sha256": checksum or payload_checksum(payload), "payload": payload}
    path.write_text(json.dumps(entry))


def check_program(p: Any) -> None:
    assert p.five(1.0) == 6.0
    a = np.arange(4.0)
    p.scale(a, 2.0)
    np.testing.assert_array_equal(a, [0.0, 2.0, 4.0, 6.0])


def assert_recompiled_and_rewritten(cache_dir: Path, entry: Path) -> None:
    """After a damaged entry: a fresh compile that works, and a sound entry
    in its place that the next compiler serves without the pipeline."""
    c = compiler()
    with pytest.warns(CacheWarning, match="discarding compile cache entry"):
        p = c.compile(SOURCE)
    assert (c.stats.pipeline_runs, c.stats.disk_hits) == (1, 0)
    check_program(p)
    assert only_entry(cache_dir) == entry
    stored = read_entry(entry)
    assert stored["sha256"] == payload_checksum(stored["payload"])
    assert FIVE_IR in stored["payload"]["llvm_ir"]
    again = compiler()
    check_program(again.compile(SOURCE))
    assert (again.stats.pipeline_runs, again.stats.disk_hits) == (0, 1)


@pytest.fixture
def entry(cache_dir: Path) -> Path:
    """A sound entry for SOURCE, served from disk."""
    first = compiler()
    check_program(first.compile(SOURCE))
    path = only_entry(cache_dir)
    second = compiler()
    check_program(second.compile(SOURCE))
    assert second.stats.disk_hits == 1
    return path


# -- the entry format --------------------------------------------------------------------------


def test_entries_carry_their_key_and_a_checksum(entry: Path) -> None:
    stored = read_entry(entry)
    assert stored["format"] == FORMAT
    assert stored["payload"]["key"] == entry.stem
    assert stored["sha256"] == payload_checksum(stored["payload"])
    names = {s["name"]: s["names"] for s in stored["payload"]["signatures"]}
    assert names == {"five": ["x"], "scale": ["a", "k"]}


def test_a_flipped_byte_is_not_served(entry: Path, cache_dir: Path) -> None:
    """The fuzzer's case: 7.0 for 5.0 in the IR, served without a word (the
    last copy of the constant is the C interface's, which the call runs)."""
    data = entry.read_bytes()
    at = data.rindex(FIVE_IR.encode())
    assert b"@_mlir_ciface_five(" in data[data[:at].rindex(b"define ") : at]
    entry.write_bytes(data[:at] + b"7" + data[at + 1 :])
    assert_recompiled_and_rewritten(cache_dir, entry)


def test_edited_signatures_are_not_believed(entry: Path, cache_dir: Path) -> None:
    stored = read_entry(entry)
    sig = next(s for s in stored["payload"]["signatures"] if s["name"] == "scale")
    sig["params"][0]["shape"] = [400000]  # the callable would let 400000 doubles through
    entry.write_text(json.dumps(stored))  # the checksum is the old one
    assert_recompiled_and_rewritten(cache_dir, entry)


def test_a_truncated_entry_is_not_served(entry: Path, cache_dir: Path) -> None:
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) // 2])
    assert_recompiled_and_rewritten(cache_dir, entry)


@pytest.mark.parametrize("garbage", [b"", b"\xff\xfe\x00garbage", b"[1, 2]", b'{"format": %d}' % FORMAT])
def test_garbage_is_not_served(entry: Path, cache_dir: Path, garbage: bytes) -> None:
    entry.write_bytes(garbage)
    if garbage.startswith(b"["):
        # not an entry of any format: compiled afresh and replaced
        c = compiler()
        check_program(c.compile(SOURCE))
        assert c.stats.pipeline_runs == 1 and read_entry(entry)["payload"]["key"] == entry.stem
    else:
        assert_recompiled_and_rewritten(cache_dir, entry)


def test_unparsable_ir_with_a_sound_checksum_is_not_served(entry: Path, cache_dir: Path) -> None:
    payload = read_entry(entry)["payload"]
    payload["llvm_ir"] = payload["llvm_ir"].replace("define ", "defne ", 1)
    write_entry(entry, payload)
    assert_recompiled_and_rewritten(cache_dir, entry)


def test_another_keys_entry_is_not_served(entry: Path, cache_dir: Path) -> None:
    """A sound entry under the wrong name (copied, renamed) is not this key's."""
    other = SOURCE.replace("5.0 : f64", "7.0 : f64")
    compiler().compile(other)
    (other_entry,) = [p for p in cache_dir.glob("*.json") if p != entry]
    other_entry.replace(entry)
    assert_recompiled_and_rewritten(cache_dir, entry)


def test_signatures_of_the_wrong_types_are_not_served(entry: Path, cache_dir: Path) -> None:
    """A consistent entry (its checksum recomputed) whose signature does not
    describe the code's C interface: called, it would pass the wrong arguments."""
    payload = read_entry(entry)["payload"]
    sig = next(s for s in payload["signatures"] if s["name"] == "five")
    sig["params"][0].update(element="i64", text="i64")
    write_entry(entry, payload)
    assert_recompiled_and_rewritten(cache_dir, entry)


def test_malformed_signatures_are_not_served(entry: Path, cache_dir: Path) -> None:
    payload = read_entry(entry)["payload"]
    sig = next(s for s in payload["signatures"] if s["name"] == "scale")
    sig["ties"] = [{"dims": [[0, 3]], "reason": "none"}]  # memref<4xf64> has no dimension 3
    write_entry(entry, payload)
    assert_recompiled_and_rewritten(cache_dir, entry)


# -- object code ------------------------------------------------------------------------------


@pytest.fixture
def generated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The roles of the modules LLVM generates code for from now on."""
    from mlkit.execution.objects import ObjectCode

    roles: list[str] = []
    notify = ObjectCode._notify

    def record(self: ObjectCode, module: Any, buffer: bytes) -> None:
        notify(self, module, buffer)
        roles.extend(r for r in self.generated if r not in roles)

    monkeypatch.setattr(ObjectCode, "_notify", record)
    return roles


def test_a_disk_hit_generates_no_code(entry: Path, generated: list[str]) -> None:
    import hashlib

    payload = read_entry(entry)["payload"]
    main = payload["objects"]["main"]
    assert main["sha256"] == hashlib.sha256(payload["llvm_ir"].encode()).hexdigest()
    assert "triple=" in payload["machine"] and "cpu=" in payload["machine"]
    c = compiler()
    check_program(c.compile(SOURCE))
    assert (c.stats.pipeline_runs, c.stats.disk_hits, generated) == (0, 1, [])


def _other_programs_objects(cache_dir: Path, entry: Path) -> dict[str, Any]:
    """The objects of SOURCE with 7.0 for 5.0 (a valid program, other answers)."""
    compiler().compile(SOURCE.replace("5.0 : f64", "7.0 : f64"))
    (other,) = [p for p in cache_dir.glob("*.json") if p != entry]
    objects: dict[str, Any] = read_entry(other)["payload"]["objects"]
    other.unlink()
    return objects


def test_objects_of_other_ir_are_not_served(
    entry: Path, cache_dir: Path, generated: list[str]
) -> None:
    """Another program's code under this entry (checksum recomputed): its
    digest is not this IR's, so the IR is compiled instead."""
    payload = read_entry(entry)["payload"]
    payload["objects"] = _other_programs_objects(cache_dir, entry)
    write_entry(entry, payload)
    generated.clear()
    c = compiler()
    check_program(c.compile(SOURCE))  # 6.0, not 8.0
    assert (c.stats.pipeline_runs, c.stats.disk_hits, generated) == (0, 1, ["main"])


def test_objects_for_another_machine_are_not_served(
    entry: Path, cache_dir: Path, generated: list[str]
) -> None:
    payload = read_entry(entry)["payload"]
    payload["machine"] = payload["machine"].replace("cpu=", "cpu=other-")
    write_entry(entry, payload)
    c = compiler()
    check_program(c.compile(SOURCE))
    assert (c.stats.pipeline_runs, c.stats.disk_hits, generated) == (0, 1, ["main"])


@pytest.mark.parametrize("objects", [{"main": {"sha256": "0", "code": "not base64!"}}, []])
def test_malformed_objects_are_not_served(entry: Path, cache_dir: Path, objects: Any) -> None:
    payload = read_entry(entry)["payload"]
    payload["objects"] = objects
    write_entry(entry, payload)
    assert_recompiled_and_rewritten(cache_dir, entry)


# Subprocesses compile with this process's fingerprint of mlkit's sources, so
# that sources edited meanwhile (a checkout, an editor) do not change the key.
MISSING_SYMBOL = """
import sys
from mlkit.api.cache import CompileCache
from mlkit.api.compile import Compiler
c = Compiler(CompileCache(fingerprint=sys.argv[1]))
p = c.compile(sys.stdin.read())
print(p.five(1.0), c.stats.pipeline_runs)
"""


def _without_function(ir: str, symbol: str) -> str:
    pattern = re.compile(rf"^define [^\n]*@{re.escape(symbol)}\(.*?^}}\n", re.S | re.M)
    out, n = pattern.subn("", ir)
    assert n == 1
    return out


@pytest.mark.parametrize("damage", ["deleted", "renamed", "extra-signature"])
def test_missing_symbols_never_crash(cache_dir: Path, damage: str) -> None:
    """A valid-looking entry (sound checksum) whose code lacks a function the
    signatures name: calling it would jump to address 0. Run in a subprocess
    so that a crash fails this test instead of killing pytest."""
    env = dict(os.environ, MLKIT_CACHE_DIR=str(cache_dir))

    def run() -> subprocess.CompletedProcess[str]:
        out = subprocess.run(
            [sys.executable, "-c", MISSING_SYMBOL, FINGERPRINT], input=SOURCE, env=env,
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert out.returncode == 0, f"rc {out.returncode}: {out.stderr[-2000:]}"
        return out

    assert run().stdout.split() == ["6.0", "1"]
    path = only_entry(cache_dir)
    payload = read_entry(path)["payload"]
    if damage == "deleted":
        payload["llvm_ir"] = _without_function(payload["llvm_ir"], "_mlir_ciface_five")
    elif damage == "renamed":
        payload["llvm_ir"] = payload["llvm_ir"].replace("@_mlir_ciface_five(", "@_mlir_ciface_fiv(")
    else:
        payload["signatures"].append(dict(payload["signatures"][0], name="ghost"))
    write_entry(path, payload)
    damaged = run()
    assert damaged.stdout.split() == ["6.0", "1"]  # recompiled, not crashed
    assert "CacheWarning" in damaged.stderr
    assert "has no '_mlir_ciface_" in damaged.stderr
    rewritten = read_entry(only_entry(cache_dir))["payload"]
    assert "@_mlir_ciface_five(" in rewritten["llvm_ir"]
    assert [s["name"] for s in rewritten["signatures"]] == ["five", "scale"]
    served = run()
    assert served.stdout.split() == ["6.0", "0"] and not served.stderr  # from disk again


# -- atomic writes -----------------------------------------------------------------------------

KILLED_WHILE_WRITING = """
import os, sys
import mlkit
from mlkit.api import cache
def killed(src, dst):
    os._exit(9)  # killed after the data is written, before it is in place
cache.os.replace = killed
mlkit.compile(sys.stdin.read())
"""


def test_a_killed_writer_leaves_no_entry(cache_dir: Path) -> None:
    env = dict(os.environ, MLKIT_CACHE_DIR=str(cache_dir))
    out = subprocess.run(
        [sys.executable, "-c", KILLED_WHILE_WRITING], input=SOURCE, env=env,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 9, out.stderr[-2000:]
    assert not list(cache_dir.glob("*.json"))  # only the temporary file, under another name
    assert list(cache_dir.glob(".*.tmp"))
    c = compiler()
    check_program(c.compile(SOURCE))
    assert c.stats.pipeline_runs == 1
    CompileCache().clear(disk=True)
    assert not list(cache_dir.iterdir())


def test_a_failed_write_leaves_nothing(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(cache_mod.os, "replace", fail)
    check_program(compiler().compile(SOURCE))
    assert not list(cache_dir.iterdir())


# -- the key -----------------------------------------------------------------------------------


def test_the_key_covers_every_ingredient(monkeypatch: pytest.MonkeyPatch) -> None:
    c = CompileCache(fingerprint="sources")
    opts = JitOptions(opt_level=3)
    base = c.key("ir", "cpu:p", opts)
    assert c.key("ir", "cpu:p", opts) == base
    assert c.key("ir2", "cpu:p", opts) != base
    assert c.key("ir", "cpu:q", opts) != base
    assert c.key("ir", "cuda:p", opts) != base
    assert c.key("ir", "cpu:p", JitOptions(opt_level=2)) != base
    assert CompileCache(fingerprint="other sources").key("ir", "cpu:p", opts) != base
    monkeypatch.setattr(cache_mod, "environment_fingerprint", lambda: "llvm=0.0")
    assert c.key("ir", "cpu:p", opts) != base
    monkeypatch.undo()
    monkeypatch.setattr(cache_mod, "plugin_fingerprint", lambda registry: "p=1")
    assert c.key("ir", "cpu:p", opts) != base


def test_the_fingerprints() -> None:
    import llvmlite.binding as llvm_binding

    env = environment_fingerprint()
    assert "llvm=" + ".".join(map(str, llvm_binding.llvm_version_info)) in env
    assert "xdsl=" in env and "cpu=" in env
    assert re.fullmatch(r"[0-9a-f]{64}", compiler_fingerprint())


def test_sources_count_by_content_not_time(tmp_path: Path) -> None:
    f = tmp_path / "a.py"
    f.write_text("x = 1\n")
    before = hash_files([f], tmp_path)
    stat = f.stat()
    f.write_text("x = 2\n")
    os.utime(f, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same time, other content
    assert hash_files([f], tmp_path) != before


PLUGIN = '''
from dataclasses import dataclass
from xdsl.dialects.builtin import FloatAttr, Float64Type
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class SetFives(ModulePass):
    """Replace the f64 constant 5.0."""

    name = "test-set-fives"

    def apply(self, ctx, op):
        for o in op.walk():
            value = o.properties.get("value") if o.name == "arith.constant" else None
            if isinstance(value, FloatAttr) and value.value.data == 5.0:
                o.properties["value"] = FloatAttr(VALUE, Float64Type())


def register(registry):
    registry.register_pass(SetFives)
'''

WITH_PLUGIN = """
import sys
import mlkit
from mlkit.api.cache import CompileCache
from mlkit.api.compile import Compiler
mlkit.load_plugin(sys.argv[1])
c = Compiler(CompileCache(fingerprint=sys.argv[2]))
p = c.compile(sys.stdin.read(), pipeline="builtin.module(test-set-fives,lower-to-cpu)")
print(p.five(0.0), c.stats.pipeline_runs, c.stats.disk_hits)
"""


def test_an_edited_plugin_is_not_served_stale(cache_dir: Path, tmp_path: Path) -> None:
    plugin = tmp_path / "fives.py"
    env = dict(os.environ, MLKIT_CACHE_DIR=str(cache_dir))

    def run() -> list[str]:
        out = subprocess.run(
            [sys.executable, "-c", WITH_PLUGIN, str(plugin), FINGERPRINT], input=SOURCE, env=env,
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout.split()

    plugin.write_text(PLUGIN.replace("VALUE", "11.0"))
    assert run() == ["11.0", "1", "0"]
    assert run() == ["11.0", "0", "1"]  # the same plugin: from disk
    stat = plugin.stat()
    plugin.write_text(PLUGIN.replace("VALUE", "13.0"))
    os.utime(plugin, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # even with the old time
    assert run() == ["13.0", "1", "0"]
    assert run() == ["13.0", "0", "1"]


# -- deep nesting ------------------------------------------------------------------------------

MINIMAL = "builtin.module(convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)"


def nested_ifs(depth: int, inner: str = "memref.store %v, %m[%i] : memref<1xi32>") -> str:
    lines = ["func.func @deep(%c: i1, %m: memref<1xi32>, %v: i32) {"]
    lines.append("%i = arith.constant 0 : index")
    lines += ["scf.if %c {"] * depth + [inner] + ["}"] * depth + ["return", "}"]
    return "\n".join(lines)


def test_deep_nesting_compiles() -> None:
    limit = sys.getrecursionlimit()
    p = mlkit.compile(nested_ifs(2000), pipeline=MINIMAL, cache=False)
    m = np.zeros(1, np.int32)
    p.deep(True, m, 7)
    assert m[0] == 7
    p.deep(False, m, 9)
    assert m[0] == 7
    assert sys.getrecursionlimit() == limit


def test_deep_nesting_errors_come_back_located() -> None:
    with pytest.raises(ValueError, match=r"<mlkit\.compile>:2003:.*error"):
        mlkit.compile(nested_ifs(2000, "memref.store %nope, %m[%i] : memref<1xi32>"), cache=False)


def test_compiles_on_many_threads_at_once() -> None:
    limit = sys.getrecursionlimit()
    results: dict[int, float] = {}
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            src = SOURCE.replace("5.0 : f64", f"{n}.5 : f64")
            results[n] = mlkit.compile(src, opt_level=1, cache=False).five(0.0)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == {n: n + 0.5 for n in range(3)}
    assert sys.getrecursionlimit() == limit


def test_implicit_builders_on_two_threads_insert_each_op_once() -> None:
    """xDSL's ImplicitBuilder swaps a global hook per thread; with two threads
    inside builders at once an op was inserted twice. The order is forced."""
    import mlkit.context  # noqa: F401  (installs the hook for good)
    from xdsl.builder import ImplicitBuilder
    from xdsl.dialects import test
    from xdsl.ir import Block

    a_inside, b_done = threading.Event(), threading.Event()
    blocks = [Block(), Block()]
    errors: list[BaseException] = []

    def first() -> None:
        with ImplicitBuilder(blocks[0]):
            a_inside.set()
            b_done.wait(10)
            test.TestOp()

    def second() -> None:
        a_inside.wait(10)
        try:
            with ImplicitBuilder(blocks[1]):
                test.TestOp()
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        b_done.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [len(list(b.ops)) for b in blocks] == [1, 1]
    test.TestOp()  # outside any builder: inserted nowhere, no error


# -- arguments too large -----------------------------------------------------------------------

SCALARS = """
func.func @take(%x: i64, %n: index, %y: f64, %s: i32) -> i64 {
  return %x : i64
}
"""


def test_too_large_ints_name_the_argument() -> None:
    p = mlkit.compile(SCALARS, cache=False)
    assert p.take(2**64 - 1, 0, 0.0, 0) == -1  # the upper half wraps, as in C
    cases = [
        ((2**70, 0, 0.0, 0), r"@take: argument 0 %x \('i64'\): 1180591620717411303424 does not"),
        ((0, 2**70, 0.0, 0), r"@take: argument 1 %n \('index'\): .* does not fit in index"),
        ((0, -(2**63) - 1, 0.0, 0), r"@take: argument 1 %n \('index'\): -9223372036854775809 "),
        ((0, 0, 2**1100, 0), r"@take: argument 2 %y \('f64'\): an integer of 1101 bits is too"),
        ((0, 0, 0.0, 2**40), r"@take: argument 3 %s \('i32'\): 1099511627776 does not fit in i32"),
        ((0, 0, 0.0, np.uint64(2**64 - 1)), r"argument 3 %s \('i32'\)"),
        ((2**20000, 0, 0.0, 0), r"argument 0 %x \('i64'\): an integer of 20001 bits"),
    ]
    for args, message in cases:
        with pytest.raises(OverflowError, match=message):
            p.take(*args)
        with pytest.raises(ValueError, match=message):  # like the other argument errors
            p.take(*args)


def test_unnamed_arguments_say_their_position() -> None:
    p = mlkit.compile(SCALARS.replace("%s", "%0"), cache=False)
    with pytest.raises(ValueError, match=r"@take: argument 3 \('i32'\): "):
        p.take(0, 0, 0.0, 2**40)
