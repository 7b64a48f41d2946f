"""No pass of ``lower-to-cpu`` does more than linear work in the size of the
IR it is given (issue 16): each pass runs on a program and on the same
program twice as large, and the Python calls it makes, a measure of its work
that unlike time does not depend on the machine or its load, at most double
(with some slack for what a pass does once).

Two ways to grow a program: wider (more functions of the same ops) and
deeper (``scf.if`` nested in ``scf.if``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from test_reliability_core import nested_ifs, python_calls

from mlkit.api.deep import call_deep
from mlkit.pipeline.manager import PassNode, PassRunner

# linear work doubles; quadratic work would be ~4x at these sizes
LIMIT = 2.5

T = "tensor<8x8xf32>"


def wide(functions: int) -> str:
    """``functions`` functions, each a fused tensor chain and scalar arith."""
    lines: list[str] = []
    for i in range(functions):
        lines += [
            f"func.func @f{i}(%a: {T}, %b: {T}, %p: f32, %q: i64) -> ({T}, f32, i64) {{",
            f"  %c = arith.constant {i}.5 : f32",
            f"  %e = tensor.empty() : {T}",
            f"  %g = linalg.add ins(%a, %b : {T}, {T}) outs(%e : {T}) -> {T}",
            f"  %w = arith.maximumf %g, %b : {T}",
            "  %f0 = arith.mulf %p, %p : f32",
            "  %f1 = arith.addf %f0, %c : f32",
            "  %n0 = arith.muli %q, %q : i64",
            "  %n1 = arith.addi %n0, %q : i64",
            f"  return %w, %f1, %n1 : {T}, f32, i64",
            "}",
        ]
    return "\n".join(lines) + "\n"


class CountingRunner(PassRunner):
    """A pass runner that counts the Python calls each pass makes (the
    verifier, which has linearity tests of its own, is not run)."""

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx, verify_each=False)
        self.work: Counter[str] = Counter()

    def _run_pass(self, node: PassNode, op: Any) -> None:
        self.work[node.name] += python_calls(lambda: PassRunner._run_pass(self, node, op))


def pass_work(text: str, pipeline: str = "lower-to-cpu") -> Counter[str]:
    """The calls each pass of ``pipeline`` makes on ``text`` (on a deep
    stack, as mlkit.compile runs them)."""

    def run() -> Counter[str]:
        from mlkit.context import make_context
        from mlkit.pipeline.manager import PipelineBuilder
        from mlkit.plugins import default_registry
        from mlkit.syntax.parser import parse_module

        registry = default_registry()
        ctx = make_context(registry)
        module = parse_module(ctx, text, "linearity.mlir")
        pm = PipelineBuilder(registry).parse(
            f"builtin.module({pipeline})", top_anchor="builtin.module"
        )
        runner = CountingRunner(ctx)
        runner.run(pm, module)
        return runner.work

    return call_deep(run)


def superlinear(make: Callable[[int], str], small: int) -> dict[str, tuple[int, int]]:
    """The passes whose work more than doubles (by :data:`LIMIT`) from
    ``make(small)`` to ``make(2 * small)``: name -> (work, work doubled)."""
    pass_work(make(2))  # imports every pass, so that no import is counted
    before, after = pass_work(make(small)), pass_work(make(2 * small))
    return {
        name: (before[name], after[name])
        for name in after
        if after[name] > LIMIT * max(before[name], 1)
    }


def test_every_pass_is_linear_in_the_number_of_functions() -> None:
    assert superlinear(wide, 4) == {}


def test_every_pass_is_linear_in_nesting_depth() -> None:
    """Walks (``mlkit.ir_walk``), effects (``effects_memo``), and cf's
    branch canonicalization (``cf_canonicalization``) were quadratic here."""
    assert superlinear(nested_ifs, 40) == {}


def test_canonicalize_is_linear_in_structured_nesting() -> None:
    """Its dead-code sweep asked each ``scf.if`` for the effects of all it
    holds, once per enclosing ``scf.if``."""
    work = [pass_work(nested_ifs(n), "canonicalize")["canonicalize"] for n in (2, 40, 80)]
    assert work[2] <= LIMIT * work[1], work
