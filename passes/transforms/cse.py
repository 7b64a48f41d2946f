"""``cse``: xDSL's common subexpression elimination under upstream's name.

xDSL's driver follows upstream's algorithm within a block (known ops in scoped
tables, no CSE across side effects). This subclass adds:

- regions of several blocks, as upstream: it walks the dominator tree, each
  block seeing the ops of the blocks that dominate it (xDSL's driver skipped
  such regions, so every function lowered to a CFG kept its duplicate
  constants); regions without SSA dominance (graph regions) are left alone;
- scopes that undo their own entries on exit, where xDSL copies the whole
  table into every nested region (quadratic in nesting depth);
- upstream's statistics, ``num-cse'd`` and ``num-dce'd``;
- each op's memory effects worked out once (``effects_memo``): the driver asks
  every op whether it is dead and whether it is pure, and an op with recursive
  effects asks all it holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Block, Operation, Region
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.common_subexpression_elimination import CSEDriver, KnownOps
from xdsl.transforms.common_subexpression_elimination import OperationInfo

from mlkit.diagnostics.dominance import build_dom_tree, is_graph_region
from mlkit.passes.transforms.effects_memo import remembered_effects
from mlkit.pipeline import statistics


_ABSENT = object()


class _Info(OperationInfo):
    """xDSL's key for an op (equal when name, attributes, properties,
    operands, result types and regions are), with a cheaper hash worked out
    once. xDSL's hashes every attribute, property and result type on each
    lookup (35 µs an op on lowered LLVM IR), and its equality hashes both
    sides again. An op with operands is hashed by its name and operands only,
    which equal ops share; equality still compares the rest."""

    def __init__(self, op: Operation) -> None:
        super().__init__(op)
        operands = op._operands  # pyright: ignore[reportPrivateUsage]
        self._hash = hash((self.name, operands)) if operands else OperationInfo.__hash__(self)

    def __hash__(self) -> int:
        return self._hash


class _ScopedKnownOps(KnownOps):
    """xDSL's table of known ops, with scopes that undo what they added."""

    def __init__(self, known_ops: KnownOps | None = None) -> None:
        super().__init__(known_ops)
        self._undo: list[list[tuple[OperationInfo, object]]] = []

    def open_scope(self) -> None:
        self._undo.append([])

    def close_scope(self) -> None:
        table = self._known_ops
        for key, previous in reversed(self._undo.pop()):
            if previous is _ABSENT:
                del table[key]
            else:
                table[key] = previous  # pyright: ignore[reportArgumentType]

    def _remember(self, key: OperationInfo) -> None:
        if self._undo:
            self._undo[-1].append((key, self._known_ops.get(key, _ABSENT)))

    def __getitem__(self, k: Operation) -> Operation:
        return self._known_ops[_Info(k)]

    def __contains__(self, k: Operation) -> bool:
        return _Info(k) in self._known_ops

    def get(self, k: Operation, default: object = None) -> Operation | object:  # pyright: ignore[reportIncompatibleMethodOverride]
        return self._known_ops.get(_Info(k), default)

    def __setitem__(self, k: Operation, v: Operation) -> None:
        key = _Info(k)
        self._remember(key)
        self._known_ops[key] = v

    def pop(self, k: Operation) -> Operation:
        key = _Info(k)
        self._remember(key)
        return self._known_ops.pop(key)


class _CountingDriver(CSEDriver):
    """xDSL's driver over dominance-scoped tables, counting the ops it
    replaces and the dead ops it erases."""

    replaced = 0

    def _simplify_region(self, region: Region) -> None:
        entry = region.first_block
        if entry is None:
            return
        if entry is not region.last_block and is_graph_region(region):
            return  # no dominance to scope by, as upstream
        outer = self._known_ops
        # an isolated op's body starts from a fresh, empty xDSL table
        known = outer if isinstance(outer, _ScopedKnownOps) else _ScopedKnownOps(outer)
        self._known_ops = known
        try:
            if entry is region.last_block:
                known.open_scope()
                self._simplify_block(entry)
                known.close_scope()
            else:
                self._simplify_dominance_tree(region, entry, known)
        finally:
            self._known_ops = outer

    def _simplify_dominance_tree(self, region: Region, entry: Block, known: _ScopedKnownOps) -> None:
        """Each reachable block in a scope nested in its dominator's."""
        tree = build_dom_tree(region)
        children: dict[Block, list[Block]] = {}
        for block in region.blocks:
            parent = tree.idom.get(block)
            if parent is not None:
                children.setdefault(parent, []).append(block)
        stack: list[tuple[Block, bool]] = [(entry, False)]
        while stack:
            block, done = stack.pop()
            if done:
                known.close_scope()
                continue
            known.open_scope()
            self._simplify_block(block)
            stack.append((block, True))
            stack.extend((child, False) for child in reversed(children.get(block, ())))

    def _replace_and_delete(self, op: Operation, existing: Operation) -> None:
        marked = len(self._to_erase)
        super()._replace_and_delete(op, existing)
        self.replaced += len(self._to_erase) - marked


@dataclass(frozen=True)
class CSE(CommonSubexpressionElimination):
    """Eliminate common sub-expressions"""

    name = "cse"
    STATISTICS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("num-cse'd", "Number of operations CSE'd"),
        ("num-dce'd", "Number of operations DCE'd"),
    )

    def apply(self, ctx: Context, op: Operation) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        driver = _CountingDriver()
        with remembered_effects():  # CSE only marks erasures until it is done
            driver.simplify(op)
        erased = len(driver._to_erase)  # pyright: ignore[reportPrivateUsage]
        statistics.add(ctx, "num-cse'd", driver.replaced)
        statistics.add(ctx, "num-dce'd", erased - driver.replaced)
