"""Differential tests of ``convert-scf-to-cf`` against upstream MLIR.

mlkit's CFG and upstream's, both normalised by upstream ``canonicalize,cse``,
must print the same (block order included).  ``scf.parallel`` is written in
generic form: xDSL's scf dialect has no custom syntax for it.  A semantic
check runs loops lowered by mlkit in upstream's ExecutionEngine.
"""

from __future__ import annotations

import ctypes

import pytest

from upstream_oracle import mlkit_print, upstream_print

PASS = "convert-scf-to-cf"

PROGRAMS = {
    "for_if_nest": """
func.func @f(%m: memref<?xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
    %v = memref.load %m[%i] : memref<?xi32>
    %p = arith.cmpi sgt, %v, %z : i32
    %s = scf.if %p -> (i32) {
      %t = arith.addi %acc, %v : i32
      scf.yield %t : i32
    } else {
      scf.yield %acc : i32
    }
    scf.for %j = %c0 to %i step %c1 {
      memref.store %s, %m[%j] : memref<?xi32>
    }
    scf.yield %s : i32
  }
  return %r : i32
}
""",
    "while": """
func.func @f(%a: i32, %n: i32) -> (i32, i32) {
  %r:2 = scf.while (%x = %a, %y = %n) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi slt, %x, %y : i32
    scf.condition(%c) %y, %x : i32, i32
  } do {
  ^bb0(%p: i32, %q: i32):
    %one = arith.constant 1 : i32
    %z = arith.addi %q, %one : i32
    scf.yield %z, %p : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}
""",
    "do_while": """
func.func @f(%a: i32, %n: i32) -> i32 {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %one = arith.constant 1 : i32
    %z = arith.addi %x, %one : i32
    %c = arith.cmpi slt, %z, %n : i32
    scf.condition(%c) %z : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  return %r : i32
}
""",
    "while_with_if": """
func.func @f(%a: i32, %n: i32) -> i32 {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = arith.cmpi slt, %x, %n : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    %two = arith.constant 2 : i32
    %e = arith.remsi %y, %two : i32
    %zero = arith.constant 0 : i32
    %even = arith.cmpi eq, %e, %zero : i32
    %n2 = scf.if %even -> (i32) {
      %t = arith.addi %y, %two : i32
      scf.yield %t : i32
    } else {
      %one = arith.constant 1 : i32
      %t = arith.addi %y, %one : i32
      scf.yield %t : i32
    }
    scf.yield %n2 : i32
  }
  return %r : i32
}
""",
    "execute_region": """
func.func @f(%a: i32, %c: i1, %m: memref<i32>) -> i32 {
  %r = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %a : i32
  ^bb2:
    %z = arith.addi %a, %a : i32
    scf.yield %z : i32
  }
  scf.execute_region {
    memref.store %a, %m[] : memref<i32>
    scf.yield
  }
  return %r : i32
}
""",
    "parallel_reduce": """
func.func @f(%m: memref<?xi32>, %n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r:2 = "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1, %z, %z) <{operandSegmentSizes = array<i32: 2, 2, 2, 2>}> ({
  ^bb0(%i: index, %j: index):
    %v = memref.load %m[%i] : memref<?xi32>
    %w = memref.load %m[%j] : memref<?xi32>
    scf.reduce(%v, %w : i32, i32) {
    ^bb0(%l: i32, %rr: i32):
      %s = arith.addi %l, %rr : i32
      scf.reduce.return %s : i32
    }, {
    ^bb0(%l: i32, %rr: i32):
      %s = arith.maxsi %l, %rr : i32
      scf.reduce.return %s : i32
    }
  }) : (index, index, index, index, index, index, i32, i32) -> (i32, i32)
  return %r#0, %r#1 : i32, i32
}
""",
    "parallel_no_reduce": """
func.func @f(%m: memref<?x?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  "scf.parallel"(%c0, %c0, %c0, %n, %n, %n, %c1, %c1, %c1) <{operandSegmentSizes = array<i32: 3, 3, 3, 0>}> ({
  ^bb0(%i: index, %j: index, %k: index):
    memref.store %z, %m[%i, %j, %k] : memref<?x?x?xf32>
    scf.reduce
  }) : (index, index, index, index, index, index, index, index, index) -> ()
  return
}
""",
    "index_switch": """
func.func @f(%i: index, %a: i32) -> i32 {
  %r = scf.index_switch %i -> i32
  case 2 {
    %x = arith.addi %a, %a : i32
    scf.yield %x : i32
  }
  case 5 {
    scf.yield %a : i32
  }
  default {
    %c = arith.constant 7 : i32
    scf.yield %c : i32
  }
  return %r : i32
}
""",
}


