"""convert-linalg-to-std (issue 14): what it rejects, rejected by upstream's
pass with the same error, and a converted call that runs. The chunks of
``linalg-to-std.mlir`` are compared with upstream's pass in
``test_pass_files_as_upstream.py``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mlkit
from mlkit.diagnostics import DiagnosticError

INVALID = Path(__file__).parent.parent / "lit_tests" / "Conversion" / "LinalgToStandard" / "linalg-to-std-invalid.mlir"
PIPELINE = "builtin.module(convert-linalg-to-std)"
CHUNKS = INVALID.read_text().split("// -----")


@pytest.mark.parametrize("chunk", CHUNKS, ids=lambda c: c.split("func.func @")[1].split("(")[0])
def test_rejected_as_upstream_rejects(chunk: str) -> None:
    """(Needs the upstream oracle; the other test does not.)"""
    from upstream_oracle import expected_error, ir, mlkit_print, passmanager

    message = expected_error(chunk.replace("@below", "@+1"))
    with pytest.raises(DiagnosticError, match=message):
        mlkit_print(chunk, pipeline=PIPELINE)
    with ir.Context(), pytest.raises(ir.MLIRError, match=message):
        module = ir.Module.parse(chunk)
        passmanager.PassManager.parse(PIPELINE).run(module.operation)


def test_a_call_to_a_defined_library_function_runs() -> None:
    """A module that defines the function a linalg op is named after calls it
    through the dynamic strided layout, views of any layout included."""
    program = mlkit.compile(
        """
func.func @linalg_copy_view8xf32_view8xf32(%a: memref<8xf32, strided<[?], offset: ?>>,
                                           %b: memref<8xf32, strided<[?], offset: ?>>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xf32, strided<[?], offset: ?>>
    %y = arith.addf %x, %x : f32
    affine.store %y, %b[%i] : memref<8xf32, strided<[?], offset: ?>>
  }
  return
}
func.func @double(%a: memref<8xf32, strided<[?], offset: ?>>, %b: memref<8xf32>) {
  linalg.copy ins(%a : memref<8xf32, strided<[?], offset: ?>>) outs(%b : memref<8xf32>)
  return
}""",
        "builtin.module(convert-linalg-to-std, func.func(lower-affine), convert-scf-to-cf, "
        "expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)",
    )
    a = np.arange(16, dtype=np.float32)
    b = np.zeros(8, np.float32)
    program.double(a[::2], b)
    np.testing.assert_array_equal(b, 2 * a[::2])
