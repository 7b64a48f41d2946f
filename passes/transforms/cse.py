"""``cse``: xDSL's common subexpression elimination under upstream's name.

xDSL's driver follows upstream's algorithm (scoped hash tables over dominance,
no CSE across side effects); this subclass adds upstream's statistics:
``num-cse'd`` and ``num-dce'd``, and works out each op's memory effects once
(``effects_memo``): xDSL's driver asks every op whether it is dead and whether
it is pure, and an op with recursive effects asks all it holds, so CSE was
quadratic in nesting depth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.common_subexpression_elimination import CSEDriver

from mlkit.passes.transforms.effects_memo import remembered_effects
from mlkit.pipeline import statistics


class _CountingDriver(CSEDriver):
    """xDSL's driver, counting the ops it replaces and the dead ops it erases."""

    replaced = 0

    def _replace_and_delete(self, op: Operation, existing: Operation) -> None:
        marked = len(self._to_erase)
        super()._replace_and_delete(op, existing)
        self.replaced += len(self._to_erase) - marked


@dataclass(frozen=True)
class CSE(CommonSubexpressionElimination):
    """Eliminate common sub-expressions"""

    name = "cse"
    STATISTICS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("num-cse'd", "Number of operations CSE'd"),
        ("num-dce'd", "Number of operations DCE'd"),
    )

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        driver = _CountingDriver()
        with remembered_effects():  # CSE only marks erasures until it is done
            driver.simplify(op)
        erased = len(driver._to_erase)  # pyright: ignore[reportPrivateUsage]
        statistics.add(ctx, "num-cse'd", driver.replaced)
        statistics.add(ctx, "num-dce'd", erased - driver.replaced)
