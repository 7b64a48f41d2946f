"""Running rewrite patterns inside the op a pass is given.

A pass runs on one op (the module, or an op a nested pipeline anchors it on)
and rewrites what its regions hold, never the op itself, as upstream's pass
manager has it. xDSL's walker rewrites a region; these helpers walk each
region of the pass's op, the greedy way or the way a conversion does."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriterListener
from xdsl.pattern_rewriter import PatternRewriteWalker, RewritePattern


class LinearWalker(PatternRewriteWalker):
    """xDSL's walker, filling its worklist without nested generators.

    ``Operation.walk`` recurses with ``yield from`` at every level, so each op
    at depth d passes through d generators: seeding the worklist over 2,000
    nested ``scf.if`` was quadratic. This visits the same ops in the same order
    with one explicit stack.
    """

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        reverse = not self.walk_reverse
        post_order = not self.walk_regions_first

        def children(node: Operation | Region | Block) -> list[Operation]:
            # exact class tests: isinstance against xDSL's ABCs is slow, and
            # this runs for every op of every walk
            kind = type(node)
            if kind is Block:
                blocks = [node]
            elif kind is Region:
                blocks = list(node.blocks)  # pyright: ignore[reportAttributeAccessIssue]
            else:
                blocks = [block for region in node.regions for block in region.blocks]  # pyright: ignore[reportAttributeAccessIssue]
            ops = [child for block in blocks for child in block.ops]
            if reverse:
                # reversed regions, blocks and ops: the reverse of the whole list
                ops.reverse()
            return ops

        stack: list[tuple[Operation, bool]] = []
        if type(op) is not Region and type(op) is not Block:
            stack.append((op, False))  # pyright: ignore[reportArgumentType]
        else:
            stack.extend((child, False) for child in reversed(children(op)))
        while stack:
            current, expanded = stack.pop()
            if expanded:
                self._worklist.push(current)
                continue
            if post_order:
                stack.append((current, True))
            else:
                self._worklist.push(current)
            stack.extend((child, False) for child in reversed(children(current)))


    def rewrite_region_once(self, region: Region) -> bool:
        """One round of :meth:`rewrite_region`: seed the worklist, rewrite
        until it is empty (ops the rewrites create or change join it), then
        ``post_walk_func``; whether anything changed. For drivers that bound
        the rounds, as upstream's ``max-iterations``."""
        listener = self._get_rewriter_listener()
        self._populate_worklist(region)
        changed = self._process_worklist(listener)
        if self.post_walk_func is not None:
            changed |= self.post_walk_func(region, listener)
        return changed


def rewrite_regions(
    root: Operation,
    pattern: RewritePattern,
    *,
    apply_recursively: bool = True,
    post_walk_func: Callable[[Region, PatternRewriterListener], bool] | None = None,
) -> None:
    """Walk ``pattern`` over every region of ``root`` (to a fixed point
    unless ``apply_recursively`` is false), then ``post_walk_func``."""
    walker = LinearWalker(
        pattern, apply_recursively=apply_recursively, post_walk_func=post_walk_func
    )
    for region in root.regions:
        walker.rewrite_region(region)


def apply_greedily(root: Operation, patterns: Sequence[RewritePattern], ctx: Context) -> None:
    """Rewrite ``root``'s regions with ``patterns`` to a fixed point, folding
    as it goes, as upstream's greedy driver does."""
    rewrite_regions(root, GreedyRewritePatternApplier(list(patterns), ctx=ctx, folding_enabled=True))


def apply_conversion_patterns(
    root: Operation, patterns: Sequence[RewritePattern], *, apply_recursively: bool = True
) -> None:
    """Apply ``patterns`` in ``root``'s regions as a conversion does: unlike
    a greedy rewrite, ops whose results are unused stay, as upstream's
    dialect conversion keeps them."""
    rewrite_regions(
        root,
        GreedyRewritePatternApplier(list(patterns), dce_enabled=False),
        apply_recursively=apply_recursively,
    )
