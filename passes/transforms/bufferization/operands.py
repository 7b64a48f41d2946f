"""Small queries on operands that the bufferization modules share: whether a
value is a tensor or a constant integer, and which operands of a linalg op are
its inits and whether its payload reads them."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, TensorType, UnrankedTensorType
from xdsl.ir import Attribute, Operation, SSAValue

WRITABLE_ATTR = "bufferization.writable"


def is_tensor_type(t: Attribute) -> bool:
    return isinstance(t, TensorType | UnrankedTensorType)


def is_tensor(value: SSAValue) -> bool:
    return is_tensor_type(value.type)


def constant_int(value: SSAValue) -> int | None:
    """The value of an ``arith.constant`` integer or index, else ``None``."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def is_linalg(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.name not in ("linalg.yield", "linalg.index")


def linalg_inits(op: Operation) -> list[int]:
    """Operand indices of a linalg op's tensor inits, in result order: its
    ``outputs`` (or ``inits_list()``), which come last, or the one
    destination operand of the relayout ops and ``linalg.softmax``."""
    single = getattr(op, "dest", None) or getattr(op, "output", None)
    if isinstance(single, SSAValue) and not hasattr(op, "outputs"):
        # the destination follows the source, which may be the same value
        index = [i for i, v in enumerate(op.operands) if v is single][-1]
        return [index] if is_tensor(single) else []
    outputs = getattr(op, "outputs", None)  # empty for a generic kept for its payload's effects
    inits = list(outputs if outputs is not None else op.inits_list())  # type: ignore[attr-defined]
    first = len(op.operands) - len(inits)
    return [first + i for i, v in enumerate(inits) if is_tensor(v)]


def linalg_reads_init(op: Operation, operand_index: int) -> bool:
    """Whether the payload reads the operand's current element (upstream's
    ``payloadUsesValueForOperand``)."""
    if not op.regions or not op.regions[0].blocks:
        return True
    block = op.regions[0].blocks.first
    assert block is not None
    if len(block.args) != len(op.operands):
        return True  # bodies without one argument per operand (pack, softmax, ...)
    return bool(block.args[operand_index].uses)
