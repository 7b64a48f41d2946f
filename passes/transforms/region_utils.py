"""Queries on the IR that several passes share, as upstream's
``RegionUtils``: where an op or a value's definition is nested, the values a
region uses from above it, and walks along use-def chains."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TypeVar

from xdsl.ir import Block, Operation, SSAValue

T = TypeVar("T", bound=Hashable)


def defining_block(value: SSAValue) -> Block | None:
    """The block that holds ``value``'s definition (the block itself for a
    block argument)."""
    owner = value.owner
    return owner if isinstance(owner, Block) else owner.parent_block()


def is_defined_inside(item: SSAValue | Operation, op: Operation) -> bool:
    """Whether an op, or a value's definition, lies strictly inside ``op``'s
    regions."""
    block = item.parent_block() if isinstance(item, Operation) else defining_block(item)
    return block is not None and op.is_ancestor(block)


def used_values_defined_above(op: Operation) -> list[SSAValue]:
    """The values the ops in ``op``'s regions use that are defined outside
    ``op``, in the order of their first use (upstream's
    ``getUsedValuesDefinedAbove``)."""
    seen: dict[SSAValue, None] = {}
    for region in op.regions:
        for inner in region.walk():
            for operand in inner.operands:
                if operand not in seen and not is_defined_inside(operand, op):
                    seen[operand] = None
    return list(seen)


def reachable(roots: Iterable[T], successors: Callable[[T], Iterable[T]]) -> Iterator[T]:
    """Each item reachable from ``roots`` through ``successors``, once
    (a depth-first worklist walk, as along the users of a value)."""
    work, seen = list(roots), set()
    while work:
        item = work.pop()
        if item in seen:
            continue
        seen.add(item)
        yield item
        work.extend(successors(item))
