"""JAX functions compiled by mlkit: :func:`jit` and :func:`compile_jax`.

    prog = mlkit.compile_jax(f, x, w)      # one set of shapes
    y = prog(x, w)                          # numpy in, numpy out

    @mlkit.jit                              # compiled per input shapes, as jax.jit
    def g(x, w): ...

JAX exports the function as StableHLO (``jax.export``),
:mod:`mlkit.api.stablehlo` turns that into linalg on tensors with IREE's
converter, and :func:`mlkit.compile` lowers and runs it. jax and IREE are
not dependencies of mlkit (they come with the ``jax`` extra) and are
imported on first use, not with ``mlkit``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mlkit.api.stablehlo import INSTALL_HINT, ConversionError, stablehlo_to_linalg

__all__ = [
    "ConversionError",
    "JaxProgram",
    "JitFunction",
    "compile_jax",
    "export_stablehlo",
    "jit",
    "stablehlo_to_linalg",
]


def _require_jax() -> Any:
    try:
        import jax
        from jax import export  # noqa: F401 - jax.export is a submodule
    except ImportError as exc:
        raise ImportError(f"mlkit's JAX front door needs jax: {INSTALL_HINT}") from exc
    return jax


def export_stablehlo(
    fun: Callable[..., Any], *example_args: Any, polymorphic_shapes: Any = None
) -> Any:
    """``jax.export`` of ``fun`` (a plain or ``jax.jit`` function) for the CPU
    at the shapes and dtypes of ``example_args`` (arrays, pytrees of them or
    ``jax.ShapeDtypeStruct``); ``polymorphic_shapes`` (a pytree prefix of the
    arguments, strings such as ``"b, 8"``, as
    ``jax.export.symbolic_args_specs`` takes) makes dimensions symbolic, so
    one program serves every batch size. Returns the ``jax.export.Exported``."""
    jax = _require_jax()
    from jax import export

    args: Any = example_args
    if polymorphic_shapes is not None:
        args = export.symbolic_args_specs(example_args, polymorphic_shapes)
    wrapped = fun if hasattr(fun, "trace") else jax.jit(fun)
    exported = export.export(wrapped, platforms=("cpu",))(*args)
    effects = tuple(exported.ordered_effects) + tuple(exported.unordered_effects)
    if effects:
        raise ConversionError(
            f"the function has side effects mlkit cannot run: {', '.join(map(str, effects))}"
        )
    return exported


@dataclass(eq=False, repr=False)
class JaxProgram:
    """A JAX function compiled by mlkit for one set of input shapes (or one
    family, with symbolic dimensions): called with the function's own
    arguments (pytrees of arrays), it returns its pytree of numpy arrays.

    ``stablehlo`` is what JAX exported, ``linalg`` what mlkit compiled
    (``mlkit-opt`` reads it), ``program`` the
    :class:`~mlkit.api.program.CompiledProgram`, ``timings`` the seconds
    spent exporting, converting and compiling."""

    exported: Any
    stablehlo: str
    linalg: str
    program: Any
    timings: dict[str, float]

    def __post_init__(self) -> None:
        exported = self.exported
        self._main = self.program.main
        self._kept = tuple(sorted(exported.module_kept_var_idx))
        self._dtypes = [np.dtype(exported.in_avals[i].dtype) for i in self._kept]
        self._out_dtypes = [np.dtype(a.dtype) for a in exported.out_avals]
        # MLIR's integers are signless: JAX's uint32 (a PRNG key) is i32 to mlkit
        self._signless = [_signless(d) for d in self._dtypes]
        self._in_tree = exported.in_tree
        self._out_tree = exported.out_tree

    def __call__(self, *args: Any) -> Any:
        """Run on ``args`` (numpy or JAX arrays, Python numbers) as the
        function takes them; each is converted to the dtype JAX exported it
        with. TypeError for arguments of another structure than the example's,
        ValueError (from the call) for a shape that does not fit."""
        from jax import tree_util

        leaves, tree = tree_util.tree_flatten((args, {}))
        if tree != self._in_tree:
            raise TypeError(
                f"the arguments' structure {tree} is not the example's {self._in_tree}"
            )
        flat = [
            np.asarray(leaves[i], dtype=d).view(s)
            for i, d, s in zip(self._kept, self._dtypes, self._signless)
        ]
        results = self._main(*flat)
        if self._out_tree.num_leaves == 1:
            results = (results,)
        elif results is None:
            results = ()
        results = [np.asarray(r).view(d) for r, d in zip(results, self._out_dtypes)]
        return tree_util.tree_unflatten(self._out_tree, results)

    def __repr__(self) -> str:
        return f"<mlkit JaxProgram {self.exported.fun_name} {self.exported.in_avals}>"


def _signless(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype mlkit passes for JAX's ``dtype``: unsigned integers as the
    signed ones of their width (the same bits)."""
    return np.dtype(f"i{dtype.itemsize}") if dtype.kind == "u" else dtype


