"""``memref.transpose``, ``memref.reshape`` and ``memref.prefetch`` against
upstream MLIR: the transpose verifier's verdict and message over many
layouts, a program using all three lowered by mlkit and by upstream and run
by upstream's ExecutionEngine, and ``llvm.intr.prefetch`` in LLVM IR."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from llvm_lowering_oracle import run_both
from upstream_oracle import ir

from mlkit.context import make_context
from mlkit.diagnostics import DiagnosticError
from mlkit.diagnostics.verifier import verify_op_tree
from mlkit.pipeline.manager import PassRunner, PipelineBuilder
from mlkit.plugins import default_registry
from mlkit.syntax.parser import parse_module
from mlkit.target.llvmir.module import translate_and_verify


def _row_major(shape: tuple[str, ...]) -> list[str]:
    """The strides of a contiguous buffer, ``?`` outside a dynamic size."""
    strides: list[str] = []
    running: int | None = 1
    for size in reversed(shape):
        strides.insert(0, "?" if running is None else str(running))
        running = None if running is None or size == "?" else running * int(size)
    return strides


def _layout_cases() -> list[tuple[tuple[str, ...], list[str], str, list[int]]]:
    """(shape, strides, offset, permutation) of transpose sources: contiguous
    buffers of rank 0 to 4, then odd strides and offsets."""
    cases = []
    for rank in range(5):
        for shape in itertools.product(["2", "?"], repeat=rank):
            cases.append((shape, _row_major(shape), "0", list(range(rank))))
            if rank >= 2:
                cases.append((shape, _row_major(shape), "0", list(range(rank))[::-1]))
    odd = [(["?", "?"], "?"), (["?", "1"], "5"), (["1", "?"], "?"), (["-2", "1"], "-3"),
           (["0", "0"], "7"), (["?", "0"], "?"), (["-1", "2"], "0"), (["4", "-1"], "?"),
           (["3", "?", "2"], "?"), (["?", "2", "1"], "3"), ([], "4"), ([], "?"), (["1"], "?"),
           (["2"], "0")]  # fmt: skip
    for strides, offset in odd:
        rank = len(strides)
        cases.append((("4",) * rank, strides, offset, list(range(rank))))
        if rank >= 2:
            cases.append((("4",) * rank, strides, offset, [1, 0, *range(2, rank)]))
    return cases


def _memref(shape: tuple[str, ...], layout: str | None) -> str:
    dims = "".join(f"{s}x" for s in shape)
    return f"memref<{dims}f32{', ' + layout if layout else ''}>"


def _transposes() -> list[str]:
    """Each case transposed to the identity layout and to the permuted
    strides; contiguous cases also from a source without a layout."""
    texts = []
    for shape, strides, offset, perm in _layout_cases():
        layout = f"strided<[{', '.join(strides)}], offset: {offset}>"
        if offset == "0" and strides == _row_major(shape) and len(perm) >= 2 and perm[0]:
            texts += _transposes_of(_memref(shape, None), shape, strides, offset, perm)
        texts += _transposes_of(_memref(shape, layout), shape, strides, offset, perm)
    return texts


def _transposes_of(source: str, shape: tuple[str, ...], strides: list[str], offset: str,
                   perm: list[int]) -> list[str]:
    """``source`` transposed by ``perm`` to the identity layout and to the
    permuted strides."""
    permuted = tuple(shape[d] for d in perm)
    dims = ", ".join(f"d{d}" for d in range(len(shape)))
    results = ", ".join(f"d{d}" for d in perm)
    targets = (
        _memref(permuted, None),
        _memref(permuted, f"strided<[{', '.join(strides[d] for d in perm)}], offset: {offset}>"),
    )
    return [
        f"func.func @f(%a: {source}) {{\n  %0 = memref.transpose %a ({dims}) -> ({results})"
        f" : {source} to {target}\n  return\n}}\n"
        for target in targets
    ]


def _mlkit_error(text: str) -> str | None:
    ctx = make_context(default_registry())
    try:
        verify_op_tree(parse_module(ctx, text, "<test>"))
    except DiagnosticError as err:
        return re.search(r"'memref.transpose' op (.*)", str(err)).group(1)  # type: ignore[union-attr]
    return None


def _upstream_error(text: str) -> str | None:
    with ir.Context():
        try:
            ir.Module.parse(text)
        except ir.MLIRError as err:
            return re.search(r"'memref.transpose' op (.*)", str(err)).group(1)  # type: ignore[union-attr]
    return None


TRANSPOSES = _transposes()


@pytest.mark.parametrize("text", TRANSPOSES, ids=range(len(TRANSPOSES)))
def test_transpose_verifier_agrees_with_upstream(text: str) -> None:
    """Same verdict and, on rejection, the same canonical type in the message."""
    assert _mlkit_error(text) == _upstream_error(text)


PROGRAM = """
func.func @main(%m: memref<2x3xf32>, %out: memref<3x6xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %t = memref.transpose %m (i, j) -> (j, i) : memref<2x3xf32> to memref<3x2xf32, strided<[1, 3]>>
  %shape = memref.alloca() : memref<2xindex>
  memref.store %c3, %shape[%c0] : memref<2xindex>
  memref.store %c2, %shape[%c1] : memref<2xindex>
  %r = memref.reshape %m(%shape) : (memref<2x3xf32>, memref<2xindex>) -> memref<3x?xf32>
  %flat = memref.alloca() : memref<1xindex>
  memref.store %c6, %flat[%c0] : memref<1xindex>
  %f = memref.reshape %m(%flat) : (memref<2x3xf32>, memref<1xindex>) -> memref<6xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      memref.prefetch %t[%i, %j], read, locality<3>, data : memref<3x2xf32, strided<[1, 3]>>
      %x = memref.load %t[%i, %j] : memref<3x2xf32, strided<[1, 3]>>
      memref.store %x, %out[%i, %j] : memref<3x6xf32>
      %y = memref.load %r[%i, %j] : memref<3x?xf32>
      %j2 = arith.addi %j, %c2 : index
      memref.store %y, %out[%i, %j2] : memref<3x6xf32>
    }
    %k = arith.addi %i, %c3 : index
    %z = memref.load %f[%k] : memref<6xf32>
    %c4 = arith.constant 4 : index
    memref.store %z, %out[%i, %c4] : memref<3x6xf32>
  }
  return
}
"""

PIPELINE = (
    "builtin.module(convert-scf-to-cf,finalize-memref-to-llvm,convert-arith-to-llvm,"
    "convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)"
)


def test_program_runs_as_upstream() -> None:
    source = np.arange(6, dtype=np.float32).reshape(2, 3)
    ours, theirs = run_both(
        PROGRAM, PIPELINE, PIPELINE, "main",
        lambda: [source.copy(), np.zeros((3, 6), np.float32)],
    )  # fmt: skip
    np.testing.assert_array_equal(ours[1], theirs[1])
    expected = np.zeros((3, 6), np.float32)
    expected[:, 0:2] = source.T
    expected[:, 2:4] = source.reshape(3, 2)
    expected[:, 4] = source.reshape(6)[3:]
    np.testing.assert_array_equal(ours[1], expected)


def test_prefetch_translates_to_the_intrinsic() -> None:
    text = """
func.func @f(%m: memref<8xf32>, %i: index) {
  memref.prefetch %m[%i], write, locality<2>, instr : memref<8xf32>
  return
}
"""
    ctx = make_context(default_registry())
    module = parse_module(ctx, text, "<test>")
    pm = PipelineBuilder(default_registry()).parse(PIPELINE, top_anchor="builtin.module")
    PassRunner(ctx).run(pm, module)
    llvm_ir = str(translate_and_verify(module))
    assert re.search(r"call void @llvm\.prefetch\.p0\(ptr %\w+, i32 1, i32 2, i32 0\)", llvm_ir)
