"""Convolutions, batch_matmul, matvec and vecmat through ``mlkit.compile``
against numpy on the same number of threads, measured in this run.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/conv.py \
        [--pipeline TEXT] [--microkernel[=OPTIONS]] [--repeat 7] [--threads 1] \
        [--only conv,nchw,batch,matvec,vecmat]

``--microkernel`` runs ``linalg-matmul-to-microkernel`` with OPTIONS (e.g.
``kc=512``) in place of ``lower-to-cpu``'s own, as in ``matmul.py``.

- ``conv``: ``linalg.conv_2d_nhwc_hwcf``, N=8, 56x56, C=64, F=64, 3x3. Its
  ``x numpy`` is mlkit's GFLOP/s over the GFLOP/s numpy's matmul reaches on
  the im2col matrices of the same convolution (``[N*OH*OW][KH*KW*C] @
  [KH*KW*C][F]``, the same flop count), the issue's yardstick; ``x np conv``
  is numpy's whole im2col convolution (gathering the 9 shifted views and one
  matmul) over mlkit's time.
- ``nchw``: the same sizes as ``linalg.conv_2d_nchw_fchw``.
- ``batch``: ``linalg.batch_matmul`` 16 x 256^3 against ``np.matmul``.
- ``matvec`` / ``vecmat``: 4096 x 4096 against ``a @ x`` / ``x @ a``, with
  the bandwidth of reading the matrix once.

Each program is written on tensors and returns a new array, as numpy does.
Prints the best and median GFLOP/s (GB/s for matvec/vecmat) of both sides
and numpy's time over mlkit's (above 1: mlkit is faster) of the best runs,
the median runs and in CPU time of the best (which a busy machine disturbs
less).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from matmul import DEFAULT_PIPELINE, timings, with_microkernel

Case = tuple[str, str, str, list[np.ndarray], Callable[[], object], Callable[[], object] | None, float]


def _returning(name: str, args: list[tuple[str, str]], result: str, op: str, attrs: str = "") -> str:
    params = ", ".join(f"%{n}: {t}" for n, t in args)
    ins = ", ".join(f"%{n}" for n, _ in args)
    types = ", ".join(t for _, t in args)
    return f"""
func.func @{name}({params}) -> {result} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {result}
  %c = linalg.fill ins(%zero : f32) outs(%e : {result}) -> {result}
  %r = linalg.{op} {attrs}ins({ins} : {types}) outs(%c : {result}) -> {result}
  return %r : {result}
}}
"""


def _tensor(shape: tuple[int, ...]) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def im2col_conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """numpy's NHWC/HWCF convolution: the im2col matrix, then one matmul."""
    n, h, wd, c = x.shape
    kh, kw, _, f = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    cols = np.empty((n, oh, ow, kh, kw, c), x.dtype)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, :, i, j, :] = x[:, i : i + oh, j : j + ow, :]
    return (cols.reshape(n * oh * ow, kh * kw * c) @ w.reshape(kh * kw * c, f)).reshape(n, oh, ow, f)


