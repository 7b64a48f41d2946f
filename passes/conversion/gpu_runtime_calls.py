"""The host-side GPU ops of ``gpu-to-llvm`` as calls of upstream's ``mgpu*``
runtime API (mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp), following
upstream's GPUToLLVMConversion.cpp:

* ``!gpu.async.token`` becomes ``!llvm.ptr``: a token made by ``gpu.wait
  async`` is a stream (``mgpuStreamCreate``); other ops hand on the stream of
  their dependency; a token that is not the result of ``mgpuStreamCreate``
  is taken to be an event;
* ``gpu.wait`` synchronizes and destroys each stream or event;
  ``gpu.wait async`` records an event on each stream dependency right after
  the op that made it, then waits for the events on a new stream;
* ``gpu.alloc`` (``mgpuMemAlloc(size, stream, isHostShared)``), ``gpu.dealloc``
  (``mgpuMemFree``), ``gpu.memcpy`` (``mgpuMemcpy``), ``gpu.memset``
  (``mgpuMemset32``/``mgpuMemset16``), ``gpu.host_register`` /
  ``gpu.host_unregister`` (``mgpuMemHostRegisterMemRef`` / ``...Unregister...``)
  and ``gpu.set_default_device`` (``mgpuSetDefaultDevice``);
* ``gpu.launch_func`` (in :mod:`gpu_to_llvm`) uses :meth:`RuntimeCallPattern.events_of`
  and :meth:`RuntimeCallPattern.wait_events` for its dependencies.

An op whose form upstream does not convert (``gpu.memcpy``/``gpu.memset``
without exactly one dependency and a token, a memset value that is not 16 or
32 bits wide, an alloc or dealloc with several dependencies, a
``host_shared`` alloc with a token, a non-identity layout) is left as it is,
bridged with casts, as upstream's partial conversion leaves it.

Upstream's conversion keeps a replaced op in place until the end, and an
event for a stream is inserted right after the op that made the token; the
patterns here do the same: the original ops stay until :func:`finish_runtime_lowering`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from mlkit.dialects import llvm

from mlkit.dialects.gpu import memory as gpu_memory
from mlkit.passes.conversion.llvm_common.type_converter import (
    DYNAMIC,
    ConversionState,
    ConvertToLLVMPattern,
    LLVMTypeConverter,
    after_definition,
    enclosing_module,
)
from mlkit.passes.conversion.llvm_common.memref_descriptor import (
    ALIGNED,
    ALLOCATED,
    SIZES,
    OpBuilder,
)
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    UnrankedMemRefType,
    i8,
    i16,
    i32,
)
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

PTR = llvm.LLVMPointerType()
STREAM_CREATE = "mgpuStreamCreate"


@dataclass(frozen=True)
class GpuLLVMTypeConverter(LLVMTypeConverter):
    """Upstream's converter plus ``!gpu.async.token -> !llvm.ptr``."""

    def convert_type(self, type: Attribute) -> Attribute | None:
        if isinstance(type, AsyncTokenType):
            return PTR
        return super().convert_type(type)


@dataclass
class RuntimeState:
    """What the runtime patterns share: converted values of the results of
    the ops they replaced, and those ops, erased at the end."""

    values: dict[SSAValue, SSAValue] = field(default_factory=dict)
    replaced: list[Operation] = field(default_factory=list)
    replaced_ids: set[int] = field(default_factory=set)


def has_identity_layout(type: MemRefType) -> bool:
    """Upstream's ``MemRefType::getLayout().isIdentity()``."""
    layout = type.layout
    if isinstance(layout, NoneAttr):
        return True
    if isinstance(layout, AffineMapAttr):
        return layout.data.is_identity()
    if isinstance(layout, StridedLayoutAttr):
        # its affine map is the identity only for offset 0 and rank <= 1 with unit stride
        return layout.get_offset() == 0 and list(layout.get_strides()) in ([], [1])
    return False


