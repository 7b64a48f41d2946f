"""Memoized IRDL verification.

``mlkit-opt`` verifies the whole module after every pass, as ``mlir-opt``'s
``--verify-each`` does, so an unchanged op is verified once per pass. xDSL's
``OpDef.verify`` re-derives everything each time (variadic segment sizes,
every operand's and attribute's constraint): it was 40% of a
``lower-to-cpu`` run. Its checks of operands, results, regions' block counts
and entry arguments, successors, properties and attributes are a pure
function of those (immutable) attributes and counts, so this remembers the
signatures that passed and re-runs only the op's traits (which may look
further, at parents, symbols or nested ops) for them. The op's own
``verify_`` hook still runs every time.

Signatures are looked up by the identity of their attribute objects first
(the memo holds on to those objects, so an id is never reused while it is
in the memo), then by the attributes' values: a lowering builds a fresh but
equal type for every op it creates, so identity alone missed one op in five
(five thousand on 20 functions, against two hundred new signatures by
value), and each miss cost 120 µs of xDSL's checks. Both memos are dropped
whole when they grow past ``LIMIT`` entries.
"""

from __future__ import annotations

from xdsl.ir import Attribute, Operation
from xdsl.irdl.operations import OpDef

LIMIT = 200_000

_unmemoized_verify = OpDef.verify
_passed: dict[tuple[object, ...], tuple[Attribute, ...]] = {}
_passed_by_value: set[tuple[object, ...]] = set()


def _signature(op_def: OpDef, op: Operation) -> tuple[tuple[object, ...], tuple[Attribute, ...]]:
    """The key of everything ``OpDef.verify`` reads besides the traits, and
    the attributes whose ids the key holds."""
    operands, successors = op._operands, op._successors  # pyright: ignore[reportPrivateUsage] (no views)
    keep: list[Attribute] = [operand.type for operand in operands]
    keep += [result.type for result in op.results]
    regions: list[object] = []
    for region in op.regions:
        entry = region.first_block
        if entry is None:
            regions.append(None)
        else:
            arg_types = entry.arg_types
            keep += arg_types
            # xDSL checks only whether a region has exactly one block
            regions.append((entry is region.last_block, len(arg_types)))
    names: list[str] = []
    for table in (op.properties, op.attributes):
        for name, attr in table.items():
            names.append(name)
            keep.append(attr)
        names.append("")  # the boundary between properties and attributes
    key = (
        id(op_def),
        len(operands),
        len(op.results),
        len(successors),
        tuple(regions),
        tuple(names),
        tuple(map(id, keep)),
    )
    return key, tuple(keep)


def _memoized_verify(self: OpDef, op: Operation) -> None:
    """``OpDef.verify``, skipping the signature checks already passed."""
    key, keep = _signature(self, op)
    if key in _passed:
        for trait in self.traits:
            trait.verify(op)
        return
    by_value = key[:-1] + (keep,)
    try:
        known = by_value in _passed_by_value
    except TypeError:  # an attribute without a hash: checked by identity only
        known, by_value = False, None
    if known:
        for trait in self.traits:
            trait.verify(op)
    else:
        _unmemoized_verify(self, op)
        if by_value is not None:
            if len(_passed_by_value) >= LIMIT:
                _passed_by_value.clear()
            _passed_by_value.add(by_value)
    if len(_passed) >= LIMIT:
        _passed.clear()
    _passed[key] = keep


OpDef.verify = _memoized_verify  # pyright: ignore[reportAttributeAccessIssue]
