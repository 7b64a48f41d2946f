"""Elementwise fusion and its companions against upstream MLIR.

- Every case of the lit tests of ``linalg-fuse-elementwise-ops`` (its
  reshape propagation too),
  ``convert-elementwise-to-linalg``, ``linalg-inline-scalar-operands`` and
  ``loop-invariant-code-motion`` gives the IR upstream's pass gives: exactly
  for the last three; for fusion after upstream's ``canonicalize,cse`` on both
  sides (upstream's greedy rewriter also folds, which orders commutative
  operands and folds casts mlkit's rewriter leaves alone).
- A chain of elementwise ops, written as arith/math ops on tensors, named ops,
  ``linalg.map`` and generics, becomes one ``linalg.generic`` and, lowered
  with ``lower-to-cpu``, computes numpy's numbers on odd and dynamic sizes; so
  does the chain as upstream fuses it, and with loop-invariant-code-motion
  run on the loops.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from upstream_oracle import mlkit_print, upstream_print

import mlkit

LIT = Path(__file__).parent.parent / "lit_tests"
NORMALISE = "builtin.module(canonicalize,cse)"

# lit file, pass (nested on functions as upstream's tests run them), exact?
SUITES = {
    "fusion": (LIT / "Dialect/linalg/fusion-elementwise-ops.mlir", "linalg-fuse-elementwise-ops", False),
    "reshape": (LIT / "Dialect/linalg/fusion-reshape.mlir", "linalg-fuse-elementwise-ops", False),
    "to-linalg": (
        LIT / "Dialect/linalg/convert-elementwise-to-linalg.mlir",
        "convert-elementwise-to-linalg",
        True,
    ),
    "inline-scalars": (
        LIT / "Dialect/linalg/inline-scalar-operands.mlir",
        "linalg-inline-scalar-operands",
        True,
    ),
    "licm": (LIT / "Transforms/loop-invariant-code-motion.mlir", "loop-invariant-code-motion", True),
}


def _chunks(path: Path) -> list[str]:
    return path.read_text().split("// -----")


CASES = [
    pytest.param(suite, index, id=f"{suite}-{index}")
    for suite, (path, _, _) in SUITES.items()
    for index in range(len(_chunks(path)))
]


@pytest.mark.parametrize(("suite", "index"), CASES)
def test_matches_upstream(suite: str, index: int) -> None:
    path, name, exact = SUITES[suite]
    text = _chunks(path)[index]
    pipeline = f"builtin.module(func.func({name}))"
    ours = mlkit_print(text, pipeline=pipeline)
    theirs = upstream_print(text, generic=False, pipeline=pipeline)
    if exact:
        assert upstream_print(ours, generic=False) == upstream_print(theirs, generic=False), ours
    else:
        normalised = upstream_print(ours, generic=False, pipeline=NORMALISE)
        assert normalised == upstream_print(theirs, generic=False, pipeline=NORMALISE), ours


# -- a fused chain, run ------------------------------------------------------------

CHAIN = """
func.func @chain(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %row: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %prod = arith.mulf %a, %b : tensor<?x?xf32>
  %sum = linalg.add ins(%prod, %a : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %shift = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%sum, %row : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %d = arith.subf %x, %r : f32
    linalg.yield %d : f32
  } -> tensor<?x?xf32>
  %exp = math.exp %shift : tensor<?x?xf32>
  %neg = linalg.map { arith.negf } ins(%exp : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>)
  return %neg : tensor<?x?xf32>
}

func.func @row_sums(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %acc = tensor.empty(%n) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%acc : tensor<?xf32>) -> tensor<?xf32>
  %q = arith.divf %a, %b : tensor<?x?xf32>
  %t = math.tanh %q : tensor<?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<?x?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
"""

FUSE = (
    "func.func(convert-elementwise-to-linalg,linalg-generalize-named-ops,"
    "linalg-fuse-elementwise-ops),canonicalize,cse"
)


def _generics(text: str) -> dict[str, int]:
    """How many linalg.generic each function holds."""
    counts: dict[str, int] = {}
    for line in text.splitlines():
        if "func.func @" in line:
            name = line.split("@")[1].split("(")[0]
            counts[name] = 0
        elif counts:
            counts[name] += line.count("linalg.generic")
    return counts


def test_chain_fuses_into_one_loop_nest() -> None:
    # row_sums keeps the (generalized) fill: it is the reduction's init.
    fused = mlkit_print(CHAIN, pipeline=f"builtin.module({FUSE})")
    assert _generics(fused) == {"chain": 1, "row_sums": 2}, fused
    for op in ("arith.mulf", "arith.addf", "arith.subf", "math.exp", "arith.negf", "math.tanh"):
        assert op in fused
    # as upstream fuses it
    theirs = upstream_print(CHAIN, generic=False, pipeline=f"builtin.module({FUSE})")
    assert _generics(theirs) == {"chain": 1, "row_sums": 2}, theirs


def _expected(a: np.ndarray, b: np.ndarray, row: np.ndarray) -> np.ndarray:
    return -np.exp(a * b + a - row[None, :])


SIZES = [(7, 13), (1, 1), (33, 5), (2, 129)]


def _lowering_with_licm() -> str:
    """lower-to-cpu's steps with loop-invariant-code-motion on the loops."""
    from mlkit.passes.pipelines.lower_to_cpu import LowerToCPU

    steps = LowerToCPU().pipeline()
    assert "convert-linalg-to-loops," in steps
    return steps.replace("convert-linalg-to-loops,", "convert-linalg-to-loops,loop-invariant-code-motion,")


