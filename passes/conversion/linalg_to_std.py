"""``convert-linalg-to-std``: linalg ops on buffers become calls of library
functions (upstream's ``Conversion/LinalgToStandard``).

Each structured linalg op becomes a ``func.call`` of the library function
upstream names for it: ``linalg.generic``'s ``library_call``, or for a named
op its name with ``.`` as ``_`` followed by its operand types mangled
(``memref<?x4xf32>`` is ``viewsx4xf32``, ``vector<4xf32>`` ``vector4f32``),
so ``linalg.matmul`` on three ``memref<?x?xf32>`` calls
``@linalg_matmul_viewsxsxf32_viewsxsxf32_viewsxsxf32``. Ops without a library
name (``linalg.map``, ``linalg.reduce``, a ``linalg.generic`` without
``library_call``, ...) call ``@op_has_no_registered_library_name``, as
upstream's do. Memref operands are first ``memref.cast`` to a fully dynamic
strided layout; the function is declared ``private`` with
``llvm.emit_c_interface`` before the module's last op unless the module has
a symbol of that name.

Like upstream's full conversion, only the affine, arith, func, memref and scf
dialects may remain: any other op, or a linalg op that cannot be converted
(tensor results, a type that has no mangled name), fails the pass with
"failed to legalize operation".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, FunctionType, IndexType, IntegerAttr
from xdsl.dialects.builtin import IntegerType, MemRefType, ModuleOp, NoneAttr, Signedness
from xdsl.dialects.builtin import StridedLayoutAttr, StringAttr, SymbolRefAttr, UnitAttr, UnregisteredOp
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from mlkit.diagnostics.emit import emit_error
from mlkit.dialects.func import CallOp, FuncOp
from mlkit.dialects.linalg.attrs import BinaryFnAttr, UnaryFnAttr
from mlkit.dialects.linalg.map_ops import DestinationStyleOp
from mlkit.dialects.linalg.named_base import NamedStructuredOp
from mlkit.dialects.linalg.structural import GenericOp
from mlkit.dialects.memref import CastOp
from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns

LEGAL_DIALECTS = ("affine", "arith", "func", "memref", "scf")
NO_LIBRARY_NAME = "op_has_no_registered_library_name"


def is_structured(op: Operation) -> bool:
    """Whether upstream's ``LinalgOp`` interface covers ``op``."""
    return isinstance(op, (GenericOp, NamedStructuredOp, DestinationStyleOp))


def mangled_type(t: Attribute) -> str | None:
    """Upstream's ``appendMangledType``; None for a type it refuses."""
    if isinstance(t, MemRefType):
        sizes = "".join("sx" if d == DYNAMIC_INDEX else f"{d}x" for d in t.get_shape())
        elem = mangled_type(t.element_type)
        space = t.memory_space
        if elem is None:
            return None
        if isinstance(space, NoneAttr):
            return f"view{sizes}{elem}"
        if isinstance(space, IntegerAttr):
            return f"view{sizes}{elem}as{space.value.data}"
        return None
    if isinstance(t, VectorType):
        elem = mangled_type(t.element_type)
        shape = "x".join(str(d) for d in t.get_shape())
        return None if elem is None else f"vector{shape}{elem}"
    if isinstance(t, IntegerType):
        return f"i{t.width.data}" if t.signedness.data is Signedness.SIGNLESS else None
    if isinstance(t, IndexType):
        return "index"
    if isinstance(t, AnyFloat):
        return t.name
    return None


def library_call_name(op: Operation) -> str:
    """The function ``op`` calls, empty when its types have no mangling
    (upstream's ``getLibraryCallName``)."""
    if isinstance(op, GenericOp):
        return op.library_call.data if op.library_call is not None else NO_LIBRARY_NAME
    if isinstance(op, DestinationStyleOp):
        return NO_LIBRARY_NAME
    fun = ""
    named = {**op.properties, **op.attributes}
    for key in sorted(named):
        value = named[key]
        if isinstance(value, (UnaryFnAttr, BinaryFnAttr)):
            fun = f"{value.data.value}_"
    parts: list[str] = []
    for operand in op.operands:
        part = mangled_type(operand.type)
        if part is None:
            return ""
        parts.append(part)
    return op.name.replace(".", "_") + "_" + fun + "_".join(parts)