def _upstream(text: str, pipeline: str) -> str:
    return upstream_print(text, pipeline=f"builtin.module({pipeline})", generic=False)


@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_upstream(name: str) -> None:
    src = PROGRAMS[name]
    ours = mlkit_print(src, pipeline=f"builtin.module({PASS})")
    assert "scf." not in ours
    assert _upstream(ours, "canonicalize,cse") == _upstream(src, f"{PASS},canonicalize,cse")


def test_leaves_cfg_alone() -> None:
    src = """
func.func @f(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb2
^bb2:
  return
}
"""
    assert mlkit_print(src, pipeline=f"builtin.module({PASS})") == mlkit_print(src)


COLLATZ = """
func.func @f(%a: i64) -> i64 attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0 : i64
  %r:2 = scf.while (%x = %a, %steps = %zero) : (i64, i64) -> (i64, i64) {
    %one = arith.constant 1 : i64
    %c = arith.cmpi sgt, %x, %one : i64
    scf.condition(%c) %x, %steps : i64, i64
  } do {
  ^bb0(%y: i64, %s: i64):
    %one = arith.constant 1 : i64
    %two = arith.constant 2 : i64
    %three = arith.constant 3 : i64
    %e = arith.remsi %y, %two : i64
    %even = arith.cmpi eq, %e, %zero : i64
    %next = scf.if %even -> (i64) {
      %h = arith.divsi %y, %two : i64
      scf.yield %h : i64
    } else {
      %t = arith.muli %y, %three : i64
      %u = arith.addi %t, %one : i64
      scf.yield %u : i64
    }
    %s1 = arith.addi %s, %one : i64
    scf.yield %next, %s1 : i64, i64
  }
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %r#1) -> (i64) {
    %w = scf.execute_region -> i64 {
      %k = arith.index_cast %i : index to i64
      %sum = arith.addi %v, %k : i64
      scf.yield %sum : i64
    }
    scf.yield %w : i64
  }
  return %acc : i64
}
"""


def _run(module_text: str, a: int) -> int:
    from torch_mlir import ir, passmanager
    from torch_mlir.execution_engine import ExecutionEngine

    with ir.Context():
        module = ir.Module.parse(module_text)
        pipeline = f"builtin.module({PASS},convert-to-llvm,reconcile-unrealized-casts)"
        passmanager.PassManager.parse(pipeline).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        res = ctypes.c_int64(0)
        engine.invoke("f", ctypes.pointer(ctypes.c_int64(a)), ctypes.pointer(res))
        return res.value


def _collatz_steps(a: int) -> int:
    steps = 0
    while a > 1:
        a = a // 2 if a % 2 == 0 else 3 * a + 1
        steps += 1
    return steps + 0 + 1 + 2 + 3


@pytest.mark.parametrize("a", [1, 6, 7, 27])
def test_semantics_match_upstream(a: int) -> None:
    pytest.importorskip("torch_mlir.execution_engine")
    ours = mlkit_print(COLLATZ, pipeline=f"builtin.module({PASS})")
    assert "scf." not in ours
    assert _run(ours, a) == _run(COLLATZ, a) == _collatz_steps(a)
