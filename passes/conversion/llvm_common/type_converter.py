"""The type converter every conversion to the LLVM dialect shares.

It follows upstream's ``LLVMTypeConverter`` (mlir/lib/Conversion/LLVMCommon):

* ``index`` becomes ``iN`` (``index_bitwidth``, 64 by default);
* signless, signed and unsigned integers become signless integers; floats
  and LLVM types stay as they are;
* a 1-D vector keeps its shape with a converted element type; an n-D vector
  becomes nested ``!llvm.array``s of 1-D vectors;
* ``complex<T>`` becomes ``!llvm.struct<(T, T)>``;
* a ranked memref with a strided layout becomes its descriptor
  ``!llvm.struct<(ptr, ptr, i64, array<R x i64>, array<R x i64>)>`` (the
  arrays are left out for rank 0), an unranked one ``!llvm.struct<(i64, ptr)>``;
  the memref's integer memory space is the pointers' address space;
* a function type becomes ``!llvm.ptr``.

``convert_type`` returns ``None`` where upstream's converter fails (a memref
with a non-strided layout, a tensor, ...): patterns then leave the op alone.

Function signatures expand memref arguments into their descriptor fields
(upstream's default calling convention), or into one bare pointer with
``use_bare_ptr_call_conv``; several results are packed into a struct.

The conversion helpers at the end (:class:`ConvertToLLVMPattern`) give
patterns upstream's "adaptor" view: operands in converted types, bridged with
``builtin.unrealized_conversion_cast`` where the producer is not converted
yet, and source materializations for results whose users are not converted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ComplexType, FunctionType, IndexType
from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.dialects.builtin import UnrankedMemRefType, UnrealizedConversionCastOp, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects.llvm import LLVM_TYPES, LLVMArrayType, LLVMFunctionType, LLVMPointerType
from mlkit.dialects.llvm import LLVMStructType, LLVMVoidType
from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns

DYNAMIC = -(2**63)
"""Upstream's ``ShapedType::kDynamic``, as xDSL stores it in shapes."""


@dataclass(frozen=True)
class FunctionSignature:
    """A converted function signature.

    ``llvm_type`` is the ``!llvm.func`` type; ``arg_types[i]`` lists the LLVM
    argument types that original argument ``i`` expands to (one type, or the
    fields of a memref descriptor)."""

    llvm_type: LLVMFunctionType
    arg_types: tuple[tuple[Attribute, ...], ...]


