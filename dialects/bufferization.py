"""The ``bufferization`` dialect with upstream's constraints on the boundary ops.

xDSL's ``to_tensor``/``to_buffer`` tie the memref type to the tensor type with a
type variable, so they reject the layouts upstream allows
(``tensor<4xf32> to memref<4xf32, strided<[?], offset: ?>>``), and xDSL's
``to_buffer`` prints its attribute dictionary after the colon. Both are
redefined here under upstream's current names. xDSL lacks ``dealloc_tensor``,
and ``alloc_tensor`` gets upstream's verifier; the other ops are xDSL's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import bufferization as xbuf
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, TensorType
from xdsl.dialects.builtin import IndexType, UnitAttr, UnrankedMemRefType
from xdsl.dialects.builtin import UnrankedTensorType
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import IRDLOperation, base, irdl_op_definition, operand_def, opt_prop_def
from xdsl.irdl import AttrSizedOperandSegments, VarConstraint, opt_operand_def, result_def
from xdsl.irdl import var_operand_def
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.tensor.common import ANY_TENSOR
from mlkit.dialects.utils.ods import upstream_op, verify_that
from mlkit.dialects.utils.dialects import op_lookup

_MEMREF = base(MemRefType) | base(UnrankedMemRefType)
_TENSOR = base(TensorType) | base(UnrankedTensorType)


def _verify_matching(tensor: Attribute, memref: Attribute) -> None:
    """Upstream's ``TensorAndMemrefCompatible``: same element type and shape."""
    ranked = isinstance(tensor, TensorType)
    verify_that(
        ranked == isinstance(memref, MemRefType)
        and tensor.element_type == memref.element_type  # type: ignore[union-attr]
        and (not ranked or tuple(tensor.get_shape()) == tuple(memref.get_shape())),  # type: ignore[union-attr]
        "type of 'tensor' is the tensor equivalent of 'memref'",
    )


@irdl_op_definition
class ToTensorOp(IRDLOperation):
    """A tensor view of a buffer; any layout."""

    name = "bufferization.to_tensor"

    memref = operand_def(_MEMREF)
    tensor = result_def(_TENSOR)
    restrict = opt_prop_def(UnitAttr)
    writable = opt_prop_def(UnitAttr)

    assembly_format = (
        "$memref (`restrict` $restrict^)? (`writable` $writable^)? attr-dict "
        "`:` type($memref) `to` type($tensor)"
    )

    def __init__(self, memref: SSAValue, tensor_type: Attribute, restrict: bool = False,
                 writable: bool = False) -> None:
        props: dict[str, Attribute] = {}
        if restrict:
            props["restrict"] = UnitAttr()
        if writable:
            props["writable"] = UnitAttr()
        super().__init__(operands=[memref], result_types=[tensor_type], properties=props)

    def verify_(self) -> None:
        _verify_matching(self.tensor.type, self.memref.type)


@irdl_op_definition
class ToBufferOp(IRDLOperation):
    """The buffer of a tensor; the result may carry any layout."""

    name = "bufferization.to_buffer"

    tensor = operand_def(_TENSOR)
    memref = result_def(_MEMREF)
    read_only = opt_prop_def(UnitAttr)

    assembly_format = (
        "$tensor (`read_only` $read_only^)? attr-dict `:` type($tensor) `to` type($memref)"
    )

    def __init__(self, tensor: SSAValue, memref_type: Attribute, read_only: bool = False) -> None:
        props: dict[str, Attribute] = {"read_only": UnitAttr()} if read_only else {}
        super().__init__(operands=[tensor], result_types=[memref_type], properties=props)

    def verify_(self) -> None:
        _verify_matching(self.tensor.type, self.memref.type)


@upstream_op
class DeallocTensorOp(IRDLOperation):
    """Frees the buffer behind a tensor by hand, for code that manages its own
    buffers; one-shot-bufferize turns it into ``memref.dealloc``."""

    name = "bufferization.dealloc_tensor"

    tensor = operand_def(_TENSOR)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"tensor": ANY_TENSOR}
    assembly_format = "$tensor attr-dict `:` type($tensor)"

    def __init__(self, tensor: SSAValue) -> None:
        super().__init__(operands=[tensor])

    def verify_relations_(self) -> None:
        # Upstream's ZeroResults and OneOperand traits, in their words.
        if self.results:
            raise VerifyException("requires zero results")
        if len(self.operands) != 1:
            raise VerifyException("requires a single operand")


@irdl_op_definition
class AllocTensorOp(IRDLOperation):
    """A fresh tensor (the start of a new buffer in bufferization), xDSL's
    op with upstream's verifier of its dynamic sizes and ``copy`` operand."""

    name = "bufferization.alloc_tensor"

    T: ClassVar = VarConstraint("T", _TENSOR)
    dynamic_sizes = var_operand_def(IndexType())
    copy = opt_operand_def(T)
    size_hint = opt_operand_def(IndexType())
    tensor = result_def(T)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "`(` $dynamic_sizes `)` ( `copy` `(` $copy^ `)`)? (`size_hint` `=` $size_hint^)? "
        "attr-dict `:` type($tensor)"
    )

    def __init__(
        self,
        result_type: Attribute,
        dynamic_sizes: Sequence[SSAValue] = (),
        copy: SSAValue | None = None,
        size_hint: SSAValue | None = None,
    ) -> None:
        super().__init__(
            operands=(dynamic_sizes, copy, size_hint), result_types=(result_type,)
        )

    def verify_(self) -> None:
        result = self.tensor.type
        dynamic = (
            sum(1 for d in result.get_shape() if d == DYNAMIC_INDEX)
            if isinstance(result, TensorType)
            else 0
        )
        if self.copy is not None and self.dynamic_sizes:
            raise VerifyException("dynamic sizes not needed when copying a tensor")
        if self.copy is None and len(self.dynamic_sizes) != dynamic:
            raise VerifyException(f"expected {dynamic} dynamic sizes")
CloneOp = xbuf.CloneOp
MaterializeInDestinationOp = xbuf.MaterializeInDestinationOp

Bufferization = Dialect(
    "bufferization",
    [
        AllocTensorOp,
        CloneOp,
        DeallocTensorOp,
        ToTensorOp,
        ToBufferOp,
        MaterializeInDestinationOp,
    ],
    [],
)

__getattr__ = op_lookup(__name__, lambda: Bufferization)
