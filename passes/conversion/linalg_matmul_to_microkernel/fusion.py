"""What a matmul's tiles absorb from its neighbours on buffers.

- **The fill before it** (``linalg.fill``, or the ``linalg.generic`` it
  generalizes to, writing one value to all of C just before the matmul):
  the first KC slice starts the C tile from that value instead of reading C,
  and the fill is erased. Only with a static, nonzero k extent, so that the
  nest always writes C.
- **The elementwise op after it** (a bias add, an activation: a parallel
  ``linalg.generic`` that reads C with the identity map, other operands with
  projected permutations, and writes a new allocation D (or C itself, in
  place), arith and math ops only,
  when C is a local allocation (``alloc`` or ``alloca``) used by nothing else
  but its ``dealloc``):
  the last KC slice applies its body to the finished C tile in registers and
  stores the result to D; the op is erased, and C is never read again (with
  the fill absorbed too, the partial sums live in D and C goes away).

Both are upstream's producer/consumer fusion into the tiles of a tiled
contraction (``transform.structured.fuse_into_containing_op``), specialized
to what a dense layer is made of.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mlkit.dialects.linalg.attrs import IteratorType
from mlkit.passes.conversion.linalg_matmul_to_microkernel.builder import Builder
from mlkit.passes.conversion.linalg_matmul_to_microkernel.contraction import (
    N,
    Access,
    Contraction,
)
from mlkit.passes.transforms.side_effects import is_memory_effect_free
from xdsl.dialects import memref, vector
from xdsl.dialects.builtin import IntegerType, MemRefType, ShapedType, VectorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr

__all__ = ["Epilogue", "find_epilogue", "find_fill"]


# a buffer of its own (on the heap, or on the stack where small temporaries are promoted)
_FRESH = (memref.AllocOp, memref.AllocaOp)


def _parallel(op: LinalgStructuredOperation) -> bool:
    return all(k.data == IteratorType.PARALLEL for k in op.get_iterator_types())


def _is_identity(op: LinalgStructuredOperation, position: int) -> bool:
    map_ = op.get_indexing_maps().data[position].data
    return map_.results == tuple(AffineDimExpr(d) for d in range(map_.num_dims))


def find_fill(c: Contraction) -> tuple[Operation, SSAValue] | None:
    """The op filling C right before the matmul, and the value it writes."""
    k_extent = c.static_extent("k")
    if k_extent is None or k_extent < 1:  # dynamic (or empty): the nest might not write C
        return None
    prev = c.op.prev_op
    while prev is not None and is_memory_effect_free(prev):
        prev = prev.prev_op
    if not isinstance(prev, LinalgStructuredOperation) or prev.results or not _parallel(prev):
        return None
    outputs, inputs = list(prev.outputs), list(prev.inputs)
    if outputs != [c.out.buffer] or not _is_identity(prev, len(inputs)):
        return None
    if any(isinstance(v.type, ShapedType) for v in inputs):
        return None
    block = prev.body.block
    ops = list(block.ops)
    if len(ops) != 1 or len(ops[0].operands) != 1:
        return None
    value = ops[0].operands[0]
    if value in block.args:
        index = list(block.args).index(value)
        if index >= len(inputs):
            return None  # yields the old value of C: not a fill
        value = inputs[index]
    elif value.owner is prev or (isinstance(value.owner, Operation) and prev.is_ancestor(value.owner)):
        return None
    if value.type != c.element:
        return None
    return prev, value


@dataclass
class Epilogue:
    """The elementwise op applied to each finished C tile; ``inputs`` are its
    other operands (an :class:`Access` in C's roles, or a scalar)."""

    op: LinalgStructuredOperation
    body: Block
    c_position: int
    inputs: dict[int, Access | SSAValue]
    out: Access

    def vectorizable(self) -> bool:
        return self.out.contiguous(N) and all(
            not isinstance(a, Access) or a.contiguous(N) or N not in a.roles
            for a in self.inputs.values()
        )

    def apply(self, b: Builder, value: SSAValue, at: Mapping[str, SSAValue], lanes: int) -> SSAValue:
        """The body on ``value`` (a C tile vector of ``lanes``, or a scalar with
        ``lanes`` 0) at C's indices ``at`` (``n`` the first lane's)."""
        args = list(self.body.args)
        mapping: dict[SSAValue, SSAValue] = {args[self.c_position]: value}
        for position, source in self.inputs.items():
            mapping[args[position]] = self._operand(b, source, at, lanes)
        for op in self.body.ops:
            if op.name == "linalg.yield":
                return mapping[op.operands[0]]
            operands = [mapping[v] if v in mapping else self._uniform(b, v, lanes) for v in op.operands]
            if lanes:
                clone = type(op).create(
                    operands=operands,
                    result_types=[VectorType(r.type, [lanes]) for r in op.results],
                    properties=dict(op.properties),
                    attributes=dict(op.attributes),
                )
            else:
                clone = op.clone(value_mapper=dict(zip(op.operands, operands)))
            b.add_op(clone)
            mapping.update(zip(op.results, clone.results))
        raise AssertionError("a linalg body ends in linalg.yield")

    def _operand(
        self, b: Builder, source: Access | SSAValue, at: Mapping[str, SSAValue], lanes: int
    ) -> SSAValue:
        if not isinstance(source, Access):
            return self._uniform(b, source, lanes)
        indices = source.locate(b, at)
        if lanes and N in source.roles:
            load = vector.LoadOp(source.buffer, indices, VectorType(source.type.element_type, [lanes]))
            return b.add_op(load).results[0]
        scalar = b.add_op(memref.LoadOp.get(source.buffer, indices)).results[0]
        return self._uniform(b, scalar, lanes)

    @staticmethod
    def _uniform(b: Builder, value: SSAValue, lanes: int) -> SSAValue:
        if not lanes:
            return value
        return b.add_op(vector.BroadcastOp(value, VectorType(value.type, [lanes]))).results[0]


def _body_ok(block: Block, element: Attribute) -> bool:
    for op in block.ops:
        if op.name == "linalg.yield":
            return len(op.operands) == 1 and op.operands[0].type == element
        if not (op.name.startswith("arith.") or op.name.startswith("math.")) or op.regions:
            return False
        for value in (*op.operands, *op.results):
            if value.type != element and value.type != IntegerType(1):
                return False
    return False


def find_epilogue(c: Contraction, fill: Operation | None) -> Epilogue | None:
    """The elementwise consumer of C that the tiles can apply, if any
    (``fill``: the fill of C that the tiles absorb)."""
    c_buffer = c.out.buffer
    if not isinstance(c_buffer.owner, _FRESH):
        return None
    nxt = c.op.next_op
    while nxt is not None and (is_memory_effect_free(nxt) or isinstance(nxt, _FRESH)):
        nxt = nxt.next_op
    if not isinstance(nxt, LinalgStructuredOperation) or nxt.results or not _parallel(nxt):
        return None
    inputs, outputs = list(nxt.inputs), list(nxt.outputs)
    if len(outputs) != 1 or c_buffer not in inputs or inputs.count(c_buffer) != 1:
        return None
    out_buffer = outputs[0]
    # a fresh buffer, or C itself (bufferization may write the epilogue in place:
    # each finished tile is then overwritten with its result); written while A
    # and B are still being read, it must not alias them
    if out_buffer is not c_buffer and (not isinstance(out_buffer.owner, _FRESH) or out_buffer in inputs):
        return None
    if not isinstance(out_buffer.type, MemRefType) or out_buffer.type.get_shape() != c.out.type.get_shape():
        return None
    in_place = out_buffer is c_buffer
    for use in c_buffer.uses:
        user = use.operation
        if user is not c.op and user is not nxt and user is not fill:
            # in place, what comes after the epilogue reads its result, as before
            later = in_place and user.parent is nxt.parent and nxt.is_before_in_block(user)
            if not isinstance(user, memref.DeallocOp) and not later:
                return None
    c_position = inputs.index(c_buffer)
    block = nxt.body.block
    if not _is_identity(nxt, c_position) or not _is_identity(nxt, len(inputs)):
        return None
    if block.args[len(inputs)].uses or not _body_ok(block, c.element):
        return None
    maps = [m.data for m in nxt.get_indexing_maps()]
    sources: dict[int, Access | SSAValue] = {}
    for position, value in enumerate(inputs):
        if position == c_position:
            continue
        if not isinstance(value.type, ShapedType):
            sources[position] = value
            continue
        if not isinstance(value.type, MemRefType) or value.type.get_element_type() != c.element:
            return None
        dims = [e.position for e in maps[position].results if isinstance(e, AffineDimExpr)]
        if len(dims) != len(maps[position].results):
            return None
        # a role of several loops (a convolution's pixels, a collapsed
        # group) is indexed by its flat index: an operand needs all of its
        # loops, in C's order
        source = Access(value, tuple(c.out.roles[d] for d in dims))
        for role in set(source.roles):
            if [d for d in dims if c.out.roles[d] == role] != c.out.dims_of(role):
                return None
        sources[position] = source
    epilogue = Epilogue(nxt, block, c_position, sources, Access(out_buffer, c.out.roles))
    if c.lhs.plain and c.rhs.plain and len(set(c.out.roles)) != len(c.out.roles):
        # the kernel views the operands of a collapsed group as 2-D (:mod:`.collapse`)
        if not all(a.collapsible() for a in (epilogue.out, *sources.values()) if isinstance(a, Access)):
            return None
    return epilogue if epilogue.vectorizable() else None

