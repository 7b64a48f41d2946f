"""The rewriting half of one-shot-bufferize: a walk in program order that gives
every tensor value a buffer, following the in-place decisions of
``bufferize_analysis``. Op-specific rules live in ``bufferize_tensor`` and
``bufferize_control``; this module holds the state and the shared helpers.

Tensor ops are not erased while their results still have tensor uses that are
not yet rewritten: each is queued and erased, last first, when the walk ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, IndexType, IntegerAttr
from xdsl.dialects.builtin import IntegerType, MemRefType, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.dialects.builtin import TensorType, UnitAttr, UnrankedMemRefType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import memref  # the registered classes: mlkit's copy, cast, global
from mlkit.diagnostics.emit import emit_error

from mlkit.passes.transforms.bufferization.analysis import InPlaceAnalysis, is_tensor
from mlkit.passes.transforms.bufferization.types import dynamic_layout_memref, identity_memref, is_identity

ALIGNMENT = 64  # upstream's default buffer alignment

Rule = Callable[["Bufferizer", Operation], None]


class BufferizeError(Exception):
    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op


@dataclass
class Options:
    function_boundaries: bool
    infer_layout: bool
    allow_return_allocs_from_loops: bool
    copy_before_write: bool


@dataclass
class Bufferizer:
    module: ModuleOp
    options: Options
    rules: dict[type[Operation], Rule]
    analysis: InPlaceAnalysis | None = None
    buffers: dict[SSAValue, SSAValue] = field(default_factory=dict)
    dead: list[Operation] = field(default_factory=list)
    dead_args: list[BlockArgument] = field(default_factory=list)
    point: InsertPoint | None = None
    globals: dict[tuple[Attribute, Attribute], str] = field(default_factory=dict)
    signatures: dict[str, tuple[list[Attribute], list[Attribute]]] = field(default_factory=dict)

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
        if value not in self.buffers:
            raise BufferizeError(self.current, "operand was not bufferized")
        return self.buffers[value]

    def dest_buffer(self, op: Operation, index: int, reads: bool) -> SSAValue:
        """The buffer ``op`` writes into for operand ``index``: the operand's own
        when the analysis says so, else a fresh one (a copy if ``op`` reads it)."""
        value = op.operands[index]
        source = self.buffer(value)
        assert self.analysis is not None
        if self.analysis.is_inplace(op, index):
            return source
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
        rule = self.rules.get(type(op))
        if rule is None:
            for cls, candidate in self.rules.items():
                if cls is not Operation and isinstance(op, cls):
                    rule = candidate
                    break
        if rule is None and op.name.startswith("linalg.") and op.name not in (
            "linalg.yield", "linalg.index"
        ):
            rule = self.rules[Operation]
        if rule is not None:
            rule(self, op)
            return
        if any(is_tensor(v) for v in (*op.operands, *op.results)):
            raise BufferizeError(op, "op was not bufferized")
        for region in op.regions:
            for block in region.blocks:
                self.run_block(block)

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
        self.dead.clear()
        self.dead_args.clear()


def located(ctx, err: BufferizeError) -> Exception:  # type: ignore[no-untyped-def]
    return emit_error(ctx, err.op, str(err))


def is_i1(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


__all__ = ["Bufferizer", "BufferizeError", "Options", "located", "SymbolRefAttr", "UnrankedMemRefType"]