@dataclass(frozen=True)
class LLVMTypeConverter:
    """Upstream's ``LLVMTypeConverter`` with its ``LowerToLLVMOptions``."""

    index_bitwidth: int = 64
    use_bare_ptr_call_conv: bool = False
    # type -> its conversion: a conversion builds (and verifies) new types,
    # and a lowering asks for the same few types thousands of times
    _converted: dict[Attribute, Attribute | None] = field(
        default_factory=dict[Attribute, "Attribute | None"], init=False, repr=False,
        compare=False, hash=False,
    )

    @classmethod
    def from_options(cls, index_bitwidth: int = 0, use_bare_ptr_call_conv: bool = False
                     ) -> LLVMTypeConverter:
        """The converter a pass's options ask for: an ``index-bitwidth`` of 0
        is upstream's "derive from the data layout", 64 bits without one."""
        return cls(index_bitwidth or 64, use_bare_ptr_call_conv)

    # ---- scalar and aggregate types -------------------------------------

    @property
    def index_type(self) -> IntegerType:
        """The integer type ``index`` lowers to."""
        return IntegerType(self.index_bitwidth)

    def convert_type(self, type: Attribute) -> Attribute | None:
        """The LLVM-compatible type for ``type``; ``None`` when upstream's
        converter has no conversion for it."""
        converted = self._converted
        if type in converted:
            return converted[type]
        result = converted[type] = self._convert_type(type)
        return result

    def _convert_type(self, type: Attribute) -> Attribute | None:
        if isinstance(type, IndexType):
            return self.index_type
        if isinstance(type, IntegerType):
            return IntegerType(type.width.data)
        if isinstance(type, AnyFloat) or isinstance(type, LLVM_TYPES):
            return type
        if isinstance(type, VectorType):
            return self.convert_vector_type(type)
        if isinstance(type, ComplexType):
            element = self.convert_type(type.element_type)
            return None if element is None else LLVMStructType([element, element])
        if isinstance(type, MemRefType):
            return self.memref_descriptor_type(type)
        if isinstance(type, UnrankedMemRefType):
            return self.unranked_descriptor_type()
        if isinstance(type, FunctionType):
            return LLVMPointerType()
        return None

    def is_legal(self, type: Attribute) -> bool:
        """Whether ``type`` needs no conversion."""
        return self.convert_type(type) == type

    def convert_vector_type(self, type: VectorType) -> Attribute | None:
        """1-D: the same vector with a converted element type; n-D: nested
        arrays of 1-D vectors. Scalable dimensions are not supported."""
        element = self.convert_type(type.element_type)
        if element is None or any(type.get_scalable_dims()):
            return None
        shape = list(type.get_shape())
        if not shape:
            return None
        result: Attribute = VectorType(element, [shape[-1]])
        for size in reversed(shape[:-1]):
            result = LLVMArrayType(size, result)
        return result

    # ---- memrefs ----------------------------------------------------------

    @staticmethod
    def address_space(type: MemRefType | UnrankedMemRefType) -> int | None:
        """The LLVM address space of a memref's memory space; ``None`` when
        the memory space is not an integer."""
        space = type.memory_space
        if isinstance(space, NoneAttr):
            return 0
        if isinstance(space, IntegerAttr):
            return space.value.data
        return None

    @staticmethod
    def strides_and_offset(type: MemRefType) -> tuple[list[int], int] | None:
        """Strides and offset of a memref (``DYNAMIC`` where dynamic), or
        ``None`` for a layout that is not strided."""
        layout = type.layout
        shape = list(type.get_shape())
        if isinstance(layout, NoneAttr) or (
            isinstance(layout, AffineMapAttr) and layout.data == AffineMap.identity(len(shape))
        ):
            strides: list[int] = []
            running = 1
            for size in reversed(shape):
                strides.insert(0, running)
                if running != DYNAMIC:
                    running = DYNAMIC if size == DYNAMIC else running * size
            return strides, 0
        if isinstance(layout, StridedLayoutAttr):
            strides = [DYNAMIC if s is None else s for s in layout.get_strides()]
            offset = layout.get_offset()
            return strides, DYNAMIC if offset is None else offset
        return None

    def memref_descriptor_fields(self, type: MemRefType) -> list[Attribute] | None:
        """The fields of a ranked memref's descriptor: allocated and aligned
        pointers, offset, then the size and stride arrays (rank > 0)."""
        space = self.address_space(type)
        if space is None or self.strides_and_offset(type) is None:
            return None
        element = self.convert_type(type.element_type)
        if element is None:
            return None
        ptr = LLVMPointerType(space)
        index = self.index_type
        fields: list[Attribute] = [ptr, ptr, index]
        rank = type.get_num_dims()
        if rank:
            fields += [LLVMArrayType(rank, index), LLVMArrayType(rank, index)]
        return fields

    def memref_descriptor_type(self, type: MemRefType) -> LLVMStructType | None:
        """``!llvm.struct<(ptr, ptr, i64, array<R x i64>, array<R x i64>)>``."""
        fields = self.memref_descriptor_fields(type)
        return None if fields is None else LLVMStructType(fields)

    def unranked_descriptor_type(self) -> LLVMStructType:
        """``!llvm.struct<(i64, ptr)>``: the rank and a pointer to a ranked
        descriptor."""
        return LLVMStructType([self.index_type, LLVMPointerType()])

    def expanded_memref_fields(self, type: MemRefType | UnrankedMemRefType) -> list[Attribute] | None:
        """What a memref argument expands to in a signature: every
        descriptor field flattened (sizes and strides one by one)."""
        if isinstance(type, UnrankedMemRefType):
            return [self.index_type, LLVMPointerType()]
        fields = self.memref_descriptor_fields(type)
        if fields is None:
            return None
        rank = type.get_num_dims()
        return fields[:3] + [self.index_type] * (2 * rank)

    @staticmethod
    def can_use_bare_ptr(type: Attribute) -> bool:
        """Upstream's bare-pointer convention takes memrefs with a static
        shape, and a strided layout with static strides and offset."""
        if not isinstance(type, MemRefType) or not type.has_static_shape():
            return False
        layout = LLVMTypeConverter.strides_and_offset(type)
        return layout is not None and DYNAMIC not in layout[0] and layout[1] != DYNAMIC

    # ---- function signatures ----------------------------------------------

    def convert_argument(self, type: Attribute) -> tuple[Attribute, ...] | None:
        """The LLVM types one function argument of ``type`` becomes."""
        if isinstance(type, (MemRefType, UnrankedMemRefType)):
            if self.use_bare_ptr_call_conv:
                if not self.can_use_bare_ptr(type):
                    return None
                space = self.address_space(type)
                return None if space is None else (LLVMPointerType(space),)
            fields = self.expanded_memref_fields(type)
            return None if fields is None else tuple(fields)
        converted = self.convert_type(type)
        return None if converted is None else (converted,)

    def convert_result(self, type: Attribute) -> Attribute | None:
        """A single function result: memrefs stay descriptors (or a bare
        pointer under the bare-pointer convention)."""
        if self.use_bare_ptr_call_conv and isinstance(type, (MemRefType, UnrankedMemRefType)):
            if not self.can_use_bare_ptr(type):
                return None
            space = self.address_space(type)
            return None if space is None else LLVMPointerType(space)
        return self.convert_type(type)

    def pack_results(self, types: Sequence[Attribute]) -> Attribute | None:
        """No result: ``!llvm.void``; one: its converted type; several: a
        struct of the converted types."""
        converted = [self.convert_result(t) for t in types]
        if any(c is None for c in converted):
            return None
        if not converted:
            return LLVMVoidType()
        if len(converted) == 1:
            return converted[0]
        return LLVMStructType(converted)  # type: ignore[arg-type]

    def convert_function_signature(
        self, type: FunctionType, variadic: bool = False
    ) -> FunctionSignature | None:
        """Upstream's ``convertFunctionSignature``; ``None`` when an argument
        or result has no conversion."""
        args: list[tuple[Attribute, ...]] = []
        for input in type.inputs.data:
            converted = self.convert_argument(input)
            if converted is None:
                return None
            args.append(converted)
        result = self.pack_results(type.outputs.data)
        if result is None:
            return None
        flat = [t for arg in args for t in arg]
        output = None if isinstance(result, LLVMVoidType) else result
        return FunctionSignature(LLVMFunctionType(flat, output, variadic), tuple(args))


