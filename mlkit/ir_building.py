"""A fast path for building IRDL ops.

Every op a pass creates goes through xDSL's ``irdl_op_init``, which
re-derives each argument list against the op definition (sizes, variadic
segments, optional operands) on every call: about a third of the time of
building an ``llvm.fadd`` in ``convert-to-llvm``. Most ops have none of
that: no variadic or optional operands or results, no regions, successors or
segment-size options. For those definitions this builds the op directly;
anything else, and any argument not plainly one value or one type per
definition, goes to xDSL's builder, which also raises its errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import operations
from xdsl.irdl.operations import OpDef, VariadicDef

_xdsl_op_init = operations.irdl_op_init
_simple: dict[int, tuple[int, int] | None] = {}  # by id: definitions live as long as their class


def _plain_counts(op_def: OpDef) -> tuple[int, int] | None:
    """``(operands, results)`` of a definition the fast path can build, else None."""
    if op_def.options or op_def.regions or op_def.successors:
        return None
    defs = [d for _, d in op_def.operands] + [d for _, d in op_def.results]
    if any(isinstance(d, VariadicDef) for d in defs):
        return None
    return len(op_def.operands), len(op_def.results)


def _present(table: Mapping[str, Attribute | None]) -> dict[str, Attribute]:
    return {name: attr for name, attr in table.items() if attr is not None}


def irdl_op_init(
    self: operations.IRDLOperation,
    op_def: OpDef,
    *,
    operands: Sequence[Any],
    result_types: Sequence[Any],
    properties: Mapping[str, Attribute | None],
    attributes: Mapping[str, Attribute | None],
    successors: Sequence[Any],
    regions: Sequence[Any],
) -> None:
    """xDSL's ``irdl_op_init``, straight to ``Operation.__init__`` for plain ops."""
    counts = _simple.get(id(op_def), False)
    if counts is False:
        counts = _simple[id(op_def)] = _plain_counts(op_def)
    if (
        counts is not None
        and not regions
        and not successors
        and len(operands) == counts[0]
        and len(result_types) == counts[1]
    ):
        values: list[SSAValue] = []
        for operand in operands:
            if isinstance(operand, SSAValue):
                values.append(operand)
            elif isinstance(operand, Operation) and len(operand.results) == 1:
                values.append(operand.results[0])
            else:
                break
        else:
            if all(isinstance(t, Attribute) for t in result_types):
                Operation.__init__(
                    self,
                    operands=values,
                    result_types=result_types,
                    properties=_present(properties),
                    attributes=_present(attributes),
                    successors=(),
                    regions=(),
                )
                return
    _xdsl_op_init(
        self, op_def, operands=operands, result_types=result_types, properties=properties,
        attributes=attributes, successors=successors, regions=regions,
    )  # fmt: skip


operations.irdl_op_init = irdl_op_init  # IRDLOperation.__init__ looks it up at each call
