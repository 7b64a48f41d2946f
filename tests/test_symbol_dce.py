"""Differential tests of ``symbol-dce`` against upstream MLIR: the same
symbols must survive (upstream prints both results).  memref.global is
written in generic form: xDSL has no custom syntax for it."""

from __future__ import annotations

import pytest

from upstream_oracle import mlkit_print, upstream_print

PASS = "symbol-dce"

PROGRAMS = {
    "visibility_and_nesting": """
module {
  func.func @pub_unused() { return }
  func.func private @priv_dead() { return }
  func.func private @priv_chain_a() { func.call @priv_chain_b() : () -> () 
    return }
  func.func private @priv_chain_b() { return }
  func.func private @priv_live() { return }
  func.func @pub() { func.call @priv_live() : () -> ()
    return }
  func.func private @decl(i32)
  func.func nested @nest_fn() { return }
  module @inner attributes {sym_visibility = "private"} {
    func.func @inner_pub() { return }
  }
  module @inner2 {
    func.func @inner2_pub() { return }
    func.func private @inner2_priv() { return }
    func.func nested @inner2_nested() { return }
  }
  module {
    func.func private @anon_priv() { return }
    func.func @anon_pub() { return }
  }
  "memref.global"() <{sym_name = "gl", sym_visibility = "private", type = memref<4xf32>, initial_value}> : () -> ()
  "memref.global"() <{sym_name = "gl_used", sym_visibility = "private", type = memref<4xf32>, initial_value}> : () -> ()
  func.func @use_gl() -> memref<4xf32> {
    %0 = memref.get_global @gl_used : memref<4xf32>
    return %0 : memref<4xf32>
  }
  "func.call"() <{callee = @via_attr}> {ref = [@via_attr]} : () -> ()
  func.func private @via_attr() { return }
}
""",
    "nested_reference": """
module {
  module @lib attributes {sym_visibility = "private"} {
    func.func nested @used() { return }
    func.func nested @unused() { return }
  }
  func.func @main() attributes {ref = @lib::@used} { return }
}
""",
    "chain_from_public": """
func.func private @c() { return }
func.func private @b() {
  call @c() : () -> ()
  return
}
func.func private @dead() {
  call @b() : () -> ()
  return
}
func.func @a() {
  call @b() : () -> ()
  return
}
func.func private @ext(f32) -> f32
""",
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_upstream(name: str) -> None:
    src = PROGRAMS[name]
    ours = mlkit_print(src, pipeline=f"builtin.module({PASS})")
    pipeline = "builtin.module(canonicalize)"  # prints both the same way, symbols untouched
    assert upstream_print(ours, pipeline=pipeline, generic=False) == upstream_print(
        src, pipeline=f"builtin.module({PASS},canonicalize)", generic=False
    )