# ---- conversion helpers -----------------------------------------------------


@dataclass
class ConversionState:
    """What one run of a conversion shares between its patterns: the casts
    it created, which it removes again where they end up unused or cancel
    out (as upstream's driver drops unneeded materializations)."""

    casts: list[UnrealizedConversionCastOp] = field(default_factory=list)
    targets: dict[tuple[SSAValue, Attribute], UnrealizedConversionCastOp] = field(
        default_factory=dict
    )

    def target_cast(self, rewriter: PatternRewriter, value: SSAValue,
                    type: Attribute) -> SSAValue:
        """``value`` cast to ``type`` right after its definition, one cast
        per value and type (it dominates every use)."""
        known = self.targets.get((value, type))
        if known is not None and known.parent is not None:
            return known.results[0]
        result = self.cast(rewriter, value, type, after_definition(value))
        owner = result.owner
        assert isinstance(owner, UnrealizedConversionCastOp)
        self.targets[(value, type)] = owner
        return result

    def cast(self, rewriter: PatternRewriter | None, value: SSAValue, type: Attribute,
             at: InsertPoint) -> SSAValue:
        """A cast of ``value`` to ``type`` inserted at ``at``, remembered;
        ``rewriter`` is ``None`` outside a pattern (nothing to notify)."""
        if value.type == type:
            return value
        cast, result = UnrealizedConversionCastOp.cast_one(value, type)
        if rewriter is None:
            Rewriter.insert_op(cast, at)
        else:
            rewriter.insert(cast, at)
        self.casts.append(cast)
        return result

    def cleanup(self) -> None:
        """Fold ``A -> B -> A`` cast pairs and erase dead casts this run made."""
        changed = True
        while changed:
            changed = False
            for cast in reversed(self.casts):
                if cast.parent is None:
                    continue
                if not cast.results[0].uses:
                    Rewriter.erase_op(cast)
                    changed = True
                    continue
                source = cast.inputs[0].owner
                if (
                    isinstance(source, UnrealizedConversionCastOp)
                    and len(source.inputs) == 1
                    and len(source.results) == 1
                    and source.inputs[0].type == cast.results[0].type
                ):
                    cast.results[0].replace_all_uses_with(source.inputs[0])
                    Rewriter.erase_op(cast)
                    changed = True
            self.casts = [c for c in self.casts if c.parent is not None]


def enclosing_module(op: Operation) -> Operation | None:
    """The closest ``builtin.module`` around ``op``, where runtime functions
    and globals are declared."""
    from xdsl.dialects.builtin import ModuleOp

    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


def lookup_or_declare(rewriter: PatternRewriter | Rewriter, module: Operation, name: str,
                      type: LLVMFunctionType) -> str:
    """Declare the external function ``name`` at the top of ``module`` unless
    a symbol of that name exists (upstream's ``lookupOrCreateFn``)."""
    from xdsl.traits import SymbolTable

    from mlkit.dialects.llvm import FuncOp

    if SymbolTable.lookup_symbol(module, name) is None:
        block = module.regions[0].blocks[0]
        rewriter.insert(FuncOp(name, type), InsertPoint.at_start(block))
    return name


