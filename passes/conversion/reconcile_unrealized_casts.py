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
from xdsl.dialects.builtin import ModuleOp
from xdsl.transforms.reconcile_unrealized_casts import (
    ReconcileUnrealizedCastsPass,
    reconcile_unrealized_casts,
)


@dataclass(frozen=True)
class ReconcileUnrealizedCasts(ReconcileUnrealizedCastsPass):
    """Simplify and eliminate unrealized conversion casts."""

    name = "reconcile-unrealized-casts"
    display_name: ClassVar[str] = "ReconcileUnrealizedCastsPass"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # without xDSL's warnings for casts that stay: upstream is silent
        reconcile_unrealized_casts(op, warn_on_failure=False)
