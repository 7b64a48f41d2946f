"""Differential tests of ``inline`` against upstream MLIR: mlkit's result and
upstream's (whose inliner ends with ``canonicalize``) must print the same
after upstream ``canonicalize,cse``; a semantic check runs an inlined
multi-block program in upstream's ExecutionEngine."""

from __future__ import annotations

import ctypes

import pytest

from upstream_oracle import mlkit_print, upstream_print

PASS = "inline"

PROGRAMS = {
    "mixed": """
func.func private @dead_before() { return }
func.func private @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
func.func @pubf(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
func.func private @sel(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : i32
^bb2:
  %x = arith.addi %a, %b : i32
  return %x : i32
}
func.func private @rec(%a: i32) -> i32 {
  %0 = call @rec(%a) : (i32) -> i32
  return %0 : i32
}
func.func private @ext(i32) -> i32
func.func @main(%a: i32, %c: i1) -> i32 {
  %0 = call @add(%a, %a) : (i32, i32) -> i32
  %1 = call @pubf(%0) : (i32) -> i32
  %2 = call @sel(%c, %1, %0) : (i1, i32, i32) -> i32
  %3 = call @rec(%2) : (i32) -> i32
  %4 = call @ext(%3) : (i32) -> i32
  return %4 : i32
}
""",
    "nested_calls_and_regions": """
func.func private @inner(%a: index, %b: index) -> index {
  %0 = arith.muli %a, %b : index
  return %0 : index
}
func.func private @outer(%m: memref<?xindex>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = func.call @inner(%i, %n) : (index, index) -> index
    memref.store %v, %m[%i] : memref<?xindex>
  }
  return
}
func.func private @multi(%c: i1, %a: index) -> index {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : index
^bb2:
  return %a : index
}
func.func @main(%m: memref<?xindex>, %n: index, %c: i1, %d: i1) -> index {
  call @outer(%m, %n) : (memref<?xindex>, index) -> ()
  %r = scf.if %c -> (index) {
    %x = func.call @multi(%d, %n) : (i1, index) -> index
    scf.yield %x : index
  } else {
    scf.yield %n : index
  }
  return %r : index
}
""",
}


def _upstream(text: str, pipeline: str) -> str:
    return upstream_print(text, pipeline=f"builtin.module({pipeline})", generic=False)


@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_upstream(name: str) -> None:
    src = PROGRAMS[name]
    ours = mlkit_print(src, pipeline=f"builtin.module({PASS})")
    assert _upstream(ours, "canonicalize,cse") == _upstream(src, f"{PASS},canonicalize,cse")


def test_no_default_pipeline_leaves_inlined_code_as_is() -> None:
    src = PROGRAMS["mixed"]
    ours = mlkit_print(src, pipeline=f"builtin.module({PASS}{{default-pipeline=}})")
    assert "call @add" not in ours and "call @sel" not in ours
    assert "cf.br" in ours  # the multi-block callee's returns, not simplified away


SEMANTICS = """
func.func private @clamp(%x: i64, %lo: i64, %hi: i64) -> i64 {
  %a = arith.cmpi slt, %x, %lo : i64
  cf.cond_br %a, ^low, ^check
^low:
  return %lo : i64
^check:
  %b = arith.cmpi sgt, %x, %hi : i64
  cf.cond_br %b, ^high, ^mid
^high:
  return %hi : i64
^mid:
  return %x : i64
}
func.func @f(%x: i64) -> i64 attributes {llvm.emit_c_interface} {
  %lo = arith.constant -5 : i64
  %hi = arith.constant 10 : i64
  %0 = call @clamp(%x, %lo, %hi) : (i64, i64, i64) -> i64
  %c3 = arith.constant 3 : i64
  %1 = arith.muli %0, %c3 : i64
  return %1 : i64
}
"""


def _run(module_text: str, x: int) -> int:
    from torch_mlir import ir, passmanager
    from torch_mlir.execution_engine import ExecutionEngine

    with ir.Context():
        module = ir.Module.parse(module_text)
        passmanager.PassManager.parse("builtin.module(convert-to-llvm,reconcile-unrealized-casts)").run(
            module.operation
        )
        engine = ExecutionEngine(module, opt_level=0)
        res = ctypes.c_int64(0)
        engine.invoke("f", ctypes.pointer(ctypes.c_int64(x)), ctypes.pointer(res))
        return res.value


@pytest.mark.parametrize("x", [-20, -5, 0, 7, 10, 99])
def test_semantics(x: int) -> None:
    pytest.importorskip("torch_mlir.execution_engine")
    ours = mlkit_print(SEMANTICS, pipeline=f"builtin.module({PASS})")
    assert "call" not in ours and "@clamp" not in ours
    assert _run(ours, x) == _run(SEMANTICS, x) == 3 * min(max(x, -5), 10)


OPTION_PROGRAM = """
func.func private @square(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
func.func private @marked(%a: i32) -> i32 attributes {no_inline} {
  return %a : i32
}
func.func @caller(%a: i32) -> i32 {
  %0 = call @square(%a) : (i32) -> i32
  %1 = call @square(%a) : (i32) -> i32
  %2 = arith.addi %0, %1 : i32
  %3 = call @marked(%2) : (i32) -> i32
  %4 = call @square(%3) {no_inline} : (i32) -> i32
  return %4 : i32
}
"""


@pytest.mark.parametrize(
    "options",
    [
        "op-pipelines=func.func(canonicalize,cse)",
        "default-pipeline=cse",
        "default-pipeline=''",
        "inlining-threshold=0",
        "inlining-threshold=50 max-iterations=1",
    ],
)
def test_options_match_upstream(options: str) -> None:
    """Each option as upstream's RUN lines use it gives upstream's result, op for op."""
    pipeline = f"builtin.module({PASS}{{{options}}})"
    ours = mlkit_print(OPTION_PROGRAM, pipeline=pipeline)
    assert upstream_print(ours) == upstream_print(OPTION_PROGRAM, pipeline=pipeline)


def test_call_through_constant_is_inlined() -> None:
    """The default pipeline folds ``call_indirect`` of a ``func.constant`` into
    a direct call (upstream's canonicalization), which is then inlined."""
    src = """
func.func private @seven() -> i32 {
  %c = arith.constant 7 : i32
  return %c : i32
}
func.func @indirect() -> i32 {
  %f = constant @seven : () -> i32
  %r = call_indirect %f() : () -> i32
  return %r : i32
}
"""
    pipeline = f"builtin.module({PASS})"
    assert upstream_print(mlkit_print(src, pipeline=pipeline)) == upstream_print(src, pipeline=pipeline)
