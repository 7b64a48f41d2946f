"""``convert-linalg-to-loops``, ``-affine-loops`` and ``-parallel-loops`` against
upstream MLIR.

- mlkit's output parses in upstream, and after upstream's ``canonicalize,cse``
  it is the text upstream's own pass gives after the same normalisation (the
  order of the hoisted index constants aside), for contractions, convolutions,
  poolings, generics with broadcasting, constant and shifted indexing, several
  inits, reduce/transpose/broadcast/map, fill/copy/elementwise ops, dynamic
  shapes, strided views, ``linalg.index``, ops nested in loops, and ops the
  passes must leave alone (tensors, pack, unpack, softmax);
- programs lowered by mlkit's pass and then by upstream's standard lowering run
  in upstream's ExecutionEngine and compute what numpy computes.
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest
from upstream_oracle import ir, mlkit_print, upstream_print

# Programs with structured ops, also used by test_linalg_generalize.py. Cases
# named ``*left_alone`` hold only ops the loop passes must not touch.
CASES: dict[str, str] = {
    "matmul_static": """
func.func @f(%A: memref<4x8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  return
}""",
    "matmul_dynamic": """
func.func @f(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}""",
    "matmul_strided": """
func.func @f(%A: memref<?x?xf32, strided<[?, ?], offset: ?>>, %B: memref<?x?xf32, strided<[?, 1], offset: ?>>, %C: memref<?x?xf32, strided<[?, 1]>>) {
  linalg.matmul ins(%A, %B : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>) outs(%C : memref<?x?xf32, strided<[?, 1]>>)
  return
}""",
    "matmul_transpose_a_i32": """
func.func @f(%A: memref<8x4xi32>, %B: memref<8x16xi32>, %C: memref<4x16xi32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%A, %B : memref<8x4xi32>, memref<8x16xi32>) outs(%C : memref<4x16xi32>)
  return
}""",
    "batch_matmul": """
func.func @f(%A: memref<2x4x8xf32>, %B: memref<2x8x16xf32>, %C: memref<2x4x16xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%C : memref<2x4x16xf32>)
  return
}""",
    "matvec_dot": """
func.func @f(%A: memref<4x8xf32>, %x: memref<8xf32>, %y: memref<4xf32>, %s: memref<f32>) {
  linalg.matvec ins(%A, %x : memref<4x8xf32>, memref<8xf32>) outs(%y : memref<4xf32>)
  linalg.vecmat ins(%y, %A : memref<4xf32>, memref<4x8xf32>) outs(%x : memref<8xf32>)
  linalg.dot ins(%x, %x : memref<8xf32>, memref<8xf32>) outs(%s : memref<f32>)
  return
}""",
    "conv_2d": """
func.func @f(%A: memref<1x8x8x3xf32>, %B: memref<3x3x3x4xf32>, %C: memref<1x3x2x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {strides = dense<[2, 2]> : tensor<2xi64>, dilations = dense<[1, 2]> : tensor<2xi64>} ins(%A, %B : memref<1x8x8x3xf32>, memref<3x3x3x4xf32>) outs(%C : memref<1x3x2x4xf32>)
  return
}""",
    "conv_2d_dynamic": """
func.func @f(%A: memref<?x?x?x?xf32>, %B: memref<?x?x?x?xf32>, %C: memref<?x?x?x?xf32>) {
  linalg.conv_2d_nhwc_hwcf ins(%A, %B : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%C : memref<?x?x?x?xf32>)
  return
}""",
    "depthwise": """
func.func @f(%A: memref<1x6x6x3xf32>, %B: memref<3x3x3xf32>, %C: memref<1x4x4x3xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc ins(%A, %B : memref<1x6x6x3xf32>, memref<3x3x3xf32>) outs(%C : memref<1x4x4x3xf32>)
  return
}""",
    "pooling_max": """
func.func @f(%A: memref<1x6x6x3xf32>, %W: memref<3x3xf32>, %C: memref<1x2x2x3xf32>) {
  linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%A, %W : memref<1x6x6x3xf32>, memref<3x3xf32>) outs(%C : memref<1x2x2x3xf32>)
  return
}""",
    "pooling_sum_nchw_max": """
