"""one-shot-bufferize rules for ``vector.transfer_read``/``transfer_write`` on
tensors: the same ops on the buffers (a write goes into its destination's
buffer, in place or into a copy, and the result is that buffer)."""

from __future__ import annotations

from xdsl.ir import Operation

from mlkit.dialects import vector
from mlkit.passes.transforms.bufferization.core import Bufferizer, Rule


def transfer_read(b: Bufferizer, op: Operation) -> None:
    operands = list(op.operands)
    operands[0] = b.buffer(operands[0])
    new = op.create(operands=operands, result_types=[r.type for r in op.results],
                    properties=dict(op.properties), attributes=dict(op.attributes))
    b.insert(new)
    op.results[0].replace_all_uses_with(new.results[0])
    b.finish(op)


def transfer_write(b: Bufferizer, op: Operation) -> None:
    operands = list(op.operands)
    dest = b.dest_buffer(op, 1, reads=True)
    operands[1] = dest
    new = op.create(operands=operands, result_types=[],
                    properties=dict(op.properties), attributes=dict(op.attributes))
    b.insert(new)
    b.bind(op.results[0], dest)
    b.finish(op)


VECTOR_RULES: dict[type[Operation], Rule] = {
    vector.TransferReadOp: transfer_read,
    vector.TransferWriteOp: transfer_write,
}
