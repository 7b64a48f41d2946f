"""One-Shot Analysis: which tensor operands bufferize in place, as upstream's
``OneShotAnalysis.cpp`` decides it.

Tensor values fall into alias sets (values that may share a buffer) and,
finer, equivalence sets (values that share one). Ops are visited bottom-up
(in reverse of a post-order walk); each tensor operand goes in place unless
that would write into a buffer that is not writable (a constant, a
non-writable function argument, an unknown op's result) or cause a
read-after-write conflict: a read of some alias that may run after an in-place
write to another alias, where the value read was defined before that write.
:mod:`.conflicts` holds those tests and the walk that decides; this module
holds the state and the queries on it. Operands that must stay in place
(yields) are decided first. Equivalence sets are filled in once all decisions
are made. Per-op behaviour comes from :mod:`.semantics`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ArrayAttr, StringAttr, UnitAttr
from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue

from mlkit.dialects import tensor

from mlkit.passes.transforms.bufferization.operands import is_tensor
from mlkit.passes.transforms.bufferization.errors import BufferizeError
from mlkit.passes.transforms.bufferization.ordering import Dominance, enclosing_repetitive
from mlkit.passes.transforms.region_utils import reachable
from mlkit.passes.transforms.bufferization.semantics import Alias, Allocating, For, FuncSummary
from mlkit.passes.transforms.bufferization.semantics import Model, Operand, Relation
from mlkit.passes.transforms.bufferization.semantics import has_tensor_semantics, is_repetitive
from mlkit.passes.transforms.bufferization.semantics import model_of
from mlkit.passes.transforms.bufferization.semantics import flag, owner_of, unknown_aliasing_values

INPLACE_ATTR = "__inplace_operands_attr__"


class Classes:
    """Union-find over values; a class keeps its members in insertion order."""

    def __init__(self) -> None:
        self.parent: dict[SSAValue, SSAValue] = {}
        self.members: dict[SSAValue, list[SSAValue]] = {}

    def find(self, v: SSAValue) -> SSAValue:
        if v not in self.parent:
            self.parent[v] = v
            self.members[v] = [v]
            return v
        root = v
        while self.parent[root] is not root:
            root = self.parent[root]
        while self.parent[v] is not root:
            self.parent[v], v = root, self.parent[v]
        return root

    def union(self, a: SSAValue, b: SSAValue) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra is not rb:
            self.parent[rb] = ra
            self.members[ra] += self.members.pop(rb)

    def of(self, v: SSAValue) -> list[SSAValue]:
        return self.members[self.find(v)]


def uses_of(value: SSAValue) -> list[Operand]:
    return [(use.operation, use.index) for use in value.uses]


@dataclass
class TraversalConfig:
    leaves: bool = True
    equivalent_only: bool = False
    same_type_or_casts: bool = False


class OneShotAnalysis:
    """The analysis state of one pass run (all functions share it)."""

    def __init__(self, boundaries: bool, *, copy_before_write: bool = False,
                 allow_return_allocs_from_loops: bool = False,
                 print_conflicts: bool = False) -> None:
        self.boundaries = boundaries
        self.copy_before_write = copy_before_write
        self.allow_return_allocs_from_loops = allow_return_allocs_from_loops
        self.print_conflicts = print_conflicts
        self.aliases = Classes()
        self.equivalences = Classes()
        self.inplace: set[Operand] = set()
        self.undefined: set[Operand] = set()
        self.summaries: dict[str, FuncSummary] = {}
        self.dominance = Dominance()
        self.counters = {"C": 0, "W": 0}
        self._definitions: dict[SSAValue, list[SSAValue]] = {}
        # While operands are decided, equivalences (and so the aliasing that
        # loops report) do not change: ``frozen`` lets queries be cached.
        self.frozen = False
        self._values_cache: dict[Operand, list[Alias]] = {}
        self._operands_cache: dict[SSAValue, list[tuple[Operand, Alias]]] = {}
        self.memo: dict[object, object] = {}
        self._repetitive: dict[Region | None, Region | None] = {}
        self._models: dict[Operation, Model | None] = {}

    # -- op behaviour -----------------------------------------------------------
    def model(self, op: Operation | None) -> Model | None:
        if op is None:
            return None
        if op not in self._models:
            self._models[op] = model_of(op, self.boundaries)
        return self._models[op]

    def reads(self, op: Operation, i: int) -> bool:
        m = self.model(op)
        return True if m is None else m.reads(self, op, i)

    def writes(self, op: Operation, i: int) -> bool:
        m = self.model(op)
        return True if m is None else m.writes(self, op, i)

    def aliasing_values(self, op: Operation, i: int) -> list[Alias]:
        if self.frozen and (op, i) in self._values_cache:
            return self._values_cache[(op, i)]
        m = self.model(op)
        found = unknown_aliasing_values(op) if m is None else m.aliasing_values(self, op, i)
        if self.frozen:
            self._values_cache[(op, i)] = found
        return found

    def aliasing_operands(self, value: SSAValue) -> list[tuple[Operand, Alias]]:
        if self.frozen and value in self._operands_cache:
            return self._operands_cache[value]
        found = self._aliasing_operands(value)
        if self.frozen:
            self._operands_cache[value] = found
        return found

    def _aliasing_operands(self, value: SSAValue) -> list[tuple[Operand, Alias]]:
        op = owner_of(value)
        assert op is not None
        m = self.model(op)
        if m is None:
            if not isinstance(value, OpResult):
                return []
            return [((op, i), Alias(value, Relation.UNKNOWN, False))
                    for i, v in enumerate(op.operands) if is_tensor(v)]
        custom = m.aliasing_operands(self, value)
        if custom is not None:
            return custom
        found = []
        for i, v in enumerate(op.operands):
            if is_tensor(v):
                found += [((op, i), a) for a in m.aliasing_values(self, op, i) if a.value is value]
        return found

    def is_writable(self, value: SSAValue) -> bool:
        m = self.model(owner_of(value))
        return False if m is None else m.is_writable(self, value)

    def value_writes(self, value: SSAValue) -> bool:
        """Whether ``value`` is a definition: its buffer holds contents written
        by its op (upstream's ``bufferizesToMemoryWrite(Value)``)."""
        if not isinstance(value, OpResult):
            return True
        m = self.model(value.op)
        if m is None:
            return True
        custom = m.result_writes(self, value)
        if custom is not None:
            return custom
        operands = self.aliasing_operands(value)
        if not operands:
            return True
        if any(self.writes(*u) for u, _ in operands):
            return True
        op = value.op

        def written_inside(v: SSAValue) -> bool:
            owner = owner_of(v)
            return owner is not None and op.is_ancestor(owner) and self.value_writes(v)

        config = TraversalConfig(leaves=False)
        return any(self.find_in_chain(u, written_inside, config) for u, _ in operands)

    def callee_summary(self, call: Operation) -> FuncSummary | None:
        assert isinstance(call, func.CallOp)
        return self.summaries.get(call.callee.root_reference.data)

    def repetitive_region(self, region: Region | None) -> Region | None:
        """The closest region at or above ``region`` that a bufferizable loop
        runs repeatedly."""
        if region not in self._repetitive:
            self._repetitive[region] = enclosing_repetitive(
                region, lambda op: is_repetitive(op, self.boundaries))
        return self._repetitive[region]

    # -- queries ------------------------------------------------------------------
    def is_inplace(self, op: Operation, i: int) -> bool:
        if self.copy_before_write:  # no analysis: every write gets a copy
            return op.name == "bufferization.to_buffer" or not self.writes(op, i)
        return (op, i) in self.inplace

    def are_equivalent(self, a: SSAValue, b: SSAValue) -> bool:
        return self.equivalences.find(a) is self.equivalences.find(b)

    def are_aliasing(self, a: SSAValue, b: SSAValue) -> bool:
        return self.aliases.find(a) is self.aliases.find(b)

    def alias_only(self, op: Operation, i: int) -> bool:
        return (not self.reads(op, i) and not self.writes(op, i)
                and bool(self.aliasing_values(op, i)))

    def is_value_read(self, value: SSAValue) -> bool:
        """Whether some use reads ``value``, also through views of it."""

        def through_views(use: Operand) -> list[Operand]:
            if not self.alias_only(*use):
                return []
            return [u for a in self.aliasing_values(*use) for u in uses_of(a.value)]

        return any(self.reads(*use) for use in reachable(uses_of(value), through_views))

    def is_value_written(self, value: SSAValue) -> bool:
        return any(self.writes(*u) and self.is_inplace(*u)
                   for alias in self.aliases.of(value) for u in uses_of(alias))

    def find_in_chain(self, start: Operand, condition: Callable[[SSAValue], bool],
                      config: TraversalConfig | None = None) -> list[SSAValue]:
        """Values along the reverse use-def chain of ``start`` (through
        aliasing operands) where ``condition`` holds, or where the chain ends
        if ``config.leaves`` (upstream's ``findValueInReverseUseDefChain``)."""
        config = config or TraversalConfig()
        result: dict[SSAValue, None] = {}
        visited: set[SSAValue] = set()
        work = [start[0].operands[start[1]]]
        while work:
            value = work.pop()
            if value in visited:
                if config.leaves:
                    result[value] = None
                continue
            visited.add(value)
            if condition(value):
                result[value] = None
                continue
            aliases = [] if self.model(owner_of(value)) is None else self.aliasing_operands(value)
            if not aliases:
                if config.leaves:
                    result[value] = None
                continue
            for (op, i), alias in aliases:
                source = op.operands[i]
                if (config.equivalent_only and alias.relation is not Relation.EQUIVALENT) or (
                    config.same_type_or_casts and source.type != value.type
                    and not isinstance(owner_of(value), tensor.CastOp)
                ):
                    if config.leaves:
                        result[value] = None
                    continue
                if source not in work:
                    work.append(source)
        return list(result)

    def definitions(self, use: Operand) -> list[SSAValue]:
        value = use[0].operands[use[1]]
        if value not in self._definitions:
            self._definitions[value] = self.find_in_chain(
                use, self.value_writes, TraversalConfig(leaves=False))
        return self._definitions[value]

    def adopt(self, clone: Operation, original: Operation) -> None:
        """Give a clone (and its nested ops) the decisions of its original."""
        for new, old in zip(clone.walk(), original.walk()):
            for i in range(len(old.operands)):
                if (old, i) in self.inplace:
                    self.inplace.add((new, i))
                if (old, i) in self.undefined:
                    self.undefined.add((new, i))

    # -- the analysis ----------------------------------------------------------------
    def prepare(self, root: Operation) -> None:
        """Put the operands that must stay in place in place."""
        for op in root.walk():
            m = self.model(op)
            if m is None:
                continue
            for i, v in enumerate(op.operands):
                if is_tensor(v) and m.must_inplace(self, op, i):
                    self.bufferize_inplace(op, i)

    def bufferize_inplace(self, op: Operation, i: int) -> None:
        if (op, i) in self.inplace:
            return
        self.inplace.add((op, i))
        for a in self.aliasing_values(op, i):
            self.aliases.union(a.value, op.operands[i])

    def start(self, root: Operation) -> list[Operation]:
        """Begin analyzing ``root``: its ops with tensors, bottom-up (the
        order in which ``conflicts.analyze`` decides them)."""
        ops = _post_order(root, [op for op in root.walk() if has_tensor_semantics(op)])
        self.dominance.number(root)
        self._repetitive.clear()
        self.check_assumptions(root)
        self.frozen = not self.copy_before_write
        return list(reversed(ops))

    def finish(self, root: Operation) -> None:
        """All operands in ``root`` are decided: equivalences, uses of
        undefined contents, and the loops' checks."""
        self.frozen = False
        self._values_cache.clear()
        self._operands_cache.clear()
        self.memo.clear()
        self.equivalence_analysis(root)
        self.gather_undefined(root)
        if not self.copy_before_write:
            self.verify(root)

    def check_assumptions(self, root: Operation) -> None:
        for op in root.walk():
            if self.model(op) is not None and op.name == "bufferization.to_tensor":
                if not flag(op, "restrict") and op.results[0].uses:
                    raise BufferizeError(op, "'bufferization.to_tensor' op to_tensor ops "
                                         "without `restrict` are not supported by One-Shot Analysis")

    def equivalence_analysis(self, root: Operation) -> None:
        for op in _post_order(root, list(root.walk())):
            m = self.model(op)
            if m is None:
                continue
            for result in op.results:
                if not is_tensor(result):
                    continue
                aliases = self.aliasing_operands(result)
                if not aliases:
                    continue
                first = aliases[0][0][0].operands[aliases[0][0][1]]
                all_equivalent = True
                for (o, i), a in aliases:
                    operand = o.operands[i]
                    equiv = a.relation is Relation.EQUIVALENT
                    inplace = self.is_inplace(o, i)
                    if equiv and inplace and a.definite:
                        self.equivalences.union(result, operand)
                        all_equivalent = False
                        break
                    if not equiv or not inplace or not self.are_equivalent(operand, first):
                        all_equivalent = False
                if all_equivalent and not self._allocates(op):
                    self.equivalences.union(result, first)

    @staticmethod
    def _allocates(op: Operation) -> bool:
        return isinstance(model_of(op, True), Allocating)

    def gather_undefined(self, root: Operation) -> None:
        """Uses of values whose buffer holds nothing written yet (a
        ``tensor.empty``): their copies may skip copying."""
        for op in root.walk():
            if self.model(op) is None:
                continue
            for result in op.results:
                uses = uses_of(result) if is_tensor(result) else []
                if uses and not self.definitions(uses[0]):
                    self.undefined.update(uses)

    def can_omit_copy(self, op: Operation, i: int) -> bool:
        """Upstream's ``canOmitTensorCopy`` for an out-of-place operand."""
        if (op, i) in self.undefined:
            return True
        if self.writes(op, i) and not self.reads(op, i):
            return True
        return not self.reads(op, i) and not any(
            self.is_value_read(a.value) for a in self.aliasing_values(op, i))

    def verify(self, root: Operation) -> None:
        """Loops must yield values equivalent to their region arguments unless
        ``allow-return-allocs-from-loops``."""
        if self.allow_return_allocs_from_loops:
            return
        for op in root.walk():
            if isinstance(op, scf.ForOp) and self.model(op) is not None:
                yield_ = op.body.block.last_op
                for k, r in enumerate(op.results):
                    if is_tensor(r) and For.relation(self, op, k) is not Relation.EQUIVALENT:
                        raise BufferizeError(yield_, f"Yield operand #{k} is not equivalent "
                                             "to the corresponding iter bbArg")
            elif isinstance(op, scf.WhileOp) and self.model(op) is not None:
                self._verify_while(op)

    def _verify_while(self, op: scf.WhileOp) -> None:
        for term, block, kind, first in (
            (op.before_region.block.last_op, op.before_region.block, "Condition arg", 1),
            (op.after_region.block.last_op, op.after_region.block, "Yield operand", 0),
        ):
            assert term is not None
            for k, v in enumerate(list(term.operands)[first:]):
                if is_tensor(v) and (k >= len(block.args)
                                     or not self.are_equivalent(v, block.args[k])):
                    raise BufferizeError(term, f"{kind} #{k} is not equivalent to the "
                                         "corresponding iter bbArg")

    # -- annotations ---------------------------------------------------------------------
    def annotate(self, root: Operation) -> None:
        """``__inplace_operands_attr__`` on every op with a tensor operand."""
        for op in root.walk():
            if not any(is_tensor(v) for v in op.operands):
                continue
            marks = ["none" if not is_tensor(v) else
                     ("true" if self.is_inplace(op, i) else "false")
                     for i, v in enumerate(op.operands)]
            op.attributes[INPLACE_ATTR] = ArrayAttr([StringAttr(m) for m in marks])

    def marker(self, kind: str) -> str:
        """A fresh ``print-conflicts`` id: ``C_n`` (a conflict) or ``W_n`` (a
        read-only buffer); upstream numbers them per process, mlkit per run."""
        n = self.counters[kind]
        self.counters[kind] += 1
        return f"{kind}_{n}"

    @staticmethod
    def mark(marker: str, text: str, at: SSAValue | Operation) -> None:
        """Put ``marker[text]`` on ``at``, or on the op that defines the value
        (with its result or region-argument number)."""
        if isinstance(at, OpResult):
            at, text = at.op, f"{text}: result {at.index}"
        elif isinstance(at, BlockArgument):
            at, text = at.block.parent_op(), f"{text}: bbArg {at.index}"  # type: ignore[assignment]
        assert isinstance(at, Operation)
        at.attributes[f"{marker}[{text}]"] = UnitAttr()


def _post_order(root: Operation, ops: Iterable[Operation]) -> list[Operation]:
    """``ops`` in the order of a post-order walk of ``root`` (nested ops
    before the op that holds them)."""
    wanted = set(ops)
    order: list[Operation] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    visit(inner)
        if op in wanted:
            order.append(op)

    visit(root)
    return order