def dynamic_strided(t: MemRefType[Attribute]) -> MemRefType[Attribute]:
    """``t`` with a layout of dynamic strides and offset."""
    layout = StridedLayoutAttr([None] * len(t.get_shape()), None)
    return MemRefType(t.element_type, t.get_shape(), layout, t.memory_space)


def _op_name(op: Operation) -> str:
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def _dialect(op: Operation) -> str:
    return _op_name(op).partition(".")[0]


def _convertible(op: Operation) -> bool:
    return not op.results and bool(library_call_name(op))


def _check_legal(ctx: Context, root: Operation) -> None:
    """Fail at the first op, in the conversion's pre-order, that neither is
    legal nor converts."""
    stack = [op for region in reversed(root.regions) for block in reversed(region.blocks) for op in reversed(block.ops)]
    while stack:
        op = stack.pop()
        if is_structured(op):
            if _convertible(op):
                continue  # its body goes with it
            raise emit_error(ctx, op, f"failed to legalize operation '{op.name}'")
        if op.name != "builtin.module" and _dialect(op) not in LEGAL_DIALECTS:
            raise emit_error(ctx, op, f"failed to legalize operation '{_op_name(op)}'")
        stack.extend(o for region in reversed(op.regions) for block in reversed(region.blocks) for o in reversed(block.ops))


def _nearest_module(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    while not isinstance(parent, ModuleOp):
        assert parent is not None, "a linalg op outside any module"
        parent = parent.parent_op()
    return parent


class LinalgOpToLibraryCall(RewritePattern):
    """A structured linalg op on buffers becomes the call of its library
    function, declared in its module when missing (upstream's
    ``LinalgOpToLibraryCallRewrite``)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_structured(op) or not _convertible(op):
            return
        name = library_call_name(op)
        self.declare(rewriter, op, name)
        args: list[SSAValue] = []
        new_ops: list[Operation] = []
        for operand in op.operands:
            if isinstance(operand.type, MemRefType):
                cast = CastOp.create(operands=[operand], result_types=[dynamic_strided(operand.type)])
                new_ops.append(cast)
                args.append(cast.results[0])
            else:
                args.append(operand)
        new_ops.append(CallOp.create(operands=args, result_types=[], properties={"callee": SymbolRefAttr(name)}))
        for new in new_ops:
            new.location = op.location
        rewriter.replace(op, new_ops, [])

    def declare(self, rewriter: PatternRewriter, op: Operation, name: str) -> None:
        """Declare ``name`` before the last op of ``op``'s module unless a
        symbol of the module has that name."""
        module = _nearest_module(op)
        if SymbolTable.lookup_symbol(module, name) is not None:
            return
        inputs = [dynamic_strided(t) if isinstance(t, MemRefType) else t for t in op.operand_types]
        decl = FuncOp.create(
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists(inputs, []),
                "sym_visibility": StringAttr("private"),
            },
            attributes={"llvm.emit_c_interface": UnitAttr()},
            regions=[Region()],
        )
        decl.location = op.location
        last = module.body.block.last_op
        assert last is not None
        rewriter.insert(decl, InsertPoint.before(last))


@dataclass(frozen=True)
class ConvertLinalgToStandardPass(ModulePass):
    """Convert the operations from the linalg dialect into the Standard dialect"""

    name = "convert-linalg-to-std"
    display_name: ClassVar[str] = "ConvertLinalgToStandardPass"
    anchor: ClassVar[str] = "builtin.module"

    def apply(self, ctx: Context, op: ModuleOp) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        _check_legal(ctx, op)
        apply_conversion_patterns(op, [LinalgOpToLibraryCall()], apply_recursively=False)
