"""``convert-math-to-llvm`` against upstream MLIR: the same IR, and the same
numbers when both lowerings run in upstream's ExecutionEngine."""

from __future__ import annotations

import ctypes
import math
import struct

import pytest
from upstream_oracle import ir, mlkit_print, upstream_print

PASS = "builtin.module(convert-math-to-llvm)"
NORMALIZE = "builtin.module(canonicalize,cse)"

UNARY_F = ["sqrt", "exp", "exp2", "log", "log2", "log10", "absf", "floor", "ceil", "round",
           "roundeven", "trunc", "sin", "cos", "tan", "tanh", "asin", "acos", "atan", "sinh",
           "cosh", "rsqrt", "expm1", "log1p"]  # fmt: skip
BINARY_F = ["powf", "copysign", "atan2"]
UNARY_I = ["ctlz", "cttz", "ctpop", "absi"]


def _program(ftype: str, itype: str) -> str:
    """A function applying every lowered math op to values of these types and
    returning every result, so canonicalization keeps them all."""
    lines, results, types = [], [], []

    def add(text: str, type: str) -> None:
        name = f"%r{len(results)}"
        lines.append(f"  {name} = {text} : {type}")
        results.append(name)
        types.append(type)

    for op in UNARY_F:
        add(f"math.{op} %a", ftype)
    for op in BINARY_F:
        add(f"math.{op} %a, %b", ftype)
    add("math.fma %a, %b, %a", ftype)
    add("math.exp %a fastmath<nnan, afn>", ftype)
    add("math.rsqrt %b fastmath<fast>", ftype)
    for op in UNARY_I:
        add(f"math.{op} %i", itype)
    if ftype.count("x") <= 1:  # n-D: upstream's is.fpclass fails, and mlkit leaves sincos
        bool_type = ftype.replace("f32", "i1").replace("f64", "i1").replace("f16", "i1")
        for op in ("isnan", "isfinite"):
            lines.append(f"  %r{len(results)} = math.{op} %a : {ftype}")
            results.append(f"%r{len(results)}")
            types.append(bool_type)
        lines.append(f"  %sin, %cos = math.sincos %a : {ftype}")
        results += ["%sin", "%cos"]
        types += [ftype, ftype]
    body = "\n".join(lines)
    return (
        f"func.func @f(%a: {ftype}, %b: {ftype}, %i: {itype}) -> ({', '.join(types)}) {{\n"
        f"{body}\n  return {', '.join(results)} : {', '.join(types)}\n}}\n"
    )


@pytest.mark.parametrize(
    ("ftype", "itype"),
    [("f32", "i32"), ("f64", "i64"), ("f16", "i8"), ("vector<4xf32>", "vector<4xi16>")],
)
def test_same_ir_as_upstream(ftype: str, itype: str) -> None:
    """Scalars and 1-D vectors: exactly upstream's output."""
    text = _program(ftype, itype)
    ours = mlkit_print(text, pipeline=PASS)
    assert upstream_print(ours) == upstream_print(text, pipeline=PASS)


@pytest.mark.parametrize(("ftype", "itype"), [("vector<2x4xf32>", "vector<2x4xi32>"),
                                              ("vector<2x1x3xf64>", "vector<3x1x2xi64>")])
def test_nd_vectors_same_as_upstream_after_cse(ftype: str, itype: str) -> None:
    """n-D vectors: the same IR up to where the operand casts sit."""
    text = _program(ftype, itype)
    ours = upstream_print(mlkit_print(text, pipeline=PASS), pipeline=NORMALIZE)
    theirs = upstream_print(upstream_print(text, pipeline=PASS), pipeline=NORMALIZE)
    assert ours == theirs
    assert "math." not in ours


def test_fpowi_and_log1p_option() -> None:
    text = (
        "func.func @f(%a: f32, %n: i32) -> (f32, f32) {\n"
        "  %0 = math.fpowi %a, %n fastmath<fast> : f32, i32\n"
        "  %1 = math.log1p %a : f32\n"
        "  return %0, %1 : f32, f32\n}\n"
    )
    for pipeline in (PASS, "builtin.module(convert-math-to-llvm{approximate-log1p=false})"):
        ours = mlkit_print(text, pipeline=pipeline)
        assert upstream_print(ours) == upstream_print(text, pipeline=pipeline)
    assert "math.log1p" in mlkit_print(text, pipeline="builtin.module(convert-math-to-llvm{approximate-log1p=false})")


def test_ops_without_intrinsic_stay() -> None:
    text = (
        "func.func @f(%a: f32, %i: i32) -> (f32, f32, i32) {\n"
        "  %0 = math.erf %a : f32\n  %1 = math.cbrt %a : f32\n  %2 = math.ipowi %i, %i : i32\n"
        "  return %0, %1, %2 : f32, f32, i32\n}\n"
    )
    ours = mlkit_print(text, pipeline=PASS)
    assert upstream_print(ours) == upstream_print(text, pipeline=PASS)
    assert "math.erf" in ours and "math.cbrt" in ours and "math.ipowi" in ours


