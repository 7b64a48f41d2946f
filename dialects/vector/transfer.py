"""``vector.transfer_read`` and ``vector.transfer_write``: xDSL's ops with
upstream's words for two of their errors.

xDSL's parser asks for the second type with ``Expected ','`` (upstream:
``requires two types``, at the type list) and its verifier says ``Expected an
index for each memref/tensor dimension.`` (upstream: ``requires 2 indices``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import I1, AffineMapAttr, ArrayAttr, BoolAttr, IndexType, MemRefType
from xdsl.dialects.builtin import TensorType, VectorType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_operand_def
from xdsl.irdl import opt_result_def, prop_def, result_def, var_operand_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from mlkit.dialects.scf.common import xdsl_own_verify

_OPEN, _CLOSE = "([{<", ")]}>"


def _type_list_start(text: str, start: int, end: int) -> int | None:
    """The offset of the first ``:`` outside brackets in ``text[start:end]``."""
    depth = 0
    for offset in range(start, end):
        char = text[offset]
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth = max(depth - 1, 0)
        elif char == ":" and depth == 0:
            return offset
    return None


def _parse_two_types(op_class: type[IRDLOperation], parser: Parser) -> IRDLOperation:
    """xDSL's parse (which builds xDSL's class), as an ``op_class``."""
    start = parser.pos
    try:
        parsed = op_class.XDSL_CLASS.parse(parser)  # type: ignore[attr-defined]
    except ParseError as err:
        text = parser.lexer.input.content
        colon = _type_list_start(text, start, err.span.start)
        if err.msg != "Expected ','" or colon is None:
            raise
        parser.raise_error("requires two types", colon)
    op = op_class.create(
        operands=list(parsed.operands),
        result_types=[r.type for r in parsed.results],
        properties=dict(parsed.properties),
        attributes=dict(parsed.attributes),
    )
    parsed.drop_all_references()
    return op


def _index_count(
    op: xvector.TransferReadOp | xvector.TransferWriteOp, verify: Callable[[IRDLOperation], None]
) -> None:
    shaped = op.source.type
    if isinstance(shaped, MemRefType | TensorType) and len(op.indices) != shaped.get_num_dims():
        raise VerifyException(f"requires {shaped.get_num_dims()} indices")
    verify(op)


class _UpstreamWords(IRDLOperation):
    """The parse and verify hooks both transfer ops share; listed first."""

    XDSL_CLASS: ClassVar[type[IRDLOperation]]
    XDSL_VERIFY: ClassVar[Callable[[IRDLOperation], None]]

    @classmethod
    def parse(cls, parser: Parser) -> IRDLOperation:
        return _parse_two_types(cls, parser)

    def verify_(self) -> None:
        _index_count(self, type(self).XDSL_VERIFY)  # type: ignore[arg-type]


@irdl_op_definition
class TransferReadOp(_UpstreamWords, xvector.TransferReadOp):
    name = "vector.transfer_read"
    XDSL_CLASS: ClassVar = xvector.TransferReadOp
    XDSL_VERIFY: ClassVar = staticmethod(xdsl_own_verify(xvector.TransferReadOp))

    source = operand_def(TensorType | MemRefType)
    indices = var_operand_def(IndexType)
    padding = operand_def()
    mask = opt_operand_def(VectorType[I1])
    permutation_map = prop_def(AffineMapAttr)
    in_bounds = prop_def(ArrayAttr[BoolAttr])
    result = result_def(VectorType)


@irdl_op_definition
class TransferWriteOp(_UpstreamWords, xvector.TransferWriteOp):
    name = "vector.transfer_write"
    XDSL_CLASS: ClassVar = xvector.TransferWriteOp
    XDSL_VERIFY: ClassVar = staticmethod(xdsl_own_verify(xvector.TransferWriteOp))

    vector = operand_def(VectorType)
    source = operand_def(TensorType | MemRefType)
    indices = var_operand_def(IndexType)
    mask = opt_operand_def(VectorType[I1])
    permutation_map = prop_def(AffineMapAttr)
    in_bounds = prop_def(ArrayAttr[BoolAttr])
    result = opt_result_def(TensorType)
