"""Convolutions through ``linalg-matmul-to-microkernel`` (implicit im2col):
``conv_2d_nhwc_hwcf`` and ``conv_2d_nchw_fchw`` compute what numpy computes
and what the plain (scalar) lowering computes, for 1, 7 and 33 channels, odd
spatial sizes, strides and dilations of 2, a dynamic batch, f32 and f64, at
256-bit vectors (the AVX2 tile) and with small blocks that split the
reduction across KC slices, and 1-D and 3-D convolutions of the same kind;
the fill before and the bias + relu after a convolution are absorbed into its
tiles; and what the pass cannot rewrite stays as it was.
"""

from __future__ import annotations

import numpy as np
import pytest

import mlkit
from cpu_pipelines import PLAIN, lowered, own_compile_cache, with_pass  # noqa: F401
from test_matmul_kernel import bias_relu, tolerance

PASS = "linalg-matmul-to-microkernel"
rng = np.random.default_rng(5)


def with_kernel(options: str = "") -> str:
    return with_pass(f"{PASS}{{{options}}}" if options else PASS)


def up_to_kernel(options: str = "") -> str:
    """:func:`with_kernel` cut off after the pass."""
    pipeline = with_kernel(options)
    return pipeline[: pipeline.index(PASS)] + PASS + (f"{{{options}}}" if options else "") + ")"


def out_size(size: int, kernel: int, stride: int, dilation: int) -> int:
    return (size - dilation * (kernel - 1) - 1) // stride + 1


def memref(shape: tuple[int, ...], t: str, dynamic_batch: bool = False) -> str:
    dims = ["?" if dynamic_batch and i == 0 else str(s) for i, s in enumerate(shape)]
    return "memref<" + "x".join(dims) + f"x{t}>"


def conv_text(
    x_shape: tuple[int, ...], w_shape: tuple[int, ...], y_shape: tuple[int, ...], nchw: bool,
    stride: int, dilation: int, t: str = "f32", dynamic_batch: bool = False,
) -> str:  # fmt: skip
    x, w, y = memref(x_shape, t, dynamic_batch), memref(w_shape, t), memref(y_shape, t, dynamic_batch)
    op = "conv_2d_nchw_fchw" if nchw else "conv_2d_nhwc_hwcf"
    attrs = (
        f"{{strides = dense<{stride}> : tensor<2xi64>, dilations = dense<{dilation}> : tensor<2xi64>}}"
    )
    return f"""
func.func @conv(%x: {x}, %w: {w}, %y: {y}) {{
  linalg.{op} {attrs} ins(%x, %w : {x}, {w}) outs(%y : {y})
  return
}}
"""


def reference(x: np.ndarray, w: np.ndarray, stride: int, dilation: int) -> np.ndarray:
    """NHWC x HWCF -> NHWF, as a sum of shifted views times filter taps."""
    n, h, wd, _ = x.shape
    kh, kw, _, f = w.shape
    oh, ow = out_size(h, kh, stride, dilation), out_size(wd, kw, stride, dilation)
    y = np.zeros((n, oh, ow, f), x.dtype)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dilation, i * dilation + stride * (oh - 1) + 1, stride)
            cols = slice(j * dilation, j * dilation + stride * (ow - 1) + 1, stride)
            y += x[:, rows, cols, :] @ w[i, j]
    return y


def case(
    n: int, h: int, wd: int, c: int, f: int, k: int, stride: int, dilation: int, nchw: bool,
    dtype: type,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], list[np.ndarray], np.ndarray]:
    """Shapes of x, w, y, the operands (y random: the convolution accumulates) and y's expected value."""
    oh, ow = out_size(h, k, stride, dilation), out_size(wd, k, stride, dilation)
    x = rng.standard_normal((n, h, wd, c)).astype(dtype)
    w = rng.standard_normal((k, k, c, f)).astype(dtype)
    y = rng.standard_normal((n, oh, ow, f)).astype(dtype)
    expected = y + reference(x, w, stride, dilation)
    if nchw:
        x, w, y = x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), y.transpose(0, 3, 1, 2)
        expected = expected.transpose(0, 3, 1, 2)
    ops = [np.ascontiguousarray(v) for v in (x, w, y)]
    return ops[0].shape, ops[1].shape, ops[2].shape, ops, np.ascontiguousarray(expected)


