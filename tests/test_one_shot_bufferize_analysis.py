"""One-shot-bufferize's analysis options against upstream MLIR (issue 14):
``test-analysis-only`` marks what upstream marks, ``print-conflicts`` adds
upstream's markers, the analysis errors are upstream's (message and line),
and programs whose in-place decisions changed with the new analysis still
compute what upstream's bufferization computes.

The lit files' chunks are also compared with upstream one by one in
``test_pass_files_as_upstream.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from upstream_oracle import ir, lit_chunks, mlkit_print, upstream_print

LIT = Path(__file__).parent.parent / "lit_tests" / "Transforms"
ANALYSIS = "builtin.module(one-shot-bufferize{test-analysis-only})"


def _error_of(text: str, pipeline: str) -> tuple[str, int]:
    """The message and line of the error upstream reports."""
    with pytest.raises(ir.MLIRError) as failure:
        upstream_print(text, pipeline=pipeline, unregistered=True)
    match = re.search(r'"-":(\d+):\d+: (.*)', str(failure.value))
    assert match is not None, str(failure.value)
    return match.group(2), int(match.group(1))


def _mlkit_error_of(text: str, pipeline: str) -> tuple[str, int]:
    from mlkit.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError) as failure:
        mlkit_print(text, pipeline=pipeline, unregistered=True)
    diag = failure.value.diagnostic  # type: ignore[attr-defined]
    return diag.message, diag.loc.line


INVALID = [
    pytest.param(text, pipeline, id=f"{name}#{i}")
    for name, pipeline in (
        ("one-shot-bufferize-analysis-invalid.mlir", ANALYSIS),
        ("one-shot-bufferize-unknown-ops-invalid.mlir", "builtin.module(one-shot-bufferize)"),
    )
    for i, text in enumerate(lit_chunks(LIT / name))
    if "expected-error" in (LIT / name).read_text().split("// -----")[i]
]


@pytest.mark.parametrize(("text", "pipeline"), INVALID)
def test_error_as_upstream(text: str, pipeline: str) -> None:
    assert _mlkit_error_of(text, pipeline) == _error_of(text, pipeline)


def test_copy_before_write_conflicts_with_test_analysis_only() -> None:
    text = "func.func @f() { return }"
    pipeline = "builtin.module(one-shot-bufferize{copy-before-write test-analysis-only})"
    with pytest.raises(ir.MLIRError, match="cannot be used with 'test-analysis-only'"):
        upstream_print(text, pipeline=pipeline)
    message, _ = _mlkit_error_of(text, pipeline)
    assert message == "Invalid option: 'copy-before-write' cannot be used with 'test-analysis-only'"


def _numbered_by_appearance(text: str) -> str:
    """Upstream numbers conflict markers per process; compare them by order."""
    ids: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        kind = match.group(0)[0]
        key = match.group(0)
        if key not in ids:
            ids[key] = f"{kind}_{sum(k[0] == kind for k in ids)}"
        return ids[key]

    return re.sub(r"\b[CW]_\d+\b", rename, text)


@pytest.mark.parametrize("name", ["read_after_write", "argument_is_read_only", "unknown_op"])
def test_conflict_markers_as_upstream(name: str) -> None:
    """Chunks with one conflict or read-only buffer each (where several exist,
    which one upstream reports depends on its set order)."""
    chunks = lit_chunks(LIT / "one-shot-bufferize-analysis.mlir")
    text = next(c for c in chunks if f"@{name}(" in c)
    pipeline = "builtin.module(one-shot-bufferize{test-analysis-only print-conflicts})"
    expected = upstream_print(text, generic=False, pipeline=pipeline, unregistered=True)
    printed = mlkit_print(text, pipeline=pipeline, unregistered=True)
    got = upstream_print(printed, generic=False, unregistered=True)
    assert _numbered_by_appearance(got) == _numbered_by_appearance(expected)
    assert "_0[" in printed


def test_annotations_leave_the_program_alone() -> None:
    """test-analysis-only only adds attributes: without them the program is
    the input."""
    text = (LIT / "one-shot-bufferize.mlir").read_text().split("// -----")[3]
    marked = mlkit_print(text, pipeline=ANALYSIS)
    stripped = re.sub(r"\{__inplace_operands_attr__ = \[[^]]*\]\} ?", "", marked)
    assert upstream_print(stripped, generic=True) == upstream_print(text, generic=True)


# Programs whose copies the analysis places where upstream does: a slice
# copied rather than the tensor it came from, a write into a matching slice
# in place, writes in one branch and reads in the other.
SLICE_COPY = """
func.func @compute(%t: tensor<8xf32>) -> tensor<8xf32> {
  %s = tensor.extract_slice %t[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %r = tensor.insert_slice %s into %t[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @main(%a: memref<8xf32>, %out: memref<8xf32>) attributes {llvm.emit_c_interface} {
  %ta = bufferization.to_tensor %a restrict writable : memref<8xf32> to tensor<8xf32>
  %r = call @compute(%ta) : (tensor<8xf32>) -> tensor<8xf32>
  %m = bufferization.to_buffer %r : tensor<8xf32> to memref<8xf32>
  "memref.copy"(%m, %out) : (memref<8xf32>, memref<8xf32>) -> ()
  return
}
"""

BRANCHES = """
func.func @compute(%t: tensor<4xf32>, %c: i1) -> (tensor<4xf32>, f32) {
  %c1 = arith.constant 1 : index
  %v = arith.constant 9.0 : f32
  %r, %x = scf.if %c -> (tensor<4xf32>, f32) {
    %w = tensor.insert %v into %t[%c1] : tensor<4xf32>
    scf.yield %w, %v : tensor<4xf32>, f32
  } else {
    %y = tensor.extract %t[%c1] : tensor<4xf32>
    scf.yield %t, %y : tensor<4xf32>, f32
  }
  %s = tensor.extract_slice %r[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %f = linalg.fill ins(%x : f32) outs(%s : tensor<2xf32>) -> tensor<2xf32>
  %back = tensor.insert_slice %f into %r[1] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %back, %x : tensor<4xf32>, f32
}
func.func @main(%a: memref<4xf32>, %out: memref<4xf32>) attributes {llvm.emit_c_interface} {
  %true = arith.constant true
  %ta = bufferization.to_tensor %a restrict writable : memref<4xf32> to tensor<4xf32>
  %r:2 = call @compute(%ta, %true) : (tensor<4xf32>, i1) -> (tensor<4xf32>, f32)
  %m = bufferization.to_buffer %r#0 : tensor<4xf32> to memref<4xf32>
  "memref.copy"(%m, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}
"""


def test_slice_copy_runs_like_upstream() -> None:
    from test_one_shot_bufferize import run_both

    a = np.arange(8, dtype=np.float32)
    ours, theirs = run_both(SLICE_COPY, [a, np.zeros(8, np.float32)])
    expected = a.copy()
    expected[2:6] = a[0:4]
    np.testing.assert_array_equal(ours[1], expected)
    np.testing.assert_array_equal(theirs[1], expected)


def test_branch_and_matching_slice_run_like_upstream() -> None:
    from test_one_shot_bufferize import run_both

    a = np.arange(4, dtype=np.float32)
    ours, theirs = run_both(BRANCHES, [a, np.zeros(4, np.float32)])
    np.testing.assert_array_equal(ours[1], [0.0, 9.0, 9.0, 3.0])
    np.testing.assert_array_equal(ours[1], theirs[1])
