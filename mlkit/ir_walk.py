"""Walks of nested IR in time linear in its size, whatever its depth.

xDSL's ``Operation.walk``, ``Region.walk`` and ``Block.walk`` recurse with
``yield from`` at every level, so an op at depth d is handed up through 3d
generators: walking ``n`` nested ``scf.if`` costs ``n**2``, and every pass
that walks (bufferization, deallocation, LICM, scf-to-openmp, xDSL's own CSE
and DCE) became quadratic in nesting depth. These walk the same ops in the
same order with one explicit stack of iterators, as lazily as xDSL's do (a
block's ops are read one at a time, the next one taken before the current is
handed out, so erasing the op just yielded stays safe), and replace xDSL's
methods process-wide.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, Operation, Region


def _nested(op: Operation, reverse: bool) -> Iterator[Operation]:
    """The ops directly inside ``op``'s regions, in xDSL's walk order."""
    for region in reversed(op.regions) if reverse else op.regions:
        for block in reversed(region.blocks) if reverse else region.blocks:
            yield from reversed(block.ops) if reverse else block.ops


def _walk_from(
    tops: Iterator[Operation], reverse: bool, region_first: bool
) -> Iterator[Operation]:
    """Every op of ``tops`` and all they hold, pre- or post-order."""
    stack: list[tuple[Operation | None, Iterator[Operation]]] = [(None, tops)]
    while stack:
        owner, ops = stack[-1]
        op = next(ops, None)
        if op is None:
            stack.pop()
            if region_first and owner is not None:
                yield owner
            continue
        if not region_first:
            yield op
        stack.append((op, _nested(op, reverse)))


def walk_operation(
    self: Operation, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """``Operation.walk``: the op and everything nested in it."""
    return _walk_from(iter((self,)), reverse, region_first)


def walk_region(
    self: Region, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """``Region.walk``: every op in the region's blocks, nested ones too."""

    def tops() -> Iterator[Operation]:
        for block in reversed(self.blocks) if reverse else self.blocks:
            yield from reversed(block.ops) if reverse else block.ops

    return _walk_from(tops(), reverse, region_first)


def walk_block(
    self: Block, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """``Block.walk``: every op in the block, nested ones too."""

    def tops() -> Iterator[Operation]:
        yield from reversed(self.ops) if reverse else self.ops

    return _walk_from(tops(), reverse, region_first)


Operation.walk = walk_operation  # pyright: ignore[reportAttributeAccessIssue]
Region.walk = walk_region  # pyright: ignore[reportAttributeAccessIssue]
Block.walk = walk_block  # pyright: ignore[reportAttributeAccessIssue]
