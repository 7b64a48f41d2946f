"""The region simplifications upstream's ``canonicalize{region-simplify=aggressive}``
adds to the normal ones (``simplifyRegions`` with ``mergeBlocks``):

- **identical blocks merge.** Blocks other than the entry that branch to the
  same successors, whose ops match one for one (same names, attributes, types
  and successors), whose values stay inside the block and whose arguments are
  used only in it, become one block. Where the ops use different values
  defined outside, those become new arguments of the kept block (one per
  distinct set of values), passed by each predecessor (upstream's
  ``BlockMergeCluster``);
- **redundant block arguments go.** An argument that every predecessor passes
  the same value for is replaced by that value.

Two more run in every mode, as upstream's do: uses of an argument that every
one of two or more predecessors passes one value for are given that value,
and (region DCE, not ``disabled``) dead block arguments go with the operands
passed for them. xDSL has none of these.

Predecessors are updated through their successor operand lists, known here
for cf's ``br``, ``cond_br`` and ``switch`` and llvm's ``br`` and ``cond_br``
(upstream's ``BranchOpInterface``); a block reached from another terminator
is left as is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.dialects.cf import SwitchOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, VarOperandDef
from xdsl.pattern_rewriter import PatternRewriterListener

from mlkit.passes.transforms.side_effects import would_be_trivially_dead

__all__ = [
    "drop_redundant_arguments",
    "erase_dead_arguments",
    "forward_common_arguments",
    "merge_identical_blocks",
]

# the operand group each successor of a branch forwards to it
_FORWARDED: dict[str, tuple[str, ...]] = {
    "cf.br": ("arguments",),
    "cf.cond_br": ("then_arguments", "else_arguments"),
    "llvm.br": ("destOperands",),
    "llvm.cond_br": ("trueDestOperands", "falseDestOperands"),
}


def _is_branch(op: Operation | None) -> bool:
    return op is not None and (op.name in _FORWARDED or op.name == "cf.switch")


def _forwarded(op: Operation, successor: int) -> tuple[SSAValue, ...]:
    if op.name == "cf.switch":
        assert isinstance(op, SwitchOp)
        return tuple(op.default_operands if successor == 0 else op.case_operand[successor - 1])
    return tuple(getattr(op, _FORWARDED[op.name][successor]))


def _set_forwarded(
    op: Operation, successor: int, values: Sequence[SSAValue], listener: PatternRewriterListener | None
) -> None:
    """Give the branch ``op`` new operands for its ``successor``, in place."""
    assert isinstance(op, IRDLOperation)
    if isinstance(op, SwitchOp):
        groups = [list(_forwarded(op, n)) for n in range(len(op.successors))]
        groups[successor] = list(values)
        cases = [v for group in groups[1:] for v in group]
        op.operands = [op.flag, *groups[0], *cases]
        sizes = [1, len(groups[0]), len(cases)]
        op.properties["case_operand_segments"] = DenseArrayBase.from_list(
            i32, [len(group) for group in groups[1:]]
        )
    else:
        target = _FORWARDED[op.name][successor]
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


def _predecessor_edges(block: Block) -> list[tuple[Operation, int]]:
    """(terminator, successor index) of each edge into ``block``. Their order
    does not matter to any caller."""
    return [(use.operation, use.index) for use in block.uses]


def _regions_below(regions: Sequence[Region]) -> Iterator[Region]:
    work = list(reversed(regions))
    while work:
        region = work.pop()
        yield region
        for block in region.blocks:
            for op in block.ops:
                work.extend(reversed(op.regions))


def _used_outside(value: SSAValue, block: Block) -> bool:
    """Whether an op outside ``block`` (not nested in it) uses ``value``."""
    return any(use.operation.parent is not block for use in value.uses)


def _same_op(lhs: Operation, rhs: Operation) -> bool:
    """Upstream's ``isEquivalentTo`` with values ignored and no regions."""
    return (
        lhs.name == rhs.name
        and lhs.properties == rhs.properties
        and lhs.attributes == rhs.attributes
        and len(lhs.operands) == len(rhs.operands)
        and [r.type for r in lhs.results] == [r.type for r in rhs.results]
        and list(lhs.successors) == list(rhs.successors)
        and not lhs.regions
        and not rhs.regions
    )