def apply_llvm_patterns(root: Operation, patterns: Sequence[ConvertToLLVMPattern]) -> None:
    """Run ``patterns`` over ``root`` in one walk, sharing one
    :class:`ConversionState`, then drop the casts that turned out unneeded."""
    state = ConversionState()
    for pattern in patterns:
        pattern.state = state
    apply_conversion_patterns(root, patterns, apply_recursively=False)
    state.cleanup()


def after_definition(value: SSAValue) -> InsertPoint:
    """Right after ``value`` is defined, where a cast of it dominates every use."""
    owner = value.owner
    if isinstance(owner, Block):
        return InsertPoint.at_start(owner)
    return InsertPoint.after(owner)


def convert_block_signature(
    rewriter: PatternRewriter, block: Block, converter: LLVMTypeConverter,
    state: ConversionState | None = None,
) -> bool:
    """Give the block's arguments their converted types, with casts back to
    the old types for the users (upstream's ``convertBlockSignature``).
    False, with nothing changed, when some argument has no conversion."""
    new_types = [converter.convert_type(arg.type) for arg in block.args]
    if any(t is None for t in new_types):
        return False
    for arg, new_type in zip(list(block.args), new_types):
        assert new_type is not None
        if arg.type == new_type:
            continue
        old_type = arg.type
        new_arg = rewriter.replace_value_with_new_type(arg, new_type)
        if new_arg.uses:
            uses = list(new_arg.uses)
            result = (state or ConversionState()).cast(
                rewriter, new_arg, old_type, InsertPoint.at_start(block)
            )
            for use in uses:
                use.operation.operands[use.index] = result
    return True


@dataclass
class ConvertToLLVMPattern(RewritePattern):
    """Base of the patterns that rewrite an op into LLVM dialect ops.

    ``operands`` gives the op's operands in converted types: the input of a
    cast from a converted value where there is one, otherwise a new
    (target materialization) cast. ``replace`` replaces the op's results with
    converted values, casting back (source materialization) for users that
    still expect the old types."""

    converter: LLVMTypeConverter = field(default_factory=LLVMTypeConverter)
    state: ConversionState = field(default_factory=ConversionState)

    def convert(self, type: Attribute) -> Attribute | None:
        return self.converter.convert_type(type)

    def remap(self, rewriter: PatternRewriter, value: SSAValue,
              type: Attribute | None = None) -> SSAValue | None:
        """``value`` in its converted type (or in ``type``)."""
        target = type if type is not None else self.convert(value.type)
        if target is None:
            return None
        if value.type == target:
            return value
        owner = value.owner
        if (
            isinstance(owner, UnrealizedConversionCastOp)
            and len(owner.inputs) == 1
            and owner.inputs[0].type == target
        ):
            return owner.inputs[0]
        return self.state.target_cast(rewriter, value, target)

    def operands(self, rewriter: PatternRewriter, op: Operation) -> list[SSAValue] | None:
        """All operands of ``op`` converted; ``None`` if one cannot be."""
        if any(self.convert(o.type) is None for o in op.operands):
            return None
        result: list[SSAValue] = []
        for operand in op.operands:
            converted = self.remap(rewriter, operand)
            if converted is None:
                return None
            result.append(converted)
        return result

    def replace(self, rewriter: PatternRewriter, op: Operation, new_ops: Sequence[Operation],
                new_values: Sequence[SSAValue]) -> None:
        """Insert ``new_ops`` before ``op`` and replace its results by
        ``new_values``, cast back to the old types where they differ."""
        new_ops = list(new_ops)
        rewriter.insert(new_ops, InsertPoint.before(op))
        results: list[SSAValue] = []
        for old, new in zip(op.results, new_values):
            if old.type != new.type and old.uses:
                # a value the pattern forwarded is cast where it is defined
                at = InsertPoint.before(op) if new.owner in new_ops else after_definition(new)
                results.append(self.state.cast(rewriter, new, old.type, at))
            else:
                results.append(new)
        rewriter.replace(op, [], results)

    def constant(self, value: int, type: Attribute | None = None) -> Operation:
        """``llvm.mlir.constant(value) : type`` (index-typed by default)."""
        from mlkit.dialects.llvm import ConstantOp

        type = type or self.converter.index_type
        return ConstantOp(IntegerAttr(value, type), type)


__all__ = [
    "DYNAMIC",
    "ConversionState",
    "ConvertToLLVMPattern",
    "apply_llvm_patterns",
    "enclosing_module",
    "lookup_or_declare",
    "FunctionSignature",
    "LLVMTypeConverter",
    "after_definition",
    "convert_block_signature",
]
