"""Regenerate the JAX exports next to this file (needs mlkit's jax extra):

    python tests/data/jax/export.py

For each model of ``SAVED``, ``NAME.mlir`` is the linalg on tensors that
``mlkit.api.jax`` made of JAX's StableHLO export (``jax.export`` and IREE's
StableHLO conversion) and ``NAME.npz`` holds the inputs (``arg0``, ...) and
JAX's outputs for them (``out0``, ...), from a fixed seed.
``tests/test_jax_frontend.py`` runs the saved files through mlkit without
jax, and exports ``MODELS`` live where jax is installed.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
# function, example arguments, polymorphic shapes
Model = tuple[Callable[..., Any], tuple[Any, ...], Any]


def _random(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def mlp(x: jax.Array, w1: jax.Array, b1: jax.Array, w2: jax.Array, b2: jax.Array) -> jax.Array:
    return jnp.tanh(jax.nn.relu(x @ w1 + b1) @ w2 + b2)


def conv_block(x: jax.Array, kernel: jax.Array, bias: jax.Array) -> jax.Array:
    """3x3 convolution (NHWC), bias, relu, 2x2 max pooling."""
    y = jax.lax.conv_general_dilated(
        x, kernel, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )
    y = jax.nn.relu(y + bias)
    return jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def attention(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
    scores = jnp.einsum("bqd,bkd->bqk", q, k) / np.float32(np.sqrt(q.shape[-1]))
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores, axis=-1), v)


def layernorm(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta


def _mlp(rng: np.random.Generator) -> Model:
    args = (_random(rng, 4, 8), _random(rng, 8, 16), _random(rng, 16), _random(rng, 16, 3),
            _random(rng, 3))
    return mlp, args, None


def _mlp_dynamic(rng: np.random.Generator) -> Model:
    f, args, _ = _mlp(rng)
    return f, args, ["b, 8", None, None, None, None]


def _conv_pool(rng: np.random.Generator) -> Model:
    """The weights are closed over, so they are constants of the program."""
    kernel, bias = _random(rng, 3, 3, 3, 4), _random(rng, 4)
    return (lambda x: conv_block(x, kernel, bias)), (_random(rng, 2, 8, 8, 3),), None


def _attention(rng: np.random.Generator) -> Model:
    return attention, (_random(rng, 2, 5, 8), _random(rng, 2, 6, 8), _random(rng, 2, 6, 8)), None


def _attention_layernorm(rng: np.random.Generator) -> Model:
    """Self-attention with a residual and a layer norm, as a transformer block has."""
    gamma, beta = _random(rng, 8), _random(rng, 8)
    def block(x: jax.Array) -> jax.Array:
        return layernorm(x + attention(x, x, x), gamma, beta)

    return block, (_random(rng, 2, 5, 8),), None


def _layernorm(rng: np.random.Generator) -> Model:
    return layernorm, (_random(rng, 4, 16), _random(rng, 16), _random(rng, 16)), None


# name -> (rng) -> (function, example arguments, polymorphic_shapes or None)
MODELS: dict[str, Callable[[np.random.Generator], Model]] = {
    "mlp": _mlp,
    "mlp_dynamic": _mlp_dynamic,
    "conv_pool": _conv_pool,
    "attention": _attention,
    "attention_layernorm": _attention_layernorm,
    "layernorm": _layernorm,
}
SAVED = ("mlp_dynamic", "conv_pool", "attention_layernorm")

# inputs for the saved outputs where they differ from the example's
TEST_INPUTS: dict[str, Callable[[np.random.Generator, tuple[Any, ...]], tuple[Any, ...]]] = {
    "mlp_dynamic": lambda rng, args: (_random(rng, 7, 8), *args[1:]),  # another batch size
}


def build(name: str, seed: int = 0) -> tuple[Model, np.random.Generator]:
    """Model ``name`` with its example arguments, the same for each seed, and
    the generator that made them (for more inputs)."""
    rng = np.random.default_rng(seed)
    return MODELS[name](rng), rng


def main() -> None:
    from mlkit.api.jax import export_stablehlo, stablehlo_to_linalg

    for name in SAVED:
        (fun, args, shapes), rng = build(name)
        exported = export_stablehlo(fun, *args, polymorphic_shapes=shapes)
        text = stablehlo_to_linalg(exported.mlir_module())
        if name in TEST_INPUTS:
            args = TEST_INPUTS[name](rng, args)
        outputs = jax.tree_util.tree_leaves(jax.jit(fun)(*args))
        arrays = {f"arg{i}": np.asarray(a) for i, a in enumerate(args)}
        arrays.update({f"out{i}": np.asarray(a) for i, a in enumerate(outputs)})
        (HERE / f"{name}.mlir").write_text(text)
        np.savez(HERE / f"{name}.npz", **arrays)
        print(f"{name}.mlir: {len(text)} bytes")
    import iree.compiler.version as iree_version

    print(f"jax {jax.__version__}, iree-base-compiler {iree_version.VERSION}")


if __name__ == "__main__":
    main()