@dataclass
class RuntimeCallPattern(ConvertToLLVMPattern):
    """Base of the runtime-call patterns."""

    runtime: RuntimeState = field(default_factory=RuntimeState)

    def value(self, rewriter: PatternRewriter, value: SSAValue) -> SSAValue | None:
        """``value`` converted (upstream's adaptor operand)."""
        known = self.runtime.values.get(value)
        return known if known is not None else self.remap(rewriter, value)

    def values(self, rewriter: PatternRewriter, values: list[SSAValue]) -> list[SSAValue] | None:
        converted = [self.value(rewriter, v) for v in values]
        return None if any(v is None for v in converted) else converted  # type: ignore[return-value]

    def call(self, b: OpBuilder, op: Operation, name: str, args: list[SSAValue],
             result: Attribute | None = None) -> SSAValue:
        """``llvm.call @name(args)``, declaring ``name`` at the end of the
        enclosing module unless it exists (upstream's ``FunctionCallBuilder``)."""
        module = enclosing_module(op)
        assert module is not None
        if SymbolTable.lookup_symbol(module, name) is None:
            block = module.regions[0].blocks[-1]
            type = llvm.LLVMFunctionType([a.type for a in args], result)
            Rewriter.insert_op(llvm.FuncOp(name, type), InsertPoint.at_end(block))
        return b.add(llvm.CallOp(name, args, [] if result is None else [result]))

    def done(self, rewriter: PatternRewriter, op: Operation, b: OpBuilder,
             results: list[SSAValue]) -> None:
        """Insert the new ops before ``op`` and record its converted results;
        ``op`` itself stays until the end, as in upstream's conversion."""
        rewriter.insert(b.ops, InsertPoint.before(op))
        for old, new in zip(op.results, results):
            self.runtime.values[old] = new
        self.runtime.replaced.append(op)
        self.runtime.replaced_ids.add(id(op))

    def events_of(self, rewriter: PatternRewriter, op: Operation, b: OpBuilder,
                  tokens: list[SSAValue], converted: list[SSAValue]) -> list[SSAValue]:
        """Events for ``tokens``: a stream gets a new event recorded right after
        the op that made its token; anything else already is an event."""
        events: list[SSAValue] = []
        for token, stream in zip(tokens, converted):
            if not is_call_to(stream, STREAM_CREATE):
                events.append(stream)
                continue
            after = OpBuilder(self.converter)
            event = self.call(after, op, "mgpuEventCreate", [], PTR)
            self.call(after, op, "mgpuEventRecord", [event, stream])
            owner = token.owner
            assert isinstance(owner, Operation)
            rewriter.insert(after.ops, InsertPoint.after(owner))
            events.append(event)
        return events

    def wait_events(self, b: OpBuilder, op: Operation, stream: SSAValue,
                    events: list[SSAValue]) -> None:
        for event in events:
            self.call(b, op, "mgpuStreamWaitEvent", [stream, event])
        for event in events:
            self.call(b, op, "mgpuEventDestroy", [event])

    def is_replaced(self, op: Operation) -> bool:
        return id(op) in self.runtime.replaced_ids

    def has_plain_buffer(self, type: MemRefType) -> bool:
        """A memref upstream's runtime lowerings take: one with a descriptor
        and an identity layout."""
        return self.converter.memref_descriptor_type(type) is not None and has_identity_layout(type)



def is_call_to(value: SSAValue, name: str) -> bool:
    owner = value.owner
    return isinstance(owner, llvm.CallOp) and owner.callee is not None and (
        owner.callee.root_reference.data == name
    )


def num_elements(b: OpBuilder, type: MemRefType, desc: SSAValue) -> SSAValue:
    """A constant for a static shape, else the product of the sizes."""
    if type.has_static_shape():
        count = 1
        for size in type.get_shape():
            count *= size
        return b.const(count)
    total = b.extract(desc, SIZES, 0)
    for dim in range(1, type.get_num_dims()):
        total = b.mul(total, b.extract(desc, SIZES, dim))
    return total


