"""What upstream's buffer placement passes (``buffer-hoisting``,
``buffer-loop-hoisting``, ``promote-buffers-to-stack``) share: the values a
buffer flows into (``BufferViewFlowAnalysis``), block dominance across nested
regions, the ops that are loops, region control flow or allocation scopes, and
the walk up the region tree that finds where an allocation may move.

Ops are known by name, as upstream knows them by interface: a loop is a
region op whose body may run again (``scf.for``, ``scf.while``,
``affine.for``); known control flow also takes ``scf.if``,
``scf.execute_region``, ``scf.index_switch``, ``affine.if`` and the parallel
loops; an allocation scope (``AutomaticAllocationScope``) is a function, an
``scf.for``/``parallel``/``forall``, an ``affine.for``/``parallel`` or a
``memref.alloca_scope``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from xdsl.dialects.builtin import MemRefType, UnregisteredOp
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsTerminator

from mlkit.diagnostics.dominance import DomTree, build_dom_tree

LOOPS = frozenset({"scf.for", "scf.while", "affine.for"})
CONTROL_FLOW = LOOPS | {
    "scf.if", "scf.execute_region", "scf.index_switch", "scf.parallel", "scf.forall",
    "affine.if", "affine.parallel", "memref.alloca_scope",
}  # fmt: skip
ALLOCATION_SCOPES = frozenset({
    "func.func", "llvm.func", "gpu.func", "scf.for", "scf.parallel", "scf.forall",
    "affine.for", "affine.parallel", "memref.alloca_scope",
})  # fmt: skip
VIEWS = frozenset({
    "memref.subview", "memref.cast", "memref.expand_shape", "memref.collapse_shape",
    "memref.reinterpret_cast", "memref.view", "memref.reshape", "memref.transpose",
    "memref.memory_space_cast", "memref.assume_alignment",
})  # fmt: skip


def _flows_to(value: SSAValue) -> Iterable[SSAValue]:
    """The values ``value`` is directly seen as: view results, the results
    and region arguments a terminator or region op hands it to, and the
    arguments of the blocks a branch passes it to."""
    for use in value.uses:
        op, k = use.operation, use.index
        if op.name in VIEWS:
            yield from (r for r in op.results if isinstance(r.type, MemRefType))
        elif op.name == "scf.for" and k >= 3:
            yield op.regions[0].block.args[k - 2]
            yield op.results[k - 3]
        elif op.name == "scf.while":
            yield op.regions[0].block.args[k]
        elif op.successors:
            yield from _branch_targets(op, k)
        elif is_return_like(op) and (parent := op.parent_op()) is not None:
            yield from _terminator_targets(op, parent, k)


def is_return_like(op: Operation) -> bool:
    """A registered terminator that hands values to its parent (upstream's
    ``isRegionReturnLike``; an unregistered op has no known traits)."""
    return not isinstance(op, UnregisteredOp) and op.has_trait(IsTerminator) and not op.successors


def _branch_targets(op: Operation, k: int) -> Iterable[SSAValue]:
    """Block arguments receiving operand ``k`` of a branch: the operands after
    the non-forwarded ones are split over the successors in order."""
    forwarded = [len(block.args) for block in op.successors]
    first = len(op.operands) - sum(forwarded)
    index = k - first
    for block, count in zip(op.successors, forwarded):
        if 0 <= index < count:
            yield block.args[index]
            return
        index -= count


def _terminator_targets(op: Operation, parent: Operation, k: int) -> Iterable[SSAValue]:
    """Where a region terminator hands operand ``k``: the parent's results
    and, in loops, the next iteration's region arguments."""
    if parent.name == "scf.while":
        if op.name == "scf.condition":
            if k >= 1:
                yield parent.regions[1].block.args[k - 1]
                yield parent.results[k - 1]
        else:
            yield parent.regions[0].block.args[k]
        return
    if parent.name == "scf.for":
        yield parent.regions[0].block.args[k + 1]
    if k < len(parent.results):
        yield parent.results[k]


def aliases(value: SSAValue) -> set[SSAValue]:
    """``value`` and every value it may flow into (upstream's
    ``BufferViewFlowAnalysis::resolve``)."""
    seen = {value}
    stack = [value]
    while stack:
        for target in _flows_to(stack.pop()):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def parent_block(value: SSAValue) -> Block | None:
    if isinstance(value, OpResult):
        return value.op.parent_block()
    return value.block  # type: ignore[attr-defined]


