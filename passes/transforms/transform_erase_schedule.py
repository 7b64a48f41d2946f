"""``test-transform-dialect-erase-schedule``: drop the transform script.

Upstream's (test) pass erases the transform ops at the top of the module once
``transform-interpreter`` has run them, so that the payload can be lowered on;
mlkit registers it under upstream's name so RUN lines that use it work.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter


@dataclass(frozen=True)
class TransformEraseSchedule(ModulePass):
    """erase transform dialect schedule from the IR"""

    name = "test-transform-dialect-erase-schedule"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for top in list(op.ops):
            if top.name.startswith("transform."):
                Rewriter.erase_op(top)