def as_generic_pointer(b: OpBuilder, pointer: SSAValue) -> SSAValue:
    """``pointer`` in address space 0 (upstream's ``bitAndAddrspaceCast``)."""
    if isinstance(pointer.type, llvm.LLVMPointerType) and pointer.type.address_space:
        return b.add(llvm.AddrSpaceCastOp(pointer, PTR))
    return pointer


@dataclass
class AllocLowering(RuntimeCallPattern):
    """``gpu.alloc`` -> ``mgpuMemAlloc`` and a descriptor around the pointer."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu_memory.AllocOp) or self.is_replaced(op):
            return
        type = op.memref.type
        assert isinstance(type, MemRefType)
        shared = op.hostShared is not None
        if len(op.asyncDependencies) > 1 or (shared and op.asyncToken is not None):
            return
        if not self.has_plain_buffer(type):
            return
        deps = self.values(rewriter, list(op.asyncDependencies))
        dynamic = self.values(rewriter, list(op.dynamicSizes))
        if deps is None or dynamic is None:
            return
        b = OpBuilder(self.converter)
        sizes, strides, total = descriptor_sizes(b, type, dynamic)
        element = self.convert(type.get_element_type())
        assert element is not None
        size = b.size_in_bytes(element, total)
        null = b.add(llvm.ZeroOp(PTR))
        stream = deps[0] if deps else null
        flag = b.const(int(shared), i8)
        pointer = self.call(b, op, "mgpuMemAlloc", [size, stream, flag], PTR)
        space = self.converter.address_space(type) or 0
        if space:
            pointer = b.add(llvm.AddrSpaceCastOp(pointer, llvm.LLVMPointerType(space)))
        struct = self.converter.memref_descriptor_type(type)
        assert struct is not None
        desc = b.poison(struct)
        desc = b.insert(desc, pointer, ALLOCATED)
        desc = b.insert(desc, pointer, ALIGNED)
        desc = b.insert(desc, b.const(0), 2)
        for dim, value in enumerate(sizes):
            desc = b.insert(desc, value, SIZES, dim)
        for dim, value in enumerate(strides):
            desc = b.insert(desc, value, SIZES + 1, dim)
        self.done(rewriter, op, b, [desc, stream][: len(op.results)])


def descriptor_sizes(b: OpBuilder, type: MemRefType, dynamic: list[SSAValue]
                     ) -> tuple[list[SSAValue], list[SSAValue], SSAValue]:
    """Sizes, identity strides and element count of a new buffer, built as
    upstream's ``getMemRefDescriptorSizes`` builds them."""
    shape = type.get_shape()
    operands = iter(dynamic)
    sizes = [next(operands) if s == DYNAMIC else b.const(s) for s in shape]
    running = b.const(1)
    strides: list[SSAValue] = [running] * len(shape)
    stride = 1
    for dim in reversed(range(len(shape))):
        strides[dim] = running
        use_size = stride == 1
        if shape[dim] == DYNAMIC:
            stride = DYNAMIC
        if stride != DYNAMIC:
            stride *= shape[dim]
        if use_size:
            running = sizes[dim]
        elif stride == DYNAMIC:
            running = b.mul(running, sizes[dim])
        else:
            running = b.const(stride)
    return sizes, strides, running


