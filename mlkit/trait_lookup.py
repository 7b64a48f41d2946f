"""Memoized trait lookups.

xDSL's ``Operation.get_trait`` scans the op class's traits with an
``isinstance`` each (against ABCs, which is slow) on every call, and passes
ask it for every op they visit (``has_trait(ConstantLike)`` in the greedy
driver, ``IsTerminator``/``Pure`` in dead-code checks): half a million scans
in a ``lower-to-cpu`` run of the compile benchmark. An op class's traits only
change through ``OpTraits.add_trait``, at import time, so the answer for a
class and a trait class is remembered, and forgotten whenever a trait is
added.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation
from xdsl.ir.core import OpTraits

_xdsl_get_trait = Operation.get_trait.__func__  # pyright: ignore[reportFunctionMemberAccess]
_xdsl_add_trait = OpTraits.add_trait
_found: dict[tuple[type, type], Any] = {}


def _get_trait(cls: type[Operation], trait: Any) -> Any:
    """``Operation.get_trait``, remembered for trait classes."""
    if type(trait) is not type and not isinstance(trait, type):
        return _xdsl_get_trait(cls, trait)  # a trait instance: compared by value
    key = (cls, trait)
    try:
        return _found[key]
    except KeyError:
        found = _found[key] = _xdsl_get_trait(cls, trait)
        return found


def _has_trait(cls: type[Operation], trait: Any, *, value_if_unregistered: bool = True) -> bool:
    """``Operation.has_trait`` through the memo (unregistered ops override it)."""
    try:
        return _found[(cls, trait)] is not None
    except (KeyError, TypeError):  # not looked up yet, or an unhashable trait instance
        return cls.get_trait(trait) is not None


def _add_trait(self: OpTraits, trait: Any) -> None:
    _found.clear()
    _xdsl_add_trait(self, trait)


Operation.get_trait = classmethod(_get_trait)  # pyright: ignore[reportAttributeAccessIssue]
Operation.has_trait = classmethod(_has_trait)  # pyright: ignore[reportAttributeAccessIssue]
OpTraits.add_trait = _add_trait  # pyright: ignore[reportAttributeAccessIssue]