def run(text: str, pipeline: str, ops: list[np.ndarray]) -> np.ndarray:
    out = ops[2].copy()
    mlkit.compile(text, pipeline=pipeline).conv(ops[0], ops[1], out)
    return out



SHAPES = [  # n, h, w, c, f, k, stride, dilation
    (1, 1, 1, 1, 1, 1, 1, 1),
    (1, 7, 7, 7, 7, 3, 1, 1),
    (2, 9, 11, 16, 33, 3, 1, 1),
    (1, 13, 9, 33, 7, 3, 2, 1),
    (2, 11, 12, 32, 16, 3, 1, 2),
    (1, 15, 15, 7, 5, 3, 2, 2),
    (1, 9, 9, 64, 20, 1, 1, 1),
]


@pytest.mark.parametrize("nchw", [False, True], ids=["nhwc", "nchw"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_conv_f32_against_numpy(nchw: bool, shape: tuple[int, ...]) -> None:
    x_s, w_s, y_s, ops, expected = case(*shape, nchw=nchw, dtype=np.float32)
    text = conv_text(x_s, w_s, y_s, nchw, shape[6], shape[7])
    assert "vector.fma" in lowered(text, f"builtin.module({PASS})")
    depth = shape[3] * shape[5] ** 2
    np.testing.assert_allclose(run(text, with_kernel(), ops), expected, **tolerance(depth, np.float32))


@pytest.mark.parametrize("nchw", [False, True], ids=["nhwc", "nchw"])
@pytest.mark.parametrize("options", ["", "vector-bits=256", "kc=16 mc=16 nc=16", "vector-bits=256 kc=8"])
def test_conv_f64_widths_and_blocks(nchw: bool, options: str) -> None:
    shape = (2, 10, 9, 33, 19, 3, 2, 1)
    for dtype, t in ((np.float32, "f32"), (np.float64, "f64")):
        x_s, w_s, y_s, ops, expected = case(*shape, nchw=nchw, dtype=dtype)
        text = conv_text(x_s, w_s, y_s, nchw, 2, 1, t)
        got = run(text, with_kernel(options), ops)
        np.testing.assert_allclose(got, expected, **tolerance(33 * 9, dtype))


@pytest.mark.parametrize("nchw", [False, True], ids=["nhwc", "nchw"])
def test_dynamic_batch_same_as_plain_lowering(nchw: bool) -> None:
    shape = (3, 9, 8, 16, 12, 3, 1, 2)
    x_s, w_s, y_s, ops, expected = case(*shape, nchw=nchw, dtype=np.float32)
    text = conv_text(x_s, w_s, y_s, nchw, 1, 2, dynamic_batch=True)
    got = run(text, with_kernel("kc=32 mc=16"), ops)
    np.testing.assert_allclose(got, run(text, PLAIN, ops), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(got, expected, **tolerance(16 * 9, np.float32))
    for n in (1, 2):  # another batch through the same compiled function
        *_, ops, expected = case(n, *shape[1:], nchw=nchw, dtype=np.float32)
        np.testing.assert_allclose(run(text, with_kernel(), ops), expected, **tolerance(144, np.float32))


def conv_layer_text(n: int, h: int, c: int, f: int, nchw: bool = False) -> str:
    """A convolution layer on tensors: ``max(conv(x, w) + bias, 0)``, the bias per filter."""
    o = h - 2
    if nchw:
        x, w, y = f"tensor<{n}x{c}x{h}x{h}xf32>", f"tensor<{f}x{c}x3x3xf32>", f"tensor<{n}x{f}x{o}x{o}xf32>"
        bias = bias_relu(y, f"tensor<{f}xf32>", 4).replace("-> (d3)>", "-> (d1)>")
    else:
        x, w, y = f"tensor<{n}x{h}x{h}x{c}xf32>", f"tensor<3x3x{c}x{f}xf32>", f"tensor<{n}x{o}x{o}x{f}xf32>"
        bias = bias_relu(y, f"tensor<{f}xf32>", 4)
    op = "conv_2d_nchw_fchw" if nchw else "conv_2d_nhwc_hwcf"
    return f"""
func.func @layer(%x: {x}, %w: {w}, %bias: tensor<{f}xf32>) -> {y} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {y}
  %c = linalg.fill ins(%zero : f32) outs(%e : {y}) -> {y}
  %y = linalg.{op} ins(%x, %w : {x}, {w}) outs(%c : {y}) -> {y}
{bias}
  return %r : {y}
}}
"""


@pytest.mark.parametrize("nchw", [False, True], ids=["nhwc", "nchw"])
@pytest.mark.parametrize("options", ["", "kc=32"])
def test_conv_layer_fill_and_bias_relu_fused(nchw: bool, options: str) -> None:
    n, h, c, f = 2, 9, 16, 24
    text = conv_layer_text(n, h, c, f, nchw)
    after = lowered(text, up_to_kernel(options))
    assert "linalg." not in after  # the fill, the convolution and the bias + relu are one nest
    x = rng.standard_normal((n, h, h, c)).astype(np.float32)
    w = rng.standard_normal((3, 3, c, f)).astype(np.float32)
    bias = rng.standard_normal(f).astype(np.float32)
    expected = np.maximum(reference(x, w, 1, 1) + bias, 0)
    if nchw:
        x, w, expected = x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), expected.transpose(0, 3, 1, 2)
    layer = mlkit.compile(text, pipeline=with_kernel(options)).layer
    got = layer(np.ascontiguousarray(x), np.ascontiguousarray(w), bias)
    np.testing.assert_allclose(got, expected, **tolerance(c * 9, np.float32))


def test_conv_through_lower_to_cpu() -> None:
    """On tensors, generalized and bufferized as lower-to-cpu does, with threads."""
    n, h, c, f = 2, 12, 32, 40
    text = conv_layer_text(n, h, c, f)
    x = rng.standard_normal((n, h, h, c)).astype(np.float32)
    w = rng.standard_normal((3, 3, c, f)).astype(np.float32)
    bias = rng.standard_normal(f).astype(np.float32)
    got = mlkit.compile(text).layer(x, w, bias)
    np.testing.assert_allclose(got, np.maximum(reference(x, w, 1, 1) + bias, 0), **tolerance(288, np.float32))


OTHER_CONVOLUTIONS = {
    "conv_1d_nwc_wcf": ((2, 20, 8), (3, 8, 16), (2, 9, 16), "{strides = dense<2> : tensor<1xi64>}"),
    "conv_3d_ndhwc_dhwcf": ((1, 6, 7, 8, 16), (2, 3, 3, 16, 8), (1, 5, 5, 6, 8), ""),
}


@pytest.mark.parametrize("op", sorted(OTHER_CONVOLUTIONS))
def test_other_ranks_same_as_plain_lowering(op: str) -> None:
    """The matcher is not 2-D only: any convolution of that kind is a matmul."""
    x_s, w_s, y_s, attrs = OTHER_CONVOLUTIONS[op]
    x, w, y = (memref(s, "f32") for s in (x_s, w_s, y_s))
    text = f"""
func.func @conv(%x: {x}, %w: {w}, %y: {y}) {{
  linalg.{op} {attrs} ins(%x, %w : {x}, {w}) outs(%y : {y})
  return
}}
"""
    assert "vector.fma" in lowered(text, f"builtin.module({PASS})")
    ops = [rng.standard_normal(s).astype(np.float32) for s in (x_s, w_s, y_s)]
    np.testing.assert_allclose(run(text, with_kernel(), ops), run(text, PLAIN, ops), rtol=1e-5, atol=1e-4)


def test_leaves_depthwise_integer_and_strided_filters_alone() -> None:
    depthwise = """
func.func @dw(%x: memref<1x8x8x4xf32>, %w: memref<3x3x4xf32>, %y: memref<1x6x6x4xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc ins(%x, %w : memref<1x8x8x4xf32>, memref<3x3x4xf32>)
    outs(%y : memref<1x6x6x4xf32>)
  return
}
"""
    assert "linalg.depthwise_conv_2d_nhwc_hwc" in lowered(depthwise, f"builtin.module({PASS})")
    ints = conv_text((1, 5, 5, 2), (3, 3, 2, 2), (1, 3, 3, 2), False, 1, 1, "i32")
    assert "linalg.conv_2d_nhwc_hwcf" in lowered(ints, f"builtin.module({PASS})")
    strided = ints.replace("i32", "f32").replace(
        "memref<3x3x2x2xf32>", "memref<3x3x2x2xf32, strided<[24, 8, 4, 2]>>"
    )
    assert "linalg.conv_2d_nhwc_hwcf" in lowered(strided, f"builtin.module({PASS})")
