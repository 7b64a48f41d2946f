"""Models exported by a frontend (torch-mlir, JAX) and saved under ``tests/data/``:
each ``NAME.mlir`` with ``NAME.npz`` holding its inputs (``arg0``, ...) and the
frontend's outputs for them (``out0``, ...), so the tests run without the
frontend installed."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from mlkit.tools.opt import run as run_opt


def saved(data: Path, name: str) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    """The text of ``name``.mlir in ``data``, its inputs and the frontend's outputs."""
    with np.load(data / f"{name}.npz") as arrays:
        args = [arrays[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in arrays))]
        outs = [arrays[f"out{i}"] for i in range(sum(k.startswith("out") for k in arrays))]
    return (data / f"{name}.mlir").read_text(), args, outs


def check_results(got: Any, expected: list[Any], rtol: float, atol: float) -> None:
    """``got`` (one array, or a tuple or list of them) is ``expected``: the same
    number of arrays, dtypes and shapes, and values within the tolerances."""
    results = list(got) if isinstance(got, (tuple, list)) else [got]
    assert len(results) == len(expected)
    for result, want in zip(results, expected):
        want = np.asarray(want)
        assert isinstance(result, np.ndarray)
        assert result.dtype == want.dtype and result.shape == want.shape
        np.testing.assert_allclose(result, want, rtol=rtol, atol=atol)


def opt(*argv: str) -> tuple[int, str, str]:
    """``mlkit-opt ARGV`` in-process: exit status, output, errors."""
    out, err = io.StringIO(), io.StringIO()
    rc = run_opt(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()
