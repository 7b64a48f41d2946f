"""When ops run relative to each other, for One-Shot Analysis: op dominance
(``happensBefore``), reachability between blocks, regions that run repeatedly
regions that exclude each other (the branches of an ``scf.if``) and
parallel ones (the body of an ``scf.forall``)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue

from mlkit.passes.transforms.region_utils import reachable
from mlkit.passes.transforms.bufferization.operands import constant_int

# Ops whose regions are alternatives (upstream: RegionBranchOpInterface
# regions that cannot reach each other), and the other region-branching ops.
EXCLUSIVE_BRANCHES = ("scf.if", "scf.index_switch", "affine.if")
OTHER_BRANCHES = ("scf.for", "scf.while", "scf.parallel", "scf.forall", "scf.execute_region",
                  "affine.for", "affine.parallel")


def successors(block: Block) -> list[Block]:
    last = block.last_op
    return list(last.successors) if last is not None else []


def is_reachable(start: Block, target: Block, excluded: set[Block]) -> bool:
    """Whether ``target`` can run after ``start`` along a path that avoids the
    ``excluded`` blocks (upstream's ``Block::isReachable``)."""
    if target in excluded:
        return False
    onward = lambda b: [] if b in excluded else successors(b)  # noqa: E731
    return any(b is target for b in reachable(successors(start), onward))


def _dominators(region: Region) -> dict[Block, set[Block]]:
    blocks = list(region.blocks)
    entry = blocks[0]
    preds: dict[Block, list[Block]] = {b: [] for b in blocks}
    for b in blocks:
        for s in successors(b):
            if s in preds:
                preds[s].append(b)
    every = set(blocks)
    dom = {b: ({b} if b is entry else set(every)) for b in blocks}
    changed = True
    while changed:
        changed = False
        for b in blocks[1:]:
            incoming = [dom[p] for p in preds[b]]
            new = ({b} | set.intersection(*incoming)) if incoming else {b}
            if new != dom[b]:
                dom[b], changed = new, True
    return dom


class Dominance:
    """Op dominance over a tree of regions, with dominator sets per region.

    ``number(root)`` numbers the ops under ``root`` in pre-order; where all
    their regions have one block, ``happens_before`` is then a comparison of
    numbers (an op precedes another in pre-order exactly when it or an
    ancestor precedes the other's ancestor in their common block)."""

    def __init__(self) -> None:
        self._cache: dict[Region, dict[Block, set[Block]]] = {}
        self._positions: dict[Block, dict[Operation, int]] = {}
        self.pre: dict[Operation, int] = {}
        self.last: dict[Operation, int] = {}
        self.structured = False

    def number(self, root: Operation) -> None:
        self.pre, self.last, structured = {}, {}, True
        count = 0

        def visit(op: Operation) -> None:
            nonlocal count, structured
            self.pre[op] = count
            count += 1
            for region in op.regions:
                if len(region.blocks) > 1 and op is not root:
                    structured = False
                for block in region.blocks:
                    for inner in block.ops:
                        visit(inner)
            self.last[op] = count - 1

        visit(root)
        # ops directly in a module (a graph region) are functions, whose
        # values never meet; pre-order stands for dominance inside them
        self.structured = structured and (root.name == "builtin.module" or all(
            len(r.blocks) <= 1 for r in root.regions))

    def _position(self, block: Block, op: Operation) -> int:
        """``op``'s index in ``block`` (the IR does not move while analyzed)."""
        if block not in self._positions:
            self._positions[block] = {o: i for i, o in enumerate(block.ops)}
        return self._positions[block][op]

    def _block_dominates(self, region: Region, a: Block, b: Block) -> bool:
        if region not in self._cache:
            self._cache[region] = _dominators(region)
        return a in self._cache[region].get(b, set())

    def properly_dominates(self, a: Operation, b: Operation) -> bool:
        if a is b:
            return False
        a_block, b_block = a.parent_block(), b.parent_block()
        if a_block is None or b_block is None:
            return False
        region = a_block.parent
        if region is not b_block.parent:
            found = region.find_ancestor_block_in_region(b_block) if region else None
            if found is None:
                return False
            b = found.find_ancestor_op_in_block(b)  # type: ignore[assignment]
            b_block = found
            if a is b:
                return True
        if a_block is b_block:
            if _graph_region(a_block):
                return True
            return self._position(a_block, a) < self._position(a_block, b)
        assert region is not None
        return self._block_dominates(region, a_block, b_block)

    def happens_before(self, a: Operation, b: Operation) -> bool:
        """Upstream's ``happensBefore``: ``a`` or an ancestor of ``a`` properly
        dominates ``b``, and ``b`` is not inside ``a``."""
        if self.structured and a in self.pre and b in self.pre:
            pa, pb = self.pre[a], self.pre[b]
            return pa < pb and pb > self.last[a]
        current: Operation | None = a
        while current is not None:
            if current is not b and current.is_ancestor(b):
                return False
            if self.properly_dominates(current, b):
                return True
            current = current.parent_op()
        return False

    def contains(self, a: Operation, b: Operation) -> bool:
        """Whether ``b`` is ``a`` or nested in it."""
        if a in self.pre and b in self.pre:
            return self.pre[a] <= self.pre[b] <= self.last[a]
        return a.is_ancestor(b)


def _graph_region(block: Block) -> bool:
    parent = block.parent_op()
    return parent is not None and parent.name == "builtin.module"


def inside_mutually_exclusive_regions(a: Operation, b: Operation) -> bool:
    """Whether ``a`` and ``b`` sit in alternative regions of the closest
    region-branching op that holds both."""
    current = a.parent_op()
    while current is not None:
        if current.name in EXCLUSIVE_BRANCHES or current.name in OTHER_BRANCHES:
            if current is not b and current.is_ancestor(b):
                if current.name not in EXCLUSIVE_BRANCHES:
                    return False
                ra = next(r for r in current.regions if r.is_ancestor(a))
                rb = next(r for r in current.regions if r.is_ancestor(b))
                return ra is not rb
        current = current.parent_op()
    return False


def value_region(value: SSAValue) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent
    block = value.owner.parent_block()  # type: ignore[union-attr]
    return block.parent if block is not None else None


def enclosing_repetitive(region: Region | None, repetitive: Callable[[Operation], bool]) -> Region | None:
    """The closest region at or above ``region`` whose op runs it repeatedly."""
    while region is not None:
        parent = region.parent_op()
        if parent is None:
            return None
        if repetitive(parent):
            return region
        region = parent.parent_region()
    return None


def is_parallel(op: Operation) -> bool:
    """Whether an ``scf.forall`` runs its body more than once (upstream's
    ``isRepetitiveRegion``/``isParallelRegion``: some dimension has a
    second iteration or a bound that is not constant)."""
    if op.name != "scf.forall":
        return False
    dynamic = {"lb": iter(op.dynamicLowerBound), "ub": iter(op.dynamicUpperBound),  # type: ignore[attr-defined]
               "step": iter(op.dynamicStep)}  # type: ignore[attr-defined]
    static = {"lb": op.staticLowerBound, "ub": op.staticUpperBound, "step": op.staticStep}  # type: ignore[attr-defined]
    values = {k: [constant_int(next(dynamic[k])) if v == DYNAMIC_INDEX else v
                  for v in static[k].get_values()] for k in static}
    for lb, ub, step in zip(values["lb"], values["ub"], values["step"]):
        if lb is None or ub is None or step is None or lb + step < ub:
            return True
    return False
