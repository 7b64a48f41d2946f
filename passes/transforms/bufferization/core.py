"""The rewriting half of one-shot-bufferize: a walk in program order that gives
every tensor value a buffer, following the in-place decisions of One-Shot
Analysis (:mod:`.oneshot`). Op-specific rules live in :mod:`.tensor`,
:mod:`.control` and :mod:`.vector`; this module holds the state and the shared
helpers.

An operand the analysis puts out of place gets a copy: a writing op's rule asks
for its destination through ``dest_buffer``; for other ops the walk copies the
operand before the rule runs, or, for a view with one source, the view after
it (as upstream's tensor copy insertion does). An op that is not bufferizable
(with ``allow-unknown-ops``) keeps its tensors: a bufferized value it uses
becomes ``bufferization.to_tensor`` right after its producer, and a tensor it
produces becomes ``bufferization.to_buffer`` for each bufferized user.

Tensor ops are not erased while their results still have tensor uses that are
not yet rewritten: each is queued and erased, last first, when the walk ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, IndexType, IntegerAttr
from xdsl.dialects.builtin import IntegerType, MemRefType, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.dialects.builtin import TensorType, UnitAttr, UnrankedMemRefType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import memref  # the registered classes: mlkit's copy, cast, global
from mlkit.diagnostics.emit import emit_error

from mlkit.dialects import bufferization as buf
from mlkit.passes.transforms.bufferization.errors import BufferizeError
from mlkit.passes.transforms.bufferization.operands import is_tensor
from mlkit.passes.transforms.bufferization.semantics import has_tensor_semantics, owner_of
from mlkit.passes.transforms.bufferization.types import dynamic_layout_memref, identity_memref, is_identity

if TYPE_CHECKING:
    from mlkit.passes.transforms.bufferization.oneshot import OneShotAnalysis

ALIGNMENT = 64  # upstream's default buffer alignment

Rule = Callable[["Bufferizer", Operation], None]


@dataclass
class Options:
    function_boundaries: bool
    infer_layout: bool
    allow_return_allocs_from_loops: bool
    copy_before_write: bool
    allow_unknown_ops: bool = False


@dataclass
class Bufferizer:
    module: ModuleOp
    options: Options
    rules: dict[type[Operation], Rule]
    analysis: OneShotAnalysis | None = None
    buffers: dict[SSAValue, SSAValue] = field(default_factory=dict)
    dead: list[Operation] = field(default_factory=list)
    dead_args: list[BlockArgument] = field(default_factory=list)
    point: InsertPoint | None = None
    globals: dict[tuple[Attribute, Attribute], str] = field(default_factory=dict)
    signatures: dict[str, tuple[list[Attribute], list[Attribute]]] = field(default_factory=dict)
    to_buffers: dict[tuple[SSAValue, Operation], SSAValue] = field(default_factory=dict)
    unused_if_dead: list[Operation] = field(default_factory=list)

    # -- building ------------------------------------------------------------
    def insert(self, op: Operation) -> Operation:
        assert self.point is not None
        Rewriter.insert_op(op, self.point)
        return op

    def index(self, value: int) -> SSAValue:
        return self.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).results[0]

    def alloc(self, memref_type: MemRefType, dynamic_sizes: Sequence[SSAValue]) -> SSAValue:
        op = memref.AllocOp(list(dynamic_sizes), [], memref_type, IntegerAttr(ALIGNMENT, 64))
        return self.insert(op).results[0]

    def dims(self, value: SSAValue) -> list[SSAValue]:
        """The dynamic sizes of a buffer, as ``memref.dim`` values."""
        shape = value.type.get_shape()  # type: ignore[attr-defined]
        return [
            self.insert(memref.DimOp(value, self.index(i))).results[0]
            for i, size in enumerate(shape)
            if size == DYNAMIC_INDEX
        ]

    def alloc_like(self, tensor_type: Attribute, source: SSAValue | None,
                   sizes: Sequence[SSAValue] = ()) -> SSAValue:
        """A fresh identity-layout buffer of ``tensor_type``; dynamic sizes from
        ``sizes`` or from ``source``'s buffer."""
        if not isinstance(tensor_type, TensorType):
            raise BufferizeError(self.current, "cannot allocate a buffer of unranked type")
        dyn = list(sizes) if source is None else self.dims(source)
        return self.alloc(identity_memref(tensor_type), dyn)  # type: ignore[arg-type]

    def copy(self, source: SSAValue, dest: SSAValue) -> None:
        self.insert(memref.CopyOp(source, dest))

    def cast(self, value: SSAValue, target: Attribute) -> SSAValue:
        """``value`` as ``target``: a ``memref.cast``, or a copy into a fresh
        identity buffer where the cast could fail at run time."""
        if value.type == target:
            return value
        if is_identity(target) and isinstance(value.type, MemRefType) and not is_identity(value.type):
            fresh = self.alloc(target, self.dims(value))  # type: ignore[arg-type]
            self.copy(value, fresh)
            return fresh
        return self.insert(memref.CastOp.create(operands=[value], result_types=[target])).results[0]

    # -- values ----------------------------------------------------------------
    @property
    def current(self) -> Operation:
        assert self.point is not None and self.point.insert_before is not None
        return self.point.insert_before

    def buffer(self, value: SSAValue) -> SSAValue:
        if value in self.buffers:
            return self.buffers[value]
        assert self.analysis is not None
        owner = owner_of(value)
        if owner is None or self.analysis.model(owner) is not None:
            raise BufferizeError(self.current, "operand was not bufferized")
        # A tensor from an op that is not bufferized: a to_buffer per user, as
        # upstream's getBuffer makes one, right after the definition.
        key = (value, self.current)
        if key not in self.to_buffers:
            if isinstance(value, BlockArgument):
                where = InsertPoint.at_start(value.block)
            else:
                where = InsertPoint.after(owner)
            to_buf = buf.ToBufferOp(value, dynamic_layout_memref(value.type))
            Rewriter.insert_op(to_buf, where)
            self.to_buffers[key] = to_buf.results[0]
        return self.to_buffers[key]

    def dest_buffer(self, op: Operation, index: int, reads: bool) -> SSAValue:
        """The buffer ``op`` writes into for operand ``index``: the operand's own
        when the analysis says so, else a fresh one (a copy if ``op`` reads it)."""
        value = op.operands[index]
        source = self.buffer(value)
        assert self.analysis is not None
        if self.analysis.is_inplace(op, index):
            return source
        reads = reads and not self.analysis.can_omit_copy(op, index)
        if isinstance(source.type, UnrankedMemRefType):
            # A copy of the ranked buffer behind the unranked view, viewed unranked.
            owner = source.owner
            if not isinstance(owner, memref.CastOp) or isinstance(
                owner.source.type, UnrankedMemRefType
            ):
                raise BufferizeError(op, "cannot copy a buffer of unranked type")
            ranked = owner.source
            fresh = self.alloc(MemRefType(ranked.type.element_type, ranked.type.get_shape()), self.dims(ranked))
            if reads:
                self.copy(ranked, fresh)
            return self.insert(
                memref.CastOp.create(operands=[fresh], result_types=[source.type])
            ).results[0]
        fresh = self.alloc_like(value.type, source)
        if reads:
            self.copy(source, fresh)
        return fresh

    def bind(self, value: SSAValue, buffer: SSAValue) -> None:
        self.buffers[value] = buffer
        if isinstance(value, BlockArgument):
            self.tensor_for_unknown_users(value, InsertPoint.at_start(value.block))

    def tensor_for_unknown_users(self, value: SSAValue, where: InsertPoint) -> None:
        """Uses of ``value`` by ops that are not bufferized get a to_tensor
        of its buffer."""
        assert self.analysis is not None
        users = [u for u in value.uses if self.analysis.model(u.operation) is None]
        if not users:
            return
        to_tensor = buf.ToTensorOp(self.buffers[value], value.type)
        Rewriter.insert_op(to_tensor, where)
        for use in users:
            use.operation.operands[use.index] = to_tensor.results[0]

    def finish(self, op: Operation) -> None:
        """``op``'s tensor form is done; it goes when the walk ends."""
        self.dead.append(op)

    def replace_results(self, op: Operation, new: Operation) -> None:
        """``new`` is the bufferized ``op``: ``op``'s tensor results get
        ``new``'s results as their buffers, its other results are replaced
        by them, and ``op`` is done."""
        for old, result in zip(op.results, new.results):
            if is_tensor(old):
                self.bind(old, result)
            else:
                old.replace_all_uses_with(result)
        self.finish(op)

    def buffer_type(self, tensor_type: Attribute, boundary: bool) -> Attribute:
        if boundary and self.options.infer_layout:
            return dynamic_layout_memref(tensor_type)
        return identity_memref(tensor_type)

    # -- globals ---------------------------------------------------------------
    def global_for(self, value: DenseIntOrFPElementsAttr, memref_type: MemRefType) -> str:
        key = (memref_type, value)
        if key in self.globals:
            return self.globals[key]
        shape = "x".join(str(s) for s in memref_type.get_shape())
        base = f"__constant_{shape}x{memref_type.element_type}" if shape else (
            f"__constant_{memref_type.element_type}"
        )
        taken = {op.sym_name.data for op in self.module.ops if hasattr(op, "sym_name")}
        name, n = base, 0
        while name in taken:
            name, n = f"{base}_{n}", n + 1
        glob = memref.GlobalOp.create(properties={
            "sym_name": StringAttr(name),
            "sym_visibility": StringAttr("private"),
            "type": memref_type,
            "initial_value": value,
            "constant": UnitAttr(),
            "alignment": IntegerAttr(ALIGNMENT, 64),
        })
        first = self.module.body.block.first_op
        position = InsertPoint.before(first) if first else InsertPoint.at_end(self.module.body.block)
        # After the globals already made, in creation order, as upstream.
        made = [op for op in self.module.ops if isinstance(op, memref.GlobalOp)]
        if made:
            position = InsertPoint.after(made[-1])
        Rewriter.insert_op(glob, position)
        self.globals[key] = name
        return name

    # -- the walk ----------------------------------------------------------------
    def run_block(self, block: Block, ops: list[Operation] | None = None) -> None:
        for op in list(block.ops) if ops is None else ops:
            self.point = InsertPoint.before(op)
            self.run_op(op)

    def run_op(self, op: Operation) -> None:
        assert self.analysis is not None
        rule = self.rule_for(op) if self.analysis.model(op) is not None else None
        if rule is None:
            self.unknown_op(op)
            return
        saved = self._copy_operands(op)
        rule(self, op)
        for value, old in saved.items():
            if old is None:
                del self.buffers[value]
            else:
                self.buffers[value] = old
        self._copy_results(op)
        for result in op.results:
            if is_tensor(result) and result in self.buffers:
                assert self.point is not None
                self.tensor_for_unknown_users(result, self.point)

    def rule_for(self, op: Operation) -> Rule | None:
        rule = self.rules.get(type(op))
        if rule is None:
            for cls, candidate in self.rules.items():
                if cls is not Operation and isinstance(op, cls):
                    return candidate
        if rule is None and op.name.startswith("linalg.") and op.name not in (
            "linalg.yield", "linalg.index"
        ):
            rule = self.rules[Operation]
        return rule

    def unknown_op(self, op: Operation) -> None:
        """An op that is not bufferizable keeps its tensors; its regions are
        bufferized. Without ``allow-unknown-ops`` one with tensors is an error
        (unless it is unused and pure, or a ``func`` op where function
        boundaries are not bufferized, as upstream)."""
        if not self.options.allow_unknown_ops and has_tensor_semantics(op) and not (
            op.name.startswith("func.") and not self.options.function_boundaries
        ) and not (all(not r.uses for r in op.results) and is_pure(op)):
            raise BufferizeError(op, "op was not bufferized")
        for region in op.regions:
            for block in region.blocks:
                saved = self.point
                self.run_block(block)
                self.point = saved

    def _copy_operands(self, op: Operation) -> dict[SSAValue, SSAValue | None]:
        """Copies of the out-of-place operands that ``op`` does not write (a
        writing op's rule copies through ``dest_buffer``), bound while its
        rule runs; a view's result is copied instead (``_copy_results``)."""
        assert self.analysis is not None
        saved: dict[SSAValue, SSAValue | None] = {}
        for i, value in enumerate(op.operands):
            if (not is_tensor(value) or self.analysis.is_inplace(op, i)
                    or self.analysis.writes(op, i) or self._copies_result(op, i)):
                continue
            source = self.buffer(value)
            fresh = self.alloc_like(value.type, source)
            if not self.analysis.can_omit_copy(op, i):
                self.copy(source, fresh)
            saved.setdefault(value, self.buffers.get(value))
            self.buffers[value] = fresh
        return saved

    def _copies_result(self, op: Operation, i: int) -> bool:
        assert self.analysis is not None
        aliases = self.analysis.aliasing_values(op, i)
        if len(aliases) != 1 or not isinstance(aliases[0].value, OpResult):
            return False
        result = aliases[0].value
        return (isinstance(result.type, TensorType)
                and len(self.analysis.aliasing_operands(result)) == 1)

    def _copy_results(self, op: Operation) -> None:
        assert self.analysis is not None
        for i, value in enumerate(op.operands):
            if (not is_tensor(value) or self.analysis.is_inplace(op, i)
                    or self.analysis.writes(op, i) or not self._copies_result(op, i)):
                continue
            result = self.analysis.aliasing_values(op, i)[0].value
            view = self.buffers[result]
            fresh = self.alloc_like(result.type, view)
            if not self.analysis.can_omit_copy(op, i):
                self.copy(view, fresh)
            self.buffers[result] = fresh

    def erase_dead(self) -> None:
        for op in reversed(self.dead):
            for result in op.results:
                if result.uses:
                    user = next(iter(result.uses)).operation
                    raise BufferizeError(user, "op was not bufferized")
            op.detach()
            op.erase(safe_erase=False)
        for arg in self.dead_args:
            arg.block.erase_arg(arg)
        # the buffer of a tensor.empty whose every use got a copy instead (as
        # upstream erases an empty tensor left without uses)
        for alloc in self.unused_if_dead:
            if not alloc.results[0].uses and alloc.parent is not None:
                alloc.detach()
                alloc.erase()
        self.dead.clear()
        self.dead_args.clear()
        self.unused_if_dead.clear()


def located(ctx, err: BufferizeError) -> Exception:  # type: ignore[no-untyped-def]
    return emit_error(ctx, err.op, str(err))


def is_pure(op: Operation) -> bool:
    from xdsl.traits import Pure

    return op.has_trait(Pure)


def is_i1(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


__all__ = ["Bufferizer", "BufferizeError", "Options", "located", "SymbolRefAttr", "UnrankedMemRefType"]
