"""Upstream MLIR as a test oracle, through the torch-mlir wheel's bindings.

Tests import this module to check that what mlkit prints is read by upstream
MLIR as the same IR. Without the ``torch-mlir`` test extra they skip.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ir = pytest.importorskip("torch_mlir.ir", reason="the torch-mlir test extra is not installed")
passmanager = pytest.importorskip("torch_mlir.passmanager")


def upstream_print(
    text: str, *, generic: bool = True, pipeline: str | None = None, unregistered: bool = False
) -> str:
    """Parse ``text`` with upstream MLIR, optionally run a pipeline, and print it."""
    with ir.Context() as context:
        context.allow_unregistered_dialects = unregistered
        module = ir.Module.parse(text)
        if pipeline is not None:
            passmanager.PassManager.parse(pipeline).run(module.operation)
        return module.operation.get_asm(print_generic_op_form=generic)


def mlkit_print(
    text: str,
    *,
    generic: bool = False,
    pipeline: str | None = None,
    name: str = "<test>",
    unregistered: bool = False,
) -> str:
    """Parse ``text`` with mlkit, optionally run a pipeline, and print it."""
    from mlkit.context import make_context
    from mlkit.syntax.parser import parse_module
    from mlkit.pipeline.manager import PassRunner, PipelineBuilder
    from mlkit.plugins import default_registry
    from mlkit.syntax.printer import print_op
    from mlkit.diagnostics.verifier import verify_op_tree

    registry = default_registry()
    ctx = make_context(registry)
    ctx.allow_unregistered = unregistered
    module = parse_module(ctx, text, name)
    verify_op_tree(module)
    if pipeline is not None:
        pm = PipelineBuilder(registry).parse(pipeline, top_anchor="builtin.module")
        PassRunner(ctx).run(pm, module)
    return print_op(module, generic=generic)


EXPECTED_ERROR = re.compile(r"expected-error @\+1 \{\{(.*)\}\}")


def expected_error(chunk: str) -> str:
    """The message a ``--verify-diagnostics`` chunk expects on its next line."""
    match = EXPECTED_ERROR.search(chunk)
    assert match is not None, chunk
    return match.group(1)


def run_in_upstream(text: str, pipeline: str, arg: float) -> float:
    """Lower ``text`` by ``pipeline`` in upstream MLIR, JIT it and call
    ``@k(f64) -> f64`` (through its C interface) on ``arg``."""
    import ctypes

    from torch_mlir.execution_engine import ExecutionEngine

    # truncating f64 to f16 compiles to a call of libgcc_s's ``__truncdfhf2``,
    # which the ExecutionEngine resolves from the process
    ctypes.CDLL("libgcc_s.so.1", mode=ctypes.RTLD_GLOBAL)
    with ir.Context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(pipeline).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        arg_c, res = ctypes.c_double(arg), ctypes.c_double()
        engine.invoke("k", ctypes.pointer(arg_c), ctypes.pointer(res))
    return res.value


def lit_chunks(path: Path) -> list[str]:
    """The ``// -----`` chunks of a lit file, without its comment lines."""
    return [
        re.sub(r"^//.*$", "", chunk, flags=re.M).strip()
        for chunk in path.read_text().split("// -----")
    ]


def assert_pass_as_upstream(text: str, pipeline: str, *, unregistered: bool = False) -> None:
    """``pipeline`` leaves ``text`` as upstream's does (compared as upstream
    reads both)."""
    expected = upstream_print(text, generic=False, pipeline=pipeline, unregistered=unregistered)
    printed = mlkit_print(text, pipeline=pipeline, unregistered=unregistered)
    assert upstream_print(printed, generic=False, unregistered=unregistered) == expected, printed


def assert_upstream_reads_same_ir(path: Path | str) -> None:
    """mlkit's custom and generic output of a file parse in upstream MLIR as
    the same IR that upstream reads from the file itself."""
    text = Path(path).read_text()
    expected = upstream_print(text)
    for generic in (False, True):
        printed = mlkit_print(text, generic=generic, name=str(path))
        assert upstream_print(printed) == expected, (
            f"{path}: upstream reads mlkit's {'generic' if generic else 'custom'} "
            f"output differently:\n{printed}"
        )


DIALECT_ROOT = Path(__file__).parent.parent / "lit_tests" / "Dialect"


def dialect_differential_tests(name: str) -> tuple[Any, Any]:
    """The two tests every core dialect gets, for ``lit_tests/Dialect/<name>``:
    its ops file reads the same in upstream after mlkit prints it, and every
    chunk of its invalid file is rejected by upstream too. A test module
    binds them to module-level ``test_*`` names for pytest to collect."""
    ops = DIALECT_ROOT / name / "ops.mlir"
    chunks = (DIALECT_ROOT / name / "invalid.mlir").read_text().split("// -----")

    def test_upstream_reads_same_ir() -> None:
        assert_upstream_reads_same_ir(ops)

    @pytest.mark.parametrize("chunk", range(len(chunks)))
    def test_upstream_rejects_invalid_chunk(chunk: int) -> None:
        with ir.Context(), pytest.raises(ir.MLIRError):
            ir.Module.parse(chunks[chunk])

    return test_upstream_reads_same_ir, test_upstream_rejects_invalid_chunk
