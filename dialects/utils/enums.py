"""Enums that several dialects store alike, as upstream's shared ``.td`` files define them.

``arith::AtomicRMWKind`` (``ArithBase.td``) names the reductions of
``affine.parallel`` and the operations of ``memref.atomic_rmw``; both store a
kind as its position in this tuple.
"""

from __future__ import annotations

ATOMIC_RMW_KINDS: tuple[str, ...] = (
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
)  # fmt: skip
"""``arith::AtomicRMWKind`` in enum order: a kind is stored as its index."""
