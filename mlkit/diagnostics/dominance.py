"""Dominance verification, as upstream's ``verifyDominanceOfContainedRegions``.

xDSL never checks that an operand's definition dominates its use, so
``%a = arith.addi %b, %b`` before ``%b``, a value using itself, or a forward
reference bound to another region's block argument all verified. Upstream's
rules: in an SSACFG region an op's operand must be defined by an op that
*properly* dominates it (earlier in the same block, or in a block that
dominates the user's block, or in an enclosing region at a point that
dominates the user's ancestor there); a block argument dominates its whole
block. Graph regions (ops with ``NoTerminator``, like ``builtin.module``) drop
the order inside their block, and uses in unreachable blocks are not checked.

Everything is linear-ish: one walk numbers each op, block and region with its
pre-order interval, so "is nested in" is an O(1) comparison and the ancestor
block of a use in a region is a binary search; dominator trees (Cooper, Harvey
and Kennedy's iterative algorithm over reverse post-order) are built only for
regions with more than one block, and each query is an interval test on the
tree's DFS numbering.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsolatedFromAbove, NoTerminator

from mlkit.diagnostics import Diagnostic, DiagnosticError, Severity, UNKNOWN
from mlkit.diagnostics.locations import op_loc

Node = Operation | Block | Region


def is_graph_region(region: Region) -> bool:
    """Upstream's ``RegionKind::Graph``: the regions of ``NoTerminator`` ops
    (``builtin.module``, ``gpu.module``); unregistered ops keep SSA dominance."""
    op = region.parent
    return op is not None and not isinstance(op, UnregisteredOp) and op.has_trait(NoTerminator)


@dataclass
class DomTree:
    """Dominators of one multi-block region, numbered for O(1) queries."""

    pre: dict[Block, int] = field(default_factory=dict["Block", int])
    post: dict[Block, int] = field(default_factory=dict["Block", int])
    idom: dict[Block, Block] = field(default_factory=dict["Block", "Block"])
    """Each reachable block's immediate dominator (none for the entry block)."""

    def reachable(self, block: Block) -> bool:
        return block in self.pre

    def dominates(self, a: Block, b: Block) -> bool:
        """LLVM's rule: an unreachable block is dominated by everything and
        dominates nothing but itself."""
        if a is b or b not in self.pre:
            return True
        if a not in self.pre:
            return False
        return self.pre[a] <= self.pre[b] and self.post[b] <= self.post[a]


def _successors(block: Block) -> tuple[Block, ...]:
    last = block.last_op
    return tuple(last.successors) if last is not None else ()


def build_dom_tree(region: Region) -> DomTree:
    """Cooper-Harvey-Kennedy: iterate ``idom`` over reverse post-order until
    it settles (two passes for reducible CFGs), then number the tree."""
    entry = region.first_block
    tree = DomTree()
    if entry is None:
        return tree
    # iterative DFS for the post-order of the reachable blocks
    order: list[Block] = []
    seen: set[Block] = {entry}
    stack: list[tuple[Block, int]] = [(entry, 0)]
    while stack:
        block, i = stack[-1]
        succs = _successors(block)
        if i < len(succs):
            stack[-1] = (block, i + 1)
            nxt = succs[i]
            if nxt not in seen and nxt.parent is region:
                seen.add(nxt)
                stack.append((nxt, 0))
        else:
            stack.pop()
            order.append(block)
    rpo = order[::-1]
    number = {block: i for i, block in enumerate(rpo)}
    preds: dict[Block, list[Block]] = {block: [] for block in rpo}
    for block in rpo:
        for succ in _successors(block):
            if succ in preds:
                preds[succ].append(block)
    idom: list[int] = [-1] * len(rpo)
    idom[0] = 0
    changed = True
    while changed:
        changed = False
        for i in range(1, len(rpo)):
            new = -1
            for pred in preds[rpo[i]]:
                p = number[pred]
                if idom[p] == -1:
                    continue
                if new == -1:
                    new = p
                    continue
                a, b = p, new  # intersect: climb the tree until the fingers meet
                while a != b:
                    while a > b:
                        a = idom[a]
                    while b > a:
                        b = idom[b]
                new = a
            if new != idom[i]:
                idom[i] = new
                changed = True
    children: list[list[int]] = [[] for _ in rpo]
    for i in range(1, len(rpo)):
        children[idom[i]].append(i)
        tree.idom[rpo[i]] = rpo[idom[i]]
    counter = 0
    walk: list[tuple[int, bool]] = [(0, False)]
    while walk:
        i, done = walk.pop()
        if done:
            tree.post[rpo[i]] = counter
        else:
            tree.pre[rpo[i]] = counter
            walk.append((i, True))
            walk.extend((c, False) for c in reversed(children[i]))
        counter += 1
    return tree


