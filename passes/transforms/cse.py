"""``cse``: xDSL's common subexpression elimination under upstream's name.

xDSL's driver follows upstream's algorithm (scoped hash tables over dominance,
no CSE across side effects); this subclass only adds upstream's display name.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination


@dataclass(frozen=True)
class CSE(CommonSubexpressionElimination):
    """Eliminate common sub-expressions"""

    name = "cse"