func.func @f(%A: memref<1x6x6x3xf32>, %W: memref<3x3xf32>, %C: memref<1x4x4x3xf32>, %D: memref<1x3x6x6xf32>, %E: memref<1x3x4x4xf32>) {
  linalg.pooling_nhwc_sum ins(%A, %W : memref<1x6x6x3xf32>, memref<3x3xf32>) outs(%C : memref<1x4x4x3xf32>)
  linalg.pooling_nchw_max ins(%D, %W : memref<1x3x6x6xf32>, memref<3x3xf32>) outs(%E : memref<1x3x4x4xf32>)
  return
}""",
    "generic_broadcast": """
#a = affine_map<(d0, d1) -> (d1)>
#s = affine_map<(d0, d1) -> ()>
#c = affine_map<(d0, d1) -> (0, d1)>
#o = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%row: memref<8xf32>, %k: f32, %first: memref<4x8xf32>, %out: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#a, #s, #c, #o], iterator_types = ["parallel", "parallel"]} ins(%row, %k, %first : memref<8xf32>, f32, memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%r: f32, %kk: f32, %f: f32, %o: f32):
    %0 = arith.mulf %r, %kk : f32
    %1 = arith.addf %0, %f : f32
    linalg.yield %1 : f32
  }
  return
}""",
    "generic_shifted_multi_out": """
#in = affine_map<(d0, d1, d2) -> (d0 + d2, d1 * 3 + 1)>
#o1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#o2 = affine_map<(d0, d1, d2) -> (d1, d0)>
func.func @f(%a: memref<10x20xf32>, %o: memref<4x5xf32>, %p: memref<5x4xf32>, %q: memref<7x2xf32>) {
  linalg.generic {indexing_maps = [#in, affine_map<(d0, d1, d2) -> (d2, 0)>, #o1, #o2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %q : memref<10x20xf32>, memref<7x2xf32>) outs(%o, %p : memref<4x5xf32>, memref<5x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32, %m: f32):
    %0 = arith.addf %acc, %x : f32
    %1 = arith.maximumf %m, %y : f32
    linalg.yield %0, %1 : f32, f32
  }
  return
}""",
    "par_red_par": """
#i = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @f(%a: memref<?x?x?xf32>, %o: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#i, #o], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a : memref<?x?x?xf32>) outs(%o : memref<?x?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %0 = arith.addf %acc, %x : f32
    linalg.yield %0 : f32
  }
  return
}""",
    "reduce": """
func.func @f(%A: memref<4x5x6xf32>, %C: memref<5xf32>, %D: memref<?x?xi32>, %E: memref<?xi32>) {
  linalg.reduce { arith.addf } ins(%A : memref<4x5x6xf32>) outs(%C : memref<5xf32>) dimensions = [0, 2]
  linalg.reduce ins(%D : memref<?x?xi32>) outs(%E : memref<?xi32>) dimensions = [1]
    (%in: i32, %init: i32) {
      %0 = arith.maxsi %in, %init : i32
      linalg.yield %0 : i32
    }
  return
}""",
    "transpose_broadcast_map": """
func.func @f(%A: memref<4x5x6xf32>, %T: memref<6x4x5xf32>, %v: memref<5xf32>, %B: memref<5x3xf32>, %X: memref<?xf32>, %Y: memref<?xf32>) {
  linalg.transpose ins(%A : memref<4x5x6xf32>) outs(%T : memref<6x4x5xf32>) permutation = [2, 0, 1]
  linalg.broadcast ins(%v : memref<5xf32>) outs(%B : memref<5x3xf32>) dimensions = [1]
  linalg.map { arith.subf } ins(%X, %Y : memref<?xf32>, memref<?xf32>) outs(%X : memref<?xf32>)
  return
}""",
    "fill_copy_elementwise": """
