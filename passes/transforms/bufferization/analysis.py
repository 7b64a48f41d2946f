"""In-place analysis for one-shot-bufferize: which destination writes may reuse
their operand's buffer.

A sound, simpler analysis than upstream's. Tensor values are grouped into alias
classes (union-find): a view (extract_slice, cast, expand/collapse_shape) joins
its source's class, an in-place write joins its destination's, a loop joins its
region arguments, yields and results, an ``scf.if`` its yields and results, and
a call result joins the call's tensor operands (unless the callee returns a fresh
buffer there). A class is writable unless it holds a constant, a
``bufferization.to_tensor`` without ``restrict writable``, a function argument
marked ``bufferization.writable = false`` (or any function argument when function
boundaries are not bufferized) or the result of an external call.

Ops are visited in program order; a write by ``W`` into operand ``v`` goes in
place only if ``v``'s class is writable and no value of the class, other than
those derived from ``W``'s results, is read where it may execute after ``W``:

- later in the closest common block, or in a region nested in ``W``;
- earlier in that block, when a loop between that block and ``W`` does not
  define the value (the next iteration reads it again);
- in another region of a common ancestor that is not an ``scf.if``;
- as another operand of ``W`` itself.

Reading the shape only (``tensor.dim``/``tensor.rank``), freeing the buffer
(``bufferization.dealloc_tensor``, as upstream) and being the destination
of a write that ignores the old contents are not reads. Anything else is a copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, TensorType, UnrankedTensorType
from xdsl.ir import Block, Operation, OpResult, SSAValue

from mlkit.dialects import bufferization as buf
from mlkit.dialects import tensor
from mlkit.passes.transforms.region_utils import is_defined_inside, reachable

WRITABLE_ATTR = "bufferization.writable"


def is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType | UnrankedTensorType)


def is_linalg(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.name not in ("linalg.yield", "linalg.index")


def linalg_inits(op: Operation) -> list[int]:
    """Operand indices of a linalg op's tensor inits, in result order: its
    ``outputs`` (or ``inits_list()``), which come last, or the one
    destination operand of the relayout ops and ``linalg.softmax``."""
    single = getattr(op, "dest", None) or getattr(op, "output", None)
    if isinstance(single, SSAValue) and not hasattr(op, "outputs"):
        index = list(op.operands).index(single)
        return [index] if is_tensor(single) else []
    outputs = getattr(op, "outputs", None)  # empty for a generic kept for its payload's effects
    inits = list(outputs if outputs is not None else op.inits_list())  # type: ignore[attr-defined]
    first = len(op.operands) - len(inits)
    return [first + i for i, v in enumerate(inits) if is_tensor(v)]


def linalg_reads_init(op: Operation, operand_index: int) -> bool:
    """Whether the payload reads the init's current element."""
    if not op.regions or not op.regions[0].blocks:
        return True
    block = op.regions[0].blocks.first
    assert block is not None
    if len(block.args) != len(op.operands):
        return True  # bodies without one argument per operand (pack, softmax, ...)
    return bool(block.args[operand_index].uses)


@dataclass
class Write:
    """``op`` writes into the buffer of operand ``index``; ``result`` then holds it."""

    index: int
    result: SSAValue | None
    reads_dest: bool


def writes_of(op: Operation, arg_writes: Callable[[str], list[bool] | None]) -> list[Write]:
    if isinstance(op, tensor.InsertOp):
        return [Write(1, op.result, True)]
    if isinstance(op, tensor.InsertSliceOp):
        return [Write(1, op.result, True)]
    if isinstance(op, buf.ToBufferOp):
        return [Write(0, None, True)]
    if isinstance(op, scf.ForOp):
        return [Write(3 + i, r, True) for i, r in enumerate(op.results) if is_tensor(r)]
    if isinstance(op, scf.WhileOp):
        return [Write(i, None, True) for i, v in enumerate(op.operands) if is_tensor(v)]
    if isinstance(op, func.CallOp):
        writes = arg_writes(op.callee.root_reference.data)
        return [
            Write(i, None, True)
            for i, v in enumerate(op.arguments)
            if is_tensor(v) and (writes is None or (i < len(writes) and writes[i]))
        ]
    if is_linalg(op):
        results = [r for r in op.results if is_tensor(r)]
        return [
            Write(i, r, linalg_reads_init(op, i)) for i, r in zip(linalg_inits(op), results)
        ]
    return []


VIEW_OPS = (tensor.ExtractSliceOp, tensor.CastOp, tensor.ExpandShapeOp, tensor.CollapseShapeOp)


def _is_loop(op: Operation) -> bool:
    return bool(op.regions) and not isinstance(op, scf.IfOp | func.FuncOp | scf.ExecuteRegionOp)


def _ancestors(op: Operation) -> Iterator[Operation]:
    current: Operation | None = op
    while current is not None:
        yield current
        current = current.parent_op()