def _value_order(block: Block) -> dict[int, int]:
    """Each value's place in its block: argument number, or after the
    arguments and the results of the ops before it."""
    order = {id(arg): arg.index for arg in block.args}
    position = len(block.args)
    for op in block.ops:
        for result in op.results:
            order[id(result)] = position
            position += 1
    return order


def _valid_successor_arg(block: Block, value: SSAValue) -> bool:
    """A value can be passed to the merged block unless the terminator of one
    of the block's predecessors defines it."""
    owner = value.owner if isinstance(value, OpResult) else None
    parent = owner.parent if isinstance(owner, Operation) else None
    if parent is None or owner is not parent.last_op:
        return True
    return all(term.parent is not parent for term, _ in _predecessor_edges(block))


@dataclass
class _Cluster:
    leader: Block
    blocks: list[Block] = field(default_factory=list)
    operands: list[tuple[int, int]] = field(default_factory=list)

    def add(self, block: Block) -> bool:
        """Take ``block`` into the cluster if it matches the leader."""
        leader = self.leader
        if [a.type for a in leader.args] != [a.type for a in block.args]:
            return False
        lhs_ops, rhs_ops = list(leader.ops), list(block.ops)
        if len(lhs_ops) != len(rhs_ops):
            return False
        mismatched: list[tuple[int, int]] = []
        lhs_order, rhs_order = _value_order(leader), _value_order(block)
        for index, (lhs, rhs) in enumerate(zip(lhs_ops, rhs_ops)):
            if not _same_op(lhs, rhs):
                return False
            for number, (a, b) in enumerate(zip(lhs.operands, rhs.operands)):
                if a is b:
                    continue
                if a.type != b.type:
                    return False
                a_inside = _defining_block(a) is leader
                b_inside = _defining_block(b) is block
                if a_inside != b_inside:
                    return False
                if not a_inside:
                    if not (_valid_successor_arg(leader, a) and _valid_successor_arg(block, b)):
                        return False
                    mismatched.append((index, number))
                elif lhs_order[id(a)] != rhs_order[id(b)]:
                    return False
            if any(_used_outside(r, block) for r in rhs.results) or any(
                _used_outside(r, leader) for r in lhs.results
            ):
                return False
        for pair in mismatched:
            if pair not in self.operands:
                self.operands.append(pair)
        self.blocks.append(block)
        return True

    def merge(self, listener: PatternRewriterListener | None) -> bool:
        if not self.blocks:
            return False
        leader = self.leader
        members = [leader, *self.blocks]
        if self.operands:
            if not all(_is_branch(t) for b in members for t, _ in _predecessor_edges(b)):
                return False
            ops_of = [list(b.ops) for b in members]
            new_args: list[list[SSAValue]] = [[] for _ in members]
            # operands given the same values by every member share one argument
            shared: dict[tuple[int, ...], BlockArgument] = {}
            for op_index, number in self.operands:
                values = [ops[op_index].operands[number] for ops in ops_of]
                key = tuple(id(v) for v in values)
                arg = shared.get(key)
                if arg is None:
                    arg = leader.insert_arg(values[0].type, len(leader.args))
                    shared[key] = arg
                    for i, value in enumerate(values):
                        new_args[i].append(value)
                user = ops_of[0][op_index]
                user.operands = [arg if n == number else v for n, v in enumerate(user.operands)]
                if listener is not None:
                    listener.handle_operation_modification(user)
            for member, extra in zip(members, new_args):
                for term, successor in _predecessor_edges(member):
                    _set_forwarded(term, successor, (*_forwarded(term, successor), *extra), listener)
        for block in self.blocks:
            for term, successor in _predecessor_edges(block):
                term.successors = [
                    leader if n == successor else s for n, s in enumerate(term.successors)
                ]
                if listener is not None:
                    listener.handle_operation_modification(term)
            for op in reversed(list(block.ops)):
                if listener is not None:
                    listener.handle_operation_removal(op)
                block.erase_op(op, safe_erase=False)
            assert block.parent is not None
            block.parent.erase_block(block)
        return True


