"""``linalg-generalize-named-ops``: every named structured op to ``linalg.generic``.

Upstream rewrites each ``LinalgOp`` that is not already a generic (named ops,
``linalg.map``, ``reduce``, ``transpose``, ``broadcast``, ``elementwise``) into a
``linalg.generic`` with the same operands, indexing maps, iterator types, body
and discardable attributes, on tensors and memrefs alike. ``linalg.pack``,
``linalg.unpack`` and ``linalg.softmax`` are not structured ops and stay as they
are (upstream decomposes them with other transforms). The op-level work is the
dialect's ``generalize``; this module only drives it.

Upstream drives its pattern with the greedy rewriter, which also folds unrelated
ops; this pass rewrites only the structured ops (run ``canonicalize`` after it
for the rest).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from mlkit.dialects.linalg import generalize
from mlkit.dialects.linalg.contraction import ContractionOp, UserMapsContractionOp
from mlkit.dialects.linalg.conv import WindowedOp
from mlkit.dialects.linalg.map_ops import DestinationStyleOp
from mlkit.dialects.linalg.named_base import NamedStructuredOp
from mlkit.dialects.linalg.structural import GenericOp
from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from mlkit.passes.transforms.rewrite_driver import rewrite_regions

# Upstream's ops generated from its YAML op definitions with fixed maps cache
# them on the op as this discardable attribute when first asked (always, since
# the verifier asks); generalization carries it over to the generic, where it is
# printed.
MEMOIZED_MAPS = "linalg.memoized_indexing_maps"

__all__ = ["LinalgGeneralizeNamedOps", "is_generalizable"]


def is_generalizable(op: Operation) -> bool:
    """Upstream's precondition: a structured op with a body that is not a generic."""
    return isinstance(op, NamedStructuredOp | DestinationStyleOp)


def memoizes_indexing_maps(op: Operation) -> bool:
    """Convolutions, poolings and the contractions other than matmul,
    batch_matmul and batch_reduce_matmul (which keep their maps as a property)."""
    return isinstance(op, WindowedOp) or (
        isinstance(op, ContractionOp) and not isinstance(op, UserMapsContractionOp)
    )


def generalize_as_upstream(op: Operation) -> GenericOp:
    """``generalize(op)`` with the discardable attributes upstream's generic has."""
    generic = generalize(op)
    if memoizes_indexing_maps(op):
        attrs = {**generic.attributes, MEMOIZED_MAPS: op.get_indexing_maps()}  # type: ignore[attr-defined]
        generic.attributes = dict(sorted(attrs.items()))
    return generic


class GeneralizeNamedOpPattern(RewritePattern):
    """Replace one named structured op by its ``linalg.generic`` form."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_generalizable(op):
            return
        rewriter.replace(op, generalize_as_upstream(op))


@dataclass(frozen=True)
class LinalgGeneralizeNamedOps(ModulePass):
    """Convert named ops into generic ops"""

    name = "linalg-generalize-named-ops"
    display_name: ClassVar[str] = "LinalgGeneralizeNamedOpsPass"

    def apply(self, ctx: Context, op: Operation) -> None:
        # The pass runs on whatever op the pipeline anchors it on.
        rewrite_regions(op, GeneralizeNamedOpPattern(), apply_recursively=False)
