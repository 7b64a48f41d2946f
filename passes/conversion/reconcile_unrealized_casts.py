"""``reconcile-unrealized-casts``: remove ``builtin.unrealized_conversion_cast``
chains that cancel out.

xDSL's pass is upstream's algorithm (a chain of casts whose live ends have
the type the chain started from is replaced by its input; dead casts go)
and is reused under upstream's display name. Casts that do not cancel stay,
as upstream leaves them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.transforms.reconcile_unrealized_casts import (
    ReconcileUnrealizedCastsPass,
    ReconcileUnrealizedCastsPattern,
)

from mlkit.passes.transforms.rewrite_driver import rewrite_regions


@dataclass(frozen=True)
class ReconcileUnrealizedCasts(ReconcileUnrealizedCastsPass):
    """Simplify and eliminate unrealized conversion casts"""

    name = "reconcile-unrealized-casts"
    display_name: ClassVar[str] = "ReconcileUnrealizedCastsPass"

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        # any op, not only builtin.module (upstream's runs inside gpu.module too),
        # and without xDSL's warnings for casts that stay: upstream is silent
        rewrite_regions(op, ReconcileUnrealizedCastsPattern(warn_on_failure=False))
