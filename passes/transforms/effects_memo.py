"""Memory effects worked out once per op while the IR holds still.

xDSL's ``get_effects`` answers an op with ``RecursiveMemoryEffect``
(``scf.if``, ``scf.for``, ``func.func``...) by asking everything nested in it,
afresh on every call. A pass that asks each op in turn (CSE's "is it dead,
is it pure", DCE's liveness sweep) therefore asks the op at depth d once per
enclosing op: quadratic in nesting depth. Inside :func:`remembered_effects`,
each op's effects are computed once, the nested ones included, on this
thread only; outside it ``get_effects`` is xDSL's.

Only a pass that does not add, erase or move ops while the memo is open may
open it (CSE marks its erasures and deletes them at the end; DCE deletes after
its sweep). Replacing uses is fine: an op's effects do not depend on them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Set
from contextlib import contextmanager

import xdsl.traits
import xdsl.transforms.common_subexpression_elimination as xdsl_cse
import xdsl.transforms.dead_code_elimination as xdsl_dce
from xdsl.ir import Operation
from xdsl.traits import EffectInstance

_xdsl_get_effects = xdsl.traits.get_effects
_local = threading.local()


def get_effects(op: Operation) -> Set[EffectInstance] | None:
    """xDSL's ``get_effects``, remembered inside :func:`remembered_effects`."""
    memo: dict[Operation, Set[EffectInstance] | None] | None = getattr(_local, "memo", None)
    if memo is None:
        return _xdsl_get_effects(op)
    if op in memo:
        return memo[op]
    found = _xdsl_get_effects(op)
    # frozen: callers holding the remembered set cannot change it for the next
    memo[op] = found = None if found is None else frozenset(found)
    return found


@contextmanager
def remembered_effects() -> Iterator[None]:
    """Remember every op's effects until the block ends (nesting is fine)."""
    if getattr(_local, "memo", None) is not None:
        yield
        return
    _local.memo = {}
    try:
        yield
    finally:
        _local.memo = None


# xDSL's callers hold the function by name: its recursive trait and its
# helpers in xdsl.traits, DCE's liveness and CSE's side-effect scan
for _module in (xdsl.traits, xdsl_dce, xdsl_cse):
    _module.get_effects = get_effects  # pyright: ignore[reportAttributeAccessIssue]