def compile_jax(
    fun: Callable[..., Any],
    *example_args: Any,
    polymorphic_shapes: Any = None,
    num_threads: int | None = None,
    opt_level: int = 3,
    cache: bool = True,
) -> JaxProgram:
    """Compile the JAX function ``fun`` with mlkit for the shapes and dtypes
    of ``example_args``: export StableHLO (:func:`export_stablehlo`), convert
    it to linalg (:func:`stablehlo_to_linalg`) and ``mlkit.compile`` it on
    the CPU. ``polymorphic_shapes`` makes dimensions symbolic (``"b, ..."``);
    ``num_threads``, ``opt_level`` and ``cache`` are ``mlkit.compile``'s.
    Returns a :class:`JaxProgram`, callable as ``fun`` is."""
    from mlkit.api.compile import compile as mlkit_compile

    start = time.perf_counter()
    exported = export_stablehlo(fun, *example_args, polymorphic_shapes=polymorphic_shapes)
    stablehlo = exported.mlir_module()
    exported_at = time.perf_counter()
    linalg = stablehlo_to_linalg(stablehlo)
    converted_at = time.perf_counter()
    program = mlkit_compile(linalg, num_threads=num_threads, opt_level=opt_level, cache=cache)
    done = time.perf_counter()
    timings = {
        "export": exported_at - start,
        "convert": converted_at - exported_at,
        "compile": done - converted_at,
    }
    return JaxProgram(exported, stablehlo, linalg, program, timings)


class JitFunction:
    """``fun`` compiled by mlkit on first call for each structure, dtypes and
    shapes of its arguments (ranks only, with ``polymorphic_shapes``), as
    ``jax.jit`` traces once per signature."""

    def __init__(self, fun: Callable[..., Any], **options: Any) -> None:
        functools.update_wrapper(self, fun)
        self._fun = fun
        self._options = options
        self._polymorphic = options.get("polymorphic_shapes") is not None
        self._programs: dict[Any, JaxProgram] = {}

    def _key(self, args: Sequence[Any]) -> Any:
        from jax import tree_util

        leaves, tree = tree_util.tree_flatten(tuple(args))
        specs = []
        for leaf in leaves:
            shape = np.shape(leaf)
            dtype = getattr(leaf, "dtype", None) or np.result_type(leaf)
            specs.append((len(shape) if self._polymorphic else shape, str(dtype)))
        return tree, tuple(specs)

    def lower(self, *args: Any) -> JaxProgram:
        """The :class:`JaxProgram` that a call with ``args`` runs, compiled
        now if it was not yet."""
        key = self._key(args)
        program = self._programs.get(key)
        if program is None:
            program = compile_jax(self._fun, *args, **self._options)
            self._programs[key] = program
        return program

    def __call__(self, *args: Any) -> Any:
        return self.lower(*args)(*args)


def jit(
    fun: Callable[..., Any] | None = None,
    *,
    polymorphic_shapes: Any = None,
    num_threads: int | None = None,
    opt_level: int = 3,
    cache: bool = True,
) -> Any:
    """Decorator: ``fun`` compiled by mlkit (:func:`compile_jax`) when it is
    first called with arguments of a new structure, dtype or shape, and run
    by mlkit on numpy arrays after. ``@mlkit.jit`` or
    ``@mlkit.jit(polymorphic_shapes=["b, ..."], num_threads=1)``. Arguments are
    passed by position."""
    options = dict(
        polymorphic_shapes=polymorphic_shapes,
        num_threads=num_threads,
        opt_level=opt_level,
        cache=cache,
    )
    if fun is None:
        return lambda f: JitFunction(f, **options)
    return JitFunction(fun, **options)