class DominanceChecker:
    """Numbers the IR under one root and answers upstream's
    ``properlyDominates(value, op)``."""

    def __init__(self, root: Operation) -> None:
        self.root = root
        self.pre: dict[Node, int] = {}
        self.end: dict[Node, int] = {}
        self.block_starts: dict[Region, list[int]] = {}
        self.region_blocks: dict[Region, list[Block]] = {}
        self.trees: dict[Region, DomTree] = {}
        self.graph: dict[Region, bool] = {}
        self.outer_regions: set[Region] = set()
        above = root.parent
        while above is not None and above.parent is not None:
            self.outer_regions.add(above.parent)
            parent_op = above.parent.parent
            above = parent_op.parent if parent_op is not None else None
        self._number(root)

    def _number(self, root: Operation) -> None:
        counter = 0
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                self.end[node] = counter
                counter += 1
                continue
            self.pre[node] = counter
            counter += 1
            stack.append((node, True))
            if isinstance(node, Operation):
                stack.extend((r, False) for r in reversed(node.regions))
            elif isinstance(node, Region):
                blocks = list(node.blocks)
                self.region_blocks[node] = blocks
                self.block_starts[node] = []
                stack.extend((b, False) for b in reversed(blocks))
            else:
                region = node.parent
                if region is not None and region in self.block_starts:
                    self.block_starts[region].append(self.pre[node])
                ops = list(node.ops)
                stack.extend((o, False) for o in reversed(ops))

    def inside(self, inner: Node, outer: Node) -> bool:
        """``inner`` is ``outer`` or nested in it."""
        if inner not in self.pre or outer not in self.pre:
            return False
        return self.pre[outer] <= self.pre[inner] <= self.end[outer]

    def tree(self, region: Region) -> DomTree | None:
        """The dominator tree of a region with more than one block."""
        blocks = self.region_blocks.get(region, [])
        if len(blocks) < 2:
            return None
        if region not in self.trees:
            self.trees[region] = build_dom_tree(region)
        return self.trees[region]

    def ancestor_block(self, region: Region, node: Operation) -> Block | None:
        """The block of ``region`` that contains ``node``, if any."""
        if not self.inside(node, region):
            return None
        starts = self.block_starts[region]
        i = bisect.bisect_right(starts, self.pre[node]) - 1
        return self.region_blocks[region][i] if i >= 0 else None

    def block_dominates(self, a: Block, user: Operation) -> bool:
        """Upstream's ``dominates(a, user->getBlock())``."""
        region = a.parent
        if user.parent is a or self.inside(user, a):
            return True
        if region is None:
            return False
        if region in self.outer_regions:
            return True  # defined above the root: the enclosing verification's job
        b = self.ancestor_block(region, user)
        if b is None:
            return False
        tree = self.tree(region)
        return tree is None or tree.dominates(a, b)

    def properly_dominates(self, value: SSAValue, user: Operation) -> bool:
        if isinstance(value, BlockArgument):
            return self.block_dominates(value.block, user)
        if not isinstance(value, OpResult):
            return False
        definer = value.op
        block = definer.parent
        region = block.parent if block is not None else None
        if block is None or region is None:
            return False
        graph = self.graph.get(region)
        if graph is None:
            graph = self.graph[region] = is_graph_region(region)
        if definer not in self.pre or block not in self.pre:
            if region not in self.outer_regions:
                return False  # erased, or in another tree
            # above the root: the enclosing verification's job, but the root
            # may not use its own results unless it sits in a graph region
            return definer is not self.root or graph
        if self.inside(user, block):
            if self.inside(user, definer):  # a value used by itself or inside its op
                return graph
            return graph or self.end[definer] < self.pre[user]
        b = self.ancestor_block(region, user)
        if b is None:
            return False
        tree = self.tree(region)
        return tree is not None and block is not b and tree.dominates(block, b)

    def reachable(self, block: Block) -> bool:
        region = block.parent
        tree = self.tree(region) if region is not None else None
        return tree is None or tree.reachable(block)