@dataclass
class DeallocLowering(RuntimeCallPattern):
    """``gpu.dealloc`` -> ``mgpuMemFree(allocated, stream)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu_memory.DeallocOp) or self.is_replaced(op):
            return
        if len(op.asyncDependencies) > 1:
            return
        deps = self.values(rewriter, list(op.asyncDependencies))
        desc = self.value(rewriter, op.memref)
        if deps is None or desc is None:
            return
        b = OpBuilder(self.converter)
        pointer = b.extract(desc, ALLOCATED)
        null = b.add(llvm.ZeroOp(PTR))
        stream = deps[0] if deps else null
        self.call(b, op, "mgpuMemFree", [pointer, stream])
        self.done(rewriter, op, b, [stream][: len(op.results)])


@dataclass
class TransferLowering(RuntimeCallPattern):
    """Base of the ``gpu.memcpy`` and ``gpu.memset`` lowerings, which
    upstream converts in one form only: exactly one dependency, a token, and
    a ``BUFFER`` operand with a descriptor and an identity layout. ``lower``
    gets that buffer's type, the stream and the two ``OPERANDS`` converted."""

    OP: ClassVar[type[Operation]] = Operation
    BUFFER: ClassVar[str] = ""
    OPERANDS: ClassVar[tuple[str, str]] = ("", "")

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.OP) or self.is_replaced(op):
            return
        type = getattr(op, self.BUFFER).type
        assert isinstance(type, MemRefType)
        deps = op.asyncDependencies  # type: ignore[attr-defined]
        if len(deps) != 1 or op.asyncToken is None or not self.has_plain_buffer(type):  # type: ignore[attr-defined]
            return
        operands = self.values(rewriter, [deps[0], *(getattr(op, name) for name in self.OPERANDS)])
        if operands is not None:
            self.lower(rewriter, op, type, *operands)

    def lower(self, rewriter: PatternRewriter, op: Operation, type: MemRefType,
              stream: SSAValue, first: SSAValue, second: SSAValue) -> None:
        raise NotImplementedError


@dataclass
class MemcpyLowering(TransferLowering):
    """``gpu.memcpy async [%s]`` -> ``mgpuMemcpy(dst, src, bytes, stream)``."""

    OP: ClassVar = gpu_memory.MemcpyOp
    BUFFER: ClassVar = "src"
    OPERANDS: ClassVar = ("src", "dst")

    def lower(self, rewriter, op, type, stream, src_desc, dst_desc):  # type: ignore[override]
        b = OpBuilder(self.converter)
        count = num_elements(b, type, src_desc)
        element = self.convert(type.get_element_type())
        assert element is not None
        # upstream computes the size with pointers in the source's address space
        space = llvm.LLVMPointerType(self.converter.address_space(type) or 0)
        size = b.size_in_bytes(element, count, space)
        src = as_generic_pointer(b, b.extract(src_desc, ALIGNED))
        dst = as_generic_pointer(b, b.extract(dst_desc, ALIGNED))
        self.call(b, op, "mgpuMemcpy", [dst, src, size, stream])
        self.done(rewriter, op, b, [stream])


@dataclass
class MemsetLowering(TransferLowering):
    """``gpu.memset async [%s]`` of a 32- or 16-bit value ->
    ``mgpuMemset32``/``mgpuMemset16(dst, bits, count, stream)``."""

    OP: ClassVar = gpu_memory.MemsetOp
    BUFFER: ClassVar = "dst"
    OPERANDS: ClassVar = ("dst", "value")

    def lower(self, rewriter, op, type, stream, desc, value):  # type: ignore[override]
        width = bit_width(value.type)
        if width not in (16, 32):
            return  # upstream: "value must be a 16 or 32 bit int or float"
        b = OpBuilder(self.converter)
        count = num_elements(b, type, desc)
        bits = b.add(llvm.BitcastOp(value, i32 if width == 32 else i16))
        dst = as_generic_pointer(b, b.extract(desc, ALIGNED))
        name = "mgpuMemset32" if width == 32 else "mgpuMemset16"
        self.call(b, op, name, [dst, bits, count, stream])
        self.done(rewriter, op, b, [stream])


def bit_width(type: Attribute) -> int | None:
    """The width of an integer or float type, else ``None``."""
    if isinstance(type, IntegerType):
        return type.width.data
    bitwidth = getattr(type, "bitwidth", None)
    return bitwidth if isinstance(bitwidth, int) else None


