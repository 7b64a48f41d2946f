"""What each op does to the buffers of its tensor operands, as upstream's
``BufferizableOpInterface`` implementations answer it for One-Shot Analysis.

For a tensor operand an op may read the buffer, write it, and give results
(or region arguments) that alias it, with an equivalent buffer or an unknown
relation (a view), definitely or maybe. Results may be unwritable (constants)
or fresh allocations; some operands must stay in place (yields). An op
without a model here is unknown: it is assumed to read, write and alias
everything, and its results are not writable (upstream's conservative
defaults). ``func`` ops have models only where function boundaries are
bufferized, as upstream's op filter allows them only then.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from mlkit.dialects import bufferization as buf
from mlkit.dialects import tensor

from mlkit.passes.transforms.bufferization.operands import WRITABLE_ATTR, constant_int, is_linalg
from mlkit.passes.transforms.bufferization.operands import is_tensor, is_tensor_type
from mlkit.passes.transforms.bufferization.operands import linalg_inits, linalg_reads_init
from mlkit.passes.transforms.bufferization.ordering import is_parallel


@dataclass
class FuncSummary:
    """What a function does to its tensor arguments (upstream's
    ``FuncAnalysisState`` for one function)."""

    read: set[int] = field(default_factory=set)
    written: set[int] = field(default_factory=set)
    aliasing: dict[int, list[int]] = field(default_factory=dict)  # arg -> results
    equivalent: dict[int, int] = field(default_factory=dict)  # result -> arg


class AnalysisState(Protocol):
    """What the models ask of the analysis state (:mod:`.oneshot`)."""

    def is_value_read(self, value: SSAValue) -> bool: ...

    def are_equivalent(self, a: SSAValue, b: SSAValue) -> bool: ...

    def callee_summary(self, call: Operation) -> FuncSummary | None: ...


class Relation(Enum):
    EQUIVALENT = "equivalent"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Alias:
    """A value that may share the buffer of an operand (or the reverse)."""

    value: SSAValue
    relation: Relation
    definite: bool


Operand = tuple[Operation, int]


def owner_of(value: SSAValue) -> Operation | None:
    """The op that defines ``value``: its op, or the op of its block's region."""
    if isinstance(value, OpResult):
        return value.op
    assert isinstance(value, BlockArgument)
    return value.block.parent_op()


