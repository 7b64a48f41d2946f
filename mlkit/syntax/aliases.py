"""The ``#map``/``#set`` aliases mlir-opt prints above a top-level op.

Upstream's ``AliasInitializer`` gives every affine map and integer set an
alias, numbered per kind (``#map``, ``#map1``, ...) in the order a dry run of
the printer meets them, and prints maps before sets (aliases sort by name).
In the custom form that order is the print order, so the printer names them as
it goes. In the generic form upstream's dry run visits an op's regions before
its operand and result types and its attributes, so :meth:`AliasTable.collect_generic`
walks the IR in that order first.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, ArrayAttr, DictionaryAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute

from mlkit.syntax.affine_text import format_affine_map, format_affine_set

AliasedAttr = AffineMapAttr | AffineSetAttr


def alias_body(attribute: AliasedAttr) -> str:
    """The attribute as written in place: ``affine_map<...>`` or ``affine_set<...>``."""
    if isinstance(attribute, AffineMapAttr):
        return format_affine_map(attribute.data)
    return format_affine_set(attribute.data)


class AliasTable:
    """The aliases of one printed top-level op."""

    def __init__(self) -> None:
        self._names: dict[str, dict[Attribute, str]] = {"map": {}, "set": {}}

    def name_of(self, attribute: AliasedAttr) -> str:
        """``attribute``'s alias, given the next free number of its kind if new."""
        names = self._names["map" if isinstance(attribute, AffineMapAttr) else "set"]
        name = names.get(attribute)
        if name is None:
            kind = "map" if isinstance(attribute, AffineMapAttr) else "set"
            name = names[attribute] = f"{kind}{len(names) or ''}"
        return name

    def definitions(self) -> str:
        """The ``#name = ...`` lines, maps first."""
        return "".join(
            f"#{name} = {alias_body(attribute)}\n"
            for names in self._names.values()
            for attribute, name in names.items()
        )

    def collect_generic(self, op: Operation) -> None:
        """Name the aliases under ``op`` in the order of upstream's dry run of
        the generic printer: regions (block argument types, then nested ops),
        operand types, result types, properties, attributes."""
        stack: list[Operation | _Types] = [op]
        while stack:
            top = stack.pop()
            if isinstance(top, _Types):
                top.visit(self)
                continue
            stack.append(_Attributes(top))  # popped after everything nested in `top`
            nested: list[Operation | _Types] = []
            for region in top.regions:
                for block in region.blocks:
                    nested.append(_Types([arg.type for arg in block.args]))
                    nested.extend(block.ops)
            stack.extend(reversed(nested))

    def visit(self, attribute: Attribute) -> None:
        """Name the maps and sets nested in ``attribute``, in parameter order."""
        pending: list[Attribute] = [attribute]
        while pending:
            attr = pending.pop()
            if isinstance(attr, AffineMapAttr | AffineSetAttr):
                self.name_of(attr)
            elif isinstance(attr, ArrayAttr):
                pending.extend(reversed(attr.data))
            elif isinstance(attr, DictionaryAttr):
                pending.extend(value for _, value in sorted(attr.data.items(), reverse=True))
            elif isinstance(attr, ParametrizedAttribute):
                pending.extend(
                    p for p in reversed(attr.parameters) if isinstance(p, Attribute)
                )


class _Types:
    """Block argument types, visited where the block starts."""

    def __init__(self, types: list[Attribute]) -> None:
        self.types = types

    def visit(self, table: AliasTable) -> None:
        for t in self.types:
            table.visit(t)


class _Attributes(_Types):
    """An op's operand and result types, properties and attributes, visited
    after its regions."""

    def __init__(self, op: Operation) -> None:
        types = [*op.operand_types, *op.result_types]
        props = [value for _, value in sorted(op.properties.items())]
        attrs = [value for _, value in sorted(op.attributes.items())]
        super().__init__([*types, *props, *attrs])
