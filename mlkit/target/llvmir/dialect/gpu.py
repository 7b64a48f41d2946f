"""Translation of the host side of GPU programs: ``gpu.binary`` and
``gpu.launch_func``, as upstream's ``#gpu.select_object`` offloading handler
translates them (``mlir/lib/Target/LLVMIR/Dialect/GPU/SelectObjectAttr.cpp``).

A ``gpu.binary @m`` becomes the constant ``@m_binary`` holding the selected
object, the module handle ``@m_module``, and a pair of functions in
``llvm.global_ctors``/``llvm.global_dtors`` that load it when the program
starts (``mgpuModuleLoad``, or ``mgpuModuleLoadJIT`` for PTX) and unload it
at exit. A ``gpu.launch_func`` packs its kernel operands into a stack struct
with an array of pointers to its fields, looks the kernel up with
``mgpuModuleGetFunction`` and calls ``mgpuLaunchKernel`` (or
``mgpuLaunchClusterKernel``); without an async object it runs on a stream of
its own that it synchronizes and destroys. The ``mgpu*`` functions are
upstream's GPU runtime API, which :mod:`mlkit.runtime.cuda` implements.

:class:`GPUTranslation` is the gpu dialect's translation interface
(:mod:`mlkit.target.llvmir.interface`), registered by :mod:`mlkit.target`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, IntegerType, StringAttr
from xdsl.ir import Operation, SSAValue

from mlkit.dialects.gpu.attrs import CompilationTarget, ObjectAttr, SelectObjectAttr
from mlkit.dialects.gpu.kernel import BinaryOp, LaunchFuncOp
from mlkit.target.llvmir.interface import FunctionContext, LLVMTranslationDialectInterface
from mlkit.target.llvmir.interface import ModuleContext
from mlkit.target.llvmir.types import TranslationFailure, identifier, quote_bytes

# upstream's runtime API, by name: (result, parameters) in LLVM IR
RUNTIME_DECLARATIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "mgpuModuleLoad": ("ptr", ("ptr", "i64")),
    "mgpuModuleLoadJIT": ("ptr", ("ptr", "i32", "i64")),
    "mgpuModuleUnload": ("void", ("ptr",)),
    "mgpuModuleGetFunction": ("ptr", ("ptr", "ptr")),
    "mgpuStreamCreate": ("ptr", ()),
    "mgpuStreamSynchronize": ("void", ("ptr",)),
    "mgpuStreamDestroy": ("void", ("ptr",)),
    "mgpuLaunchKernel": ("void", ("ptr", *["i64"] * 6, "i32", "ptr", "ptr", "ptr", "i64")),
    "mgpuLaunchClusterKernel": ("void", ("ptr", *["i64"] * 9, "i32", "ptr", "ptr", "ptr")),
}
CTOR_PRIORITY = 123
# natural alignment of the scalar kernel operands (all else: 8)
_ALIGN = {"i1": 1, "i8": 1, "i16": 2, "half": 2, "bfloat": 2, "i32": 4, "float": 4}


def selected_object(op: BinaryOp) -> ObjectAttr:
    """The object ``#gpu.select_object`` picks: the first, the one at an
    index, or the one compiled for a given target."""
    objects = list(op.objects.data)
    handler = op.offloadingHandler
    if handler is not None and not isinstance(handler, SelectObjectAttr):
        raise TranslationFailure(f"unsupported offloading handler {handler}")
    target = None if handler is None else handler.target
    index = 0
    if isinstance(target, IntegerAttr):
        index = target.value.data
    elif target is not None and target != DictionaryAttr({}):
        matching = [i for i, obj in enumerate(objects) if obj.target == target]
        index = matching[-1] if matching else -1
    if not 0 <= index < len(objects):
        raise TranslationFailure("the requested target object couldn't be found")
    return objects[index]


def object_bytes(obj: ObjectAttr) -> bytes:
    """The object's contents, with the NUL that the JIT loaders of PTX expect
    after assembly text. Binary formats hold one character per byte."""
    text = obj.object.data
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        data = text.encode()
    return data + b"\0" if obj.format.data == CompilationTarget.ASSEMBLY else data


def _opt_level(obj: ObjectAttr) -> int:
    level = obj.properties.data.get("O")
    if level is None:
        return 0
    if not isinstance(level, IntegerAttr):
        raise TranslationFailure("the optimization level must be an integer")
    return level.value.data


def _widened(
    t: FunctionContext, value: SSAValue, prefix: str, out: list[str], done: dict[SSAValue, str]
) -> str:
    """``value`` as an ``i64`` launch size (sizes are unsigned)."""
    type_ = value.type
    if not isinstance(type_, IntegerType):
        raise TranslationFailure(f"launch sizes must be integers, not {type_}")
    width = type_.width.data
    if width == 64:
        return t.ref(value)
    if width > 64:
        raise TranslationFailure("launch sizes wider than 64 bits are not supported")
    if value not in done:
        done[value] = f"{prefix}.size{len(done)}"
        out.append(f"{done[value]} = zext i{width} {t.ref(value)} to i64")
    return done[value]


class GPUTranslation(LLVMTranslationDialectInterface):
    """The gpu dialect's host side: the globals and start-up code of a
    module's ``gpu.binary`` ops, its ``gpu.launch_func`` calls, and the
    runtime functions they call."""

    def __init__(self, module: ModuleContext) -> None:
        super().__init__(module)
        self.binaries: dict[str, BinaryOp] = {}
        self.used: set[str] = set()
        self.kernel_names: dict[str, str] = {}
        self.launches: dict[Operation, int] = {}  # per function: names its local values

    def declare(self, name: str) -> str:
        """``@name``, declared at the end of the module unless the MLIR
        module declares it itself."""
        if name not in self.module.symbols:
            self.used.add(name)
        return f"@{name}"

    # -- module level -----------------------------------------------------------------
    def check_module_op(self, op: Operation) -> None:
        if op.name == "gpu.module":
            raise TranslationFailure("serialize the kernel module with gpu-module-to-binary first")
        if not isinstance(op, BinaryOp):
            super().check_module_op(op)

    def convert_module_op(self, op: Operation) -> list[str]:
        assert isinstance(op, BinaryOp)
        name = op.sym_name.data
        self.binaries[name] = op
        obj = selected_object(op)
        data = object_bytes(obj)
        section = obj.properties.data.get("section")
        where = ""
        if isinstance(section, StringAttr):
            where = f', section "{quote_bytes(section.data.encode())}"'
        binary, handle = identifier("@", f"{name}_binary"), identifier("@", f"{name}_module")
        if obj.format.data == CompilationTarget.ASSEMBLY:
            load = (f"call ptr {self.declare('mgpuModuleLoadJIT')}(ptr {binary}, "
                    f"i32 {_opt_level(obj)}, i64 {len(data)})")  # fmt: skip
        else:
            load = f"call ptr {self.declare('mgpuModuleLoad')}(ptr {binary}, i64 {len(data)})"
        unload = self.declare("mgpuModuleUnload")
        return [
            f'{binary} = internal constant [{len(data)} x i8] c"{quote_bytes(data)}"{where}, align 8',
            f"{handle} = internal global ptr null",
            "",
            f'define internal void {identifier("@", f"{name}_load")}() section ".text.startup" {{',
            f"  %1 = {load}",
            f"  store ptr %1, ptr {handle}, align 8",
            "  ret void",
            "}",
            "",
            f'define internal void {identifier("@", f"{name}_unload")}() section ".text.startup" {{',
            f"  %1 = load ptr, ptr {handle}, align 8",
            f"  call void {unload}(ptr %1)",
            "  ret void",
            "}",
        ]

    def kernel_name(self, module_name: str, kernel: str) -> str:
        """The global holding the kernel's name as a C string."""
        symbol = identifier("@", f"{module_name}_{kernel}_name")
        self.kernel_names.setdefault(symbol, kernel)
        return symbol

    def trailer(self) -> list[str]:
        """Kernel names, the constructor and destructor tables, and the
        runtime declarations, after everything else."""
        lines: list[str] = []
        for symbol, kernel in self.kernel_names.items():
            data = kernel.encode() + b"\0"
            lines.append(f'{symbol} = private unnamed_addr constant [{len(data)} x i8] '
                         f'c"{quote_bytes(data)}", align 1')  # fmt: skip
        if self.binaries:
            for table, suffix in (("llvm.global_ctors", "_load"), ("llvm.global_dtors", "_unload")):
                entries = ", ".join(
                    f"{{ i32, ptr, ptr }} {{ i32 {CTOR_PRIORITY}, "
                    f"ptr {identifier('@', name + suffix)}, ptr null }}"
                    for name in self.binaries
                )
                lines.append(f"@{table} = appending global [{len(self.binaries)} x "
                             f"{{ i32, ptr, ptr }}] [{entries}]")  # fmt: skip
        for name in sorted(self.used):
            result, params = RUNTIME_DECLARATIONS[name]
            lines += ["", f"declare {result} @{name}({', '.join(params)})"]
        return lines

    # -- inside functions ---------------------------------------------------------------
    def convert_operation(self, function: FunctionContext, op: Operation) -> str:
        if not isinstance(op, LaunchFuncOp):
            return super().convert_operation(function, op)
        return self._launch(function, op)

    def _launch(self, t: FunctionContext, op: LaunchFuncOp) -> str:
        """The instructions of a host ``gpu.launch_func`` (several lines)."""
        if op.asyncToken is not None or op.asyncDependencies:
            raise TranslationFailure("async tokens must be lowered by gpu-to-llvm first")
        module_name = op.kernel.root_reference.data
        nested = op.kernel.nested_references.data
        kernel = nested[-1].data if nested else ""
        if module_name not in self.binaries:
            raise TranslationFailure(
                f"no 'gpu.binary' named '{module_name}' (serialize the kernel module with "
                "gpu-module-to-binary first)"
            )
        index = self.launches.get(t.func, 0)
        self.launches[t.func] = index + 1
        p = f"%launch{index}"
        args = list(op.kernelOperands)
        lines = _packed_arguments(t, p, args)
        handle = identifier("@", f"{module_name}_module")
        get_function = self.declare("mgpuModuleGetFunction")
        lines.append(f"{p}.module = load ptr, ptr {handle}, align 8")
        lines.append(f"{p}.function = call ptr {get_function}(ptr {p}.module, "
                     f"ptr {self.kernel_name(module_name, kernel)})")  # fmt: skip
        if op.asyncObject is not None:
            stream, own_stream = t.ref(op.asyncObject), False
        else:
            lines.append(f"{p}.stream = call ptr {self.declare('mgpuStreamCreate')}()")
            stream, own_stream = f"{p}.stream", True
        dims = [op.gridSizeX, op.gridSizeY, op.gridSizeZ,
                op.blockSizeX, op.blockSizeY, op.blockSizeZ]  # fmt: skip
        if op.clusterSizeX is not None:
            dims = [op.clusterSizeX, op.clusterSizeY, op.clusterSizeZ, *dims]  # type: ignore[list-item]
        widened: dict[SSAValue, str] = {}
        sizes = ", ".join(f"i64 {_widened(t, d, p, lines, widened)}" for d in dims)
        smem = op.dynamicSharedMemorySize
        smem_text = "i32 0" if smem is None else t.typed(smem)
        common = f"ptr {p}.function, {sizes}, {smem_text}, ptr {stream}, ptr {p}.array, ptr null"
        if op.clusterSizeX is not None:
            lines.append(f"call void {self.declare('mgpuLaunchClusterKernel')}({common})")
        else:
            lines.append(f"call void {self.declare('mgpuLaunchKernel')}({common}, i64 {len(args)})")
        if own_stream:
            lines.append(f"call void {self.declare('mgpuStreamSynchronize')}(ptr {stream})")
            lines.append(f"call void {self.declare('mgpuStreamDestroy')}(ptr {stream})")
        return "\n  ".join(lines)


def _packed_arguments(t: FunctionContext, p: str, args: list[SSAValue]) -> list[str]:
    """A stack struct holding the kernel operands and an array of pointers
    to its fields, as ``mgpuLaunchKernel`` takes them."""
    fields = ", ".join(t.ty(a.type) for a in args)
    struct = f"{{ {fields} }}" if fields else "{}"
    lines = [f"{p}.args = alloca {struct}, align 8",
             f"{p}.array = alloca ptr, i64 {len(args)}, align 8"]  # fmt: skip
    for i, arg in enumerate(args):
        field = f"{p}.field{i}"
        lines += [
            f"{field} = getelementptr inbounds nuw {struct}, ptr {p}.args, i32 0, i32 {i}",
            f"store {t.typed(arg)}, ptr {field}, align {_ALIGN.get(t.ty(arg.type), 8)}",
            f"{p}.slot{i} = getelementptr ptr, ptr {p}.array, i32 {i}",
            f"store ptr {field}, ptr {p}.slot{i}, align 8",
        ]
    return lines