class Model:
    """Upstream's interface defaults for a bufferizable op."""

    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return True

    def writes(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return False

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        return []

    def aliasing_operands(self, s: AnalysisState, value: SSAValue) -> list[tuple[Operand, Alias]] | None:
        return None  # the inverse of ``aliasing_values`` over the op's operands

    def is_writable(self, s: AnalysisState, value: SSAValue) -> bool:
        return True

    def must_inplace(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return False

    def result_writes(self, s: AnalysisState, value: OpResult) -> bool | None:
        return None  # upstream's default (``resultBufferizesToMemoryWrite``)

    def elementwise(self, op: Operation, indices: list[int]) -> bool:
        return False


class Allocating(Model):
    """Results in a new buffer; tensor operands are only read."""

    def is_writable(self, s: AnalysisState, value: SSAValue) -> bool:
        return not isinstance(owner_of(value), arith.ConstantOp)

    def result_writes(self, s: AnalysisState, value: OpResult) -> bool | None:
        if isinstance(value.op, tensor.EmptyOp):
            return False
        if isinstance(value.op, buf.AllocTensorOp):
            return value.op.copy is not None
        return None


class NoAccess(Model):
    """Looks at the shape only, or frees the buffer (``dealloc_tensor``)."""

    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return False


class View(Model):
    """A result that views the source's buffer (slices, casts, reshapes)."""

    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        # collapse_shape may copy a non-collapsible source, upstream says read
        return isinstance(op, tensor.CollapseShapeOp)

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        if i != 0:
            return []
        rel = Relation.UNKNOWN if isinstance(op, tensor.ExtractSliceOp) else Relation.EQUIVALENT
        return [Alias(op.results[0], rel, True)]


class Select(Model):
    """``arith.select`` of two tensors: the result is either buffer (a
    tensor condition is read; it cannot be bufferized)."""

    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return i == 0

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        return [Alias(op.results[0], Relation.EQUIVALENT, False)] if i in (1, 2) else []


class Destination(Model):
    """Writes into the tensor operand ``dest`` (index 1), whose buffer the
    result gets; other tensor operands are read."""

    DEST = 1

    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        if i != self.DEST:
            return True
        if isinstance(op, tensor.InsertSliceOp):
            return not _covers_whole(op)
        if op.name == "vector.transfer_write":
            return not _writes_whole(op)
        return True

    def writes(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return i == self.DEST

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        if i != self.DEST or not op.results:
            return []
        return [Alias(op.results[0], Relation.EQUIVALENT, True)]


class Materialize(Destination):
    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return i == 0

    def must_inplace(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return True


class Linalg(Model):
    """Destination-style linalg ops: inits are written and give their buffer to
    the results; operands are read where the payload uses them."""

    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        if op.name in ("linalg.pack", "linalg.unpack", "linalg.softmax"):
            return i not in linalg_inits(op)
        return linalg_reads_init(op, i)

    def writes(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return i in linalg_inits(op)

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        inits = linalg_inits(op)
        if i not in inits:
            return []
        results = [r for r in op.results if is_tensor(r)]
        k = inits.index(i)
        return [Alias(results[k], Relation.EQUIVALENT, True)] if k < len(results) else []

    def elementwise(self, op: Operation, indices: list[int]) -> bool:
        try:
            iterators = op.get_iterator_types()  # type: ignore[attr-defined]
            maps = list(op.get_indexing_maps())  # type: ignore[attr-defined]
        except (AttributeError, TypeError):
            return False
        if any(getattr(t.data, "value", t.data) != "parallel" for t in iterators):
            return False
        if len(maps) != len(op.operands):
            return False
        for i in indices:
            if not is_tensor(op.operands[i]):
                continue
            m = maps[i].data
            if m.num_symbols or m.num_dims != len(m.results) or any(
                str(e) != f"d{k}" for k, e in enumerate(m.results)
            ):
                return False
        return True


def flag(op: Operation, name: str) -> bool:
    """A unit property, also when written in the attribute dictionary (which
    upstream reads as the property)."""
    return op.properties.get(name) is not None or name in op.attributes


class ToBuffer(Model):
    def writes(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return not flag(op, "read_only")


class ToTensor(Model):
    def is_writable(self, s: AnalysisState, value: SSAValue) -> bool:
        op = owner_of(value)
        assert op is not None
        return flag(op, "writable")


class Loop(Model, ABC):
    """``scf.for``/``scf.while``: an init is written (the loop updates its
    buffer); the result is equivalent to the init where the values carried
    around the loop are equivalent to its region arguments."""

    def writes(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return True

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        k = self.result_of(op, i)
        if k is None:
            return []
        rel = self.relation(s, op, k)
        return [Alias(op.results[k], rel, rel is Relation.EQUIVALENT)]

    @abstractmethod
    def result_of(self, op: Operation, i: int) -> int | None:
        """The result tied to operand ``i``, if any."""

    @staticmethod
    @abstractmethod
    def relation(s: AnalysisState, op: Operation, k: int) -> Relation:
        """How result ``k`` relates to its init."""


class For(Loop):
    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        # a loop that may run zero times yields its inits unchanged
        return _may_run_zero_times(op) or s.is_value_read(op.body.block.args[i - 2])  # type: ignore[attr-defined]

    def result_of(self, op: Operation, i: int) -> int | None:
        return i - 3 if i >= 3 else None

    @staticmethod
    def relation(s: AnalysisState, op: Operation, k: int) -> Relation:
        block = op.body.block  # type: ignore[attr-defined]
        yielded = block.last_op.operands[k]
        equal = s.are_equivalent(block.args[k + 1], yielded)
        return Relation.EQUIVALENT if equal else Relation.UNKNOWN


class While(Loop):
    def result_of(self, op: Operation, i: int) -> int | None:
        ok = i < len(op.results) and op.operands[i].type == op.results[i].type
        return i if ok else None

    @staticmethod
    def relation(s: AnalysisState, op: Operation, k: int) -> Relation:
        before = op.before_region.block  # type: ignore[attr-defined]
        after = op.after_region.block  # type: ignore[attr-defined]
        if k >= len(before.args) or op.results[k].type != before.args[k].type:
            return Relation.UNKNOWN
        cond = before.last_op.operands[k + 1]
        yielded = after.last_op.operands[k]
        equal = s.are_equivalent(before.args[k], cond) and s.are_equivalent(after.args[k], yielded)
        return Relation.EQUIVALENT if equal else Relation.UNKNOWN


class If(Model):
    def aliasing_operands(self, s: AnalysisState, value: SSAValue) -> list[tuple[Operand, Alias]] | None:
        assert isinstance(value, OpResult)
        found: list[tuple[Operand, Alias]] = []
        for region in value.op.regions:
            if region.blocks and region.block.last_op is not None:
                found.append(((region.block.last_op, value.index),
                              Alias(value, Relation.EQUIVALENT, False)))
        return found


class Terminator(Model):
    """``scf.yield``/``scf.condition``: read, in place, and (in an ``scf.if``)
    aliasing the parent's result."""

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        parent = op.parent_op()
        if isinstance(op, scf.YieldOp) and isinstance(parent, scf.IfOp):
            return [Alias(parent.results[i], Relation.EQUIVALENT, False)]
        return []

    def must_inplace(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return True


class Function(Model):
    def is_writable(self, s: AnalysisState, value: SSAValue) -> bool:
        assert isinstance(value, BlockArgument)
        function = value.block.parent_op()
        assert isinstance(function, func.FuncOp)
        if value.block is not function.body.blocks.first:
            return True
        attrs = function.arg_attrs
        if attrs is not None:
            writable = attrs.data[value.index].data.get(WRITABLE_ATTR)
            if isinstance(writable, IntegerAttr):
                return bool(writable.value.data)
        return True


class Call(Model):
    """A call reads, writes and aliases its arguments as the callee's
    summary says, or everything where the callee is not analyzed yet."""

    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        summary = s.callee_summary(op)
        return summary is None or i in summary.read

    def writes(self, s: AnalysisState, op: Operation, i: int) -> bool:
        summary = s.callee_summary(op)
        return summary is None or i in summary.written

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        summary = s.callee_summary(op)
        if summary is None:
            return unknown_aliasing_values(op)
        returned = summary.aliasing.get(i, [])
        equivalent = len(returned) == 1 and summary.equivalent.get(returned[0]) == i
        rel = Relation.EQUIVALENT if equivalent else Relation.UNKNOWN
        return [Alias(op.results[k], rel, equivalent) for k in returned]


class Forall(Model):
    """``scf.forall``: each shared output is read and written (conservatively,
    as upstream) and its buffer is the tied result's. Its region arguments
    get the outputs' buffers in bufferization, not through aliasing."""

    def writes(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return True

    def aliasing_values(self, s: AnalysisState, op: Operation, i: int) -> list[Alias]:
        k = i - (len(op.operands) - len(op.results))
        return [Alias(op.results[k], Relation.EQUIVALENT, True)] if k >= 0 else []


class ParallelInsert(Model):
    """``tensor.parallel_insert_slice``: reads the tile, writes the shared
    output (a region argument of the forall); no result aliases either."""

    def reads(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return i == 0

    def writes(self, s: AnalysisState, op: Operation, i: int) -> bool:
        return i == 1


def _may_run_zero_times(op: Operation) -> bool:
    lb, ub = constant_int(op.operands[0]), constant_int(op.operands[1])
    return lb is None or ub is None or ub <= lb


def unknown_aliasing_values(op: Operation) -> list[Alias]:
    """Every tensor result and entry-block argument of ``op`` may alias."""
    found = [Alias(r, Relation.UNKNOWN, False) for r in op.results if is_tensor(r)]
    for region in op.regions:
        if region.blocks:
            found += [Alias(a, Relation.UNKNOWN, False) for a in region.blocks.first.args
                      if is_tensor(a)]
    return found


def _covers_whole(op: tensor.InsertSliceOp) -> bool:
    """Whether an insert_slice overwrites its whole destination."""
    dest = op.dest.type
    assert isinstance(dest, TensorType)
    offsets = list(op.static_offsets.get_values())
    sizes = list(op.static_sizes.get_values())
    strides = list(op.static_strides.get_values())
    return (all(o == 0 for o in offsets) and all(s == 1 for s in strides)
            and sizes == list(dest.get_shape()) and -1 not in dest.get_shape()
            and not any(x < 0 for x in sizes))


def _writes_whole(op: Operation) -> bool:
    """Whether a transfer_write overwrites its whole (static) destination."""
    dest, vector = op.operands[1].type, op.operands[0].type
    assert isinstance(dest, TensorType)
    if any(d < 0 for d in dest.get_shape()) or getattr(op, "mask", None) is not None:
        return False
    if any(constant_int(index) != 0 for index in op.indices):  # type: ignore[attr-defined]
        return False
    return all(d <= v for d, v in zip(dest.get_shape(), vector.get_shape()))  # type: ignore[attr-defined]


_ALLOCATING = (tensor.EmptyOp, buf.AllocTensorOp, tensor.FromElementsOp, tensor.GenerateOp,
               tensor.SplatOp, tensor.PadOp, tensor.ConcatOp)
_VIEWS = (tensor.ExtractSliceOp, tensor.CastOp, tensor.ExpandShapeOp, tensor.CollapseShapeOp)
_MODELS: dict[str, Model] = {
    "tensor.extract": Model(),
    "vector.transfer_read": Model(),
    "tensor.dim": NoAccess(),
    "tensor.rank": NoAccess(),
    "bufferization.dealloc_tensor": NoAccess(),
    "tensor.insert": Destination(),
    "tensor.insert_slice": Destination(),
    "vector.transfer_write": Destination(),
    "bufferization.materialize_in_destination": Materialize(),
    "bufferization.to_buffer": ToBuffer(),
    "bufferization.to_tensor": ToTensor(),
    "scf.for": For(),
    "scf.while": While(),
    "scf.if": If(),
    "scf.forall": Forall(),
    "scf.forall.in_parallel": Model(),  # no tensors; its rule bufferizes its ops
    "tensor.parallel_insert_slice": ParallelInsert(),
}
_ALLOCATING_MODEL, _VIEW_MODEL, _LINALG = Allocating(), View(), Linalg()
_TERMINATOR, _SELECT = Terminator(), Select()
_FUNC, _RETURN, _CALL = Function(), Model(), Call()


def model_of(op: Operation, boundaries: bool) -> Model | None:
    """The model of a bufferizable op, ``None`` for an unknown op."""
    if isinstance(op, _ALLOCATING) or (isinstance(op, arith.ConstantOp) and is_tensor(op.result)):
        return _ALLOCATING_MODEL
    if isinstance(op, _VIEWS):
        return _VIEW_MODEL
    model = _MODELS.get(op.name)
    if model is not None:
        if op.name.startswith("vector.") and not any(is_tensor(v) for v in op.operands):
            return None
        return model
    if is_linalg(op):
        return _LINALG
    if isinstance(op, arith.SelectOp) and is_tensor(op.result):
        return _SELECT
    if isinstance(op, scf.YieldOp | scf.ConditionOp):
        parent = op.parent_op()
        return _TERMINATOR if isinstance(parent, scf.IfOp | scf.ForOp | scf.WhileOp) else None
    if boundaries:
        if isinstance(op, func.FuncOp):
            return _FUNC
        if isinstance(op, func.ReturnOp):
            return _RETURN
        if isinstance(op, func.CallOp):
            return _CALL
    return None


def has_tensor_semantics(op: Operation) -> bool:
    """Whether ``op`` has a tensor operand, result or region argument (for a
    function: in its type)."""
    if isinstance(op, func.FuncOp):
        return any(is_tensor_type(t) for t in
                   (*op.function_type.inputs.data, *op.function_type.outputs.data))
    if any(is_tensor(v) for v in (*op.operands, *op.results)):
        return True
    return any(is_tensor(a) for r in op.regions for b in r.blocks for a in b.args)


def is_repetitive(op: Operation, boundaries: bool) -> bool:
    """Whether the regions of a bufferizable ``op`` may run repeatedly."""
    if isinstance(op, scf.ForOp | scf.WhileOp):
        return model_of(op, boundaries) is not None
    return is_parallel(op)

