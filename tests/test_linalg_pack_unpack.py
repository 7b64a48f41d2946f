"""``linalg.pack`` and ``linalg.unpack`` lowered by ``lower-to-cpu`` compute what
numpy computes: static and dynamic sizes, partial tiles with and without a
padding value, ``outer_dims_perm``, tiles in another order than the
dimensions (``inner_dims_pos``), dynamic tiles, a 3-D source and integers;
and the pass that lowers them, run on its own, turns every one into loops.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from upstream_oracle import mlkit_print

import mlkit


def np_pack(
    a: np.ndarray,
    inner_dims_pos: Sequence[int],
    tiles: Sequence[int],
    outer_dims_perm: Sequence[int] | None = None,
    pad: float = 0,
) -> np.ndarray:
    """``linalg.pack``: tile dims ``inner_dims_pos`` by ``tiles`` (padding the
    last tile with ``pad``), permute the outer dims, the tiles last."""
    padded_shape = list(a.shape)
    for d, t in zip(inner_dims_pos, tiles):
        padded_shape[d] = -(-a.shape[d] // t) * t
    padded = np.full(padded_shape, pad, dtype=a.dtype)
    padded[tuple(slice(0, n) for n in a.shape)] = a
    strip_shape: list[int] = []
    outer_axis, tile_axis = {}, {}
    for d, n in enumerate(padded_shape):
        outer_axis[d] = len(strip_shape)
        if d in inner_dims_pos:
            t = tiles[list(inner_dims_pos).index(d)]
            strip_shape += [n // t, t]
            tile_axis[d] = outer_axis[d] + 1
        else:
            strip_shape.append(n)
    perm = list(outer_dims_perm) if outer_dims_perm is not None else list(range(a.ndim))
    axes = [outer_axis[d] for d in perm] + [tile_axis[d] for d in inner_dims_pos]
    return padded.reshape(strip_shape).transpose(axes)


def np_unpack(
    p: np.ndarray,
    shape: Sequence[int],
    inner_dims_pos: Sequence[int],
    outer_dims_perm: Sequence[int] | None = None,
) -> np.ndarray:
    """``linalg.unpack`` into a tensor of ``shape``."""
    rank = len(shape)
    perm = list(outer_dims_perm) if outer_dims_perm is not None else list(range(rank))
    # packed axis of source dim d's outer index, and of its tile index
    outer_of = {d: perm.index(d) for d in range(rank)}
    axes: list[int] = []
    for d in range(rank):
        axes.append(outer_of[d])
        if d in inner_dims_pos:
            axes.append(rank + list(inner_dims_pos).index(d))
    strip = p.transpose(axes)
    sizes = [
        p.shape[outer_of[d]] * (p.shape[rank + list(inner_dims_pos).index(d)] if d in inner_dims_pos else 1)
        for d in range(rank)
    ]
    merged = strip.reshape(sizes)
    return merged[tuple(slice(0, n) for n in shape)]


PROGRAM = """
func.func @pack_padded(%a: tensor<5x7xf32>) -> tensor<4x2x2x3xf32> {
  %e = tensor.empty() : tensor<4x2x2x3xf32>
  %pad = arith.constant -2.5 : f32
  %p = linalg.pack %a padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 3]
      into %e : tensor<5x7xf32> -> tensor<4x2x2x3xf32>
  return %p : tensor<4x2x2x3xf32>
}

func.func @pack_whole(%a: tensor<8x6xf32>) -> tensor<2x3x4x2xf32> {
  %e = tensor.empty() : tensor<2x3x4x2xf32>
  %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %e : tensor<8x6xf32> -> tensor<2x3x4x2xf32>
  return %p : tensor<2x3x4x2xf32>
}

func.func @pack_dynamic(%a: tensor<?x?xf32>, %t: index) -> tensor<?x?x?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %nb = arith.ceildivui %n, %t : index
  %mb = arith.ceildivui %m, %c4 : index
  %e = tensor.empty(%mb, %nb, %t) : tensor<?x?x?x4xf32>
  %zero = arith.constant 0.0 : f32
  %p = linalg.pack %a padding_value(%zero : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [%t, 4]
      into %e : tensor<?x?xf32> -> tensor<?x?x?x4xf32>
  return %p : tensor<?x?x?x4xf32>
}

func.func @unpack_dynamic(%p: tensor<?x?x?x4xf32>, %n: index, %m: index, %t: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [%t, 4]
      into %e : tensor<?x?x?x4xf32> -> tensor<?x?xf32>
  return %u : tensor<?x?xf32>
}

