"""Bad input that used to pass, crash or abort now fails with a located or
usage error (exit 1): what the lit tests in
``lit_tests/VerifyDiagnostics/reliability-*.mlir`` cannot express, since it
needs a pass option, a target option, a child process or IR no parser builds.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mlkit.tools.opt import run

LOCATED = re.compile(r"^[^\n:]+:\d+:\d+: error: ")

PROGRAM = """\
func.func @f(%a: i32) -> i32 {
  return %a : i32
}
"""


def opt(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = run(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture
def src(tmp_path: Path) -> Path:
    path = tmp_path / "in.mlir"
    path.write_text(PROGRAM)
    return path


def assert_clean_failure(rc: int, out: str, err: str) -> None:
    assert rc == 1, err
    assert out == ""
    assert "Traceback" not in err and "internal error" not in err


# --- -inline's unsigned option ---------------------------------------------------------


@pytest.mark.parametrize(
    "pipeline",
    ["-inline=max-iterations=-5", "-p=builtin.module(inline{max-iterations=-5})"],
)
def test_inline_rejects_negative_max_iterations(src: Path, pipeline: str) -> None:
    rc, out, err = opt(str(src), pipeline)
    assert_clean_failure(rc, out, err)
    assert err.startswith("<pass-pipeline>:1:"), err
    assert "for the --max-iterations option: '-5' value invalid for uint argument!" in err


def test_inline_takes_zero_max_iterations(src: Path) -> None:
    rc, _, err = opt(str(src), "-p=builtin.module(inline{max-iterations=0})")
    assert (rc, err) == (0, "")


# --- --mcpu that LLVM would abort on ---------------------------------------------------


def _opt_process(*argv: str) -> subprocess.CompletedProcess[str]:
    """mlkit-opt in a child process: should the CPU check regress, LLVM's fatal
    error ends that process, not the test run."""
    code = "import sys; from mlkit.tools.opt import main; sys.argv[0] = 'mlkit-opt'; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    ("cpu", "message"),
    [
        ("no-such-cpu", "--mcpu: 'no-such-cpu' is not a recognized processor for target"),
        ("i386", "64-bit code requested on a subtarget that doesn't support it!"),
    ],
)
def test_mcpu_llvm_cannot_use_is_a_located_error(
    src: Path, tmp_path: Path, cpu: str, message: str
) -> None:
    out = tmp_path / "out.o"
    proc = _opt_process(
        str(src), "-p=builtin.module(lower-to-cpu)", "--emit=obj",
        "--mtriple=x86_64-unknown-linux-gnu", f"--mcpu={cpu}", "-o", str(out),
    )
    assert proc.returncode == 1, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert LOCATED.match(first), proc.stderr
    assert message in first
    assert "LLVM ERROR" not in proc.stderr
    assert "not a recognized processor for this target (ignoring processor)" not in proc.stderr


def test_mcpu_llvm_knows_still_emits(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.s"
    rc, _, err = opt(
        str(src), "-p=builtin.module(lower-to-cpu)", "--emit=asm",
        "--mtriple=x86_64-unknown-linux-gnu", "--mcpu=skylake", "-o", str(out),
    )
    assert (rc, err) == (0, "")
    assert "f:" in out.read_text()


def test_check_cpu() -> None:
    from mlkit.target.machine import check_cpu

    assert check_cpu("x86_64-unknown-linux-gnu", "x86-64-v3") is None
    assert check_cpu("aarch64-linux-gnu", "cortex-a72") is None
    problem = check_cpu("aarch64-linux-gnu", "skylake")
    assert problem == (
        "--mcpu: 'skylake' is not a recognized processor for target 'aarch64-linux-gnu'"
    )


# --- gpu-kernel-outlining with launch sizes past int32 --------------------------------

LAUNCH = """\
func.func @f() {{
  %c1 = arith.constant 1 : index
  %n = arith.constant {size} : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %c1) {{
    gpu.terminator
  }}
  return
}}
"""


@pytest.mark.parametrize("size", [2**32, 2**40, -1])
def test_outlining_sizes_past_uint32_give_no_hint(tmp_path: Path, size: int) -> None:
    path = tmp_path / "launch.mlir"
    path.write_text(LAUNCH.format(size=size))
    rc, out, err = opt(str(path), "-gpu-kernel-outlining")
    assert (rc, err) == (0, "")
    assert "known_block_size" not in out
    assert "known_grid_size = array<i32: 1, 1, 1>" in out


def test_outlining_size_in_the_int32_sign_bit_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "launch.mlir"
    path.write_text(LAUNCH.format(size=3_000_000_000))
    rc, out, err = opt(str(path), "-gpu-kernel-outlining")
    assert_clean_failure(rc, out, err)
    assert err.startswith(f"{path}:4:3: error: 'gpu.func' op attribute 'known_block_size'")


# --- convert-linalg-to-loops on an unverified linalg.index -----------------------------

GENERIC = """\
func.func @f(%a: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%a : memref<4xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    linalg.yield %x : f32
  }
  return
}
"""


@pytest.mark.parametrize("dim", [-1, 1])
def test_linalg_to_loops_never_picks_a_loop_from_the_end(dim: int) -> None:
    """A pass may build a ``linalg.index`` nothing verified; the lowering then
    fails at it rather than index its loops with a negative Python index."""
    from xdsl.dialects.builtin import IntegerAttr, i64

    from mlkit.context import make_context
    from mlkit.diagnostics import DiagnosticError
    from mlkit.dialects.linalg.structural import IndexOp
    from mlkit.pipeline.manager import PassRunner, PipelineBuilder
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module

    registry = default_registry()
    ctx = make_context(registry)
    module = parse_module(ctx, GENERIC, "in.mlir")
    for op in module.walk():
        if isinstance(op, IndexOp):
            op.properties["dim"] = IntegerAttr(dim, i64)
    pipeline = PipelineBuilder(registry).parse(
        "builtin.module(convert-linalg-to-loops)", top_anchor="builtin.module"
    )
    with pytest.raises(DiagnosticError) as info:
        PassRunner(ctx).run(pipeline, module)
    diag = info.value.diagnostic
    assert (str(diag.loc), diag.message) == (
        "in.mlir:4:5",
        f"'linalg.index' op expected dim ({dim}) to be lower than the number of loops (1) "
        "of the enclosing LinalgOp",
    )


@pytest.mark.parametrize(
    ("message", "line"),
    [
        (
            "operand 'rhs' at position 1 does not verify:\nattribute f32 expected from variable 'T', but got f64\n",
            "operand 'rhs' at position 1 does not verify: attribute f32 expected from variable 'T', but got f64",
        ),
        ("expects a 2-D tensor\nmore detail\n", "expects a 2-D tensor"),
        ("ends in a colon:", "ends in a colon:"),
        ("  \n", "verification failed"),
    ],
)
def test_diagnostic_line_keeps_the_reason_after_a_colon(message: str, line: str) -> None:
    """xDSL puts the reason of a constraint failure on the line after ``...:``;
    the one-line diagnostic keeps it rather than ending at the colon."""
    from mlkit.diagnostics.verifier import first_line

    assert first_line(message, "verification failed") == line
