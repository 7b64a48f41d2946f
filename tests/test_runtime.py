"""The built-in runtime (upstream's runner utils): the memref printers'
text against upstream's documented layout on hand-computed cases, the
verifiers, ``memrefCopy`` and the scalar printers run through the JIT, and a
differential check: programs lowered and run by upstream MLIR, with mlkit's
printers registered as its runner utils, print what ``mlkit-run`` prints."""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mlkit.runtime import is_builtin_library, provided_symbols
from mlkit.runtime.callbacks import verify_views
from mlkit.runtime.memref_format import format_memref, format_shape
from mlkit.runtime.memref_view import MemrefView, read_unranked

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = (
    "builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, "
    "lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, "
    "reconcile-unrealized-casts)"
)


def view_of(array: np.ndarray) -> MemrefView:
    """A descriptor over a numpy array (element strides, offset 0)."""
    strides = tuple(s // array.itemsize for s in array.strides)
    return MemrefView(array.ctypes.data, array.ctypes.data, 0, array.shape, strides)


def data_of(text: str) -> str:
    return text.split(" data = \n", 1)[1]


# -- printer layout: upstream's MemRefDataPrinter, computed by hand ----------------------
def test_header_and_rank2_layout() -> None:
    a = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    text = format_memref(view_of(a), "F32")
    assert re.fullmatch(
        r"Unranked Memref base@ = 0x[0-9a-f]+ rank = 2 offset = 0 sizes = \[2, 3\] "
        r"strides = \[3, 1\] data = \n\[\[1,   2,   3\],\n \[4,   5,   6\]\]\n",
        text,
    )


def test_rank1_rank0_rank3_layouts() -> None:
    assert data_of(format_memref(view_of(np.array([0.5, -1, 2], np.float32)), "F32")) == (
        "[0.5,  -1,  2]\n"
    )
    scalar = np.array(7.25, np.float64)
    text = format_memref(MemrefView(scalar.ctypes.data, scalar.ctypes.data, 0, (), ()), "F64")
    assert text.endswith("rank = 0 offset = 0 sizes = [] strides = [] data = \n[7.25]\n")
    cube = np.arange(8, dtype=np.int32).reshape(2, 2, 2)
    assert data_of(format_memref(view_of(cube), "I32")) == (
        "[[[0,    1],\n  [2,    3]],\n [[4,    5],\n  [6,    7]]]\n"
    )


def test_size_one_dimensions() -> None:
    a = np.array([[[1.5], [2.5]]], np.float32)
    assert data_of(format_memref(view_of(a), "F32")) == "[[[1.5],\n  [2.5]]]\n"


def test_strided_and_offset_views() -> None:
    base = np.arange(12, dtype=np.float32)
    # a transposed 3x2 window starting at element 1: strides [1, 4]
    view = MemrefView(base.ctypes.data, base.ctypes.data, 1, (3, 2), (1, 4))
    text = format_memref(view, "F32")
    assert "offset = 1 sizes = [3, 2] strides = [1, 4] data =" in text
    assert data_of(text) == "[[1,   5],\n [2,   6],\n [3,   7]]\n"
    reversed_view = MemrefView(base.ctypes.data, base.ctypes.data, 11, (4,), (-2,))
    assert data_of(format_memref(reversed_view, "F32")) == "[11,  9,  7,  5]\n"
    broadcast = MemrefView(base.ctypes.data, base.ctypes.data, 3, (2, 2), (0, 1))
    assert data_of(format_memref(broadcast, "F32")) == "[[3,   4],\n [3,   4]]\n"


def test_numbers_as_cpp_streams_print_them() -> None:
    values = np.array(
        [0.1, 1e-5, 123456789, 1e6, 999999.5, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1 / 3],
        np.float32,
    )
    assert data_of(format_memref(view_of(values), "F32")) == (
        "[0.1,  1e-05,  1.23457e+08,  1e+06,  1e+06,  -0,  inf,  -inf,  nan,  -nan,  0.333333]\n"
    )
    doubles = np.array([0.1, 2.5e-300, 1e100], np.float64)
    assert data_of(format_memref(view_of(doubles), "F64")) == "[0.1,  2.5e-300,  1e+100]\n"


def test_integer_index_complex_and_small_float_kinds() -> None:
    ints = np.array([-(2**63), 2**63 - 1], np.int64)
    assert data_of(format_memref(view_of(ints), "I64")) == (
        "[-9223372036854775808,  9223372036854775807]\n"
    )
    index = np.array([-1, 3], np.int64)  # index_type is uint64_t upstream
    assert data_of(format_memref(view_of(index), "Ind")) == "[18446744073709551615,  3]\n"
    shorts = np.array([-32768, 5], np.int16)
    assert data_of(format_memref(view_of(shorts), "I16")) == "[-32768,  5]\n"
    chars = np.array([72, 105], np.int8)  # int8_t goes to an ostream as a char
    assert data_of(format_memref(view_of(chars), "I8")) == "[H,  i]\n"
    complex_values = np.array([1 + 2j, -0.5 - 1e-7j], np.complex64)
    assert data_of(format_memref(view_of(complex_values), "C32")) == "[(1,2),  (-0.5,-1e-07)]\n"
    halves = np.array([0.5, 65504], np.float16)
    assert data_of(format_memref(view_of(halves), "F16")) == "[0.5,  65504]\n"
    bf16 = np.array([0x3FC0, 0xC000], np.uint16)  # 1.5, -2.0
    assert data_of(format_memref(view_of(bf16), "BF16")) == "[1.5,  -2]\n"


def test_shape_printer_and_null_pointer() -> None:
    view = MemrefView(0, 0, 0, (2, 0), (0, 1))
    assert format_shape(view) == (
        "Unranked Memref base@ = 0 rank = 2 offset = 0 sizes = [2, 0] strides = [0, 1]\n"
    )


def test_unranked_descriptor_reading() -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    ranked = (ctypes.c_int64 * 7)(a.ctypes.data, a.ctypes.data, 0, 2, 3, 3, 1)
    unranked = (ctypes.c_int64 * 2)(2, ctypes.addressof(ranked))
    view = read_unranked(ctypes.addressof(unranked))
    assert view.sizes == (2, 3) and view.strides == (3, 1)
    np.testing.assert_array_equal(view.array(np.dtype(np.float32)), a)


# -- verifyMemRef ---------------------------------------------------------------------------
def test_verify_counts_and_reports_like_upstream() -> None:
    a = np.array([1.0, 2.0, 3.0, np.nan], np.float32)
    b = np.array([1.0, 2.5, 3.0000001, np.nan], np.float32)
    errors, report = verify_views(view_of(a), view_of(b), "F32")
    assert errors == 2  # 2 != 2.5, and NaN never verifies
    assert report == "2 != 2.5 offset = 1\nnan != nan offset = 3\n"
    same = np.arange(4, dtype=np.int32)
    assert verify_views(view_of(same), view_of(same.copy()), "I32") == (0, "")
    errors, report = verify_views(view_of(same), view_of(same[:2].copy()), "I32")
    assert errors == -1 and "sizes = [4]" in report and "sizes = [2]" in report


def test_runner_utils_libraries_are_recognised() -> None:
    for path in ("libmlir_runner_utils.so", "/x/libmlir_c_runner_utils.so.20",
                 "lib/libmlir_c_runner_utils.dylib", "mlir_runner_utils.dll"):
        assert is_builtin_library(path), path
    assert not is_builtin_library("libmlir_async_runtime.so")
    assert not is_builtin_library("libm.so.6")
    names = provided_symbols()
    for name in ("printMemrefF32", "_mlir_ciface_printMemrefC64", "printMemrefShapeI32",
                 "_mlir_ciface_verifyMemRefF64", "memrefCopy", "rtclock", "printFlops",
                 "_mlir_ciface_nanoTime", "printCString", "printMemrefBF16"):
        assert name in names, name


# -- through the JIT ---------------------------------------------------------------------------
def compile_llvm(text: str):
    from mlkit.context import make_context
    from mlkit.execution.jit import jit_compile
    from mlkit.syntax.parser import parse_module

    return jit_compile(parse_module(make_context(), text, "<test>"))


COPY_PROGRAM = """
llvm.func @memrefCopy(i64, !llvm.ptr, !llvm.ptr)
llvm.func @copy(%size: i64, %src: !llvm.ptr, %dst: !llvm.ptr) {
  llvm.call @memrefCopy(%size, %src, %dst) : (i64, !llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
"""


def unranked(array: np.ndarray) -> tuple[ctypes.Array, ctypes.Array]:
    rank = array.ndim
    strides = [s // array.itemsize for s in array.strides]
    ranked = (ctypes.c_int64 * (3 + 2 * rank))(
        array.ctypes.data, array.ctypes.data, 0, *array.shape, *strides
    )
    return ranked, (ctypes.c_int64 * 2)(rank, ctypes.addressof(ranked))


@pytest.mark.parametrize(
    "make_source",
    [
        lambda: np.arange(24, dtype=np.float32).reshape(2, 3, 4),  # dense: one memcpy
        lambda: np.arange(24, dtype=np.float64).reshape(4, 6).T,  # transposed
        lambda: np.arange(60, dtype=np.int16).reshape(6, 10)[1:5:2, ::3],  # sliced
        lambda: np.array(5, dtype=np.int64),  # rank 0
        lambda: np.zeros((3, 0), np.float32),  # empty
    ],
)
def test_memref_copy(make_source) -> None:
    compiled = compile_llvm(COPY_PROGRAM)
    copy = compiled.ctypes_function("copy", None, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)
    source = make_source()
    target = np.full(source.shape, -1, source.dtype)
    keep_src, src = unranked(source)
    keep_dst, dst = unranked(target)
    copy(source.itemsize, ctypes.addressof(src), ctypes.addressof(dst))
    np.testing.assert_array_equal(target, source)


def test_scalar_printers_and_memref_printer_interleave(capfd: pytest.CaptureFixture[str]) -> None:
    compiled = compile_llvm("""
llvm.func @printF32(f32)
llvm.func @printI64(i64)
llvm.func @printNewline()
llvm.func @printMemrefI32(i64, !llvm.ptr)
llvm.func @puts(!llvm.ptr) -> i32
llvm.mlir.global internal constant @msg("after\\00") {addr_space = 0 : i32}
llvm.func @show(%desc: !llvm.ptr) {
  %0 = llvm.mlir.constant(0.1 : f32) : f32
  %1 = llvm.mlir.constant(1 : i64) : i64
  %2 = llvm.mlir.addressof @msg : !llvm.ptr
  llvm.call @printF32(%0) : (f32) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.call @printMemrefI32(%1, %desc) : (i64, !llvm.ptr) -> ()
  %3 = llvm.call @puts(%2) : (!llvm.ptr) -> i32
  llvm.call @printI64(%1) : (i64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}
""")
    data = np.array([3, -4], np.int32)
    ranked, _ = unranked(data)
    compiled.ctypes_function("show", None, ctypes.c_void_p)(ctypes.addressof(ranked))
    from mlkit.runtime.callbacks import flush_c_stdio

    flush_c_stdio()
    out = capfd.readouterr().out
    assert re.fullmatch(
        r"0.1\nUnranked Memref base@ = 0x[0-9a-f]+ rank = 1 offset = 0 sizes = \[2\] "
        r"strides = \[1\] data = \n\[3,  -4\]\nafter\n1\n",
        out,
    )


# -- differential: upstream's lowering and ExecutionEngine, mlkit's runner utils ---------
@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)
def numpy_memref_copy(element_size: int, source: int, target: int) -> None:
    """memrefCopy for upstream's ExecutionEngine in the differential runs."""
    dtype = np.dtype(f"V{element_size}")
    src, dst = read_unranked(source), read_unranked(target)
    np.copyto(dst.array(dtype), src.array(dtype))


DIFFERENTIAL = ["matmul", "conv-2d", "reduce", "transpose", "slices", "pad", "dynamic-matmul",
                "math-ops", "special-floats", "batch-matmul"]


def _strip(text: str) -> str:
    text = re.sub(r"base@ = 0x[0-9a-f]+", "base@ = ADDR", text)
    return "\n".join(line for line in text.splitlines() if not line.startswith("//"))


@pytest.mark.parametrize("name", DIFFERENTIAL)
def test_upstream_execution_engine_prints_the_same(name: str) -> None:
    pytest.importorskip("torch_mlir.execution_engine")
    source = ROOT / "lit_tests" / "Integration" / f"{name}.mlir"
    ours = subprocess.run(
        f"mlkit-opt {source} -p '{PIPELINE}' | mlkit-run -e main -entry-point-result=void",
        shell=True, capture_output=True, text=True, check=True,
        cwd=ROOT, executable="/bin/bash",
        env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"},
    ).stdout
    # upstream's run happens in a child so its stdout can be captured cleanly
    script = f"""
import ctypes, sys
sys.path.insert(0, {str(ROOT / 'tests')!r})
from torch_mlir import ir, passmanager
from torch_mlir.execution_engine import ExecutionEngine
from mlkit.runtime.callbacks import CALLBACK_FUNCTIONS, callback_address, flush_c_stdio
from test_runtime import numpy_memref_copy
text = open({str(source)!r}).read().replace(
    "func.func @main()", "func.func @main() attributes {{llvm.emit_c_interface}}")
with ir.Context():
    module = ir.Module.parse(text)
    passmanager.PassManager.parse({PIPELINE!r}).run(module.operation)
    engine = ExecutionEngine(module, opt_level=0)
    for symbol in sorted(CALLBACK_FUNCTIONS):
        if symbol in str(module):
            engine.raw_register_runtime(symbol, ctypes.c_void_p(callback_address(symbol)))
    if "memrefCopy" in str(module):  # mlkit's is LLVM IR; upstream gets a numpy one
        engine.raw_register_runtime("memrefCopy", ctypes.cast(numpy_memref_copy, ctypes.c_void_p))
    engine.invoke("main")
flush_c_stdio()
"""
    upstream = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert upstream.returncode == 0, upstream.stderr
    theirs = upstream.stdout
    assert theirs.strip(), "upstream printed nothing"
    assert _strip(ours) == _strip(theirs)
