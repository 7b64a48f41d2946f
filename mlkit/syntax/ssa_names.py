"""Upstream MLIR's SSA value numbering (``SSANameState`` in AsmPrinter.cpp).

Names are assigned in a pre-pass over the printed op, not lazily while
printing: a region's own values are numbered first, then each nested region
continues from the counters its parent region ended with (so sibling regions
reuse the same numbers). Entry-block arguments are ``%argN``, or the names
their op gives them (``asm_block_arg_names(region)``, upstream's
``getAsmBlockArgumentNames``: linalg's ``%in``/``%out``); some results get
names from :func:`mlkit.syntax.asm_names.result_name`; a name in use gets ``_N``
from a shared conflict counter; an op with several results gets one number
and its results print as ``%N#i``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, Region, SSAValue

from mlkit.syntax.asm_names import result_groups, result_name


@dataclass
class _Counters:
    value: int = 0
    argument: int = 0
    conflict: int = 0


@dataclass
class _Context:
    region: Region
    counters: _Counters
    used: set[str] = field(default_factory=set[str])


def number_values(root: Operation, *, generic: bool = False) -> dict[SSAValue, str]:
    """Names (without ``%``) for every value defined in or under ``root``.

    In the generic form upstream uses no result names and does not restore the
    counters between sibling regions, so every number is unique in the op.
    """
    use_hints = not generic
    names: dict[SSAValue, str] = {}
    counters = _Counters()
    root_used: set[str] = set()
    _number_op(root, names, counters, root_used, use_hints)
    def fork(c: _Counters) -> _Counters:
        return c if generic else _Counters(**vars(c))

    stack = [_Context(r, fork(counters), root_used) for r in root.regions]
    while stack:
        ctx = stack.pop()
        counters = ctx.counters
        used = set(ctx.used)  # a scope inherits its parent's names
        for block in ctx.region.blocks:
            _number_block(block, names, counters, used, use_hints)
        for op in ctx.region.ops if len(ctx.region.blocks) == 1 else _all_ops(ctx.region):
            for region in op.regions:
                stack.append(_Context(region, fork(counters), used))
    return names


def _all_ops(region: Region) -> list[Operation]:
    return [op for block in region.blocks for op in block.ops]


def _unique(name: str, counters: _Counters, used: set[str]) -> str:
    if name in used:
        while True:
            candidate = f"{name}_{counters.conflict}"
            counters.conflict += 1
            if candidate not in used:
                name = candidate
                break
    used.add(name)
    return name


def _number_block(
    block: Block, names: dict[SSAValue, str], counters: _Counters, used: set[str], hints: bool
) -> None:
    is_entry = block.parent is not None and block.parent.blocks.first is block
    given: list[str | None] = []
    if is_entry and hints:
        parent = block.parent.parent if block.parent is not None else None
        custom = getattr(parent, "asm_block_arg_names", None)
        if callable(custom):
            given = list(custom(block.parent))
    for index, arg in enumerate(block.args):
        if index < len(given) and given[index]:
            names[arg] = _unique(given[index], counters, used)  # type: ignore[arg-type]
        elif is_entry:
            names[arg] = _unique(f"arg{counters.argument}", counters, used)
            counters.argument += 1
        else:
            names[arg] = str(counters.value)
            counters.value += 1
    for op in block.ops:
        _number_op(op, names, counters, used, hints)


def _number_op(
    op: Operation, names: dict[SSAValue, str], counters: _Counters, used: set[str], hints: bool
) -> None:
    if not op.results:
        return
    if hints and (groups := result_groups(op)) is not None:
        results = iter(op.results)
        for name, count in groups:
            base = _unique(name, counters, used)
            for i in range(count):
                names[next(results)] = base if count == 1 else f"{base}#{i}"
        return
    hint = result_name(op) if hints else None
    if hint:
        base = _unique(hint, counters, used)
    else:
        base = str(counters.value)
        counters.value += 1
    if len(op.results) == 1:
        names[op.results[0]] = base
    else:
        for i, res in enumerate(op.results):
            names[res] = f"{base}#{i}"