func.func @pack_3d(%a: tensor<3x5x4xf32>) -> tensor<2x3x3x2x2xf32> {
  %e = tensor.empty() : tensor<2x3x3x2x2xf32>
  %pad = arith.constant 9.0 : f32
  %p = linalg.pack %a padding_value(%pad : f32) outer_dims_perm = [2, 1, 0] inner_dims_pos = [1, 2] inner_tiles = [2, 2]
      into %e : tensor<3x5x4xf32> -> tensor<2x3x3x2x2xf32>
  return %p : tensor<2x3x3x2x2xf32>
}

func.func @unpack_3d(%p: tensor<2x3x3x2x2xf32>) -> tensor<3x5x4xf32> {
  %e = tensor.empty() : tensor<3x5x4xf32>
  %u = linalg.unpack %p outer_dims_perm = [2, 1, 0] inner_dims_pos = [1, 2] inner_tiles = [2, 2]
      into %e : tensor<2x3x3x2x2xf32> -> tensor<3x5x4xf32>
  return %u : tensor<3x5x4xf32>
}

func.func @pack_i32(%a: tensor<?x3xi32>) -> tensor<?x3x4xi32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %a, %c0 : tensor<?x3xi32>
  %nb = arith.ceildivui %n, %c4 : index
  %e = tensor.empty(%nb) : tensor<?x3x4xi32>
  %pad = arith.constant 7 : i32
  %p = linalg.pack %a padding_value(%pad : i32) inner_dims_pos = [0] inner_tiles = [4]
      into %e : tensor<?x3xi32> -> tensor<?x3x4xi32>
  return %p : tensor<?x3x4xi32>
}
"""


@pytest.fixture(scope="module")
def prog() -> object:
    return mlkit.compile(PROGRAM)


def _rand(shape: Sequence[int], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_the_pass_turns_every_pack_into_loops() -> None:
    lowered = mlkit_print(
        PROGRAM,
        pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries},"
        "convert-linalg-pack-unpack-to-loops)",
    )
    assert "linalg.pack" not in lowered and "linalg.unpack" not in lowered, lowered
    assert "scf.for" in lowered


def test_numpy_reference_round_trips() -> None:
    a = _rand((5, 7), 0)
    p = np_pack(a, [1, 0], [2, 3], [1, 0], pad=-2.5)
    assert p.shape == (4, 2, 2, 3)
    np.testing.assert_array_equal(np_unpack(p, a.shape, [1, 0], [1, 0]), a)


def test_pack_with_padding_and_permutations(prog: object) -> None:
    a = _rand((5, 7), 1)
    out = prog.pack_padded(a)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(out, np_pack(a, [1, 0], [2, 3], [1, 0], pad=-2.5))


def test_pack_whole_tiles(prog: object) -> None:
    a = _rand((8, 6), 2)
    np.testing.assert_array_equal(prog.pack_whole(a), np_pack(a, [0, 1], [4, 2]))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("shape", "tile"), [((5, 7), 2), ((9, 4), 3), ((1, 1), 5), ((16, 9), 4)], ids=str)
def test_dynamic_pack_and_unpack(prog: object, shape: tuple[int, int], tile: int) -> None:
    a = _rand(shape, sum(shape) + tile)
    packed = prog.pack_dynamic(a, tile)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(packed, np_pack(a, [0, 1], [tile, 4], [1, 0]))
    back = prog.unpack_dynamic(packed, shape[0], shape[1], tile)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(back, a)


def test_unpack_drops_the_padding(prog: object) -> None:
    p = _rand((3, 2, 5, 4), 3)  # padding positions hold data that must not show
    out = prog.unpack_dynamic(p, 9, 11, 5)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(out, np_unpack(p, (9, 11), [0, 1], [1, 0]))


def test_three_dimensional_pack_and_unpack(prog: object) -> None:
    a = _rand((3, 5, 4), 4)
    packed = prog.pack_3d(a)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(packed, np_pack(a, [1, 2], [2, 2], [2, 1, 0], pad=9.0))
    np.testing.assert_array_equal(prog.unpack_3d(packed), a)  # type: ignore[attr-defined]


@pytest.mark.parametrize("rows", [1, 4, 6])
def test_integer_pack(prog: object, rows: int) -> None:
    a = np.arange(rows * 3, dtype=np.int32).reshape(rows, 3)
    np.testing.assert_array_equal(prog.pack_i32(a), np_pack(a, [0], [4], pad=7))  # type: ignore[attr-defined]
