"""Region DCE as upstream's ``runRegionDCE``: the ops and block arguments
that nothing live needs are erased together.

xDSL's ``region_dce`` sweeps the ops to a fixed point and leaves block
arguments alone. Here one worklist finds the live ops and the live arguments
in a single pass, linear in the IR: an op is live if erasing it would lose
something, or a live op uses one of its results; an argument of a block past
the entry whose predecessors are all known branches (``branch_edges``) is
live only if a live op uses it, and a branch keeps alive what it forwards to
such an argument only when the argument is live. The other arguments are
always live. As in xDSL, only blocks reachable from their region's entry are
looked at, and the others go.
"""

from __future__ import annotations

from collections import Counter

from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.post_order import PostOrderIterator
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.transforms.dead_code_elimination import LiveSet, would_be_trivially_dead

from mlkit.passes.transforms.branch_edges import candidate_blocks, forwarded, is_branch
from mlkit.passes.transforms.branch_edges import predecessor_edges, set_forwarded
from mlkit.passes.transforms.effects_memo import remembered_effects
from mlkit.passes.transforms.side_effects import is_structured
from mlkit.passes.transforms.side_effects import would_be_trivially_dead as structured_dead


class _Liveness:
    """The live ops and block arguments under one region."""

    def __init__(self, region: Region) -> None:
        self.ops: set[Operation] = set()
        self.args: set[BlockArgument] = set()
        self.candidates: dict[Block, None] = {}  # blocks whose arguments may die, in order
        self._work: list[Operation] = []
        self._live_args: list[BlockArgument] = []  # live, their sources not yet used
        self._roots(region)
        self._propagate()

    def _roots(self, region: Region) -> None:
        regions = [region]
        while regions:
            inner = regions.pop()
            first = inner.first_block
            if first is None:
                continue
            self.candidates.update(dict.fromkeys(candidate_blocks(inner)))
            for block in PostOrderIterator(first):
                for op in block.ops:
                    regions.extend(op.regions)
                    if not would_be_trivially_dead(op) and not (
                        is_structured(op) and structured_dead(op)  # linalg on tensors
                    ):
                        self.ops.add(op)
                        self._work.append(op)

    def _use(self, value: SSAValue) -> None:
        owner = value.owner
        if type(owner) is Block:
            if owner in self.candidates and value not in self.args:
                assert isinstance(value, BlockArgument)
                self.args.add(value)
                self._live_args.append(value)
        elif owner not in self.ops:
            assert isinstance(owner, Operation)
            self.ops.add(owner)
            self._work.append(owner)

    def _propagate(self) -> None:
        while self._work or self._live_args:
            if not self._work:
                arg = self._live_args.pop()
                for term, successor in predecessor_edges(arg.block):
                    if term in self.ops:  # a reachable predecessor: its terminator is live
                        self._use(forwarded(term, successor)[arg.index])
                continue
            op = self._work.pop()
            deferred: Counter[SSAValue] = Counter()  # forwarded to arguments that may die
            if is_branch(op):
                for successor, block in enumerate(op.successors):
                    if block in self.candidates:
                        deferred.update(forwarded(op, successor))
            for operand in op._operands:  # pyright: ignore[reportPrivateUsage]
                if deferred[operand]:
                    deferred[operand] -= 1
                else:
                    self._use(operand)


def region_dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Erase the dead ops, dead block arguments (with what each predecessor
    passes for them) and unreachable blocks under ``region``; whether
    anything went."""
    with remembered_effects():  # the IR holds still until the dead ops go
        liveness = _Liveness(region)
    changed = False
    for block in liveness.candidates:
        dead = [arg for arg in block.args if arg not in liveness.args]
        if not dead:
            continue
        changed = True
        gone = {arg.index for arg in dead}
        for term, successor in predecessor_edges(block):
            if term not in liveness.ops:  # in an unreachable block, which goes below
                continue
            kept = [v for i, v in enumerate(forwarded(term, successor)) if i not in gone]
            set_forwarded(term, successor, kept, listener)
        for arg in reversed(dead):  # their users are dead ops, erased next
            block.erase_arg(arg, safe_erase=False)
    live_set = LiveSet(changed=False, _live_ops=liveness.ops)
    live_set.delete_dead(region, listener)
    return live_set.changed or changed