def cases(rng: np.random.Generator, only: set[str]) -> list[Case]:
    out: list[Case] = []
    n, hw, c, f, k = 8, 56, 64, 64, 3
    o = hw - k + 1
    flops = 2.0 * n * o * o * f * k * k * c
    if "conv" in only:
        x = rng.standard_normal((n, hw, hw, c), dtype=np.float32)
        w = rng.standard_normal((k, k, c, f), dtype=np.float32)
        cols = rng.standard_normal((n * o * o, k * k * c), dtype=np.float32)
        wm = w.reshape(k * k * c, f)
        text = _returning("conv", [("x", _tensor(x.shape)), ("w", _tensor(w.shape))],
                          _tensor((n, o, o, f)), "conv_2d_nhwc_hwcf")  # fmt: skip
        out.append(("conv nhwc 8x56x56x64 3x3", text, "conv", [x, w], lambda cols=cols, wm=wm: cols @ wm,
                    lambda x=x, w=w: im2col_conv(x, w), flops))  # fmt: skip
    if "nchw" in only:
        x = rng.standard_normal((n, c, hw, hw), dtype=np.float32)
        w = rng.standard_normal((f, c, k, k), dtype=np.float32)
        cols = rng.standard_normal((n * o * o, k * k * c), dtype=np.float32)
        wm = rng.standard_normal((k * k * c, f), dtype=np.float32)
        text = _returning("conv", [("x", _tensor(x.shape)), ("w", _tensor(w.shape))],
                          _tensor((n, f, o, o)), "conv_2d_nchw_fchw")  # fmt: skip
        def nchw_conv(x: np.ndarray = x, w: np.ndarray = w) -> np.ndarray:
            return im2col_conv(x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0)).transpose(0, 3, 1, 2)

        out.append(("conv nchw 8x64x56x56 3x3", text, "conv", [x, w], lambda cols=cols, wm=wm: cols @ wm,
                    nchw_conv, flops))  # fmt: skip
    if "batch" in only:
        b, s = 16, 256
        x = rng.standard_normal((b, s, s), dtype=np.float32)
        y = rng.standard_normal((b, s, s), dtype=np.float32)
        text = _returning("bmm", [("a", _tensor(x.shape)), ("b", _tensor(y.shape))],
                          _tensor((b, s, s)), "batch_matmul")  # fmt: skip
        out.append(("batch_matmul 16x256^3", text, "bmm", [x, y], lambda x=x, y=y: np.matmul(x, y), None,
                    2.0 * b * s**3))  # fmt: skip
    size = 4096
    a = rng.standard_normal((size, size), dtype=np.float32)
    v = rng.standard_normal(size, dtype=np.float32)
    matrix, vector = ("a", _tensor(a.shape)), ("v", _tensor(v.shape))
    if "matvec" in only:
        text = _returning("mv", [matrix, vector], _tensor((size,)), "matvec")
        out.append(("matvec 4096 (GB/s)", text, "mv", [a, v], lambda: a @ v, None, 4.0 * size * size))
    if "vecmat" in only:
        text = _returning("vm", [vector, matrix], _tensor((size,)), "vecmat")
        out.append(("vecmat 4096 (GB/s)", text, "vm", [v, a], lambda: v @ a, None, 4.0 * size * size))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    parser.add_argument("--microkernel", nargs="?", const="", default=None, metavar="OPTIONS")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1, help="threads of both (0: defaults)")
    parser.add_argument("--only", default="conv,nchw,batch,matvec,vecmat")
    args = parser.parse_args()

    import mlkit
    from threadpoolctl import threadpool_limits

    from mlkit.runtime import threads

    if args.threads > 0:
        threads.set_num_threads(args.threads)
    pipeline = with_microkernel(args.microkernel) if args.microkernel is not None else args.pipeline
    rng = np.random.default_rng(0)
    rows: list[tuple[str, list[float]]] = []
    with threadpool_limits(args.threads if args.threads > 0 else None):
        for label, text, name, inputs, ref, whole, work in cases(rng, set(args.only.split(","))):
            fn = getattr(mlkit.compile(text, pipeline=pipeline, cache=False), name)
            call: Callable[[], object] = lambda: fn(*inputs)  # noqa: E731
            expected = whole if whole is not None else ref
            np.testing.assert_allclose(call(), expected(), rtol=1e-3, atol=1e-2 * work ** (1 / 6))
            fns = [call, ref] + ([whole] if whole is not None else [])
            measured = timings(fns, args.repeat, grouped=args.threads != 1)
            (best, median, cpu), (np_best, np_median, np_cpu) = measured[:2]
            extra = [measured[2][0] / best] if whole is not None else []
            rows.append((label, [work / best, work / median, work / np_best, work / np_median,
                                 np_best / best, np_median / median, np_cpu / cpu, *extra]))  # fmt: skip
    print(f"pipeline: {pipeline if len(pipeline) < 100 else pipeline[:97] + '...'}")
    print(f"threads: mlkit {threads.get_num_threads()}, numpy "
          f"{args.threads if args.threads > 0 else 'default'}")
    print(f"{'program':<26} {'mlkit best':>10} {'median':>8} {'numpy best':>10} {'median':>8} "
          f"{'x numpy':>8} {'(median)':>8} {'(cpu)':>6} {'x np conv':>9}")
    for label, values in rows:
        text = " ".join(f"{v / 1e9:>{w}.1f}" for v, w in zip(values[:4], (10, 8, 10, 8)))
        ratios = " ".join(f"{v:>8.2f}" for v in values[4:6]) + f" {values[6]:>6.2f}"
        whole_ratio = f" {values[7]:>9.2f}" if len(values) > 7 else ""
        print(f"{label:<26} {text} {ratios}{whole_ratio}")


if __name__ == "__main__":
    main()
