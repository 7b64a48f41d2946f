"""JAX models through ``mlkit.compile_jax`` against ``jax.jit`` on the CPU,
per call, measured in the same run (needs mlkit's ``jax`` extra).

    python benchmarks/jax_models.py [--threads both|1|all] [--repeat 7]
        [--only mlp,conv,attention,layernorm,block] [--hf bert,gpt2,vit,resnet]

Each thread setting runs in a process of its own, since XLA fixes its
threads when it starts: ``1`` sets ``XLA_FLAGS=--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1`` and ``MLKIT_NUM_THREADS=1``, ``all`` leaves
both at their defaults (every core). mlkit is called on numpy arrays and
returns numpy arrays; JAX is called on arrays already on its device and
waited for (``block_until_ready``). ``--hf`` adds Flax models of
``transformers`` with small random configurations (where installed).

Prints, per model and setting, the best and median microseconds per call of
both and JAX's time over mlkit's (above 1: mlkit is faster) of the best and
of the median runs, after checking that both compute the same.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
from matmul import timings

ONE_THREAD = {
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
    "MLKIT_NUM_THREADS": "1",
}
Model = tuple[Callable[..., Any], tuple[Any, ...]]


def _random(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def models(rng: np.random.Generator, only: set[str]) -> dict[str, Model]:
    """Models of a size where the work, not the call, takes the time."""
    import jax
    import jax.numpy as jnp

    def layernorm(x: Any, g: Any, b: Any) -> Any:
        m = jnp.mean(x, -1, keepdims=True)
        return (x - m) * jax.lax.rsqrt(jnp.var(x, -1, keepdims=True) + 1e-5) * g + b

    def attention(q: Any, k: Any, v: Any) -> Any:
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.float32(np.sqrt(q.shape[-1]))
        return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, -1), v)

    def mlp(x: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
        return jax.nn.relu(x @ w1 + b1) @ w2 + b2

    def conv(x: Any, k: Any, b: Any) -> Any:
        y = jax.lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = jax.nn.relu(y + b)
        return jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    def block(x: Any, wq: Any, wk: Any, wv: Any, w1: Any, w2: Any, g: Any, b: Any) -> Any:
        def heads(t: Any) -> Any:
            return t.reshape(t.shape[0], t.shape[1], 4, -1).transpose(0, 2, 1, 3)

        a = attention(heads(x @ wq), heads(x @ wk), heads(x @ wv))
        h = layernorm(x + a.transpose(0, 2, 1, 3).reshape(x.shape), g, b)
        return layernorm(h + jax.nn.gelu(h @ w1) @ w2, g, b)

    d = 256
    table: dict[str, Callable[[], Model]] = {
        "mlp": lambda: (mlp, (_random(rng, 64, 512), _random(rng, 512, 1024), _random(rng, 1024),
                              _random(rng, 1024, 10), _random(rng, 10))),
        "conv": lambda: (conv, (_random(rng, 8, 32, 32, 16), _random(rng, 3, 3, 16, 32), _random(rng, 32))),
        "attention": lambda: (attention, tuple(_random(rng, 2, 4, 128, 64) for _ in range(3))),
        "layernorm": lambda: (layernorm, (_random(rng, 512, 768), _random(rng, 768), _random(rng, 768))),
        "block": lambda: (block, (_random(rng, 2, 64, d), *(_random(rng, d, d) * 0.05 for _ in range(3)),
                                  _random(rng, d, 4 * d) * 0.05, _random(rng, 4 * d, d) * 0.05,
                                  _random(rng, d), _random(rng, d))),
    }  # fmt: skip
    return {name: make() for name, make in table.items() if name in only}


def hf_models(rng: np.random.Generator, only: set[str]) -> dict[str, Model]:
    """Flax models of ``transformers`` (random weights, small configurations),
    their parameters passed as arguments."""
    try:
        import transformers as tf
    except ImportError:
        return {}
    out: dict[str, Model] = {}
    ids = rng.integers(0, 1000, (2, 32)).astype(np.int32)
    image = _random(rng, 1, 3, 32, 32)
    configs = {
        "bert": lambda: (tf.FlaxBertModel(tf.BertConfig(vocab_size=1000, hidden_size=128, num_hidden_layers=2,
                         num_attention_heads=4, intermediate_size=512), seed=0), ids),
        "gpt2": lambda: (tf.FlaxGPT2Model(tf.GPT2Config(vocab_size=1000, n_embd=128, n_layer=2, n_head=4),
                         seed=0), ids),
        "vit": lambda: (tf.FlaxViTModel(tf.ViTConfig(image_size=32, patch_size=4, hidden_size=128,
                        num_hidden_layers=2, num_attention_heads=4, intermediate_size=512), seed=0), image),
        "resnet": lambda: (tf.FlaxResNetModel(tf.ResNetConfig(embedding_size=16, hidden_sizes=[16, 32],
                           depths=[1, 1], layer_type="basic"), seed=0, input_shape=(1, 32, 32, 3)), image),
    }  # fmt: skip
    for name in only & set(configs):
        model, x = configs[name]()

        def run(params: Any, x: Any, model: Any = model) -> Any:
            return model(x, params=params).last_hidden_state

        out[f"hf-{name}"] = (run, (model.params, x))
    return out


def per_call(fn: Callable[[], object], target: float = 0.02) -> tuple[Callable[[], object], int]:
    """``fn`` called often enough in a row to take about ``target`` seconds."""
    import time

    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-6)
    number = max(1, int(target / once))
    return (lambda: [fn() for _ in range(number)]), number


def measure(args: argparse.Namespace) -> None:
    """One thread setting, in this process: a JSON line per model."""
    import jax

    import mlkit

    rng = np.random.default_rng(0)
    table = models(rng, set(args.only.split(","))) if args.only else {}
    table.update(hf_models(rng, set(args.hf.split(","))) if args.hf else {})
    for name, (fun, inputs) in table.items():
        program = mlkit.compile_jax(fun, *inputs)
        jitted = jax.jit(fun)
        on_device = jax.device_put(inputs)
        want = jax.tree_util.tree_leaves(jitted(*on_device))
        got = jax.tree_util.tree_leaves(program(*inputs))
        scale = max(float(np.max(np.abs(w))) for w in want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, np.asarray(w), rtol=1e-3, atol=1e-4 * scale)
        ours, n_ours = per_call(lambda: program(*inputs))
        theirs, n_theirs = per_call(lambda: jax.block_until_ready(jitted(*on_device)))
        (best, median, _), (j_best, j_median, _) = timings([ours, theirs], args.repeat)
        print(json.dumps({
            "model": name, "mlkit": [best / n_ours, median / n_ours],
            "jax": [j_best / n_theirs, j_median / n_theirs], "compile": program.timings,
        }), flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", choices=("both", "1", "all"), default="both")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", default="mlp,conv,attention,layernorm,block")
    parser.add_argument("--hf", default="", help="transformers Flax models: bert,gpt2,vit,resnet")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args)
        return
    settings = ["1", "all"] if args.threads == "both" else [args.threads]
    print(f"{'model':<12} {'threads':>7} {'mlkit best':>10} {'median':>8} {'jax best':>9} "
          f"{'median':>8} {'x jax':>6} {'(median)':>8}   (microseconds per call)")
    for setting in settings:
        env = dict(os.environ)
        for var in ONE_THREAD:
            env.pop(var, None)
        if setting == "1":
            env.update(ONE_THREAD)
        argv = [sys.executable, __file__, "--measure", "--repeat", str(args.repeat),
                "--only", args.only, "--hf", args.hf]  # fmt: skip
        child = subprocess.run(argv, env=env, stdout=subprocess.PIPE, text=True, check=True)
        for line in child.stdout.splitlines():
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            (best, median), (j_best, j_median) = row["mlkit"], row["jax"]
            print(f"{row['model']:<12} {setting:>7} {best * 1e6:>10.1f} {median * 1e6:>8.1f} "
                  f"{j_best * 1e6:>9.1f} {j_median * 1e6:>8.1f} {j_best / best:>6.2f} "
                  f"{j_median / median:>8.2f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
