"""``linalg-generalize-named-ops`` against upstream MLIR: every named and
structural op of the shared cases, on memrefs and tensors, becomes the
``linalg.generic`` upstream's pass builds (maps, iterators, body, discardable
attributes including ``linalg.memoized_indexing_maps``), after upstream's
``canonicalize,cse`` on both sides; generics, pack, unpack and softmax stay."""

from __future__ import annotations

import pytest
from test_linalg_to_loops import CASES
from upstream_oracle import mlkit_print, upstream_print

PIPELINE = "builtin.module(linalg-generalize-named-ops)"
NORMALISE = "builtin.module(canonicalize,cse)"

TENSORS = """
func.func @f(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>, %C: tensor<4x16xf32>, %x: tensor<4x?xf32>) -> (tensor<4x16xf32>, tensor<4x?xf32>, tensor<4xf32>) {
  %0 = linalg.matmul {tag = "mm"} ins(%A, %B : tensor<4x8xf32>, tensor<8x16xf32>) outs(%C : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.map ins(%x : tensor<4x?xf32>) outs(%x : tensor<4x?xf32>)
    (%in: f32, %init: f32) {
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    }
  %e = tensor.empty() : tensor<4xf32>
  %2 = linalg.reduce { arith.maximumf } ins(%x : tensor<4x?xf32>) outs(%e : tensor<4xf32>) dimensions = [1]
  return %0, %1, %2 : tensor<4x16xf32>, tensor<4x?xf32>, tensor<4xf32>
}"""

ALL = {**CASES, "tensors": TENSORS}


def _normalised(text: str) -> str:
    return upstream_print(text, generic=False, pipeline=NORMALISE)


@pytest.mark.parametrize("case", sorted(ALL))
def test_matches_upstream(case: str) -> None:
    text = ALL[case]
    ours = mlkit_print(text, pipeline=PIPELINE)
    assert _normalised(ours) == _normalised(
        upstream_print(text, generic=False, pipeline=PIPELINE)
    ), ours


def test_only_generics_and_unstructured_ops_remain() -> None:
    for case, text in ALL.items():
        out = mlkit_print(text, pipeline=PIPELINE)
        names = {
            word
            for word in out.replace('"', " ").split()
            if word.startswith("linalg.") and not word.startswith("linalg.memoized")
        }
        assert names <= {
            "linalg.generic",
            "linalg.yield",
            "linalg.index",
            "linalg.pack",
            "linalg.unpack",
            "linalg.softmax",
        }, (case, names)


def test_memoized_maps_only_where_upstream_memoizes() -> None:
    out = mlkit_print(CASES["mmt4d_batch_reduce"], pipeline=PIPELINE)
    # mmt4d memoizes its maps, batch_reduce_matmul keeps them as a property.
    assert out.count("linalg.memoized_indexing_maps") == 1
    out = mlkit_print(CASES["matmul_static"], pipeline=PIPELINE)
    assert "memoized" not in out