def dominance_holds(root: Operation, *, isolate: bool = False) -> bool:
    """A quick sufficient test: one scoped walk that keeps the set of values
    visible at each point (block arguments, results of earlier ops, the whole
    block in a graph region, and in a multi-block region the values of the
    blocks that dominate, walked in dominator-tree order). True means every
    use is dominated; False means "look closer" (a value from above the root,
    an unreachable block, or a real violation), and the exact checker decides
    and words the error. Verification after each pass mostly sees valid IR,
    so this saves the numbering and the per-operand queries.

    With ``isolate``, the regions of ``IsolatedFromAbove`` ops start from an
    empty set, so True also means that no op uses a value from outside the
    isolated op it is in."""
    visible: set[SSAValue] = set()
    # events: ("region", Region) | ("block", Block, graph, children) |
    # ("op", Operation, added) | ("results", Operation, added) | ("leave", added)
    # | ("restore", the visible set outside an isolated op)
    stack: list[tuple[object, ...]] = [("region", region) for region in reversed(root.regions)]
    while stack:
        event = stack.pop()
        kind = event[0]
        if kind == "op":
            op, added = event[1], event[2]
            for operand in op.operands:
                if operand not in visible:
                    return False
            stack.append(("results", op, added))
            if isolate and op.regions and op.has_trait(IsolatedFromAbove):
                stack.append(("restore", visible))
                visible = set()
            stack.extend(("region", region) for region in reversed(op.regions))
        elif kind == "results":
            for result in event[1].results:
                visible.add(result)
                event[2].append(result)
        elif kind == "leave":
            visible.difference_update(event[1])
        elif kind == "restore":
            visible = event[1]
        elif kind == "region":
            region = event[1]
            entry = region.first_block
            if entry is None:
                continue
            graph = is_graph_region(region)
            if entry is region.last_block:
                stack.append(("block", entry, graph, {}))
                continue
            tree = build_dom_tree(region)
            children: dict[Block, list[Block]] = {}
            for block in region.blocks:
                if block not in tree.pre:
                    return False  # uses in unreachable blocks are not checked
                dominator = tree.idom.get(block)
                if dominator is not None:
                    children.setdefault(dominator, []).append(block)
            stack.append(("block", entry, graph, children))
        else:
            block, graph, children = event[1], event[2], event[3]
            added: list[SSAValue] = list(block.args)
            if graph:
                added += [result for op in block.ops for result in op.results]
            visible.update(added)
            stack.append(("leave", added))
            stack.extend(("block", child, graph, children) for child in reversed(children.get(block, ())))
            stack.extend(("op", op, added) for op in reversed(list(block.ops)))
    return True


def verify_dominance(root: Operation) -> None:
    """Raise :class:`DiagnosticError` at the first operand (in source order)
    that does not dominate its use."""
    checker = DominanceChecker(root)
    stack: list[Operation] = [root]
    while stack:
        op = stack.pop()
        block = op.parent
        if op is not root and block is not None and checker.reachable(block):
            for index, operand in enumerate(op.operands):
                if not checker.properly_dominates(operand, op):
                    raise DiagnosticError(_diagnose(checker, op, index))
        for region in reversed(op.regions):
            for child_block in reversed(checker.region_blocks.get(region, [])):
                stack.extend(reversed(list(child_block.ops)))


def _relation(checker: DominanceChecker, user_region: Region | None, def_region: Region) -> str:
    if user_region is def_region:
        return "same region"
    if user_region is not None and checker.inside(user_region, def_region):
        return "parent region"
    if user_region is not None and checker.inside(def_region, user_region):
        return "child region"
    return "neither"


def _diagnose(checker: DominanceChecker, op: Operation, index: int) -> Diagnostic:
    """Upstream's ``diagnoseInvalidOperandDominance``: the error and its note."""
    diag = Diagnostic(Severity.ERROR, f"operand #{index} does not dominate this use", op_loc(op))
    operand = op.operands[index]
    user_block = op.parent
    user_region = user_block.parent if user_block is not None else None
    if isinstance(operand, OpResult):
        definer = operand.op
        def_block = definer.parent
        def_region = def_block.parent if def_block is not None else None
        if def_block is user_block:
            where = "op in the same block"
        elif def_region is None:
            where = "op is neither in a parent nor in a child region"
        else:
            relation = _relation(checker, user_region, def_region)
            where = (
                "op is neither in a parent nor in a child region"
                if relation == "neither"
                else f"op in the {relation}" if relation == "same region" else f"op in a {relation}"
            )
        note = f"operand defined here ({where})"
        diag.notes.append(Diagnostic(Severity.NOTE, note, op_loc(definer)))
        return diag
    if isinstance(operand, BlockArgument):
        owner = operand.block
        region = owner.parent
        loc = op_loc(region.parent) if region is not None and region.parent else UNKNOWN
        if region is None:
            diag.notes.append(Diagnostic(Severity.NOTE, " (block without parent)", loc))
            return diag
        blocks = checker.region_blocks.get(region) or list(region.blocks)
        number = next((i for i, b in enumerate(blocks) if b is owner), 0)
        relation = _relation(checker, user_region, region)
        where = {
            "same region": "in the same region",
            "parent region": "in a parent region",
            "child region": "in a child region",
        }.get(relation, "neither in a parent nor in a child region")
        text = f"operand defined as a block argument (block #{number} {where})"
        diag.notes.append(Diagnostic(Severity.NOTE, text, loc))
    return diag
