"""One-Shot Analysis's decisions: ``analyze`` visits the ops bottom-up and
puts each tensor operand in place unless one of the two reasons upstream
finds forbids it: a write into a buffer that is not writable, or a
read-after-write conflict (a read of an alias that may observe an in-place
write made after the value read was defined).

A read and a write do not conflict when the read happens before the write (op
dominance, unless a loop repeats both while the definition lies outside it),
when they are the same use, when they sit in alternative branches, when an
elementwise op reads and writes equivalent buffers, when they touch the same
or disjoint subsets (matching ``extract_slice``/``insert_slice`` pairs), or
when the write happens before the definition or inside it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue

from mlkit.dialects import bufferization as buf
from mlkit.dialects import tensor

from mlkit.passes.transforms.bufferization.oneshot import OneShotAnalysis, TraversalConfig, uses_of
from mlkit.passes.transforms.bufferization.operands import constant_int, is_tensor
from mlkit.passes.transforms.bufferization.ordering import inside_mutually_exclusive_regions
from mlkit.passes.transforms.bufferization.ordering import enclosing_repetitive, is_parallel
from mlkit.passes.transforms.bufferization.ordering import is_reachable, value_region
from mlkit.passes.transforms.bufferization.semantics import Operand

__all__ = ["analyze", "would_conflict"]


def analyze(s: OneShotAnalysis, root: Operation) -> None:
    """Decide every tensor operand in ``root`` (upstream's ``analyzeOp``)."""
    ops = s.start(root)
    s.memo["threads"] = any(op.name == "scf.forall" for op in ops)
    for op in ops:
        for i, v in enumerate(op.operands):
            if is_tensor(v) and (op, i) not in s.inplace and not s.copy_before_write:
                if not would_conflict(s, op, i):
                    s.bufferize_inplace(op, i)
    s.finish(root)


def would_conflict(s: OneShotAnalysis, op: Operation, i: int) -> bool:
    return writes_non_writable(s, op, i) or read_after_write(s, op, i)


def _inplace_writes(s: OneShotAnalysis, found: dict[Operand, None], root: SSAValue) -> None:
    for alias in s.aliases.of(root):
        for use in uses_of(alias):
            if s.writes(*use) and s.is_inplace(*use):
                found[use] = None


def _reads(s: OneShotAnalysis, found: dict[Operand, None], root: SSAValue) -> None:
    for alias in s.aliases.of(root):
        for use in uses_of(alias):
            if s.reads(*use):
                found[use] = None
            elif not s.writes(*use) and any(
                s.is_value_read(a.value) for a in s.aliasing_values(*use)
            ):
                found[use] = None  # a view whose uses read


def writes_non_writable(s: OneShotAnalysis, op: Operation, i: int) -> bool:
    """Whether an in-place decision would write into a read-only buffer."""
    found = s.writes(op, i)
    values = [op.operands[i], *(a.value for a in s.aliasing_values(op, i))]
    if not found:
        writes: dict[Operand, None] = {}
        for v in values:
            _inplace_writes(s, writes, v)
        found = bool(writes)
    if not found:
        return False
    read_only = False
    for v in values:
        for alias in s.aliases.of(v):
            if not s.is_writable(alias):
                read_only = True
                if s.print_conflicts:
                    s.mark(s.marker("W"), "NOT-WRITABLE", alias)
    return read_only


def read_after_write(s: OneShotAnalysis, op: Operation, i: int) -> bool:
    reads: dict[Operand, None] = {}
    writes: dict[Operand, None] = {}
    for v in [op.operands[i], *(a.value for a in s.aliasing_values(op, i))]:
        _reads(s, reads, v)
        _inplace_writes(s, writes, v)
    if s.writes(op, i):
        writes[(op, i)] = None
    if reads and s.memo.get("threads") and any(_written_across_threads(s, w) for w in writes):
        return True
    return _has_conflict(s, list(reads), list(writes))


def _parallel_region(s: OneShotAnalysis, region: Region | None) -> Region | None:
    key = ("parallel", region)
    if key not in s.memo:
        s.memo[key] = enclosing_repetitive(region, is_parallel)
    return s.memo[key]  # type: ignore[return-value]


def _written_across_threads(s: OneShotAnalysis, write: Operand) -> bool:
    """Whether ``write`` writes, in a parallel region, a buffer whose last
    write or allocation lies outside that region."""
    region = _parallel_region(s, write[0].parent_region())
    for definition in s.find_in_chain(write, s.value_writes):
        if _parallel_region(s, value_region(definition)) is not region:
            return True
    return False


class _Writes:
    """The writes in pre-order, to find those that may run between a read
    and its definitions without looking at every one."""

    def __init__(self, s: OneShotAnalysis, writes: list[Operand]) -> None:
        pre = s.dominance.pre
        self.s = s
        self.indexed = s.dominance.structured and all(w[0] in pre for w in writes)
        self.all = sorted(writes, key=lambda w: pre[w[0]]) if self.indexed else writes
        self.keys = [pre[w[0]] for w in self.all] if self.indexed else []
        self.by_op: dict[Operation, list[Operand]] = {}
        for w in self.all:
            self.by_op.setdefault(w[0], []).append(w)

    def around(self, u_read: Operand, defs: list[SSAValue]) -> list[Operand]:
        """A superset of the writes that the checks below do not dismiss:
        none before every definition (except ops holding one) and, where op
        order applies, none after the read."""
        s, pre = self.s, self.s.dominance.pre
        owners = [d.op if isinstance(d, OpResult) else d.block.parent_op() for d in defs]  # type: ignore[union-attr]
        if not self.indexed or u_read[0] not in pre or any(o not in pre for o in owners):
            return self.all
        region = s.repetitive_region(u_read[0].parent_region())
        dominance = all(s.repetitive_region(value_region(d)) is region for d in defs)
        lo = min(pre[o] for o in owners)  # type: ignore[index]
        hi = s.dominance.last[u_read[0]] if dominance else len(pre)
        found = self.all[bisect_left(self.keys, lo):bisect_right(self.keys, hi)]
        for owner in owners:
            outer = owner.parent_op() if owner is not None else None
            while outer is not None and outer in pre:
                if pre[outer] < lo:
                    found += self.by_op.get(outer, [])
                outer = outer.parent_op()
        return found


def _has_conflict(s: OneShotAnalysis, reads: list[Operand], writes: list[Operand]) -> bool:
    if not reads or not writes:
        return False
    candidates = _Writes(s, writes)
    for u_read in reads:
        read_op = u_read[0]
        defs = s.definitions(u_read)
        if not defs:
            continue  # reading undefined contents
        for u_write in candidates.around(u_read, defs):
            write_op = u_write[0]
            if _can_use_dominance(s, u_read, u_write, defs):
                if s.dominance.happens_before(read_op, write_op):
                    continue
                if u_read == u_write:
                    continue
                if inside_mutually_exclusive_regions(read_op, write_op):
                    continue
                if write_op is read_op and _elementwise_equivalent(s, u_read, u_write):
                    continue
            if _non_conflicting_subsets(s, u_read, u_write):
                continue
            for definition in defs:
                if isinstance(definition, OpResult):
                    def_op = definition.op
                    if s.dominance.happens_before(write_op, def_op):
                        continue
                    if def_op is not write_op and s.dominance.contains(def_op, write_op):
                        continue
                else:
                    assert isinstance(definition, BlockArgument)
                    if definition.block.find_ancestor_op_in_block(write_op) is None:
                        continue
                aliases = s.aliasing_values(*u_write)
                if len(aliases) == 1 and aliases[0].value is definition:
                    continue
                if s.print_conflicts:
                    _annotate(s, u_read, u_write, definition)
                return True
    return False


def _annotate(s: OneShotAnalysis, u_read: Operand, u_write: Operand, definition: SSAValue) -> None:
    marker = s.marker("C")
    s.mark(marker, f"CONFL-WRITE: {u_write[1]}", u_write[0])
    s.mark(marker, f"READ: {u_read[1]}", u_read[0])
    s.mark(marker, "DEF", definition)


def _can_use_dominance(s: OneShotAnalysis, u_read: Operand, u_write: Operand,
                       defs: list[SSAValue]) -> bool:
    """Whether op order rules out the conflict: not when a loop between the
    read and its definition also holds the write (upstream's
    ``canUseOpDominance``)."""
    read_op, write_op = u_read[0], u_write[0]
    read_region = read_op.parent_region()
    for d in defs:
        r_read = s.repetitive_region(read_region)
        r_def = s.repetitive_region(value_region(d))
        if r_read is r_def:
            continue
        while True:
            parent = r_read.parent_op()  # type: ignore[union-attr]
            nxt = s.repetitive_region(parent.parent_region() if parent else None)
            if nxt is r_def:
                break
            assert nxt is not None, "expected another repetitive region"
            r_read = nxt
        parent = r_read.parent_op()  # type: ignore[union-attr]
        if parent is not None and s.dominance.contains(parent, write_op):
            return False
    if s.dominance.structured or read_region is not write_op.parent_region():
        return True  # blocks of one region cannot loop
    read_block, write_block = read_op.parent_block(), write_op.parent_block()
    assert read_block is not None and write_block is not None
    for d in defs:
        owner = d.block if isinstance(d, BlockArgument) else d.owner.parent_block()  # type: ignore[union-attr]
        excluded = {owner} if owner is not None else set()
        if is_reachable(read_block, write_block, set(excluded)) and is_reachable(
            write_block, read_block, set(excluded)
        ):
            return False
    return True


def _elementwise_equivalent(s: OneShotAnalysis, u_read: Operand, u_write: Operand) -> bool:
    m = s.model(u_read[0])
    if m is None or not m.elementwise(u_read[0], [u_read[1], u_write[1]]):
        return False
    return _equivalent_in_chain(s, u_read, _value(u_write)) or _equivalent_in_chain(
        s, u_write, _value(u_read))


def _equivalent_in_chain(s: OneShotAnalysis, start: Operand, other: SSAValue) -> bool:
    config = TraversalConfig(leaves=False, equivalent_only=True, same_type_or_casts=True)
    return bool(s.find_in_chain(start, lambda v: v is other, config))


def _value(use: Operand) -> SSAValue:
    return use[0].operands[use[1]]


# -- subsets ------------------------------------------------------------------------------

_INSERTIONS = (tensor.InsertSliceOp, tensor.ParallelInsertSliceOp, buf.MaterializeInDestinationOp)


def _non_conflicting_subsets(s: OneShotAnalysis, u_read: Operand, u_write: Operand) -> bool:
    read_op, write_op = u_read[0], u_write[0]
    if isinstance(read_op, _INSERTIONS):
        if u_read[1] == 1 and _matches_destination(s, u_write, read_op):
            return True  # the write goes exactly to the part the insertion overwrites
        if u_read[1] == 0 and u_write == (read_op, 1) and _matches_destination(s, u_read, read_op):
            return True  # the source is that part of an equivalent tensor
    if isinstance(write_op, _INSERTIONS) and u_write[1] == 1:
        source = (write_op, 0)
        if s.are_equivalent(_value(u_read), _value(source)) and _matches_destination(
            s, source, write_op
        ):
            return True  # the insertion writes back the same data
    return False


def _matches_destination(s: OneShotAnalysis, use: Operand, insertion: Operation) -> bool:
    """Whether every value at the end of ``use``'s chain is the subset of the
    insertion's destination that the insertion writes."""

    key = ("matches", use, insertion)
    if key not in s.memo:

        def matching(v: SSAValue) -> bool:
            return isinstance(v, OpResult) and _equivalent_subset(s, insertion, v)

        s.memo[key] = all(matching(v) for v in s.find_in_chain(use, matching))
    return bool(s.memo[key])


def _equivalent_subset(s: OneShotAnalysis, insertion: Operation, candidate: OpResult) -> bool:
    if isinstance(insertion, buf.MaterializeInDestinationOp):
        return s.are_equivalent(candidate, insertion.dest)
    extract = candidate.op
    if not isinstance(extract, tensor.ExtractSliceOp):
        return False
    assert isinstance(insertion, tensor.InsertSliceOp | tensor.ParallelInsertSliceOp)
    if not s.are_equivalent(extract.source, insertion.dest):
        return False
    return all(_same_mixed(s, extract, insertion, kind) for kind in ("offsets", "sizes", "strides"))


def _mixed(op: Operation, kind: str) -> list[int | SSAValue]:
    """Offsets, sizes or strides, constants as numbers (upstream's
    ``isEqualConstantIntOrValue`` compares them so)."""
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    static = list(getattr(op, f"static_{kind}").get_values())
    dynamic = iter(getattr(op, kind))
    values: list[int | SSAValue] = []
    for v in static:
        if v == DYNAMIC_INDEX:
            value = next(dynamic)
            number = constant_int(value)
            values.append(value if number is None else number)
        else:
            values.append(v)
    return values


def _same_mixed(s: OneShotAnalysis, a: Operation, b: Operation, kind: str) -> bool:
    for op in (a, b):
        if ("mixed", op, kind) not in s.memo:
            s.memo[("mixed", op, kind)] = _mixed(op, kind)
    xs, ys = s.memo[("mixed", a, kind)], s.memo[("mixed", b, kind)]
    return len(xs) == len(ys) and all(x is y or x == y for x, y in zip(xs, ys))  # type: ignore[arg-type]