@dataclass
class WaitLowering(RuntimeCallPattern):
    """``gpu.wait [deps]`` synchronizes and destroys each stream or event;
    ``gpu.wait async [deps]`` makes a new stream that waits for them."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu_memory.WaitOp) or self.is_replaced(op):
            return
        tokens = list(op.asyncDependencies)
        deps = self.values(rewriter, tokens)
        if deps is None:
            return
        b = OpBuilder(self.converter)
        if op.asyncToken is None:
            for dep in deps:
                kind = "Stream" if is_call_to(dep, STREAM_CREATE) else "Event"
                self.call(b, op, f"mgpu{kind}Synchronize", [dep])
                self.call(b, op, f"mgpu{kind}Destroy", [dep])
            self.done(rewriter, op, b, [])
            return
        events = self.events_of(rewriter, op, b, tokens, deps)
        stream = self.call(b, op, STREAM_CREATE, [], PTR)
        self.wait_events(b, op, stream, events)
        self.done(rewriter, op, b, [stream])


@dataclass
class HostRegisterLowering(RuntimeCallPattern):
    """``gpu.host_register`` / ``gpu.host_unregister`` of an unranked memref
    -> ``mgpuMemHost(Un)RegisterMemRef(rank, descriptor, element size)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, gpu_memory.HostRegisterOp):
            name = "mgpuMemHostRegisterMemRef"
        elif isinstance(op, gpu_memory.HostUnregisterOp):
            name = "mgpuMemHostUnregisterMemRef"
        else:
            return
        if self.is_replaced(op):
            return
        type = op.value.type
        assert isinstance(type, UnrankedMemRefType)
        element = self.convert(type.element_type)
        desc = self.value(rewriter, op.value)
        if element is None or desc is None:
            return
        b = OpBuilder(self.converter)
        size = b.size_in_bytes(element, 1)
        rank, pointer = b.extract(desc, 0), b.extract(desc, 1)
        self.call(b, op, name, [rank, pointer, size])
        self.done(rewriter, op, b, [])


@dataclass
class SetDefaultDeviceLowering(RuntimeCallPattern):
    """``gpu.set_default_device`` -> ``mgpuSetDefaultDevice(i32)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu_memory.SetDefaultDeviceOp) or self.is_replaced(op):
            return
        index = self.value(rewriter, op.devIndex)
        if index is None:
            return
        b = OpBuilder(self.converter)
        self.call(b, op, "mgpuSetDefaultDevice", [index])
        self.done(rewriter, op, b, [])


def runtime_patterns(converter: LLVMTypeConverter, state: RuntimeState
                     ) -> list[RuntimeCallPattern]:
    """The runtime-call patterns, sharing ``state``."""
    return [
        AllocLowering(converter, runtime=state),
        DeallocLowering(converter, runtime=state),
        MemcpyLowering(converter, runtime=state),
        MemsetLowering(converter, runtime=state),
        WaitLowering(converter, runtime=state),
        HostRegisterLowering(converter, runtime=state),
        SetDefaultDeviceLowering(converter, runtime=state),
    ]


def finish_runtime_lowering(runtime: RuntimeState, casts: ConversionState) -> None:
    """Hand the remaining users of the replaced ops' results their converted
    values (cast back where the user still wants the old type), then erase
    the replaced ops."""
    for op in runtime.replaced:
        for old in op.results:
            if not old.uses:
                continue
            new = runtime.values[old]
            old.replace_all_uses_with(casts.cast(None, new, old.type, after_definition(new)))
    for op in reversed(runtime.replaced):
        Rewriter.erase_op(op)


__all__ = [
    "PTR",
    "STREAM_CREATE",
    "GpuLLVMTypeConverter",
    "RuntimeCallPattern",
    "RuntimeState",
    "finish_runtime_lowering",
    "runtime_patterns",
]
