"""Host-side memory and synchronization ops of mlkit's ``gpu`` dialect:
``gpu.wait``, ``gpu.alloc``, ``gpu.dealloc``, ``gpu.memcpy``, ``gpu.memset``,
``gpu.host_register``, ``gpu.host_unregister``, ``gpu.set_default_device``.

Replace xDSL's ops, which have no custom syntax, and whose ``gpu.dealloc`` and
``gpu.memcpy`` carry an ``operandSegmentSizes`` upstream does not have.
Verifier messages are upstream's.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    MemRefType,
    UnitAttr,
    UnrankedMemRefType,
    VectorType,
    i32,
)
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.gpu.attrs import AsyncDependencies

@irdl_op_definition
class WaitOp(IRDLOperation):
    """``%t = gpu.wait async [%deps]`` / ``gpu.wait [%deps]``."""

    name = "gpu.wait"

    asyncDependencies = var_operand_def(AsyncTokenType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)
    assembly_format = "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) attr-dict"


@irdl_op_definition
class AllocOp(IRDLOperation):
    """``%m, %t = gpu.alloc async [%dep] host_shared (%sizes)[%syms] : memref<...>``."""

    name = "gpu.alloc"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dynamicSizes = var_operand_def(IndexType)
    symbolOperands = var_operand_def(IndexType)
    hostShared = opt_prop_def(UnitAttr)
    memref = result_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    custom_directives = (AsyncDependencies,)
    assembly_format = (
        "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) "
        "(` ` `host_shared` $hostShared^)? ` ` `(` $dynamicSizes `)` "
        "(`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)"
    )

    def verify_(self) -> None:
        t = self.memref.type
        assert isinstance(t, MemRefType)
        if len(self.dynamicSizes) != sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX):
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(self.dynamicSizes)}, "
                f"expected {sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX)}"
            )
        layout = t.layout
        symbols = layout.data.num_symbols if isinstance(layout, AffineMapAttr) else 0
        if len(self.symbolOperands) != symbols:
            raise VerifyException("symbol operand count does not equal memref symbol count")


@irdl_op_definition
class DeallocOp(IRDLOperation):
    """``%t = gpu.dealloc async [%dep] %m : memref<...>``."""

    name = "gpu.dealloc"

    asyncDependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)
    assembly_format = (
        "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) "
        "$memref attr-dict `:` type($memref)"
    )


@irdl_op_definition
class MemcpyOp(IRDLOperation):
    """``%t = gpu.memcpy async [%dep] %dst, %src : memref<...>, memref<...>``."""

    name = "gpu.memcpy"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    src = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)
    assembly_format = (
        "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) "
        "$dst `,` $src `:` type($dst) `,` type($src) attr-dict"
    )

    def verify_(self) -> None:
        src, dst = self.src.type, self.dst.type
        assert isinstance(src, MemRefType) and isinstance(dst, MemRefType)
        if src.element_type != dst.element_type:
            raise VerifyException("arguments have incompatible element type")
        if src.get_num_dims() != dst.get_num_dims() or any(
            a != b and DYNAMIC_INDEX not in (a, b)
            for a, b in zip(src.get_shape(), dst.get_shape(), strict=True)
        ):
            raise VerifyException("arguments have incompatible shape")


@irdl_op_definition
class MemsetOp(IRDLOperation):
    """``%t = gpu.memset async [%dep] %dst, %value : memref<...>, f32``."""

    name = "gpu.memset"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    value = operand_def()
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)
    assembly_format = (
        "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) "
        "$dst `,` $value `:` type($dst) `,` type($value) attr-dict"
    )

    def verify_(self) -> None:
        dst = self.dst.type
        assert isinstance(dst, MemRefType)
        if dst.element_type != _element_type(self.value):
            raise VerifyException(
                "failed to verify that all of {dst, value} have same element type"
            )


def _element_type(value: SSAValue) -> Attribute:
    t = value.type
    if isinstance(t, MemRefType | VectorType):
        return t.element_type  # pyright: ignore[reportUnknownMemberType]
    return t


@irdl_op_definition
class HostRegisterOp(IRDLOperation):
    """``gpu.host_register %m : memref<*xf32>``: page-locks host memory."""

    name = "gpu.host_register"

    value = operand_def(UnrankedMemRefType)

    assembly_format = "$value attr-dict `:` type($value)"


@irdl_op_definition
class HostUnregisterOp(IRDLOperation):
    """``gpu.host_unregister %m : memref<*xf32>``."""

    name = "gpu.host_unregister"

    value = operand_def(UnrankedMemRefType)

    assembly_format = "$value attr-dict `:` type($value)"


@irdl_op_definition
class SetDefaultDeviceOp(IRDLOperation):
    """``gpu.set_default_device %index``: the device later host ops use."""

    name = "gpu.set_default_device"

    devIndex = operand_def(i32)

    assembly_format = "attr-dict $devIndex"


MEMORY_OPS: tuple[type[IRDLOperation], ...] = (
    WaitOp, AllocOp, DeallocOp, MemcpyOp, MemsetOp, HostRegisterOp, HostUnregisterOp,
    SetDefaultDeviceOp,
)
