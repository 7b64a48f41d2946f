"""JAX programs through mlkit (``mlkit.jit``, ``mlkit.compile_jax``).

The linalg files that the front door made of the models of
``tests/data/jax/export.py`` run under ``mlkit.compile`` against JAX's saved
outputs and lower with ``mlkit-opt``: none of that needs jax. Where jax and
IREE's compiler wheel (mlkit's ``jax`` extra) are installed, models are also
exported, converted and compiled live and checked against ``jax.jit``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import mlkit
from cpu_pipelines import own_compile_cache  # noqa: F401
from saved_models import check_results, opt
from saved_models import saved as saved_model

DATA = Path(__file__).resolve().parent / "data" / "jax"
NAMES = sorted(p.stem for p in DATA.glob("*.mlir"))
RTOL, ATOL = 1e-4, 1e-6


def saved(name: str) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    return saved_model(DATA, name)


def check(got: Any, expected: list[Any]) -> None:
    check_results(got, expected, RTOL, ATOL)


# -- the saved exports: no jax needed -------------------------------------------------


def test_the_exports_are_there() -> None:
    assert {"mlp_dynamic", "conv_pool", "attention_layernorm"} <= set(NAMES)
    for name in NAMES:
        assert (DATA / f"{name}.npz").is_file()
        assert (DATA / f"{name}.mlir").stat().st_size < 30_000


@pytest.mark.parametrize("name", NAMES)
def test_saved_program_matches_jax(name: str) -> None:
    text, args, expected = saved(name)
    assert "stablehlo" not in text and "iree" not in text
    check(mlkit.compile(text).main(*args), expected)


@pytest.mark.parametrize("name", NAMES)
def test_mlkit_opt_lowers_to_cpu(name: str) -> None:
    rc, out, err = opt(str(DATA / f"{name}.mlir"), "-p", "builtin.module(lower-to-cpu)")
    assert rc == 0, err
    assert "llvm.func @main(" in out


def test_saved_dynamic_batch() -> None:
    """``mlp_dynamic`` was exported with a symbolic batch on a batch of 4;
    its saved inputs have another."""
    text, args, expected = saved("mlp_dynamic")
    assert "tensor<?x8xf32>" in text and args[0].shape[0] != 4
    check(mlkit.compile(text).main(*args), expected)


def test_saved_constants() -> None:
    """``conv_pool`` closes over its weights: they are dense constants."""
    text, args, expected = saved("conv_pool")
    assert "arith.constant dense<" in text and len(args) == 1
    check(mlkit.compile(text).main(*args), expected)


def test_import_mlkit_imports_neither_jax_nor_iree() -> None:
    code = (
        "import sys, mlkit; mlkit.jit; mlkit.compile_jax; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('jax', 'jaxlib', 'iree')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_without_jax_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)  # import jax raises ImportError
    with pytest.raises(ImportError, match=r"mlkit-compiler\[jax\]"):
        mlkit.compile_jax(lambda x: x, np.ones(2, np.float32))


def test_without_iree_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from mlkit.api.stablehlo import stablehlo_to_linalg

    monkeypatch.setitem(sys.modules, "iree.compiler", None)
    with pytest.raises(ImportError, match="iree-base-compiler"):
        stablehlo_to_linalg("module {}")


# -- live: jax and IREE installed ------------------------------------------------------


@pytest.fixture(scope="module")
def models() -> ModuleType:
    """``tests/data/jax/export.py``, once jax and IREE's bindings import."""
    pytest.importorskip("jax")
    pytest.importorskip("iree.compiler")
    spec = importlib.util.spec_from_file_location("jax_export", DATA / "export.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _jax_outputs(fun: Any, *args: Any) -> list[Any]:
    import jax

    return jax.tree_util.tree_leaves(jax.jit(fun)(*args))


@pytest.mark.parametrize("name", ["mlp", "conv_pool", "attention", "layernorm"])
def test_live_model_matches_jax(models: ModuleType, name: str) -> None:
    """Weights of another seed than the saved files', so no cached program answers."""
    (fun, args, _), rng = models.build(name, seed=1)
    program = mlkit.compile_jax(fun, *args)
    assert "linalg." in program.linalg and "stablehlo" in program.stablehlo
    assert set(program.timings) == {"export", "convert", "compile"}
    check(program(*args), _jax_outputs(fun, *args))
    more = tuple(rng.standard_normal(np.shape(a)).astype(np.float32) for a in args)
    check(program(*more), _jax_outputs(fun, *more))  # the same program, other inputs


def test_live_polymorphic_batch(models: ModuleType) -> None:
    (fun, args, shapes), rng = models.build("mlp_dynamic", seed=2)
    program = mlkit.compile_jax(fun, *args, polymorphic_shapes=shapes)
    assert "tensor<?x8xf32>" in program.linalg
    for batch in (1, 3, 9):
        x = rng.standard_normal((batch, 8)).astype(np.float32)
        check(program(x, *args[1:]), _jax_outputs(fun, x, *args[1:]))


def test_jit_compiles_once_per_signature(models: ModuleType) -> None:
    (fun, args, _), rng = models.build("layernorm", seed=3)
    jitted = mlkit.jit(fun)
    check(jitted(*args), _jax_outputs(fun, *args))
    check(jitted(*args), _jax_outputs(fun, *args))
    assert len(jitted._programs) == 1
    wider = (rng.standard_normal((2, 16)).astype(np.float32), *args[1:])
    check(jitted(*wider), _jax_outputs(fun, *wider))
    assert len(jitted._programs) == 2
    assert jitted.__name__ == fun.__name__


def test_jit_with_options_and_pytrees() -> None:
    """Parameters as a dict (as Flax keeps them), several results, one thread."""
    pytest.importorskip("jax")
    pytest.importorskip("iree.compiler")
    import jax.numpy as jnp

    @mlkit.jit(num_threads=1)
    def dense(params: dict[str, Any], x: Any) -> tuple[Any, Any]:
        y = x @ params["w"] + params["b"]
        return y, jnp.sum(y, axis=-1)

    rng = np.random.default_rng(4)
    params = {"w": rng.standard_normal((5, 3)).astype(np.float32), "b": np.float32([1, 2, 3])}
    x = rng.standard_normal((2, 5)).astype(np.float32)
    got = dense(params, x)
    assert isinstance(got, tuple) and len(got) == 2
    check(got, _jax_outputs(dense.__wrapped__, params, x))
    with pytest.raises(TypeError, match="structure"):
        dense.lower(params, x)({"w": params["w"]}, x)


def test_live_scan_carries_two_tensors() -> None:
    """``jax.lax.scan`` becomes an ``scf.for`` carrying a carry and the stacked
    outputs: one-shot-bufferize once typed each yielded buffer by its
    neighbour's region argument (lit_tests/Transforms/one-shot-bufferize-regions.mlir)."""
    jax = pytest.importorskip("jax")
    pytest.importorskip("iree.compiler")
    import jax.numpy as jnp

    def rnn(h0: Any, xs: Any, w: Any) -> Any:
        return jax.lax.scan(lambda h, x: (jnp.tanh(h @ w + x), h), h0, xs)

    rng = np.random.default_rng(5)
    args = tuple(rng.standard_normal(shape).astype(np.float32) for shape in ((4,), (6, 4), (4, 4)))
    program = mlkit.compile_jax(rnn, *args)
    assert "scf.for" in program.linalg
    check(program(*args), _jax_outputs(rnn, *args))


def test_live_gather_out_of_range_is_clamped() -> None:
    """A gather clamps its start indices into the operand (``jnp.take``'s
    ``clip`` mode relies on it); the linalg lowering does not, so mlkit's
    conversion clamps them first, also for dynamic shapes."""
    pytest.importorskip("jax")
    pytest.importorskip("iree.compiler")
    import jax.numpy as jnp

    def take(table: Any, ids: Any) -> Any:
        return jnp.take(table, ids, axis=0, mode="clip")

    table = np.random.default_rng(6).standard_normal((10, 4)).astype(np.float32)
    ids = np.array([[1, 12], [3, -1]], np.int32)
    check(mlkit.compile_jax(take, table, ids)(table, ids), _jax_outputs(take, table, ids))
    dynamic = mlkit.compile_jax(take, table, ids, polymorphic_shapes=[None, "b, s"])
    more = np.array([[0, 99, -5]], np.int32)
    check(dynamic(table, more), _jax_outputs(take, table, more))


def test_live_unsupported_op_is_named() -> None:
    """IREE turns sort into its own iree_linalg_ext; mlkit's conversion leaves
    that step out, so the op fails with where JAX traced it."""
    pytest.importorskip("jax")
    pytest.importorskip("iree.compiler")
    import jax.numpy as jnp

    from mlkit.api.stablehlo import ConversionError

    def sort(x: Any) -> Any:
        return jnp.sort(x)

    where = r"(?s)sort.*test_jax_frontend.py:\d+.*stablehlo.sort"
    with pytest.raises(ConversionError, match=where):
        mlkit.compile_jax(sort, np.ones(4, np.float32))