@dataclass
class InPlaceAnalysis:
    """Decisions for one function; see the module docstring."""

    arg_writes: Callable[[str], list[bool] | None]
    fresh_results: Callable[[str], list[bool] | None]
    boundaries: bool
    copy_before_write: bool = False
    parent: dict[SSAValue, SSAValue] = field(default_factory=dict)
    members: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)
    writable: dict[SSAValue, bool] = field(default_factory=dict)
    inplace: dict[tuple[Operation, int], bool] = field(default_factory=dict)
    written: dict[SSAValue, bool] = field(default_factory=dict)
    nonequivalent_yields: set[tuple[Operation, int]] = field(default_factory=set)

    # -- union-find ---------------------------------------------------------
    def find(self, v: SSAValue) -> SSAValue:
        if v not in self.parent:
            self.parent[v] = v
            self.members[v] = [v]
            self.writable.setdefault(v, True)
        root = v
        while self.parent[root] is not root:
            root = self.parent[root]
        self.parent[v] = root
        return root

    def union(self, a: SSAValue, b: SSAValue) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra is rb:
            return
        self.parent[rb] = ra
        self.members[ra] += self.members.pop(rb)
        self.writable[ra] = self.writable[ra] and self.writable.pop(rb)
        self.written[ra] = self.written.get(ra, False) or self.written.pop(rb, False)

    def is_written(self, v: SSAValue) -> bool:
        """Whether some in-place write went into ``v``'s class."""
        return self.written.get(self.find(v), False)

    def mark_readonly(self, v: SSAValue) -> None:
        self.writable[self.find(v)] = False

    def is_inplace(self, op: Operation, index: int) -> bool:
        return self.inplace.get((op, index), False)

    # -- walk ---------------------------------------------------------------
    def run(self, function: func.FuncOp) -> None:
        for i, arg in enumerate(function.body.blocks.first.args if function.body.blocks else ()):
            if not is_tensor(arg):
                continue
            attr = None
            if function.arg_attrs is not None:
                attr = function.arg_attrs.data[i].data.get(WRITABLE_ATTR)
            if not self.boundaries or (isinstance(attr, IntegerAttr) and not attr.value.data):
                self.mark_readonly(arg)
        for block in function.body.blocks:
            self.visit_block(block)

    def visit_block(self, block: Block) -> None:
        for op in block.ops:
            self.visit(op)

    def visit(self, op: Operation) -> None:
        self.structural_unions(op)
        for write in writes_of(op, self.arg_writes):
            dest = op.operands[write.index]
            ok = (
                not self.copy_before_write
                and self.writable[self.find(dest)]
                and not self.conflicts(op, write.index)
            )
            self.inplace[(op, write.index)] = ok
            if ok:
                self.written[self.find(dest)] = True
            if ok and write.result is not None:
                self.union(dest, write.result)
            if ok and isinstance(op, scf.ForOp | scf.WhileOp):
                self.union(dest, self._loop_arg(op, write.index))
        for region in op.regions:
            for block in region.blocks:
                self.visit_block(block)
        if isinstance(op, scf.ForOp):
            body = op.body.block
            yield_ = body.last_op
            assert yield_ is not None
            for k, value in enumerate(yield_.operands):
                if is_tensor(value) and not self.equivalent(value, body.args[k + 1]):
                    self.nonequivalent_yields.add((yield_, k))

    @staticmethod
    def _loop_arg(op: Operation, index: int) -> SSAValue:
        if isinstance(op, scf.ForOp):
            return op.body.block.args[index - 2]
        return op.before_region.block.args[index]  # type: ignore[attr-defined]

    def structural_unions(self, op: Operation) -> None:
        if isinstance(op, VIEW_OPS):
            self.union(op.operands[0], op.results[0])
        elif isinstance(op, buf.ToTensorOp):
            self.find(op.tensor)
            if op.restrict is None or op.writable is None:
                self.mark_readonly(op.tensor)
        elif isinstance(op, arith.ConstantOp) and is_tensor(op.result):
            self.mark_readonly(op.result)
        elif isinstance(op, scf.ForOp):
            block = op.body.block
            yields = block.last_op.operands if block.last_op else ()
            for k, result in enumerate(op.results):
                if is_tensor(result):
                    self.union(result, block.args[k + 1])
                    self.union(result, yields[k])
        elif isinstance(op, scf.IfOp):
            for region in op.regions:
                if region.blocks and region.block.last_op is not None:
                    for result, value in zip(op.results, region.block.last_op.operands):
                        if is_tensor(result):
                            self.union(result, value)
        elif isinstance(op, scf.WhileOp):
            before, after = op.before_region.block, op.after_region.block
            cond, yield_ = before.last_op, after.last_op
            assert cond is not None and yield_ is not None
            for k, arg in enumerate(before.args):
                if is_tensor(arg):
                    self.union(arg, yield_.operands[k])
            for k, result in enumerate(op.results):
                if is_tensor(result):
                    self.union(result, after.args[k])
                    self.union(result, cond.operands[k + 1])
        elif isinstance(op, func.CallOp):
            fresh = self.fresh_results(op.callee.root_reference.data)
            for k, result in enumerate(op.results):
                if not is_tensor(result):
                    continue
                self.find(result)
                if fresh is None:
                    self.mark_readonly(result)
                if fresh is None or not fresh[k]:
                    for arg in op.arguments:
                        if is_tensor(arg):
                            self.union(result, arg)

    # -- conflicts ----------------------------------------------------------
    def _derived(self, write_op: Operation) -> set[SSAValue]:
        """Values whose contents already include ``write_op``'s write."""
        roots = [r for r in write_op.results if is_tensor(r)]
        return set(reachable(roots, self._carrying_write))

    def _carrying_write(self, value: SSAValue) -> list[SSAValue]:
        """The tensor values that hold ``value``'s contents through one use."""
        found: list[SSAValue] = []
        for use in value.uses:
            user = use.operation
            if isinstance(user, VIEW_OPS) or any(
                w.index == use.index and w.result is not None
                for w in writes_of(user, self.arg_writes)
            ):
                found.extend(r for r in user.results if is_tensor(r))
            elif isinstance(user, scf.YieldOp) and isinstance(
                user.parent_op(), scf.IfOp | scf.ForOp
            ):
                parent = user.parent_op()
                assert parent is not None
                found.extend(r for r in parent.results if is_tensor(r))
            elif isinstance(user, scf.ConditionOp):
                parent = user.parent_op()
                assert isinstance(parent, scf.WhileOp)
                found.extend(r for r in parent.results if is_tensor(r))
                found.extend(a for a in parent.after_region.block.args if is_tensor(a))
            elif isinstance(user, func.CallOp):
                found.extend(r for r in user.results if is_tensor(r))
        return found

    def _is_read(self, use_op: Operation, index: int) -> bool:
        if isinstance(use_op, tensor.DimOp | tensor.RankOp | buf.DeallocTensorOp):
            return False
        for w in writes_of(use_op, self.arg_writes):
            if w.index == index and not w.reads_dest:
                return False
        return True

    def conflicts(self, op: Operation, index: int) -> bool:
        dest = op.operands[index]
        derived = self._derived(op)
        anchors: dict[Block, Operation] = {}
        for anc in _ancestors(op):
            if anc.parent_block() is not None:
                anchors[anc.parent_block()] = anc  # type: ignore[index]
        for member in self.members[self.find(dest)]:
            if member in derived:
                continue
            for use in member.uses:
                user = use.operation
                if user is op:
                    if use.index != index:
                        return True
                    continue
                if not self._is_read(user, use.index):
                    continue
                if self._after(user, op, member, anchors):
                    return True
        return False

    def _after(
        self, user: Operation, op: Operation, value: SSAValue, anchors: dict[Block, Operation]
    ) -> bool:
        """Whether ``user`` may execute after ``op`` (and read a stale ``value``)."""
        if is_defined_inside(user, op):
            return True  # in a region of the writer, after the write of iteration one
        if any(anc is user for anc in _ancestors(op)):
            return False  # an enclosing op consumed its operand before running ``op``
        current: Operation | None = user
        while current is not None and current.parent_block() not in anchors:
            current = current.parent_op()
        if current is None:
            return True
        block = current.parent_block()
        assert block is not None
        mine = anchors[block]
        if current is mine:
            return not isinstance(current, scf.IfOp)
        if block.get_operation_index(current) > block.get_operation_index(mine):
            return True
        # Earlier in the block: a loop around the block re-reads loop-invariant values.
        enclosing = block.parent_op()
        while enclosing is not None:
            if _is_loop(enclosing) and not is_defined_inside(value, enclosing):
                return True
            enclosing = enclosing.parent_op()
        return False

    # -- equivalence ----------------------------------------------------------
    def equivalent(self, value: SSAValue, target: SSAValue) -> bool:
        """Whether ``value`` is ``target``'s buffer itself after in-place writes."""
        while True:
            if value is target:
                return True
            if not isinstance(value, OpResult):
                return False
            op = value.op
            if isinstance(op, tensor.CastOp):
                value = op.source
                continue
            if isinstance(op, scf.IfOp):
                yields = [r.block.last_op for r in op.regions if r.blocks]
                return len(yields) == 2 and all(
                    y is not None and self.equivalent(y.operands[value.index], target)
                    for y in yields
                )
            if isinstance(op, scf.ForOp):
                index = 3 + value.index
                y = op.body.block.last_op
                if not self.is_inplace(op, index) or y is None or not self.equivalent(
                    y.operands[value.index], op.body.block.args[value.index + 1]
                ):
                    return False
                value = op.operands[index]
                continue
            for write in writes_of(op, self.arg_writes):
                if write.result is value and self.is_inplace(op, write.index):
                    value = op.operands[write.index]
                    break
            else:
                return False
