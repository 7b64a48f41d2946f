"""The edges between blocks that mlkit's region simplifications can rewrite.

Upstream's ``BranchOpInterface`` tells which operands of a terminator are
forwarded to each successor's arguments. xDSL has no such interface, so the
known branches are listed here: cf's ``br``, ``cond_br`` and ``switch`` and
llvm's ``br`` and ``cond_br``. A block reached from any other terminator is
left as is by block merging, argument forwarding and dead-argument removal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.dialects.cf import SwitchOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, VarOperandDef
from xdsl.pattern_rewriter import PatternRewriterListener

# the operand group each successor of a branch forwards to it
FORWARDED: dict[str, tuple[str, ...]] = {
    "cf.br": ("arguments",),
    "cf.cond_br": ("then_arguments", "else_arguments"),
    "llvm.br": ("destOperands",),
    "llvm.cond_br": ("trueDestOperands", "falseDestOperands"),
}


def is_branch(op: Operation | None) -> bool:
    return op is not None and (op.name in FORWARDED or op.name == "cf.switch")


def forwarded(op: Operation, successor: int) -> tuple[SSAValue, ...]:
    if op.name == "cf.switch":
        assert isinstance(op, SwitchOp)
        return tuple(op.default_operands if successor == 0 else op.case_operand[successor - 1])
    return tuple(getattr(op, FORWARDED[op.name][successor]))


def set_forwarded(
    op: Operation, successor: int, values: Sequence[SSAValue], listener: PatternRewriterListener | None
) -> None:
    """Give the branch ``op`` new operands for its ``successor``, in place."""
    assert isinstance(op, IRDLOperation)
    if isinstance(op, SwitchOp):
        groups = [list(forwarded(op, n)) for n in range(len(op.successors))]
        groups[successor] = list(values)
        cases = [v for group in groups[1:] for v in group]
        op.operands = [op.flag, *groups[0], *cases]
        sizes = [1, len(groups[0]), len(cases)]
        op.properties["case_operand_segments"] = DenseArrayBase.from_list(
            i32, [len(group) for group in groups[1:]]
        )
    else:
        target = FORWARDED[op.name][successor]
        flat: list[SSAValue] = []
        sizes = []
        for name, operand in type(op).get_irdl_definition().operands:
            group = list(values) if name == target else getattr(op, name)
            group = list(group) if isinstance(operand, VarOperandDef) else [group]
            flat.extend(group)
            sizes.append(len(group))
        op.operands = flat
    if any(isinstance(o, AttrSizedOperandSegments) for o in type(op).get_irdl_definition().options):
        op.properties[AttrSizedOperandSegments.attribute_name] = DenseArrayBase.from_list(i32, sizes)
    if listener is not None:
        listener.handle_operation_modification(op)


def predecessor_edges(block: Block) -> list[tuple[Operation, int]]:
    """(terminator, successor index) of each edge into ``block``. Their order
    does not matter to any caller."""
    return [(use.operation, use.index) for use in block.uses]


def regions_below(regions: Sequence[Region]) -> Iterator[Region]:
    work = list(reversed(regions))
    while work:
        region = work.pop()
        yield region
        for block in region.blocks:
            for op in block.ops:
                work.extend(reversed(op.regions))


def candidate_blocks(region: Region) -> Iterator[Block]:
    """The blocks past the entry whose every predecessor is a known branch."""
    for block in list(region.blocks)[1:]:
        edges = predecessor_edges(block)
        if edges and all(is_branch(term) for term, _ in edges):
            yield block