# ---- semantics: run both lowerings ------------------------------------------

N = 8
F_OPS = {  # op -> reference function, for a sanity check against Python's math
    "sqrt": math.sqrt, "exp": math.exp, "log": math.log, "log10": math.log10,
    "tanh": math.tanh, "sin": math.sin, "cos": math.cos, "atan": math.atan,
    "floor": math.floor, "roundeven": lambda x: float(round(x)), "rsqrt": lambda x: 1 / math.sqrt(x),
    "expm1": math.expm1, "log1p": math.log1p, "cosh": math.cosh, "absf": abs,
}  # fmt: skip
INPUTS = [0.25, 0.5, 1.0, 1.5, 2.5, 3.0, 7.75, 10.0]


def _kernel(op: str, shape: str) -> str:
    """An llvm.func reading N floats through a pointer, applying ``op`` on a
    vector of the given shape, and writing the result."""
    dims = [int(d) for d in shape.split("x")]
    if len(dims) == 1:
        llvm_type, load_cast, store_cast = f"vector<{N}xf32>", "", ""
        value, out = "%v", "%r"
    else:
        llvm_type = f"!llvm.array<{dims[0]} x vector<{dims[1]}xf32>>"
        load_cast = f"  %vv = builtin.unrealized_conversion_cast %v : {llvm_type} to vector<{shape}xf32>\n"
        store_cast = f"  %rr = builtin.unrealized_conversion_cast %r : vector<{shape}xf32> to {llvm_type}\n"
        value, out = "%vv", "%rr"
    return (
        f"llvm.func @_mlir_ciface_k(%p: !llvm.ptr, %q: !llvm.ptr) {{\n"
        f"  %v = llvm.load %p {{alignment = 4 : i64}} : !llvm.ptr -> {llvm_type}\n{load_cast}"
        f"  %r = math.{op} {value} : vector<{shape}xf32>\n{store_cast}"
        f"  llvm.store {out}, %q {{alignment = 4 : i64}} : {llvm_type}, !llvm.ptr\n  llvm.return\n}}\n"
    )


def _run(llvm_text: str) -> list[float]:
    from torch_mlir import passmanager
    from torch_mlir.execution_engine import ExecutionEngine

    with ir.Context():
        module = ir.Module.parse(llvm_text)
        passmanager.PassManager.parse("builtin.module(reconcile-unrealized-casts)").run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        src = (ctypes.c_float * N)(*INPUTS)
        dst = (ctypes.c_float * N)()
        engine.invoke("k", ctypes.pointer(ctypes.c_void_p(ctypes.addressof(src))),
                      ctypes.pointer(ctypes.c_void_p(ctypes.addressof(dst))))  # fmt: skip
        return list(dst)


def _bits(values: list[float]) -> list[int]:
    return [struct.unpack("<I", struct.pack("<f", v))[0] for v in values]


@pytest.mark.parametrize("shape", ["8", "2x4"])
@pytest.mark.parametrize("op", sorted(F_OPS))
def test_runs_like_upstream(op: str, shape: str) -> None:
    """Both lowerings compute bit-identical results, close to Python's math."""
    text = _kernel(op, shape)
    ours = mlkit_print(text, pipeline=PASS)
    assert "math." not in ours
    got = _run(ours)
    assert _bits(got) == _bits(_run(upstream_print(text, pipeline=PASS)))
    for x, y in zip(INPUTS, got):
        assert y == pytest.approx(F_OPS[op](x), rel=1e-5, abs=1e-6)


def test_classification_and_sincos_run_as_numpy() -> None:
    """isnan/isfinite (llvm.intr.is.fpclass) and sincos (llvm.intr.sincos)
    through lower-to-cpu, on an odd size with NaN and infinities."""
    import numpy as np

    import mlkit

    kernel = mlkit.compile("""
func.func @f(%x: tensor<37xf32>) -> (tensor<37xi1>, tensor<37xi1>, tensor<37xf32>, tensor<37xf32>) {
  %n = math.isnan %x : tensor<37xf32>
  %f = math.isfinite %x : tensor<37xf32>
  %s, %c = math.sincos %x : tensor<37xf32>
  return %n, %f, %s, %c : tensor<37xi1>, tensor<37xi1>, tensor<37xf32>, tensor<37xf32>
}""")
    x = np.linspace(-3, 3, 37).astype(np.float32)
    x[3], x[7], x[9] = np.nan, np.inf, -np.inf
    isnan, isfinite, sin, cos = kernel.f(x)
    np.testing.assert_array_equal(isnan, np.isnan(x))
    np.testing.assert_array_equal(isfinite, np.isfinite(x))
    finite = np.isfinite(x)
    np.testing.assert_allclose(sin[finite], np.sin(x[finite]), atol=2e-6)
    np.testing.assert_allclose(cos[finite], np.cos(x[finite]), atol=2e-6)
