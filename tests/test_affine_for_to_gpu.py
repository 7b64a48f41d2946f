"""Differential tests of ``convert-affine-for-to-gpu`` against upstream MLIR.

Each program goes through mlkit's pass and upstream's with the same options;
both results are normalised by upstream ``canonicalize,cse`` and must print
the same. mlkit's raw output must also parse in upstream. Error cases must
fail in both. (The kernels cannot run here: upstream's ExecutionEngine has
no GPU runtime, so the check is structural.)
"""

from __future__ import annotations

import pytest

from upstream_oracle import mlkit_print, upstream_print

NORMALISE = "builtin.module(canonicalize,cse)"

PROGRAMS = {
    "step_and_dynamic": """
func.func @f(%m: memref<?x?xf32>, %n: index) {
  affine.for %i = 0 to %n step 2 {
    affine.for %j = 3 to 10 {
      %v = affine.load %m[%i, %j] : memref<?x?xf32>
      affine.store %v, %m[%j, %i] : memref<?x?xf32>
    }
  }
  return
}
""",
    "minmax_bounds": """
func.func @f(%m: memref<?x?x?xf32>, %a: index, %b: index) {
  affine.for %i = max affine_map<()[s0, s1] -> (s0, s1)>()[%a, %b] to 64 step 4 {
    affine.for %j = 1 to min affine_map<()[s0] -> (s0 + 3, 32)>()[%b] step 3 {
      affine.for %k = 0 to 4 {
        %v = affine.load %m[%i, %j, %k] : memref<?x?x?xf32>
        affine.store %v, %m[%k, %j, %i] : memref<?x?x?xf32>
      }
    }
  }
  return
}
""",
    "deep_nest": """
func.func @f(%m: memref<8x8x8x4x2x2xf32>, %x: f32, %n: index) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        affine.for %l = 0 to 4 {
          affine.for %p = 0 to 2 {
            affine.for %q = 0 to 2 {
              affine.store %x, %m[%i, %j, %k, %l, %p, %q] : memref<8x8x8x4x2x2xf32>
            }
          }
        }
      }
    }
  }
  return
}
""",
    "two_nests": """
func.func @f(%m: memref<16x16xf32>, %x: f32) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.store %x, %m[%i, %j] : memref<16x16xf32>
    }
  }
  %c = arith.constant 2.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %m[%i, %j] : memref<16x16xf32>
      %w = arith.mulf %v, %c : f32
      affine.store %w, %m[%j, %i] : memref<16x16xf32>
    }
  }
  return
}
""",
}

OPTIONS = [(1, 1), (2, 1), (1, 2), (3, 3), (0, 1), (2, 0)]


def _pipeline(blocks: int, threads: int) -> str:
    return (
        "builtin.module(func.func(convert-affine-for-to-gpu"
        f"{{gpu-block-dims={blocks} gpu-thread-dims={threads}}}))"
    )


@pytest.mark.parametrize("blocks,threads", OPTIONS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_matches_upstream(name: str, blocks: int, threads: int) -> None:
    text = PROGRAMS[name]
    depth = {"step_and_dynamic": 2, "minmax_bounds": 3, "deep_nest": 6, "two_nests": 2}[name]
    if blocks + threads > depth:
        pytest.skip("nest too shallow for these options (see test_errors_match_upstream)")
    if (name, blocks + threads) == ("minmax_bounds", 1):
        pytest.skip("symbol bound left inside gpu.launch: see test_symbol_bound_inside_launch")
    pipeline = _pipeline(blocks, threads)
    ours = mlkit_print(text, pipeline=pipeline)
    assert "gpu.launch" in ours
    expected = upstream_print(text, pipeline=pipeline)
    upstream_print(ours)  # parses and verifies in upstream
    assert upstream_print(ours, pipeline=NORMALISE) == upstream_print(expected, pipeline=NORMALISE), ours


ERRORS = {
    "not_perfect": ("""
func.func @f(%m: memref<16x16xf32>, %x: f32) {
  affine.for %i = 0 to 16 {
    affine.store %x, %m[%i, %i] : memref<16x16xf32>
    affine.for %j = 0 to 16 {
      affine.store %x, %m[%i, %j] : memref<16x16xf32>
    }
  }
  return
}
""", "expected perfectly nested loops in the body"),
    "not_a_loop": ("""
func.func @f(%m: memref<16x16xf32>, %x: f32) {
  affine.for %i = 0 to 16 {
    affine.store %x, %m[%i, %i] : memref<16x16xf32>
  }
  return
}
""", "expected a nested loop"),
    "dependent_bounds": ("""
func.func @f(%m: memref<16x16xf32>, %x: f32) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.store %x, %m[%i, %j] : memref<16x16xf32>
    }
  }
  return
}
""", "loops with bounds depending on other mapped loops are not supported"),
    "iter_args": ("""
func.func @f(%m: memref<16x16xf32>, %x: f32) -> f32 {
  %r = affine.for %i = 0 to 16 iter_args(%acc = %x) -> (f32) {
    %s = affine.for %j = 0 to 16 iter_args(%a2 = %acc) -> (f32) {
      %v = affine.load %m[%i, %j] : memref<16x16xf32>
      %t = arith.addf %a2, %v : f32
      affine.yield %t : f32
    }
    affine.yield %s : f32
  }
  return %r : f32
}
""", "affine loop with iter_args cannot be converted to GPU kernel"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_upstream(name: str) -> None:
    text, message = ERRORS[name]
    pipeline = _pipeline(1, 1)
    with pytest.raises(Exception, match=message):
        upstream_print(text, pipeline=pipeline)
    with pytest.raises(Exception, match=message):
        mlkit_print(text, pipeline=pipeline)


@pytest.mark.parametrize("blocks,threads,message", [
    (4, 1, "cannot map to more than 3 block dimensions"),
    (1, 4, "cannot map to more than 3 thread dimensions"),
])
def test_dimension_limits_match_upstream(blocks: int, threads: int, message: str) -> None:
    text = PROGRAMS["deep_nest"]
    with pytest.raises(Exception, match=message):
        upstream_print(text, pipeline=_pipeline(blocks, threads))
    with pytest.raises(Exception, match=message):
        mlkit_print(text, pipeline=_pipeline(blocks, threads))


def test_symbol_bound_inside_launch() -> None:
    text = PROGRAMS["minmax_bounds"]
    pipeline = _pipeline(1, 0)
    expected = upstream_print(text, pipeline=pipeline)
    ours = mlkit_print(text, pipeline=pipeline)
    assert upstream_print(ours, pipeline=NORMALISE) == upstream_print(expected, pipeline=NORMALISE)
