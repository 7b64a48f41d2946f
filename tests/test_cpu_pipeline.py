"""Issue 4's "done when": tensor/linalg programs of the kind upstream's
``mlir/test/Integration/Dialect/Linalg/CPU`` tests use go to LLVM IR through
mlkit's passes alone, and compute what numpy computes.

Each program is a lit test in ``lit_tests/Conversion/Pipelines/cpu-*.mlir``
(plus the README's example).
For every pipeline below (upstream's CPU pipeline, its affine-loops and
explicit-conversions variants, and mlkit's ``lower-to-cpu``) the program is
lowered by mlkit, then:

- only llvm-dialect ops are left, and upstream MLIR parses the output;
- mlkit translates it to LLVM IR that LLVM (llvmlite) verifies, from the
  module in memory as ``mlkit-opt -p ... --emit=llvm`` does;
- upstream's ExecutionEngine runs mlkit's llvm-dialect output, and llvmlite's
  MCJIT runs mlkit's LLVM IR; ``printMemrefF32`` and ``memrefCopy`` are
  supplied from Python (the wheel ships no runner-utils library), the first
  recording what it is asked to print; entry points with arguments use
  ``llvm.emit_c_interface`` and numpy arrays as memref descriptors;
- the printed arrays and out-parameters equal numpy's results.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from upstream_oracle import ir
from xdsl.dialects.builtin import ModuleOp

from mlkit.runtime import threads
from mlkit.syntax.printer import print_op

ExecutionEngine = pytest.importorskip("torch_mlir.execution_engine").ExecutionEngine
runtime = pytest.importorskip("torch_mlir.runtime")

import llvmlite.binding as llvm_binding  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "lit_tests" / "Conversion" / "Pipelines"
EXAMPLE = ROOT / "examples" / "dense-layer.mlir"  # the README's first command lowers it

_TAIL = "lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine"
PIPELINES = {
    "upstream": (
        "builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, "
        f"{_TAIL}, convert-to-llvm, reconcile-unrealized-casts)"
    ),
    "affine-loops": (
        "builtin.module(one-shot-bufferize{bufferize-function-boundaries}, "
        f"convert-linalg-to-affine-loops, {_TAIL}, convert-to-llvm, reconcile-unrealized-casts)"
    ),
    "explicit": (
        "builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, "
        f"{_TAIL}, convert-math-to-llvm, convert-arith-to-llvm, convert-func-to-llvm, "
        "finalize-memref-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts)"
    ),
    "lower-to-cpu": "builtin.module(lower-to-cpu)",
    # upstream's engine has no OpenMP runtime here: the threaded IR runs on mlkit's
    # JIT alone, and this same pipeline without threads on upstream's as well
    "lower-to-cpu-serial": "builtin.module(lower-to-cpu{threads=false})",
    "lower-to-cpu-affine": "builtin.module(lower-to-cpu{affine-loops function-boundary-type-conversion=infer-layout-map})",
}
MLKIT_ONLY = ("lower-to-cpu", "lower-to-cpu-affine")


# -- the runtime the programs call ------------------------------------------------------


def _view(descriptor: int, rank: int, itemsize: int) -> tuple[int, list[int], list[int]]:
    """(address of element 0, sizes, strides in elements) of a ranked descriptor."""
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(descriptor)
    base = words[1] + words[2] * itemsize
    return base, list(words[3 : 3 + rank]), list(words[3 + rank : 3 + 2 * rank])


_printed: list[np.ndarray] = []


@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p)
def _print_memref_f32(rank: int, descriptor: int) -> None:
    base, sizes, strides = _view(descriptor, rank, 4)
    out = np.empty(sizes, np.float32)
    for index in np.ndindex(*sizes):
        at = base + 4 * sum(i * s for i, s in zip(index, strides))
        out[index] = ctypes.c_float.from_address(at).value
    _printed.append(out)


class _Unranked(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p)]


@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.POINTER(_Unranked), ctypes.POINTER(_Unranked))
def _memref_copy(elem: int, src: ctypes.POINTER(_Unranked), dst: ctypes.POINTER(_Unranked)) -> None:  # type: ignore[valid-type]
    rank = src.contents.rank
    s_base, sizes, s_strides = _view(src.contents.descriptor, rank, elem)
    d_base, _, d_strides = _view(dst.contents.descriptor, rank, elem)
    for index in np.ndindex(*sizes):
        s = sum(i * st for i, st in zip(index, s_strides))
        d = sum(i * st for i, st in zip(index, d_strides))
        ctypes.memmove(d_base + d * elem, s_base + s * elem, elem)


RUNTIME = {"printMemrefF32": _print_memref_f32, "memrefCopy": _memref_copy}


# -- the programs and what numpy says they compute ------------------------------------------


@dataclass
class Program:
    prints: Callable[[], list[np.ndarray]]
    args: Callable[[], list[np.ndarray]] = list
    outs: Callable[[list[np.ndarray]], list[np.ndarray]] = lambda args: []
    pipelines: tuple[str, ...] = tuple(PIPELINES)
    rtol: float = 1e-6
    path: Path | None = None  # default: PROGRAMS / f"{name}.mlir"


def _ramp(shape: tuple[int, ...], *scales: float) -> np.ndarray:
    grids = np.indices(shape, dtype=np.float32)
    return sum(g * np.float32(s) for g, s in zip(grids, scales)).astype(np.float32)


def _conv(x: np.ndarray, w: np.ndarray, stride: tuple[int, int], dilation: tuple[int, int]) -> np.ndarray:
    kh, kw, _, f = w.shape
    oh = (x.shape[1] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (x.shape[2] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((x.shape[0], oh, ow, f), np.float32)
    for i, j in np.ndindex(oh, ow):
        for a, b in np.ndindex(kh, kw):
            pixel = x[:, i * stride[0] + a * dilation[0], j * stride[1] + b * dilation[1], :]
            out[:, i, j, :] += pixel @ w[a, b]
    return out


def _conv_prints() -> list[np.ndarray]:
    def pattern(shape: tuple[int, ...]) -> np.ndarray:
        a, b, c, d = np.indices(shape)
        return ((a + 2 * b + 3 * c + 5 * d) % 7 - 3).astype(np.float32)

    x, w = pattern((1, 6, 5, 2)), pattern((3, 3, 2, 3))
    return [_conv(x, w, (1, 1), (1, 1)), _conv(x, w, (2, 2), (1, 1)), _conv(x, w, (1, 1), (2, 1))]


POOL_IN = np.array([[1, -2, 3, 0.5], [4, 5, -6, 2], [-7, 8, 9, 1.5], [0, -1, 2.5, -3.5]], np.float32)
REDUCE_IN = np.array([[1, -2, 3, 4.5], [0.5, 6, -7, 2], [9, -1, 0.25, -3]], np.float32)
TB_IN = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
TB_V = np.array([0.5, -1, 2, 4], np.float32)
GB_A = np.array([[1, 2, 3, 4], [-1, 0.5, 2.5, -3], [0, 1.5, -2, 8]], np.float32)
PAD_IN = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
DYN_A = np.array([[1, -2, 3, 0.5], [-1, 4, -0.5, 2], [2, 2, -3, 1]], np.float32)
DYN_B = np.array([[1, 0], [0.5, -1], [2, 1], [-4, 3]], np.float32)
FLOAT_IN = np.array([-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.0, 3.75], np.float32)
LIBM_IN = np.array([-0.75, -0.5, 0.0, 0.125, 0.5, 0.9], np.float32)
INT_A = np.array([7, -7, 100, -100, 2**20, 13, 0, -1], np.int32)
INT_B = np.array([2, 2, -3, -3, 5, -4, 9, 3], np.int32)


def _pool(x: np.ndarray, size: int, stride: int, reduce: Callable[..., np.ndarray]) -> np.ndarray:
    n = (x.shape[0] - size) // stride + 1
    out = np.empty((n, n), np.float32)
    for i, j in np.ndindex(n, n):
        out[i, j] = reduce(x[i * stride : i * stride + size, j * stride : j * stride + size])
    return out.reshape(1, n, n, 1)


def _slices() -> list[np.ndarray]:
    a = _ramp((4, 6), 10, 1)
    w = a.copy()
    w[2:4, 0:3] = 7
    w[0:2, 0:6:2] = a[0:4:2, 1:7:2]
    return [a[1:3, 2:5], a[0:4:2, 1:7:2], w, a]


def _pads() -> list[np.ndarray]:
    p = np.full((5, 6), -1, np.float32)
    p[1:3, 2:5] = PAD_IN
    q = np.full((4, 4), 9, np.float32)
    q[2:4, 0:3] = PAD_IN
    return [p, q]


def _reshape() -> list[np.ndarray]:
    t = np.arange(24, dtype=np.float32).reshape(2, 3, 4).transpose(1, 0, 2)
    return [t, t.reshape(3, 8) - 1]


def _affine() -> list[np.ndarray]:
    v = np.array([i if i >= 4 else -i for i in range(8)], np.float32)
    m = np.zeros((5, 5), np.float32)
    for i in range(5):
        for j in range(i, min(i + 3, 5)):
            k = 2 * i + j
            m[i, j] = k * k if i == j else k
    return [v, np.array([v[0::2].sum(), v[1::2].sum()], np.float32), m]


def _iterate(t: np.ndarray, n: int) -> np.ndarray:
    for _ in range(n):
        t = t * np.float32(0.5) + np.float32(1)
    return t


def _int_outs(args: list[np.ndarray]) -> list[np.ndarray]:
    rows = []
    for x, y in zip(INT_A.tolist(), INT_B.tolist()):
        s = y & 7
        div = int(x / y)
        rows.append([x + y, x - y, x * y, div, x - div * y, x << s, x >> s, x * 2 if x < y else y ^ 7])
    ops = (np.array(rows, np.int64).T & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
    wide = [(3 * x) // 4 + -((-x) // 3) for x in INT_A.tolist()]
    return [INT_A, INT_B, ops, np.array(wide, np.int64)]


def _float_math() -> list[np.ndarray]:
    x = FLOAT_IN
    ax = np.abs(x)
    n = -(np.floor(x) / np.float32(3))
    p = np.power(ax + 1, np.float32(0.5))
    return [np.exp(x) + np.tanh(x), np.sqrt(ax) - np.log(ax + 1), np.where(x > 0.5, np.maximum(n, p), n)]


def _libm() -> list[np.ndarray]:
    x = LIBM_IN.astype(np.float64)
    erf = np.array([math.erf(v) for v in x])
    return [(erf + np.cbrt(x) + np.arctanh(x)).astype(np.float32)]


def _dynamic_args() -> list[np.ndarray]:
    a = _ramp((3, 5), 1.5, -0.5) - 2
    return [a, np.array([1, -2, 0.5, 3, 0.25], np.float32), np.zeros((3, 5), np.float32), np.zeros(5, np.float32)]


def _dynamic_args_outs(args: list[np.ndarray]) -> list[np.ndarray]:
    a, b = _dynamic_args()[:2]
    return [a, b, a * b, (a * b).sum(0)]


def _dense_layer() -> list[np.ndarray]:
    x = np.float32([[1, 2, 3], [-1, 0.5, 2]])
    w = np.float32([[0.5, -1, 2, 0], [1, 0.25, -0.5, 1], [-0.5, 1, 0, 2]])
    return [np.maximum(x @ w + np.float32([0.1, -0.2, 0.3, -4]), 0)]


PROGRAM_SPECS: dict[str, Program] = {
    "cpu-matmul": Program(lambda: [_ramp((3, 4), 1, 0.5) @ _ramp((4, 5), -1, 0.25)]),
    "cpu-batch-matmul": Program(lambda: [_ramp((2, 3, 4), 2, 1, -0.5) @ _ramp((2, 4, 5), 1, 0.125, 2)]),
    "cpu-conv-2d-nhwc-hwcf": Program(_conv_prints),
    "cpu-pooling": Program(lambda: [_pool(POOL_IN, 2, 1, np.max), _pool(POOL_IN, 2, 2, np.sum)]),
    "cpu-reduce": Program(lambda: [REDUCE_IN.sum(1), REDUCE_IN.max(0)]),
    "cpu-transpose-broadcast": Program(
        lambda: [TB_IN.T, np.broadcast_to(TB_V, (3, 4)), TB_IN + TB_V, np.full((2, 3, 2), 7, np.float32)]
    ),
    "cpu-generic-broadcast": Program(
        lambda: [r := GB_A * np.array([2, -1, 0.5], np.float32)[:, None] + np.float32([10, 20, 30, 40]),
                 (r * r).sum(1)],
        rtol=1e-5,
    ),
    "cpu-slices": Program(_slices),
    "cpu-pad": Program(_pads),
    "cpu-reshape": Program(_reshape),
    "cpu-dynamic": Program(lambda: [m := DYN_A @ DYN_B, np.maximum(m, 0)]),
    "cpu-affine-loops": Program(_affine),
    "cpu-scf-loops": Program(
        lambda: [_iterate(np.float32([0, 2, -4, 10]), 5), np.float32([111, 16, 0, 1]),
                 np.float32([0, 4, -8, 10]), np.float32([0, 2, -4, 10])]
    ),
    "cpu-loop-allocs": Program(
        lambda: [_iterate(np.float32([0, 2, -4, 10]), 5)],
        pipelines=MLKIT_ONLY,  # needs allow-return-allocs-from-loops, as upstream does
    ),
    "cpu-int-arith": Program(
        list,
        args=lambda: [INT_A.copy(), INT_B.copy(), np.zeros((8, 8), np.int32), np.zeros(8, np.int64)],
        outs=_int_outs,
    ),
    "cpu-float-math": Program(_float_math, rtol=2e-6),
    "cpu-math-libm": Program(
        _libm, rtol=2e-6, pipelines=MLKIT_ONLY  # erf, cbrt, atanh: no LLVM intrinsic, libm calls
    ),
    "cpu-dynamic-args": Program(list, args=_dynamic_args, outs=_dynamic_args_outs),
    "tensor-matmul-to-llvmir": Program(lambda: [np.float32([[19, 22], [43, 50]])]),
    "dense-layer": Program(_dense_layer, rtol=1e-5, path=EXAMPLE),
}


def test_every_program_has_a_spec() -> None:
    files = {p.stem for p in PROGRAMS.glob("*.mlir") if not p.stem.startswith("lower-to-cpu-")}
    in_lit = {name for name, spec in PROGRAM_SPECS.items() if spec.path is None}
    assert files == in_lit, files ^ in_lit


# -- lowering, checking, running -----------------------------------------------------------


def _lower(name: str, pipeline: str, path: Path | None = None) -> ModuleOp:
    """The program lowered by mlkit, in memory (as ``mlkit-opt -p ... --emit=llvm`` has it)."""
    from mlkit.context import make_context
    from mlkit.syntax.parser import parse_module
    from mlkit.pipeline.manager import PassRunner, PipelineBuilder
    from mlkit.plugins import default_registry

    registry = default_registry()
    ctx = make_context(registry)
    module = parse_module(ctx, (path or PROGRAMS / f"{name}.mlir").read_text(), name)
    PassRunner(ctx).run(PipelineBuilder(registry).parse(PIPELINES[pipeline]), module)
    # the OpenMP teams stay, as upstream's convert-to-llvm leaves them for translation
    left = {
        op.name for op in module.walk()
        if op is not module and not op.name.startswith(("llvm.", "omp."))
    }  # fmt: skip
    assert not left, f"ops left after lowering: {sorted(left)}"
    return module


def _has_teams(module: ModuleOp) -> bool:
    return any(op.name == "omp.parallel" for op in module.walk())


def _run_upstream(module: ModuleOp, args: list[np.ndarray]) -> list[np.ndarray]:
    _printed.clear()
    with ir.Context():
        engine = ExecutionEngine(ir.Module.parse(print_op(module)), opt_level=0)
        for symbol, callback in RUNTIME.items():
            engine.raw_register_runtime(symbol, ctypes.cast(callback, ctypes.c_void_p))
        if args:
            descriptors = [runtime.get_ranked_memref_descriptor(a) for a in args]
            engine.invoke("main", *[ctypes.pointer(ctypes.pointer(d)) for d in descriptors])
        else:
            ctypes.CFUNCTYPE(None, ctypes.c_void_p)(engine.raw_lookup("main"))(None)
    return list(_printed)


def _run_llvmlite(module: ModuleOp, args: list[np.ndarray]) -> list[np.ndarray]:
    from mlkit.target.llvmir.module import translate_and_verify

    llvm_module = translate_and_verify(module)
    llvm_binding.initialize_native_target()
    llvm_binding.initialize_native_asmprinter()
    for symbol, callback in RUNTIME.items():
        llvm_binding.add_symbol(symbol, ctypes.cast(callback, ctypes.c_void_p).value)
    threads.bind(set(threads.ENTRY_POINTS))
    machine = llvm_binding.Target.from_default_triple().create_target_machine()
    engine = llvm_binding.create_mcjit_compiler(llvm_module, machine)
    engine.finalize_object()
    _printed.clear()
    try:
        if args:
            descriptors = [runtime.get_ranked_memref_descriptor(a) for a in args]
            entry = engine.get_function_address("_mlir_ciface_main")
            ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(args))(entry)(
                *[ctypes.addressof(d) for d in descriptors]
            )
        else:
            ctypes.CFUNCTYPE(None)(engine.get_function_address("main"))()
    finally:
        engine.close()  # type: ignore[no-untyped-call]
    return list(_printed)


def _check(got: list[np.ndarray], want: list[np.ndarray], rtol: float, what: str) -> None:
    assert len(got) == len(want), f"{what}: {len(got)} results, expected {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.shape == w.shape, f"{what} #{k}: shape {g.shape}, expected {w.shape}"
        if np.issubdtype(w.dtype, np.integer):
            np.testing.assert_array_equal(g, w, err_msg=f"{what} #{k}")
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol, err_msg=f"{what} #{k}")


CASES = [
    pytest.param(name, pipeline, id=f"{name}-{pipeline}")
    for name, spec in PROGRAM_SPECS.items()
    for pipeline in spec.pipelines
]


@pytest.mark.parametrize(("name", "pipeline"), CASES)
def test_program_lowers_and_computes_numpys_results(name: str, pipeline: str) -> None:
    spec = PROGRAM_SPECS[name]
    lowered = _lower(name, pipeline, spec.path)
    want_prints = spec.prints()
    runs = [(lowered, _run_upstream), (lowered, _run_llvmlite)]
    if _has_teams(lowered):
        serial = _lower(name, "lower-to-cpu-serial", spec.path)
        runs = [(serial, _run_upstream), (lowered, _run_llvmlite)]
    for module, run in runs:
        args = spec.args()
        printed = run(module, args)
        _check(printed, want_prints, spec.rtol, f"{name} [{pipeline}, {run.__name__}] printed")
        _check(args, spec.outs(args), spec.rtol, f"{name} [{pipeline}, {run.__name__}] arguments")
