"""mlkit prints what mlir-opt prints: SSA names, op-name prefixes, layout.

Upstream FileCheck lines spell out names such as ``%arg0``, ``%c0``, ``%0:2``
and ``return``; these tests compare mlkit's text with upstream's for programs
whose ops both print identically.
"""

from __future__ import annotations

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
}


def _normalise(text: str) -> str:
    text = re.sub(r"\s*// pred: .*", "", text)
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
