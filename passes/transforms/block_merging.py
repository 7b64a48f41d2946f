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

One more runs in every mode, as upstream's does: uses of an argument that
every one of two or more predecessors passes one value for are given that
value (dead arguments go in ``region_dce``). xDSL has none of these.

Predecessors are updated through their successor operand lists
(``branch_edges``); a block reached from another terminator is left as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener

from mlkit.passes.transforms.branch_edges import candidate_blocks, forwarded, is_branch
from mlkit.passes.transforms.branch_edges import predecessor_edges, regions_below, set_forwarded

__all__ = [
    "drop_redundant_arguments",
    "forward_common_arguments",
    "merge_identical_blocks",
]


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
    return all(term.parent is not parent for term, _ in predecessor_edges(block))


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
            if not all(is_branch(t) for b in members for t, _ in predecessor_edges(b)):
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
                for term, successor in predecessor_edges(member):
                    set_forwarded(term, successor, (*forwarded(term, successor), *extra), listener)
        for block in self.blocks:
            for term, successor in predecessor_edges(block):
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
    for inner in list(regions_below([region])):
        while _merge_in(inner, listener):
            changed = True
    return changed


def _drop_in(block: Block, listener: PatternRewriterListener | None) -> bool:
    """Drop the arguments of ``block`` that every predecessor passes one value for."""
    edges = predecessor_edges(block)
    if not edges or not all(is_branch(term) for term, _ in edges):
        return False
    passed = [forwarded(term, successor) for term, successor in edges]
    replacements: dict[int, SSAValue] = {}
    for index, arg in enumerate(block.args):
        value = passed[0][index]
        if value is not arg and all(values[index] is value for values in passed):
            replacements[index] = value
    if not replacements:
        return False
    for index in sorted(replacements, reverse=True):
        arg = block.args[index]
        arg.replace_all_uses_with(replacements[index])
        block.erase_arg(arg)
    for (term, successor), values in zip(edges, passed):
        kept = [v for i, v in enumerate(values) if i not in replacements]
        set_forwarded(term, successor, kept, listener)
    return True


def drop_redundant_arguments(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Upstream's ``dropRedundantArguments`` on ``region`` and every region in
    it. Whether any argument went."""
    changed = False
    for inner in list(regions_below([region])):
        for block in list(inner.blocks):
            changed = _drop_in(block, listener) or changed
    return changed


def forward_common_arguments(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Uses of a block argument that every predecessor passes the same value
    for are replaced by that value (as upstream's canonicalize does in every
    ``region-simplify`` mode; the argument itself goes with the dead ones).
    Whether any use was replaced."""
    changed = False
    for inner in list(regions_below([region])):
        for block in candidate_blocks(inner):
            edges = predecessor_edges(block)
            if len(edges) < 2:  # upstream leaves a single edge's arguments alone
                continue
            passed = [forwarded(t, s) for t, s in edges]
            for index, arg in enumerate(block.args):
                value = passed[0][index]
                if value is arg or not arg.uses or any(v[index] is not value for v in passed):
                    continue
                for use in list(arg.uses):
                    if listener is not None:
                        listener.handle_operation_modification(use.operation)
                arg.replace_all_uses_with(value)
                changed = True
    return changed