func.func @f(%k: f32, %A: memref<4x?xf32>, %B: memref<4x?xf32>, %z: memref<f32>) {
  linalg.fill ins(%k : f32) outs(%A : memref<4x?xf32>)
  linalg.copy ins(%A : memref<4x?xf32>) outs(%B : memref<4x?xf32>)
  linalg.exp ins(%A : memref<4x?xf32>) outs(%B : memref<4x?xf32>)
  linalg.add ins(%A, %B : memref<4x?xf32>, memref<4x?xf32>) outs(%B : memref<4x?xf32>)
  linalg.fill ins(%k : f32) outs(%z : memref<f32>)
  return
}""",
    "index": """
func.func @f(%C: memref<4x?xindex, strided<[?, 1], offset: ?>>, %D: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0,d1)->(d0,d1)>], iterator_types=["parallel","parallel"]} outs(%C : memref<4x?xindex, strided<[?, 1], offset: ?>>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    linalg.yield %s : index
  }
  linalg.generic {indexing_maps = [affine_map<(d0,d1)->(d0,d1)>, affine_map<(d0,d1)->(d0)>], iterator_types=["parallel","reduction"]} ins(%C : memref<4x?xindex, strided<[?, 1], offset: ?>>) outs(%D : memref<4xf32>) {
  ^bb0(%c: index, %o: f32):
    %j = linalg.index 1 : index
    %s = arith.muli %c, %j : index
    %t = arith.index_cast %s : index to i64
    %f = arith.sitofp %t : i64 to f32
    %r = arith.addf %o, %f : f32
    linalg.yield %r : f32
  }
  return
}""",
    "alloc_dynamic_nested": """
func.func @f(%n: index, %m: index, %k: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n, %m) : memref<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.subview %a[%i, 0] [1, %m] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
    linalg.fill ins(%k : f32) outs(%v : memref<?xf32, strided<[1], offset: ?>>)
  }
  linalg.fill ins(%k : f32) outs(%a : memref<?x?xf32>)
  memref.dealloc %a : memref<?x?xf32>
  return
}""",
    "tensors_and_relayout_left_alone": """
