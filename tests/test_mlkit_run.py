"""mlkit-run's command line and errors, in process (``mlkit.tools.run.run``)
and as the installed console script."""

from __future__ import annotations

import ctypes.util
import io
import subprocess
import sys
from pathlib import Path

import pytest

from mlkit.driver.run import format_result
from mlkit.tools.run import parse_args, run

PROGRAM = """
llvm.func @answer() -> i32 {
  %0 = llvm.mlir.constant(42 : i32) : i32
  llvm.return %0 : i32
}
llvm.func @f() -> f32 {
  %0 = llvm.mlir.constant(-1.5 : f32) : f32
  llvm.return %0 : f32
}
"""


def run_tool(tmp_path: Path, argv: list[str], text: str = PROGRAM) -> tuple[int, str, str]:
    path = tmp_path / "input.mlir"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    code = run([*argv, str(path)], out, err)
    return code, out.getvalue(), err.getvalue()


def test_flags_in_both_spellings() -> None:
    opts, _ = parse_args(["-e", "g", "-entry-point-result=i64", "-O3", "-shared-libs=a.so,b.so",
                          "--shared-libs", "c.so", "--march=x86-64", "-mcpu=native", "in.mlir"])
    assert (opts.entry, opts.result, opts.input) == ("g", "i64", "in.mlir")
    assert opts.jit.opt_level == 3 and opts.jit.shared_libs == ("a.so", "b.so", "c.so")
    assert (opts.jit.march, opts.jit.cpu) == ("x86-64", "native")
    opts, _ = parse_args(["--entry-point=h", "--entry-point-result", "void"])
    assert (opts.entry, opts.result, opts.input, opts.jit.opt_level) == ("h", "void", "-", None)


def test_results_print_as_mlir_runner_does(tmp_path: Path) -> None:
    assert run_tool(tmp_path, ["-e", "answer", "-entry-point-result=i32"]) == (0, "42\n", "")
    assert run_tool(tmp_path, ["-e=f", "-O2"]) == (0, "-1.500000e+00\n", "")
    assert format_result(float("inf"), "f64") == "INF\n"
    assert format_result(float("nan"), "f32") == "nan\n"


@pytest.mark.parametrize(
    "argv, text, message",
    [
        (["-e", "nope", "-entry-point-result=void"], PROGRAM, "error: entry point 'nope' not found"),
        (["-e", "answer", "-entry-point-result=f64"], PROGRAM,
         "entry point 'answer' returns 'i32', but -entry-point-result=f64 expects a single f64"),
        (["-e", "g", "-entry-point-result=void"],
         "llvm.func @g(%a: i64) {\n  llvm.return\n}\n", "takes 1 argument"),
        (["-e", "g", "-entry-point-result=void"],
         "llvm.func @missing_symbol()\nllvm.func @g() {\n"
         "  llvm.call @missing_symbol() : () -> ()\n  llvm.return\n}\n",
         "input.mlir:1:1: error: unresolved symbol 'missing_symbol'"),
        (["-e", "g", "-entry-point-result=void"], "func.func @g() {\n  return\n}\n",
         "input.mlir:1:1: error: cannot JIT 'func.func': it is not in the llvm dialect"),
        (["-entry-point-result=i8"], PROGRAM, "invalid -entry-point-result 'i8'"),
        (["-shared-libs=/no/such/lib.so", "-e", "answer", "-entry-point-result=i32"], PROGRAM,
         "cannot load shared library '/no/such/lib.so'"),
    ],
)
def test_errors_are_one_diagnostic_and_exit_1(tmp_path: Path, argv: list[str], text: str,
                                              message: str) -> None:
    code, out, err = run_tool(tmp_path, argv, text)
    assert code == 1 and out == ""
    assert message in err.splitlines()[0]
    assert "Traceback" not in err


def test_real_shared_library_is_loaded_and_runner_utils_skipped(tmp_path: Path) -> None:
    libm = ctypes.util.find_library("m")
    if libm is None:
        pytest.skip("no libm to load")
    text = """
llvm.func @cbrt(f64) -> f64
llvm.func @main() -> f64 {
  %0 = llvm.mlir.constant(27.0 : f64) : f64
  %1 = llvm.call @cbrt(%0) : (f64) -> f64
  llvm.return %1 : f64
}
"""
    argv = ["-entry-point-result=f64", f"-shared-libs={libm},libmlir_runner_utils.so,"
            "/opt/llvm/lib/libmlir_c_runner_utils.so"]
    assert run_tool(tmp_path, argv, text) == (0, "3.000000e+00\n", "")


def test_console_script_pipeline_from_stdin() -> None:
    lowered = subprocess.run(
        [str(Path(sys.executable).parent / "mlkit-opt"), "-", "-p",
         "builtin.module(convert-to-llvm, reconcile-unrealized-casts)"],
        input="func.func @main() -> i64 {\n  %c = arith.constant 7 : i64\n"
              "  %d = arith.muli %c, %c : i64\n  return %d : i64\n}\n",
        capture_output=True, text=True, check=True,
    ).stdout
    result = subprocess.run(
        [str(Path(sys.executable).parent / "mlkit-run"), "-entry-point-result=i64"],
        input=lowered, capture_output=True, text=True,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "49\n", "")
