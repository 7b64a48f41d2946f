"""``convert-math-to-libm`` against upstream MLIR: the same IR, the same
failures, and libm's numbers when the calls run in upstream's ExecutionEngine."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from mlkit.passes.conversion.math_to_libm import LIBM_NAMES
from upstream_oracle import ir, mlkit_print, run_in_upstream, upstream_print

PASS = "builtin.module(convert-math-to-libm)"
LIT = Path(__file__).parent.parent / "lit_tests" / "Conversion" / "MathToLibm"
BINARY = {"math.atan2", "math.powf"}
TERNARY = {"math.fma"}


def _chunks(path: Path) -> list[str]:
    return [c for c in path.read_text().split("// -----") if "func.func" in c]


def _every_op(type: str) -> str:
    lines, names = [], []
    for i, op in enumerate(sorted(LIBM_NAMES)):
        arity = 3 if op in TERNARY else 2 if op in BINARY else 1
        lines.append(f"  %r{i} = {op} {', '.join(['%a'] * arity)} : {type}")
        names.append(f"%r{i}")
    return (
        f"func.func @f(%a: {type}) -> ({', '.join([type] * len(names))}) {{\n" + "\n".join(lines)
        + f"\n  return {', '.join(names)} : {', '.join([type] * len(names))}\n}}\n"
    )


@pytest.mark.parametrize("type", ["f32", "f64", "f16", "bf16", "vector<2xf32>", "vector<2x1xf64>", "vector<f32>"])
def test_every_op_same_as_upstream(type: str) -> None:
    text = _every_op(type)
    ours = mlkit_print(text, pipeline=PASS)
    assert upstream_print(ours) == upstream_print(text, pipeline=PASS)
    assert "math." not in ours


@pytest.mark.parametrize("chunk", _chunks(LIT / "convert-to-libm.mlir"))
def test_lit_chunks_same_as_upstream(chunk: str) -> None:
    ours = mlkit_print(chunk, pipeline=PASS)
    assert upstream_print(ours) == upstream_print(chunk, pipeline=PASS)


@pytest.mark.parametrize("chunk", _chunks(LIT / "invalid.mlir"))
def test_invalid_fails_in_both(chunk: str) -> None:
    from mlkit.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError, match="failed to legalize operation"):
        mlkit_print(chunk, pipeline=PASS)
    if "vector<[" in chunk:
        return  # upstream unrolls scalable vectors as if fixed; mlkit refuses
    with pytest.raises(Exception, match="failed to legalize operation"):
        upstream_print(chunk, pipeline=PASS)


CASES = [  # (op, type, argument, reference)
    ("tanh", "f32", 0.5, math.tanh(0.5)),
    ("erf", "f64", 0.75, math.erf(0.75)),
    ("cbrt", "f32", 27.0, 3.0),
    ("atan", "f64", 2.0, math.atan(2.0)),
    ("expm1", "f16", 0.5, math.expm1(0.5)),
    ("asinh", "f64", 1.5, math.asinh(1.5)),
]


# upstream's conversions that take the libm calls on to the llvm dialect
LOWER = "convert-vector-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts"


@pytest.mark.parametrize(("op", "type", "arg", "expected"), CASES)
def test_calls_compute_libm(op: str, type: str, arg: float, expected: float) -> None:
    """mlkit's calls, lowered on by upstream's func/arith/vector conversions,
    run in the ExecutionEngine (which resolves libm from the process), give
    what upstream's own convert-math-to-libm gives, and libm's number."""
    wide = type == "f64"
    x, r = ("%a", "%s") if wide else ("%x", "%d")
    text = "\n".join([
        "func.func @k(%a: f64) -> f64 attributes {llvm.emit_c_interface} {",
        "" if wide else f"  %x = arith.truncf %a : f64 to {type}",
        f"  %v = vector.broadcast {x} : {type} to vector<2x{type}>",
        f"  %r = math.{op} %v : vector<2x{type}>",
        f"  %s = vector.extract %r[1] : {type} from vector<2x{type}>",
        "" if wide else f"  %d = arith.extf %s : {type} to f64",
        f"  return {r} : f64",
        "}",
    ])  # fmt: skip
    lowered = mlkit_print(text, pipeline=PASS)
    assert "math." not in lowered
    ours = run_in_upstream(lowered, f"builtin.module({LOWER})", arg)
    theirs = run_in_upstream(text, f"builtin.module(convert-math-to-libm,{LOWER})", arg)
    assert ours == theirs
    tolerance = 2e-3 if type == "f16" else 1e-6
    assert ours == pytest.approx(expected, rel=tolerance)