PROGRAMS = ["mlkit", "mlkit-licm", "upstream-fused"]


@pytest.fixture(scope="module")
def programs() -> dict[str, object]:
    upstream_fused = upstream_print(CHAIN, generic=False, pipeline=f"builtin.module({FUSE})")
    return {
        "mlkit": mlkit.compile(CHAIN, pipeline=f"builtin.module({FUSE},lower-to-cpu)"),
        "mlkit-licm": mlkit.compile(CHAIN, pipeline=f"builtin.module({FUSE},{_lowering_with_licm()})"),
        "upstream-fused": mlkit.compile(upstream_fused),
    }


@pytest.mark.parametrize("which", PROGRAMS)
@pytest.mark.parametrize("shape", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_fused_chain_computes_numpy(programs: dict[str, object], which: str, shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape, dtype=np.float32) * 0.5
    b = rng.standard_normal(shape, dtype=np.float32) * 0.5
    row = rng.standard_normal(shape[1], dtype=np.float32)
    out = programs[which].chain(a, b, row)  # type: ignore[attr-defined]
    np.testing.assert_allclose(out, _expected(a, b, row), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("which", PROGRAMS)
def test_fused_reduction_computes_numpy(programs: dict[str, object], which: str) -> None:
    rng = np.random.default_rng(5)
    a = rng.standard_normal((7, 13), dtype=np.float32)
    b = rng.uniform(0.5, 2.0, (7, 13)).astype(np.float32)
    out = programs[which].row_sums(a, b)  # type: ignore[attr-defined]
    np.testing.assert_allclose(out, np.tanh(a / b).sum(axis=1), rtol=1e-5, atol=1e-5)


# -- the fusion patterns with another control -------------------------------------

MULTI_USE = """
func.func @f(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.log %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
"""


def test_any_producer_fuses_under_a_permissive_control() -> None:
    """With a control that fuses producers of several uses, the consumer
    computes the producer's payload and the producer stays for its other
    user, as upstream's ``FuseElementwiseOps`` does."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier

    from mlkit.context import make_context
    from mlkit.diagnostics.verifier import verify_op_tree
    from mlkit.passes.transforms.linalg_fuse_elementwise_ops import elementwise_fusion_patterns
    from mlkit.passes.transforms.rewrite_driver import rewrite_regions
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module
    from mlkit.syntax.printer import print_op

    ctx = make_context(default_registry())
    module = parse_module(ctx, MULTI_USE, "<test>")
    patterns = elementwise_fusion_patterns(control=lambda consumer, number: True)
    rewrite_regions(module, GreedyRewritePatternApplier(patterns, ctx=ctx))
    verify_op_tree(module)
    text = print_op(module)
    producer, consumer = text.split("linalg.generic")[1:]
    assert "math.exp" in producer and "math.log" not in producer, text
    assert "math.exp" in consumer and "math.log" in consumer, text
    assert "return %1, %2 :" in text, text  # the producer, the fused consumer


# -- reshapes between elementwise ops ---------------------------------------------

RESHAPED = """
func.func @reshaped(%x: tensor<6x10xf32>, %y: tensor<60xf32>, %z: tensor<6x10xf32>) -> tensor<6x10xf32> {
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<6x10xf32> into tensor<60xf32>
  %prod = arith.mulf %flat, %y : tensor<60xf32>
  %e = math.exp %prod : tensor<60xf32>
  %back = tensor.expand_shape %e [[0, 1]] output_shape [6, 10] : tensor<60xf32> into tensor<6x10xf32>
  %r = arith.subf %back, %z : tensor<6x10xf32>
  return %r : tensor<6x10xf32>
}
"""


def test_reshapes_do_not_stop_fusion() -> None:
    fused = mlkit_print(RESHAPED, pipeline=f"builtin.module({FUSE})")
    assert _generics(fused) == {"reshaped": 1}, fused
    assert "tensor.collapse_shape" not in fused, fused
    theirs = upstream_print(RESHAPED, generic=False, pipeline=f"builtin.module({FUSE})")
    assert _generics(theirs) == {"reshaped": 1}, theirs


def test_reshaped_chain_computes_numpy() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((6, 10), dtype=np.float32)
    y = rng.standard_normal(60, dtype=np.float32)
    z = rng.standard_normal((6, 10), dtype=np.float32)
    expected = np.exp(x.reshape(60) * y).reshape(6, 10) - z
    for pipeline in (f"builtin.module({FUSE},lower-to-cpu)", "builtin.module(lower-to-cpu)"):
        out = mlkit.compile(RESHAPED, pipeline=pipeline).reshaped(x, y, z)
        np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)