func.func @f(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>, %C: tensor<4x16xf32>, %s: tensor<2x16xf32>) -> (tensor<4x16xf32>, tensor<2x16xf32>) {
  %0 = linalg.matmul ins(%A, %B : tensor<4x8xf32>, tensor<8x16xf32>) outs(%C : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<2x16xf32>
  %1 = linalg.softmax dimension(1) ins(%s : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<2x16xf32>
}""",
    "pack_unpack_left_alone": """
func.func @f(%A: tensor<8x8xf32>, %P: tensor<2x2x4x4xf32>, %U: tensor<8x8xf32>) -> (tensor<2x2x4x4xf32>, tensor<8x8xf32>) {
  %0 = linalg.pack %A inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %P : tensor<8x8xf32> -> tensor<2x2x4x4xf32>
  %1 = linalg.unpack %0 inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %U : tensor<2x2x4x4xf32> -> tensor<8x8xf32>
  return %0, %1 : tensor<2x2x4x4xf32>, tensor<8x8xf32>
}""",
    "mmt4d_batch_reduce": """
func.func @f(%A: memref<2x3x4x5xf32>, %B: memref<6x3x7x5xf32>, %C: memref<2x6x4x7xf32>, %X: memref<2x4x8xf32>, %Y: memref<2x8x16xf32>, %Z: memref<4x16xf32>) {
  linalg.mmt4d ins(%A, %B : memref<2x3x4x5xf32>, memref<6x3x7x5xf32>) outs(%C : memref<2x6x4x7xf32>)
  linalg.batch_reduce_matmul ins(%X, %Y : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%Z : memref<4x16xf32>)
  return
}""",
    "conv_1d_3d_nchw": """
func.func @f(%a: memref<1x8x3xf32>, %b: memref<3x3x2xf32>, %c: memref<1x6x2xf32>, %d: memref<1x3x6x6xf32>, %e: memref<4x3x3x3xf32>, %g: memref<1x4x4x4xf32>) {
  linalg.conv_1d_nwc_wcf ins(%a, %b : memref<1x8x3xf32>, memref<3x3x2xf32>) outs(%c : memref<1x6x2xf32>)
  linalg.conv_2d_nchw_fchw ins(%d, %e : memref<1x3x6x6xf32>, memref<4x3x3x3xf32>) outs(%g : memref<1x4x4x4xf32>)
  return
}""",
}

PASSES = (
    "convert-linalg-to-loops",
    "convert-linalg-to-affine-loops",
    "convert-linalg-to-parallel-loops",
)
NORMALISE = "builtin.module(canonicalize,cse)"
LOWER = (
    "builtin.module(lower-affine,convert-scf-to-cf,expand-strided-metadata,"
    "convert-to-llvm,reconcile-unrealized-casts)"
)
_CONSTANT = re.compile(r"\s*%\w+ = arith\.constant ")


def _normalised(text: str) -> str:
    """Upstream's canonical form, with function-entry constants sorted: both
    sides hoist the same constants, in an order set by rewrite order."""
    text = upstream_print(text, generic=False, pipeline=NORMALISE)
    lines = text.splitlines()
    constants = sorted(line.strip() for line in lines if _CONSTANT.match(line))
    return "\n".join(constants + [line for line in lines if not _CONSTANT.match(line)])


@pytest.mark.parametrize("pass_name", PASSES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_upstream(pass_name: str, case: str) -> None:
    text = CASES[case]
    pipeline = f"builtin.module({pass_name})"
    ours = mlkit_print(text, pipeline=pipeline)
    theirs = upstream_print(text, generic=False, pipeline=pipeline)
    assert _normalised(ours) == _normalised(theirs), ours


@pytest.mark.parametrize("pass_name", PASSES)
def test_structured_ops_on_buffers_are_gone(pass_name: str) -> None:
    for case, text in CASES.items():
        out = mlkit_print(text, pipeline=f"builtin.module({pass_name})")
        if "left_alone" in case:
            assert out.count("linalg.") == text.count("linalg."), case
        else:
            assert "linalg." not in out, case


def test_parallel_loops_keep_reductions_sequential() -> None:
    out = mlkit_print(
        CASES["par_red_par"],
        pipeline="builtin.module(convert-linalg-to-parallel-loops)",
    )
    generic = upstream_print(out)
    # parallel d0 { for d1 { parallel d2 } }: the reduction is an scf.for between.
    order = re.findall(r'"scf\.(parallel|for)"', generic)
    assert order == ["parallel", "for", "parallel"], order


# -- semantics -----------------------------------------------------------------------

np = pytest.importorskip("numpy")
ExecutionEngine = pytest.importorskip("torch_mlir.execution_engine").ExecutionEngine
runtime = pytest.importorskip("torch_mlir.runtime")


def _run(text: str, pass_name: str, arrays: list[np.ndarray]) -> None:
    """Lower ``@f`` with mlkit's pass, then upstream's standard lowering; run it."""
    lowered = mlkit_print(text, pipeline=f"builtin.module({pass_name})")
    assert "linalg." not in lowered
    with ir.Context():
        module = ir.Module.parse(lowered)
        from torch_mlir import passmanager

        passmanager.PassManager.parse(LOWER).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        descriptors = [
            ctypes.pointer(ctypes.pointer(runtime.get_ranked_memref_descriptor(a)))
            for a in arrays
        ]
        engine.invoke("f", *descriptors)


MATMUL = """
func.func @f(%A: memref<?x?xf32>, %B: memref<?x?xf32, strided<[?, ?], offset: ?>>, %C: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%C : memref<?x?xf32>)
  return
}"""

CONV = """
func.func @f(%A: memref<1x9x9x3xf32>, %B: memref<3x2x3x4xf32>, %C: memref<1x4x3x4xf32>) attributes {llvm.emit_c_interface} {
  linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<[1, 3]> : tensor<2xi64>} ins(%A, %B : memref<1x9x9x3xf32>, memref<3x2x3x4xf32>) outs(%C : memref<1x4x3x4xf32>)
  return
}"""

POOL_INDEX = """
func.func @f(%A: memref<1x6x6x2xf32>, %W: memref<2x2xf32>, %C: memref<1x3x3x2xf32>, %I: memref<3x?xf32>) attributes {llvm.emit_c_interface} {
  linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%A, %W : memref<1x6x6x2xf32>, memref<2x2xf32>) outs(%C : memref<1x3x3x2xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%I : memref<3x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %t = arith.muli %i, %c10 : index
    %s = arith.addi %t, %j : index
    %n = arith.index_cast %s : index to i64
    %f = arith.sitofp %n : i64 to f32
    linalg.yield %f : f32
  }
  return
}"""


@pytest.mark.parametrize("pass_name", PASSES)
def test_matmul_on_strided_view_runs(pass_name: str) -> None:
    rng = np.random.default_rng(0)
    a = rng.random((3, 5), dtype=np.float32)
    b_full = rng.random((10, 4), dtype=np.float32)
    b = b_full[::2, :]  # a strided view: row stride 8 elements
    c = rng.random((3, 4), dtype=np.float32)
    expected = c + a @ b
    _run(MATMUL, pass_name, [a, b, c])
    np.testing.assert_allclose(c, expected, rtol=1e-5)


@pytest.mark.parametrize("pass_name", PASSES)
def test_strided_dilated_conv_runs(pass_name: str) -> None:
    rng = np.random.default_rng(1)
    x = rng.random((1, 9, 9, 3), dtype=np.float32)
    w = rng.random((3, 2, 3, 4), dtype=np.float32)
    out = np.zeros((1, 4, 3, 4), dtype=np.float32)
    expected = np.zeros_like(out)
    for oh in range(4):
        for ow in range(3):
            for kh in range(3):
                for kw in range(2):
                    expected[0, oh, ow] += (
                        x[0, oh * 2 + kh, ow * 2 + kw * 3] @ w[kh, kw]
                    )
    _run(CONV, pass_name, [x, w, out])
    np.testing.assert_allclose(out, expected, rtol=1e-5)


@pytest.mark.parametrize("pass_name", PASSES)
def test_pooling_and_index_run(pass_name: str) -> None:
    rng = np.random.default_rng(2)
    x = rng.random((1, 6, 6, 2), dtype=np.float32)
    window = np.zeros((2, 2), dtype=np.float32)
    pooled = np.full((1, 3, 3, 2), -np.inf, dtype=np.float32)
    index = np.zeros((3, 7), dtype=np.float32)
    _run(POOL_INDEX, pass_name, [x, window, pooled, index])
    expected = x.reshape(1, 3, 2, 3, 2, 2).max(axis=(2, 4))
    np.testing.assert_allclose(pooled, expected)
    np.testing.assert_allclose(index, np.add.outer(np.arange(3) * 10, np.arange(7)))


# -- the lit tests' inputs -------------------------------------------------------------

LIT = Path(__file__).parent.parent / "lit_tests"
LIT_FILES = {
    "Conversion/LinalgToLoops/loops.mlir": "convert-linalg-to-loops",
    "Conversion/LinalgToLoops/affine-loops.mlir": "convert-linalg-to-affine-loops",
    "Conversion/LinalgToLoops/parallel-loops.mlir": "convert-linalg-to-parallel-loops",
    "Transforms/linalg-generalize-named-ops.mlir": "linalg-generalize-named-ops",
}
LIT_CHUNKS = [
    (path, index)
    for path in LIT_FILES
    for index, _ in enumerate((LIT / path).read_text().split("// -----"))
]


@pytest.mark.parametrize(("path", "index"), LIT_CHUNKS)
def test_lit_chunks_match_upstream(path: str, index: int) -> None:
    """What the lit tests check is also what upstream's pass gives."""
    chunk = (LIT / path).read_text().split("// -----")[index]
    pipeline = f"builtin.module({LIT_FILES[path]})"
    ours = mlkit_print(chunk, pipeline=pipeline)
    theirs = upstream_print(chunk, generic=False, pipeline=pipeline)
    assert _normalised(ours) == _normalised(theirs), ours


def test_invalid_lit_chunk_fails_upstream_too() -> None:
    text = (LIT / "Conversion/LinalgToLoops/affine-loops-invalid.mlir").read_text()
    with ir.Context():
        module = ir.Module.parse(text)
        from torch_mlir import passmanager

        pm = passmanager.PassManager.parse(
            "builtin.module(convert-linalg-to-affine-loops)"
        )
        with pytest.raises(ir.MLIRError, match="cannot be used as a dimension id"):
            pm.run(module.operation)
