"""PyTorch programs through torch-mlir: the linalg-on-tensors files that
torch-mlir's fx importer wrote for the models of
``tests/data/torch_mlir/export.py`` run under ``mlkit.compile`` with torch's
saved results and lower with ``mlkit-opt``; none of that needs torch. With
torch installed, a model is also exported live and checked against torch.

The weights come as ``dense_resource`` attributes with their data in the
file's ``{-# dialect_resources ... #-}`` section."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import mlkit
from cpu_pipelines import own_compile_cache  # noqa: F401
from saved_models import check_results, opt
from saved_models import saved as saved_model

DATA = Path(__file__).resolve().parent / "data" / "torch_mlir"
NAMES = sorted(p.stem for p in DATA.glob("*.mlir"))
RTOL, ATOL = 1e-5, 1e-6
WEIGHTLESS = {"attention"}  # models without parameters, so without resources


def saved(name: str) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    return saved_model(DATA, name)


def check(got: Any, expected: list[Any]) -> None:
    check_results(got, expected, RTOL, ATOL)


def test_the_exports_are_there() -> None:
    assert {"mlp", "mlp_dynamic", "conv_block", "softmax_layernorm"} <= set(NAMES)
    for name in NAMES:
        assert (DATA / f"{name}.npz").is_file()
        assert (DATA / f"{name}.mlir").stat().st_size < 30_000


@pytest.mark.parametrize("name", NAMES)
def test_compile_matches_torch(name: str) -> None:
    text, args, expected = saved(name)
    assert ("dense_resource<" in text) == (name not in WEIGHTLESS)
    check(mlkit.compile(text).main(*args), expected)


@pytest.mark.parametrize("name", NAMES)
def test_mlkit_opt_lowers_to_cpu(name: str) -> None:
    rc, out, err = opt(str(DATA / f"{name}.mlir"), "-p", "builtin.module(lower-to-cpu)")
    assert rc == 0, err
    assert "llvm.func @main(" in out


def test_dynamic_batch() -> None:
    """``mlp_dynamic`` was exported with a dynamic batch on a batch of 2; its
    saved inputs have another batch size."""
    text, args, expected = saved("mlp_dynamic")
    assert "tensor<?x4xf32>" in text
    assert args[0].shape[0] != 2
    check(mlkit.compile(text).main(*args), expected)


def test_weights_survive_reparsing_and_printing() -> None:
    """The resources' data is read at each parse (xDSL's own store renames a
    key it has seen before and loses its data), and ``mlkit-opt`` prints it as
    ``dense`` attributes that read back to the same program."""
    from xdsl.dialects.arith import ConstantOp
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    from mlkit.context import make_context
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module

    text, args, expected = saved("mlp")

    def weights() -> list[bytes]:
        module = parse_module(make_context(default_registry()), text, "mlp.mlir")
        ops = [op for op in module.walk() if isinstance(op, ConstantOp)]
        return [c.value.data.data for c in ops if isinstance(c.value, DenseIntOrFPElementsAttr)]

    first, second = weights(), weights()
    assert len(first) == 4 and all(first) and first == second
    rc, printed, err = opt(str(DATA / "mlp.mlir"))
    assert rc == 0, err
    assert "dense_resource" not in printed and printed.count("arith.constant dense<") == 4
    check(mlkit.compile(printed).main(*args), expected)


def _export_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("torch_mlir_export", DATA / "export.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.filterwarnings("ignore::FutureWarning")  # torch.export's own deprecations
def test_live_export_matches_torch() -> None:
    """Export a model with torch-mlir now (weights of another seed than the
    saved files', so no cached program answers) and compare with torch."""
    torch = pytest.importorskip("torch")
    export = _export_module()
    torch.manual_seed(1)
    model = export.ConvBlock().eval()
    inputs = (torch.randn(1, 2, 6, 6),)
    text = export.export(model, inputs)
    assert "linalg.conv_2d_nchw_fchw" in text
    program = mlkit.compile(text)
    check(program.main(*(t.numpy() for t in inputs)), export.run(model, inputs))
