"""mlkit prints what mlir-opt prints: SSA names, op-name prefixes, layout,
block labels and their predecessor comments, map and set aliases, floats.

Upstream FileCheck lines spell out names such as ``%arg0``, ``%c0``, ``%0:2``
and ``return``; these tests compare mlkit's text with upstream's for programs
whose ops both print identically.
"""

from __future__ import annotations

import random
import re

import pytest

from upstream_oracle import mlkit_print, upstream_print

PROGRAMS = {
    "names": """
module {
  func.func @f(%a: i32, %m: memref<?xf32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c0b = arith.constant 0 : index
    %k = arith.constant 7 : i32
    %neg = arith.constant -3 : i64
    %t = arith.constant true
    %f = arith.constant 1.0 : f32
    %r:2 = scf.for %i = %c0 to %c0b step %c0 iter_args(%x = %a, %y = %k) -> (i32, i32) {
      %in = arith.addi %x, %y : i32
      scf.yield %y, %in : i32, i32
    }
    %s = arith.addi %r#0, %r#1 : i32
    %d = memref.dim %m, %c0 : memref<?xf32>
    %al = memref.alloc(%d) : memref<?xf32>
    cf.br ^bb1(%s : i32)
  ^bb1(%z: i32):
    return %z : i32
  }
  func.func @g(%q: i32) -> i32 {
    %c = arith.constant 0 : index
    %true = arith.constant true
    %0 = scf.if %true -> (i32) {
      %1 = arith.addi %q, %q : i32
      scf.yield %1 : i32
    } else {
      %2 = arith.muli %q, %q : i32
      scf.yield %2 : i32
    }
    %w = func.call @g(%0) : (i32) -> i32
    return %w : i32
  }
  module @inner {
  }
}
""",
    "tensor_names": """
func.func @t(%t: tensor<4x4xf32>, %i: index) -> tensor<4x4xf32> {
  %e = tensor.extract %t[%i, %i] : tensor<4x4xf32>
  %s = tensor.extract_slice %t[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %r = tensor.insert_slice %s into %t[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  %c = tensor.collapse_shape %r [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  %x = tensor.expand_shape %c [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
  %n = tensor.insert %e into %x[%i, %i] : tensor<4x4xf32>
  return %n : tensor<4x4xf32>
}
""",
    "gpu_names": """
gpu.module @m {
  gpu.func @k(%a: f32, %o: i32) kernel {
    %x, %v = gpu.shuffle xor %a, %o, %o : f32
    %t = gpu.thread_id x
    %b = gpu.block_dim y
    gpu.return
  }
}
""",
    # input labels are dropped for ^bbN; each label notes its predecessors
    "blocks": """
func.func @f(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^a(%x : i32), ^a(%x : i32)
^a(%v: i32):
  cf.cond_br %c, ^b, ^c
^b:
  %r = scf.execute_region -> i32 {
    cf.br ^inner
  ^inner:
    scf.yield %v : i32
  }
  cf.br ^d(%r : i32)
^c:
  cf.br ^d(%v : i32)
^d(%w: i32):
  cf.cond_br %c, ^d(%w : i32), ^e
^e:
  return %w : i32
^dead:
  cf.br ^e
}
""",
    "aliases": """
#unused = affine_map<(d0) -> (d0 + 9)>
func.func @f(%c: index, %m: memref<4xf32, affine_map<(d0) -> (d0 + 2)>>, %t: tensor<4xf32>) {
  affine.for %i = 0 to 10 {
    %x = affine.apply affine_map<(d0) -> (d0 * 3)>(%i)
    affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%i) { }
    affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0)>(%i)[%c] { }
  }
  affine.for %i = 0 to affine_map<(d0) -> (d0 * 3)>(%c) { }
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return
}
""",
    # an i64 memory space prints without its type
    "memory_spaces": """
func.func @f(%m: memref<4xf32, 3>, %n: memref<*xf32, 5>, %o: memref<4x4xf32, strided<[4,1]>, 1>,
             %p: memref<f32, 2>, %q: memref<4xf32, 3 : i32>) {
  return
}
""",
    # every case of a cf.switch one level in, the first included
    "switch_cases": """
func.func @f(%f: i32, %x: i32) {
  cf.switch %f : i32, [
    default: ^bb1(%x : i32),
    0: ^bb1(%f : i32),
    7: ^bb2
  ]
^bb1(%a: i32):
  return
^bb2:
  return
}
""",
    # terms without dimensions go right of those with them, as upstream builds sums
    "affine_sums": """
func.func @f(%i: index, %c: index) {
  %a = affine.apply affine_map<(d0)[s0] -> (s0 - d0)>(%i)[%c]
  %b = affine.apply affine_map<(d0)[s0] -> (s0 + d0 * 2 + 3)>(%i)[%c]
  %d = affine.apply affine_map<(d0, d1)[s0] -> (s0 + d1 + d0 + s0 * 4)>(%i, %i)[%c]
  %e = affine.apply affine_map<(d0)[s0] -> (3 + s0 + d0 floordiv 2)>(%i)[%c]
  affine.if affine_set<(d0)[s0] : (s0 - d0 >= 0, 3 + d0 == 0)>(%i)[%c] { }
  return
}
""",
}


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_custom_form_matches_upstream(name: str) -> None:
    program = PROGRAMS[name]
    assert _normalise(mlkit_print(program)) == _normalise(upstream_print(program, generic=False))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_generic_form_matches_upstream(name: str) -> None:
    program = PROGRAMS[name]
    ours = _normalise(mlkit_print(program, generic=True))
    # upstream's generic form prints an empty module body as an empty region
    theirs = _normalise(upstream_print(program, generic=True)).replace("  ^bb0:\n", "")
    assert ours.replace("  ^bb0:\n", "") == theirs


_HEX_DIGITS = {"f16": 4, "bf16": 4, "f32": 8, "f64": 16}


def _float_program() -> str:
    """Constants of every width from random bits (subnormals, huge and tiny
    values included) plus decimal literals that need more than six digits."""
    rng = random.Random(7)
    literals: list[tuple[str, str]] = []
    for type_name, digits in _HEX_DIGITS.items():
        for _ in range(150):
            bits = rng.getrandbits(digits * 4)
            if type_name == "f16" and bits & 0x7C00 == 0x7C00:
                continue  # xDSL keeps an f16 NaN's payload only as the canonical NaN
            literals.append((type_name, f"0x{bits:0{digits}X}"))
        for text in ("0.1", "-2.5", "7.38905621", "3.0e+38", "1.0e-7", "123456.0", "0.3"):
            literals.append((type_name, text))
    body = "\n".join(f"  %c{i} = arith.constant {v} : {t}" for i, (t, v) in enumerate(literals))
    dense = "  %d = arith.constant dense<[0.0, -0.0, 0x7FC00000]> : tensor<3xf32>\n"
    dense += "  %z = arith.constant dense<-0.0> : tensor<2xf64>\n"
    return "func.func @f() {\n" + body + "\n" + dense + "  return\n}\n"


def test_floats_print_as_upstream() -> None:
    """APFloat's digits (truncated, not rounded: ``7.3890562``), upper-case hex
    for NaN and infinity, and bitwise dense splats."""
    program = _float_program()
    assert _normalise(mlkit_print(program)) == _normalise(upstream_print(program, generic=False))
