"""``arith-expand``'s expansions compute what the ops they replace compute
(the IR itself is compared with upstream's in test_pass_files_as_upstream)."""

from __future__ import annotations

import numpy as np

import mlkit

PIPELINE = "builtin.module(arith-expand{include-bf16=true}, lower-to-cpu)"


def test_divisions_round_as_their_names_say() -> None:
    program = mlkit.compile("""
func.func @div(%a: tensor<61xi32>, %b: tensor<61xi32>) -> (tensor<61xi32>, tensor<61xi32>, tensor<61xi32>) {
  %c = arith.ceildivsi %a, %b : tensor<61xi32>
  %f = arith.floordivsi %a, %b : tensor<61xi32>
  %u = arith.ceildivui %a, %b : tensor<61xi32>
  return %c, %f, %u : tensor<61xi32>, tensor<61xi32>, tensor<61xi32>
}""", PIPELINE)
    rng = np.random.default_rng(7)
    a = rng.integers(-50, 50, 61, dtype=np.int32)
    b = rng.integers(1, 9, 61, dtype=np.int32) * rng.choice([-1, 1], 61).astype(np.int32)
    a[:3] = 0
    ceil, floor, unsigned = program.div(a, b)
    np.testing.assert_array_equal(floor, a // b)
    np.testing.assert_array_equal(ceil, -((-a) // b))
    ua, ub = a.view(np.uint32).astype(np.uint64), b.view(np.uint32).astype(np.uint64)
    np.testing.assert_array_equal(unsigned.view(np.uint32), ((ua + ub - 1) // ub).astype(np.uint32))


def test_bf16_round_trip_rounds_to_nearest_even() -> None:
    program = mlkit.compile("""
func.func @round(%x: tensor<8xf32>) -> tensor<8xf32> {
  %h = arith.truncf %x : tensor<8xf32> to tensor<8xbf16>
  %y = arith.extf %h : tensor<8xbf16> to tensor<8xf32>
  return %y : tensor<8xf32>
}""", PIPELINE)
    x = np.array([1.0, 1.00390625, 1.01171875, -2.5, 3.0e38, np.inf, np.nan, 1e-40], np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).astype(np.uint32).view(np.float32)
    y = program.round(x)
    finite = ~np.isnan(x)
    np.testing.assert_array_equal(y[finite], rounded[finite])
    assert np.isnan(y[6])
