"""``symbol-dce``: erase symbols nothing can reach, as upstream's SymbolDCE.

A symbol is kept when it is public in a visible symbol table, or when a kept
operation refers to it (directly, or as a component of a nested reference
``@a::@b``).  Non-symbol operations in a table are always kept and their
references count.  A table that is itself a non-public symbol hides its
contents: only what is referenced inside it survives.  xDSL has no such pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.passes import ModulePass
from xdsl.traits import SymbolOpInterface, SymbolTable

from mlkit.diagnostics.emit import emit_error
from mlkit.pipeline import statistics


def symbol_name(op: Operation) -> str | None:
    """The op's ``sym_name`` when it is a symbol."""
    trait = op.get_trait(SymbolOpInterface)
    if trait is None:
        return None
    attr = trait.get_sym_attr_name(op)
    return attr.data if attr is not None else None


def visibility(op: Operation) -> str:
    attr = op.properties.get("sym_visibility") or op.attributes.get("sym_visibility")
    return attr.data if isinstance(attr, StringAttr) else "public"


def is_symbol_table(op: Operation) -> bool:
    return op.has_trait(SymbolTable) and len(op.regions) == 1


def _refs_in(attr: Attribute) -> Iterator[SymbolRefAttr]:
    if isinstance(attr, SymbolRefAttr):
        yield attr
    elif isinstance(attr, ArrayAttr):
        for item in attr.data:
            yield from _refs_in(item)
    elif isinstance(attr, DictionaryAttr):
        for item in attr.data.values():
            yield from _refs_in(item)
    elif isinstance(attr, ParametrizedAttribute) and not isinstance(attr, StringAttr):
        for param in attr.parameters:
            if isinstance(param, Attribute):
                yield from _refs_in(param)


def symbol_uses(op: Operation) -> Iterator[SymbolRefAttr]:
    """Upstream's ``SymbolTable::getSymbolUses``: references held by ``op``
    and the ops nested in it, not looking inside nested symbol tables."""
    for attr in (*op.properties.values(), *op.attributes.values()):
        yield from _refs_in(attr)
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                if is_symbol_table(nested):
                    for attr in (*nested.properties.values(), *nested.attributes.values()):
                        yield from _refs_in(attr)
                else:
                    yield from symbol_uses(nested)


def table_ops(table: Operation) -> Iterator[Operation]:
    for block in table.regions[0].blocks:
        yield from block.ops


def resolve(table: Operation, ref: SymbolRefAttr) -> list[Operation]:
    """Every symbol on the path of ``ref`` from ``table``; empty if unknown."""
    found: list[Operation] = []
    current: Operation = table
    for name in (ref.root_reference, *ref.nested_references.data):
        if not is_symbol_table(current):
            return []
        match = next((op for op in table_ops(current) if symbol_name(op) == name.data), None)
        if match is None:
            return []
        found.append(match)
        current = match
    return found


def compute_liveness(table: Operation, hidden: bool, live: set[Operation]) -> None:
    worklist: list[Operation] = []
    for op in table_ops(table):
        if symbol_name(op) is None:
            worklist.append(op)
        elif not (hidden or visibility(op) != "public") and op not in live:
            live.add(op)
            worklist.append(op)
    while worklist:
        op = worklist.pop()
        if is_symbol_table(op):
            is_symbol = symbol_name(op) is not None
            compute_liveness(op, hidden or (is_symbol and visibility(op) != "public"), live)
        parent = op.parent_op()
        assert parent is not None
        for ref in symbol_uses(op):
            for symbol in resolve(parent, ref):
                if symbol not in live:
                    live.add(symbol)
                    worklist.append(symbol)


@dataclass(frozen=True)
class SymbolDCE(ModulePass):
    """Eliminate dead symbols"""

    name = "symbol-dce"
    STATISTICS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("num-dce'd", "Number of symbols DCE'd"),
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not is_symbol_table(op):
            raise emit_error(
                ctx, op, f"'{op.name}' op was scheduled to run under SymbolDCE, but does not define a symbol table"
            )
        hidden = op.parent_op() is not None and symbol_name(op) is not None and visibility(op) != "public"
        live: set[Operation] = set()
        compute_liveness(op, hidden, live)
        statistics.add(ctx, "num-dce'd", self._erase_dead(op, live))

    @staticmethod
    def _erase_dead(table: Operation, live: set[Operation]) -> int:
        """Erase the dead symbols under ``table``; how many there were."""
        erased = 0
        for op in list(table_ops(table)):
            if symbol_name(op) is not None and op not in live:
                op.detach()
                op.erase(safe_erase=False)
                erased += 1
            elif is_symbol_table(op):
                erased += SymbolDCE._erase_dead(op, live)
        return erased
