"""Differential tests of ``expand-strided-metadata`` against upstream MLIR.

mlkit's result and upstream's, both normalised by upstream ``canonicalize,cse``
(which also composes the ``affine.apply`` maps that upstream's greedy driver
composes and mlkit's pass leaves separate), must print the same.  memref.cast
and memref.global are written in generic form: xDSL has no custom syntax for
them.
"""

from __future__ import annotations

import pytest

from upstream_oracle import mlkit_print, upstream_print

PASS = "expand-strided-metadata"

PROGRAMS = {
    "static_metadata": """
func.func @static_metadata(%m: memref<8x16xf32>, %d: memref<?x4xf32, strided<[4, 1], offset: 3>>) -> (index, index, index, index, index, index) {
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<8x16xf32> -> memref<f32>, index, index, index, index, index
  %base2, %off2, %sizes2:2, %strides2:2 = memref.extract_strided_metadata %d : memref<?x4xf32, strided<[4, 1], offset: 3>> -> memref<f32>, index, index, index, index, index
  return %off, %sizes#1, %strides#0, %off2, %sizes2#0, %strides2#0 : index, index, index, index, index, index
}
""",
    "sv": """
func.func @sv(%m: memref<8x16xf32>, %o: index, %s: index) -> memref<4x?xf32, strided<[32, ?], offset: ?>> {
  %v = memref.subview %m[%o, 2][4, %s][2, %s] : memref<8x16xf32> to memref<4x?xf32, strided<[32, ?], offset: ?>>
  return %v : memref<4x?xf32, strided<[32, ?], offset: ?>>
}
""",
    "sv2": """
func.func @sv2(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %o: index) -> memref<4xf32, strided<[?], offset: ?>> {
  %v = memref.subview %m[%o, 2][1, 4][1, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
  return %v : memref<4xf32, strided<[?], offset: ?>>
}
""",
    "cs": """
func.func @cs(%m: memref<4x?x8xf32>) -> memref<?xf32> {
  %v = memref.collapse_shape %m [[0, 1, 2]] : memref<4x?x8xf32> into memref<?xf32>
  return %v : memref<?xf32>
}
""",
    "es": """
func.func @es(%m: memref<?xf32>, %n: index) -> memref<?x4xf32> {
  %v = memref.expand_shape %m [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  return %v : memref<?x4xf32>
}
""",
    "rc": """
func.func @rc(%m: memref<?xf32>, %n: index) -> memref<?x4xf32, strided<[?, 1], offset: 3>> {
  %v = memref.reinterpret_cast %m to offset: [3], sizes: [%n, 4], strides: [%n, 1] : memref<?xf32> to memref<?x4xf32, strided<[?, 1], offset: 3>>
  return %v : memref<?x4xf32, strided<[?, 1], offset: 3>>
}
""",
    "al": """
func.func @al(%n: index) -> (memref<f32>, index, index, index, index, index) {
  %a = memref.alloc(%n) : memref<?x4xf32>
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %a : memref<?x4xf32> -> memref<f32>, index, index, index, index, index
  return %b, %o, %s#0, %s#1, %t#0, %t#1 : memref<f32>, index, index, index, index, index
}
""",
    "rcx": """
func.func @rcx(%m: memref<?xf32>, %n: index) -> (memref<f32>, index, index, index) {
  %v = memref.reinterpret_cast %m to offset: [3], sizes: [%n, 4], strides: [%n, 1] : memref<?xf32> to memref<?x4xf32, strided<[?, 1], offset: 3>>
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %v : memref<?x4xf32, strided<[?, 1], offset: 3>> -> memref<f32>, index, index, index, index, index
  return %b, %o, %s#0, %t#0 : memref<f32>, index, index, index
}
""",
    "cs2": """
func.func @cs2(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>) -> memref<?xf32, strided<[?], offset: ?>> {
  %v = memref.collapse_shape %m [[0, 1]] : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?xf32, strided<[?], offset: ?>>
  return %v : memref<?xf32, strided<[?], offset: ?>>
}
""",
    "es2": """
func.func @es2(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %a: index, %b: index) -> memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>> {
  %v = memref.expand_shape %m [[0], [1, 2]] output_shape [%a, %b, 4] : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>>
  return %v : memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>>
}
""",
    "gg": """
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<1.0> : tensor<2x3xf32>, constant}> : () -> ()
func.func @gg() -> (memref<f32>, index) {
  %a = memref.get_global @g : memref<2x3xf32>
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %a : memref<2x3xf32> -> memref<f32>, index, index, index, index, index
  return %b, %t#0 : memref<f32>, index
}
""",
    "ca": """
func.func @ca(%m: memref<4x4xf32>) -> (memref<f32>, index) {
  %c = "memref.cast"(%m) : (memref<4x4xf32>) -> memref<?x?xf32>
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %c : memref<?x?xf32> -> memref<f32>, index, index, index, index, index
  return %b, %s#0 : memref<f32>, index
}
""",
    "subview_chain": """
func.func @f(%m: memref<?x?xf32>, %i: index, %j: index, %n: index) -> f32 {
  %a = memref.subview %m[%i, 1][%n, 8][1, 2] : memref<?x?xf32> to memref<?x8xf32, strided<[?, 2], offset: ?>>
  %b = memref.subview %a[2, %j][4, 1][3, 1] : memref<?x8xf32, strided<[?, 2], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
  %c0 = arith.constant 0 : index
  %v = memref.load %b[%c0] : memref<4xf32, strided<[?], offset: ?>>
  return %v : f32
}
""",
    "alloc_subview_collapse": """
func.func @f(%n: index, %i: index) -> memref<?xf32, strided<[1], offset: ?>> {
  %a = memref.alloc(%n) : memref<?x4x8xf32>
  %s = memref.subview %a[%i, 0, 0][2, 4, 8][1, 1, 1] : memref<?x4x8xf32> to memref<2x4x8xf32, strided<[32, 8, 1], offset: ?>>
  %c = memref.collapse_shape %s [[0, 1, 2]] : memref<2x4x8xf32, strided<[32, 8, 1], offset: ?>> into memref<64xf32, strided<[1], offset: ?>>
  %d = memref.subview %c[%i][%n][1] : memref<64xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
  return %d : memref<?xf32, strided<[1], offset: ?>>
}
""",
}


def _upstream(text: str, pipeline: str) -> str:
    return upstream_print(text, pipeline=f"builtin.module({pipeline})", generic=False)


@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_upstream(name: str) -> None:
    src = PROGRAMS[name]
    ours = mlkit_print(src, pipeline=f"builtin.module({PASS})")
    for view in ("memref.subview", "memref.expand_shape", "memref.collapse_shape"):
        assert view not in ours
    assert _upstream(ours, "canonicalize,cse") == _upstream(src, f"{PASS},canonicalize,cse")


def test_leaves_plain_memrefs_alone() -> None:
    src = """
func.func @f(%m: memref<4xi32>, %i: index) -> i32 {
  %v = memref.load %m[%i] : memref<4xi32>
  return %v : i32
}
"""
    assert mlkit_print(src, pipeline=f"builtin.module({PASS})") == mlkit_print(src)
