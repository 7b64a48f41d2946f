"""``buffer-deallocation-pipeline``: free every buffer the program allocates.

An ownership-based scheme like upstream's, with ownership decided statically so
the output needs no run-time ownership flags (upstream's
``ownership-based-buffer-deallocation`` carries ``i1`` flags instead):

- a block owns the ``memref.alloc``/``realloc`` results and the memref results
  of calls and region ops it holds (callees and regions hand over fresh
  buffers), and the region arguments of loops that carry an owned buffer;
- an owned buffer not handed on is freed with ``memref.dealloc`` right after its
  last use, views (subview, cast, reshapes, ...) included, in that block;
- a terminator hands its owned buffers on (to a loop's next iteration, the
  region op's result, the caller). A buffer it does not own (an argument, a
  global, a buffer owned further out) is copied into a fresh one first, as
  upstream clones it; an ``scf.if`` or ``scf.for`` position that only passes a
  buffer from outside through is left alone, its result an alias of it.

Functions with several blocks that hold allocations, unknown ops with regions
that yield memrefs, and input that already frees buffers are rejected.
``private-function-dynamic-ownership`` changes upstream's private-function ABI
only; results are the same without it, so it is accepted and has no effect.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects import memref  # mlkit's registered copy and cast
from mlkit.diagnostics.emit import emit_error
from mlkit.passes.transforms.region_utils import is_defined_inside, reachable
from xdsl.dialects import arith

VIEW_OPS = {
    "memref.subview", "memref.cast", "memref.expand_shape", "memref.collapse_shape",
    "memref.reinterpret_cast", "memref.view", "memref.reshape", "memref.transpose",
    "memref.memory_space_cast", "memref.extract_strided_metadata", "memref.assume_alignment",
}
ALLOC_OPS = {"memref.alloc", "memref.realloc", "bufferization.clone"}


class DeallocError(Exception):
    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op


def _is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType)


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current


@dataclass
class _Block:
    """Ownership in one block: owned roots, pass-through aliases, handed-on roots."""

    block: Block
    owned: list[SSAValue]
    passthrough: dict[SSAValue, list[SSAValue]]  # region-op result -> values it may alias

    def aliases(self, value: SSAValue) -> list[SSAValue]:
        """What may hold ``value``'s buffer next: region-op results it passes
        through, then the views of it."""
        results = [result for result, aliases in self.passthrough.items() if value in aliases]
        return results + _views(value)

    def root(self, value: SSAValue) -> SSAValue | None:
        """The owned buffer ``value`` is (a view of), if this block owns one."""
        if value in self.owned:
            return value
        if isinstance(value, OpResult) and value.op.name in VIEW_OPS and value.op.operands:
            return self.root(value.op.operands[0])
        for alias in self.passthrough.get(value, []):
            root = self.root(alias)
            if root is not None:
                return root
        return None


def _views(value: SSAValue) -> list[SSAValue]:
    """The results of the views of ``value``."""
    return [result for use in value.uses if use.operation.name in VIEW_OPS
            for result in use.operation.results]


def _fresh_copy(value: SSAValue, before: Operation) -> SSAValue:
    """A new identity-layout buffer holding ``value`` (upstream's clone)."""
    point = InsertPoint.before(before)
    type_ = value.type
    assert isinstance(type_, MemRefType)
    dynamic: list[SSAValue] = []
    for i, size in enumerate(type_.get_shape()):
        if size == DYNAMIC_INDEX:
            index = arith.ConstantOp(IntegerAttr(i, IndexType()))
            dim = memref.DimOp(value, index)
            Rewriter.insert_op([index, dim], point)
            dynamic.append(dim.results[0])
    alloc = memref.AllocOp(dynamic, [], MemRefType(type_.element_type, type_.get_shape()))
    Rewriter.insert_op([alloc, memref.CopyOp(value, alloc)], point)
    result = alloc.results[0]
    if result.type != type_:
        cast = memref.CastOp.create(operands=[result], result_types=[type_])
        Rewriter.insert_op(cast, point)
        return cast.results[0]
    return result


def process_block(block: Block, owned_args: list[SSAValue], handed: list[bool]) -> None:
    """Free what ``block`` owns; ``handed[k]`` says whether terminator operand
    ``k`` hands a buffer on (else it passes an outer one through)."""
    state = _Block(block, list(owned_args), {})
    for op in list(block.ops):
        if op.name == "memref.dealloc":
            raise DeallocError(op, "No deallocation operations must be present when running this pass!")
        if op.name in ALLOC_OPS or isinstance(op, func.CallOp):
            state.owned.extend(r for r in op.results if _is_memref(r))
        elif isinstance(op, scf.ForOp):
            _for(op, state)
        elif isinstance(op, scf.IfOp):
            _if(op, state)
        elif isinstance(op, scf.WhileOp):
            _while(op, state)
        elif op.regions:
            for region in op.regions:
                for inner in region.blocks:
                    term = inner.last_op
                    if term is not None and term is not op and any(_is_memref(v) for v in term.operands):
                        raise DeallocError(term, "cannot deallocate buffers yielded by this op")
                    if len(region.blocks) > 1 and any(o.name in ALLOC_OPS for o in inner.ops):
                        raise DeallocError(op, "buffers allocated in a region with several blocks are not supported")
                    process_block(inner, [], [])
    terminator = block.last_op
    escaped: set[SSAValue] = set()
    if terminator is not None and _is_terminator(terminator):
        for k, value in enumerate(list(terminator.operands)):
            if not _is_memref(value) or (k < len(handed) and not handed[k]) or (
                isinstance(terminator, scf.ConditionOp) and k == 0
            ):
                continue
            root = state.root(value)
            if root is None or root in escaped:
                terminator.operands[k] = _fresh_copy(value, terminator)
            else:
                escaped.add(root)
    for root in state.owned:
        if root in escaped:
            continue
        _free_after_last_use(root, state, terminator)


def _is_terminator(op: Operation) -> bool:
    return isinstance(op, scf.YieldOp | scf.ConditionOp | func.ReturnOp)


def _free_after_last_use(root: SSAValue, state: _Block, terminator: Operation | None) -> None:
    block = state.block
    last: Operation | None = root.owner if isinstance(root.owner, Operation) else None
    for value in reachable([root], state.aliases):
        for use in value.uses:
            user = use.operation
            anc = _ancestor_in(user, block)
            if anc is None:
                continue
            if last is None or block.get_operation_index(anc) > block.get_operation_index(last):
                last = anc
    dealloc = memref.DeallocOp.create(operands=[root])
    if last is None or last.parent_block() is not block:
        Rewriter.insert_op(dealloc, InsertPoint.at_start(block))
    elif last is terminator:
        Rewriter.insert_op(dealloc, InsertPoint.before(last))
    else:
        Rewriter.insert_op(dealloc, InsertPoint.after(last))


def _take_or_copy(value: SSAValue, op: Operation, state: _Block) -> SSAValue:
    """Hand ``value`` to ``op`` if this block owns it and it is not used after
    ``op``; else hand over a fresh copy."""
    root = state.root(value)
    if root is not None and not _used_after(root, op, state):
        state.owned.remove(root)
        return value
    return _fresh_copy(value, op)


def _used_after(root: SSAValue, op: Operation, state: _Block) -> bool:
    block = state.block
    index = block.get_operation_index(op)
    for value in reachable([root], _views):
        for use in value.uses:
            anc = _ancestor_in(use.operation, block)
            if anc is not None and anc is not op and block.get_operation_index(anc) > index:
                return True
    return False


def _for(op: scf.ForOp, state: _Block) -> None:
    body = op.body.block
    yield_ = body.last_op
    assert yield_ is not None
    handed: list[bool] = []
    owned_args: list[SSAValue] = []
    for k, init in enumerate(op.iter_args):
        if not _is_memref(init):
            handed.append(True)
            continue
        arg = body.args[k + 1]
        if yield_.operands[k] is arg:  # passes its buffer through every iteration
            handed.append(False)
            state.passthrough[op.results[k]] = [init]
            continue
        handed.append(True)
        op.operands[3 + k] = _take_or_copy(init, op, state)
        owned_args.append(arg)
        state.owned.append(op.results[k])
    process_block(body, owned_args, handed)


def _if(op: scf.IfOp, state: _Block) -> None:
    yields = [r.block.last_op for r in op.regions if r.blocks]
    handed: list[bool] = []
    for k, result in enumerate(op.results):
        if not _is_memref(result):
            handed.append(True)
            continue
        values = [y.operands[k] for y in yields if y is not None]
        roots = {state.root(v) for v in values}
        # Pass through only buffers from outside with one known owner (or none):
        # a result that may be either of two owned buffers needs its own.
        if len(values) == 2 and all(not is_defined_inside(v, op) for v in values) and (
            len(roots) == 1
        ):
            handed.append(False)
            state.passthrough[result] = values
        else:
            handed.append(True)
            state.owned.append(result)
    for region in op.regions:
        for inner in region.blocks:
            process_block(inner, [], handed)


def _while(op: scf.WhileOp, state: _Block) -> None:
    for k, init in enumerate(op.arguments):
        if _is_memref(init):
            op.operands[k] = _take_or_copy(init, op, state)
    before, after = op.before_region.block, op.after_region.block
    process_block(before, [a for a in before.args if _is_memref(a)], [True] * len(before.args))
    process_block(after, [a for a in after.args if _is_memref(a)], [True] * len(after.args))
    state.owned.extend(r for r in op.results if _is_memref(r))


@dataclass(frozen=True)
class BufferDeallocationPipeline(ModulePass):
    """The default pipeline for automatically inserting deallocation operations after one-shot bufferization"""

    name = "buffer-deallocation-pipeline"

    private_function_dynamic_ownership: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
                if not function.body.blocks:
                    continue
                blocks = list(function.body.blocks)
                if len(blocks) > 1:
                    for blk in blocks:
                        for inner in blk.walk():
                            if inner.name in ALLOC_OPS or inner.name == "memref.dealloc":
                                raise DeallocError(inner, "buffers in functions with several blocks are not supported")
                    continue
                process_block(blocks[0], [], [])
        except DeallocError as err:
            raise emit_error(ctx, err.op, str(err)) from None
