"""Host-side memory and synchronization ops of mlkit's ``gpu`` dialect:
``gpu.wait``, ``gpu.alloc``, ``gpu.dealloc``, ``gpu.memcpy``, ``gpu.memset``,
``gpu.host_register``, ``gpu.host_unregister``, ``gpu.set_default_device``.

Replace xDSL's ops, which have no custom syntax, and whose ``gpu.dealloc`` and
``gpu.memcpy`` carry an ``operandSegmentSizes`` upstream does not have.
Verifier messages are upstream's.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, IndexType, MemRefType, UnitAttr
from xdsl.dialects.builtin import UnrankedMemRefType, VectorType, i32
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def
from xdsl.irdl import opt_prop_def, result_def, var_operand_def
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.gpu.syntax import ASYNC_FORMAT, AsyncOp
from mlkit.dialects.utils.dynamic_sizes import verify_dynamic_size_count
from mlkit.dialects.utils.ods import verify_that
from mlkit.dialects.utils.op_classes import define_op

@irdl_op_definition
class WaitOp(AsyncOp):
    """``%t = gpu.wait async [%deps]`` / ``gpu.wait [%deps]``."""

    name = "gpu.wait"

    asyncDependencies = var_operand_def(AsyncTokenType)

    assembly_format = f"{ASYNC_FORMAT} attr-dict"


@irdl_op_definition
class AllocOp(AsyncOp):
    """``%m, %t = gpu.alloc async [%dep] host_shared (%sizes)[%syms] : memref<...>``."""

    name = "gpu.alloc"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dynamicSizes = var_operand_def(IndexType)
    symbolOperands = var_operand_def(IndexType)
    hostShared = opt_prop_def(UnitAttr)
    memref = result_def(MemRefType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        f"{ASYNC_FORMAT} "
        "(` ` `host_shared` $hostShared^)? ` ` `(` $dynamicSizes `)` "
        "(`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)"
    )

    def verify_(self) -> None:
        t = self.memref.type
        assert isinstance(t, MemRefType)
        verify_dynamic_size_count(t, len(self.dynamicSizes))
        layout = t.layout
        symbols = layout.data.num_symbols if isinstance(layout, AffineMapAttr) else 0
        if len(self.symbolOperands) != symbols:
            raise VerifyException("symbol operand count does not equal memref symbol count")


@irdl_op_definition
class DeallocOp(AsyncOp):
    """``%t = gpu.dealloc async [%dep] %m : memref<...>``."""

    name = "gpu.dealloc"

    asyncDependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)

    assembly_format = (
        f"{ASYNC_FORMAT} "
        "$memref attr-dict `:` type($memref)"
    )


@irdl_op_definition
class MemcpyOp(AsyncOp):
    """``%t = gpu.memcpy async [%dep] %dst, %src : memref<...>, memref<...>``."""

    name = "gpu.memcpy"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    src = operand_def(MemRefType)

    assembly_format = (
        f"{ASYNC_FORMAT} "
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
class MemsetOp(AsyncOp):
    """``%t = gpu.memset async [%dep] %dst, %value : memref<...>, f32``."""

    name = "gpu.memset"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    value = operand_def()

    assembly_format = (
        f"{ASYNC_FORMAT} "
        "$dst `,` $value `:` type($dst) `,` type($value) attr-dict"
    )

    def verify_(self) -> None:
        dst = self.dst.type
        assert isinstance(dst, MemRefType)
        verify_that(
            dst.element_type == _element_type(self.value),
            "all of {dst, value} have same element type",
        )


def _element_type(value: SSAValue) -> Attribute:
    t = value.type
    if isinstance(t, MemRefType | VectorType):
        return t.element_type  # pyright: ignore[reportUnknownMemberType]
    return t


class _HostMemoryOp(IRDLOperation):
    """``%m : memref<*xf32>``: an op on a host buffer, given unranked."""

    value = operand_def(UnrankedMemRefType)

    assembly_format = "$value attr-dict `:` type($value)"


HostRegisterOp = define_op(
    _HostMemoryOp, "gpu.host_register", "HostRegisterOp",
    "``gpu.host_register %m : memref<*xf32>``: page-locks host memory.",
)
HostUnregisterOp = define_op(
    _HostMemoryOp, "gpu.host_unregister", "HostUnregisterOp",
    "``gpu.host_unregister %m : memref<*xf32>``.",
)


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