def _defining_block(value: SSAValue) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.owner
    owner = value.owner
    return owner.parent if isinstance(owner, Operation) else None


def _merge_in(region: Region, listener: PatternRewriterListener | None) -> bool:
    blocks = list(region.blocks)
    if len(blocks) < 2:
        return False
    groups: dict[tuple[int, ...], list[Block]] = {}
    for block in blocks[1:]:
        last = block.last_op
        groups.setdefault(tuple(id(s) for s in (last.successors if last else ())), []).append(block)
    merged = False
    for group in groups.values():
        if len(group) < 2:
            continue
        clusters: list[_Cluster] = []
        for block in group:
            if any(r.blocks for op in block.ops for r in op.regions):
                continue
            if any(_used_outside(arg, block) for arg in block.args):
                continue
            if not any(cluster.add(block) for cluster in clusters):
                clusters.append(_Cluster(block))
        for cluster in clusters:
            merged = cluster.merge(listener) or merged
    return merged


def merge_identical_blocks(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Upstream's ``mergeIdenticalBlocks`` on ``region`` and every region in it,
    each region again after a merge. Whether any blocks merged."""
    changed = False
    for inner in list(_regions_below([region])):
        while _merge_in(inner, listener):
            changed = True
    return changed


def _drop_in(block: Block, listener: PatternRewriterListener | None) -> bool:
    """Drop the arguments of ``block`` that every predecessor passes one value for."""
    edges = _predecessor_edges(block)
    if not edges or not all(_is_branch(term) for term, _ in edges):
        return False
    forwarded = [_forwarded(term, successor) for term, successor in edges]
    replacements: dict[int, SSAValue] = {}
    for index, arg in enumerate(block.args):
        value = forwarded[0][index]
        if value is not arg and all(values[index] is value for values in forwarded):
            replacements[index] = value
    if not replacements:
        return False
    for index in sorted(replacements, reverse=True):
        arg = block.args[index]
        arg.replace_all_uses_with(replacements[index])
        block.erase_arg(arg)
    for (term, successor), values in zip(edges, forwarded):
        kept = [v for i, v in enumerate(values) if i not in replacements]
        _set_forwarded(term, successor, kept, listener)
    return True


def drop_redundant_arguments(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Upstream's ``dropRedundantArguments`` on ``region`` and every region in
    it. Whether any argument went."""
    changed = False
    for inner in list(_regions_below([region])):
        for block in list(inner.blocks):
            changed = _drop_in(block, listener) or changed
    return changed


def _candidate_blocks(region: Region) -> Iterator[Block]:
    """The blocks past the entry whose every predecessor is a known branch."""
    for block in list(region.blocks)[1:]:
        edges = _predecessor_edges(block)
        if edges and all(_is_branch(term) for term, _ in edges):
            yield block


def forward_common_arguments(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Uses of a block argument that every predecessor passes the same value
    for are replaced by that value (as upstream's canonicalize does in every
    ``region-simplify`` mode; the argument itself goes with the dead ones).
    Whether any use was replaced."""
    changed = False
    for inner in list(_regions_below([region])):
        for block in _candidate_blocks(inner):
            edges = _predecessor_edges(block)
            if len(edges) < 2:  # upstream leaves a single edge's arguments alone
                continue
            forwarded = [_forwarded(t, s) for t, s in edges]
            for index, arg in enumerate(block.args):
                value = forwarded[0][index]
                if value is arg or not arg.uses or any(v[index] is not value for v in forwarded):
                    continue
                for use in list(arg.uses):
                    if listener is not None:
                        listener.handle_operation_modification(use.operation)
                arg.replace_all_uses_with(value)
                changed = True
    return changed


def erase_dead_arguments(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Upstream's region DCE for block arguments: an argument of a block past
    the entry, reached only from known branches, is dead unless something live
    uses it; a branch forwarding it to a dead argument, or an op with no
    effects whose results are all dead, is not live. Dead arguments go, with
    what each predecessor passes for them, and so do such ops. Whether
    anything went."""
    changed = False
    for inner in list(_regions_below([region])):
        blocks = list(_candidate_blocks(inner))
        if blocks and _erase_dead_in(inner, blocks, listener):
            changed = True
    return changed


def _erase_dead_in(region: Region, blocks: list[Block], listener: PatternRewriterListener | None) -> bool:
    args: dict[int, BlockArgument] = {id(a): a for b in blocks for a in b.args}
    ops: dict[int, Operation] = {
        id(op): op
        for b in region.blocks
        for op in b.ops
        if op.results and not op.regions and would_be_trivially_dead(op)
    }

    def feeds(operation: Operation, index: int) -> object | None:
        """The candidate a use keeps alive, or None for a use that is live."""
        target = _forwarded_to(operation, index)
        if target is not None:
            return target if id(target) in args else None
        return operation if id(operation) in ops else None

    live: set[int] = set()
    work: list[BlockArgument | Operation] = []

    def mark(item: BlockArgument | Operation) -> None:
        if id(item) not in live:
            live.add(id(item))
            work.append(item)

    for item in (*args.values(), *ops.values()):
        values = [item] if isinstance(item, BlockArgument) else list(item.results)
        if any(feeds(u.operation, u.index) is None for v in values for u in v.uses):
            mark(item)
    # a live item keeps alive the candidates it reads
    while work:
        item = work.pop()
        if isinstance(item, BlockArgument):
            sources = [_forwarded(t, s)[item.index] for t, s in _predecessor_edges(item.owner)]
        else:
            sources = list(item.operands)
        for value in sources:
            if id(value) in args:
                mark(args[id(value)])
            elif isinstance(value, OpResult) and id(value.op) in ops:
                mark(value.op)
    dead_args = {key for key in args if key not in live}
    if not dead_args:
        return False
    for block in blocks:
        dead = [i for i, a in enumerate(block.args) if id(a) in dead_args]
        if not dead:
            continue
        for term, successor in _predecessor_edges(block):
            values = _forwarded(term, successor)
            _set_forwarded(term, successor, [v for i, v in enumerate(values) if i not in dead], listener)
    for op in reversed([op for b in region.blocks for op in b.ops if id(op) in ops and id(op) not in live]):
        if listener is not None:
            listener.handle_operation_removal(op)
        op.detach()
        op.erase(safe_erase=False)
    for block in blocks:
        for arg in reversed([a for a in block.args if id(a) in dead_args]):
            block.erase_arg(arg, safe_erase=False)
    return True


def _forwarded_to(op: Operation, operand: int) -> BlockArgument | None:
    """The successor argument operand ``operand`` of a known branch feeds."""
    if not _is_branch(op):
        return None
    value = op.operands[operand]
    for successor, block in enumerate(op.successors):
        values = _forwarded(op, successor)
        start = _operand_start(op, successor)
        if start <= operand < start + len(values) and values[operand - start] is value:
            return block.args[operand - start]
    return None


def _operand_start(op: Operation, successor: int) -> int:
    """Where the operands forwarded to ``successor`` start in ``op.operands``."""
    if isinstance(op, SwitchOp):
        before = 1 + (0 if successor == 0 else len(op.default_operands))
        return before + sum(len(op.case_operand[i]) for i in range(max(successor - 1, 0)))
    start = 0
    target = _FORWARDED[op.name][successor]
    assert isinstance(op, IRDLOperation)
    for name, operand in type(op).get_irdl_definition().operands:
        if name == target:
            return start
        group = getattr(op, name)
        start += len(group) if isinstance(operand, VarOperandDef) else 1
    raise AssertionError("no such operand group")