class Dominance:
    """Block dominance across nested regions, as upstream's ``DominanceInfo``
    answers it: a block dominates the blocks nested in the ops it holds."""

    def __init__(self) -> None:
        self._trees: dict[Region, DomTree] = {}

    def tree(self, region: Region) -> DomTree:
        if region not in self._trees:
            self._trees[region] = build_dom_tree(region)
        return self._trees[region]

    @staticmethod
    def _lift(block: Block, region: Region) -> Block | None:
        """The ancestor of ``block`` (itself included) that lies in ``region``."""
        current: Block | None = block
        while current is not None and current.parent is not region:
            op = current.parent_op()
            current = op.parent_block() if op is not None else None
        return current

    def properly_dominates(self, a: Block, b: Block) -> bool:
        if a is b or a.parent is None:
            return False
        lifted = self._lift(b, a.parent)
        if lifted is None:
            return False
        return lifted is a or self.tree(a.parent).dominates(a, lifted)

    def dominates(self, a: Block, b: Block) -> bool:
        return a is b or self.properly_dominates(a, b)

    def common_dominator(self, a: Block, b: Block) -> Block | None:
        """The nearest block dominating both (upstream's
        ``findNearestCommonDominator``)."""
        ancestors: dict[Region, Block] = {}
        current: Block | None = a
        while current is not None and current.parent is not None:
            ancestors.setdefault(current.parent, current)
            op = current.parent_op()
            current = op.parent_block() if op is not None else None
        current = b
        while current is not None and current.parent not in ancestors:
            op = current.parent_op()
            current = op.parent_block() if op is not None else None
        if current is None or current.parent is None:
            return None
        x, y = ancestors[current.parent], current
        tree = self.tree(current.parent)
        chain = set()
        node: Block | None = x
        while node is not None:
            chain.add(node)
            node = tree.idom.get(node)
        node = y
        while node is not None and node not in chain:
            node = tree.idom.get(node)
        return node

    def idom(self, block: Block) -> Block | None:
        region = block.parent
        if region is None or block is region.first_block:
            return None
        return self.tree(region).idom.get(block)


def find_placement_block(
    start: Block,
    upper_bound: Block | None,
    dominance: Dominance,
    legal: Callable[[Operation], bool],
    to_dominator: bool,
) -> Block:
    """Upstream's ``findPlacementBlock``: climb to immediate dominators (when
    ``to_dominator``) and out of parent ops (when ``legal``) while the upper
    bound still properly dominates where we are."""
    current = placement = start
    while (
        (op := current.parent_op()) is not None
        and (outer := op.parent_block()) is not None
        and (upper_bound is None or dominance.properly_dominates(upper_bound, current))
    ):
        idom = dominance.idom(current)
        if idom is not None:
            current = idom
            if to_dominator:
                placement = current
            continue
        if op.name not in CONTROL_FLOW or not legal(op):
            break
        current = placement = outer
    return placement


def start_operation(alloc: Operation, block: Block) -> Operation:
    """Upstream's ``getStartOperation``: the op of ``block`` holding ``alloc``
    (the alloc itself there), or the block's terminator."""
    op: Operation | None = alloc
    while op is not None and op.parent_block() is not block:
        outer = op.parent_block()
        op = outer.parent_op() if outer is not None else None
    if op is not None:
        return op
    last = block.last_op
    assert last is not None
    return last


def dependency_block(alloc: Operation, dominance: Dominance) -> Block | None:
    """The innermost block defining one of ``alloc``'s operands."""
    found: Block | None = None
    for operand in alloc.operands:
        block = parent_block(operand)
        if block is not None and (found is None or dominance.dominates(found, block)):
            found = block
    return found


def alias_dominator(value: SSAValue, dominance: Dominance) -> Block | None:
    """The nearest common dominator of the blocks of ``value`` and its aliases."""
    found = parent_block(value)
    for alias in aliases(value):
        block = parent_block(alias)
        if found is not None and block is not None:
            found = dominance.common_dominator(found, block)
    return found


def has_dealloc(value: SSAValue) -> bool:
    return any(use.operation.name == "memref.dealloc" for use in value.uses)


def function_ops(root: Operation, names: frozenset[str]) -> list[Operation]:
    """The ops named in ``names`` under ``root``, in pre-order. An explicit
    stack: xDSL's recursive ``walk`` resumes one generator per enclosing op for
    every op it yields, which is quadratic in nesting depth."""
    found: list[Operation] = []
    stack = [root]
    while stack:
        op = stack.pop()
        if op.name in names:
            found.append(op)
        for region in reversed(op.regions):
            for block in reversed(list(region.blocks)):
                stack.extend(reversed(list(block.ops)))
    return found


Bound = tuple[Block | None, Callable[[Operation], bool]]
"""For one allocation: the block it may not rise above, and which parent ops
it may leave."""
Placement = Callable[[Operation, "Dominance"], Bound]


def hoist_allocations(
    root: Operation, names: frozenset[str], placement: Placement, to_dominator: bool
) -> None:
    """Upstream's ``BufferAllocationHoisting::hoist``: move each allocation
    named in ``names`` to the start operation of the block
    :func:`find_placement_block` picks."""
    dominance = Dominance()
    for alloc in function_ops(root, names):
        block = alloc.parent_block()
        if block is None:
            continue
        upper, legal = placement(alloc, dominance)
        target = find_placement_block(block, upper, dominance, legal, to_dominator)
        if target is not block:
            start = start_operation(alloc, target)
            alloc.detach()
            target.insert_op_before(alloc, start)
