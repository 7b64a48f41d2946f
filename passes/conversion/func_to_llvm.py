"""``convert-func-to-llvm``: ``func.func``, ``func.call`` and ``func.return`` to the LLVM dialect.

As upstream's FuncToLLVM:

* signatures are converted by :class:`LLVMTypeConverter`: memref arguments
  expand into their descriptor fields (or one bare pointer with
  ``use-bare-ptr-memref-call-conv``), several results are packed in a
  struct; the entry block rebuilds descriptors from the expanded arguments;
* calls unpack memref operands and unpack packed results;
* functions marked ``llvm.emit_c_interface`` get a ``_mlir_ciface_`` twin
  that passes memrefs (and a struct result) through pointers: for a
  definition the twin calls it, for an external declaration the function
  gets a body that calls the external ``_mlir_ciface_`` declaration;
* discardable attributes (``sym_visibility`` among them) are kept on the
  ``llvm.func``; a ``llvm.linkage`` attribute sets its linkage.

Like upstream today, the pass converts no arith or cf ops, and blocks other
than the entry block keep their argument types. Under the bare-pointer
convention no ``_mlir_ciface_`` wrappers are made. Not converted:
``func.constant`` and ``func.call_indirect``, variadic functions, and
argument attributes of memref arguments (dropped, as upstream drops those
it cannot map).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    MemRefType,
    ModuleOp,
    UnrankedMemRefType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.type_converter import (
    ConvertToLLVMPattern,
    LLVMTypeConverter,
    apply_llvm_patterns,
)
from mlkit.passes.conversion.llvm_common.memref_descriptor import OpBuilder

C_INTERFACE = "llvm.emit_c_interface"
_INHERENT = {"sym_name", "function_type", "arg_attrs", "res_attrs", "llvm.linkage"}


def _is_memref(type: Attribute) -> bool:
    return isinstance(type, (MemRefType, UnrankedMemRefType))


@dataclass
class FuncOpToLLVMPattern(ConvertToLLVMPattern):
    """``func.func`` to ``llvm.func``, plus its C-interface twin."""

    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter, /) -> None:  # type: ignore[override]
        if not isinstance(op, func.FuncOp):
            return
        signature = self.converter.convert_function_signature(op.function_type)
        if signature is None:
            return
        attrs: dict[str, Attribute] = dict(op.attributes)
        if op.sym_visibility is not None:
            attrs["sym_visibility"] = op.sym_visibility
        linkage = attrs.pop("llvm.linkage", None)
        new = llvm.FuncOp(
            op.sym_name.data,
            signature.llvm_type,
            linkage=getattr(getattr(linkage, "linkage", None), "data", "external"),
        )
        props_def = llvm.FuncOp.get_irdl_definition().properties
        for name, value in attrs.items():
            (new.properties if name in props_def else new.attributes)[name] = value
        if op.arg_attrs is not None:
            self._copy_arg_attrs(op, new, signature.arg_types)
        if op.res_attrs is not None and len(op.function_type.outputs) == 1:
            new.properties["res_attrs"] = op.res_attrs
        is_declaration = not op.body.blocks
        if not is_declaration:
            region = rewriter.move_region_contents_to_new_regions(op.body)
            for block in list(region.blocks):
                new.body.add_block(region.detach_block(block))
            self._convert_entry_block(rewriter, new.body.blocks[0], signature.arg_types)
        rewriter.replace(op, new, [])
        if C_INTERFACE in op.attributes and not self.converter.use_bare_ptr_call_conv:
            if is_declaration:
                self._wrap_external(rewriter, new, op)
            else:
                self._wrap_definition(rewriter, new, op)

    @staticmethod
    def _copy_arg_attrs(op: func.FuncOp, new: llvm.FuncOp,
                        arg_types: tuple[tuple[Attribute, ...], ...]) -> None:
        assert op.arg_attrs is not None
        expanded: list[DictionaryAttr] = []
        for attrs, types in zip(op.arg_attrs.data, arg_types):
            if len(types) == 1:
                expanded.append(attrs)
            else:
                expanded += [DictionaryAttr({})] * len(types)
        if any(d.data for d in expanded):
            new.properties["arg_attrs"] = ArrayAttr(expanded)

    def _convert_entry_block(self, rewriter: PatternRewriter, block: Block,
                             arg_types: tuple[tuple[Attribute, ...], ...]) -> None:
        """Replace each old argument by its expanded arguments, rebuilding
        descriptors (and casting back) for the uses the old one had."""
        old_args = list(block.args)
        builder = OpBuilder(self.converter)
        position = 0
        for old, types in zip(old_args, arg_types):
            new_args = [block.insert_arg(t, position + i) for i, t in enumerate(types)]
            position += len(types)
            if not old.uses:
                continue
            value = self._rebuild_argument(builder, old.type, new_args)
            if value.type != old.type:
                cast, value = UnrealizedConversionCastOp.cast_one(value, old.type)
                builder.add(cast)
                self.state.casts.append(cast)
            old.replace_all_uses_with(value)
        rewriter.insert(builder.ops, InsertPoint.at_start(block))
        for old in old_args:
            block.erase_arg(old)

    def _rebuild_argument(self, builder: OpBuilder, type: Attribute,
                          args: list[SSAValue]) -> SSAValue:
        if isinstance(type, UnrankedMemRefType):
            return builder.unranked(args[0], args[1])
        if isinstance(type, MemRefType):
            if self.converter.use_bare_ptr_call_conv:
                return builder.static_descriptor(type, args[0], args[0])
            rank = type.get_num_dims()
            return builder.descriptor(
                type, args[0], args[1], args[2], args[3 : 3 + rank], args[3 + rank :]
            )
        return args[0]

    # ---- C interface ----------------------------------------------------------

    def _c_signature(self, op: func.FuncOp) -> tuple[llvm.LLVMFunctionType, bool]:
        """The ``_mlir_ciface_`` signature: memrefs by pointer, and a struct
        result through a leading pointer argument (then it returns void)."""
        result = self.converter.pack_results(op.function_type.outputs.data)
        assert result is not None
        by_pointer = isinstance(result, llvm.LLVMStructType)
        inputs: list[Attribute] = [llvm.LLVMPointerType()] if by_pointer else []
        for type in op.function_type.inputs.data:
            if _is_memref(type):
                space = self.converter.address_space(type)  # type: ignore[arg-type]
                inputs.append(llvm.LLVMPointerType(space or 0))
            else:
                converted = self.converter.convert_type(type)
                assert converted is not None
                inputs.append(converted)
        output = None if by_pointer or isinstance(result, llvm.LLVMVoidType) else result
        return llvm.LLVMFunctionType(inputs, output), by_pointer

    def _twin(self, new: llvm.FuncOp, op: func.FuncOp, type: llvm.LLVMFunctionType,
              body: Region | None) -> llvm.FuncOp:
        twin = llvm.FuncOp("_mlir_ciface_" + op.sym_name.data, type, body=body)
        for name, value in new.attributes.items():
            twin.attributes[name] = value
        if "sym_visibility" in new.properties:
            twin.properties["sym_visibility"] = new.properties["sym_visibility"]
        return twin

    def _wrap_definition(self, rewriter: PatternRewriter, new: llvm.FuncOp, op: func.FuncOp) -> None:
        """``_mlir_ciface_f``: load the descriptors, call ``f``, store or return its result."""
        type, by_pointer = self._c_signature(op)
        block = Block(arg_types=type.inputs.data)
        builder = OpBuilder(self.converter)
        args = list(block.args)
        out = args.pop(0) if by_pointer else None
        call_args: list[SSAValue] = []
        for arg, orig in zip(args, op.function_type.inputs.data):
            if _is_memref(orig):
                struct = self.converter.convert_type(orig)
                desc = builder.add(llvm.LoadOp(arg, struct))
                if isinstance(orig, UnrankedMemRefType):
                    call_args += [builder.extract(desc, 0), builder.extract(desc, 1)]
                else:
                    assert isinstance(orig, MemRefType)
                    call_args += builder.unpack(desc, orig.get_num_dims())
            else:
                call_args.append(arg)
        results = llvm.result_types_of(new.function_type)  # type: ignore[arg-type]
        call = llvm.CallOp(op.sym_name.data, call_args, results)
        builder.add(call)
        if out is not None:
            builder.add(llvm.StoreOp(call.result[0], out))
            builder.add(llvm.ReturnOp())
        else:
            builder.add(llvm.ReturnOp(call.result[0] if results else None))
        block.add_ops(builder.ops)
        twin = self._twin(new, op, type, Region(block))
        rewriter.insert(twin, InsertPoint.after(new))

    def _wrap_external(self, rewriter: PatternRewriter, new: llvm.FuncOp, op: func.FuncOp) -> None:
        """Give the declaration ``f`` a body that stores memref descriptors
        on the stack and calls the external ``_mlir_ciface_f``."""
        type, by_pointer = self._c_signature(op)
        fn = new.function_type
        assert isinstance(fn, llvm.LLVMFunctionType)
        block = Block(arg_types=fn.inputs.data)
        builder = OpBuilder(self.converter)
        result_slot = builder.alloca_one(fn.output) if by_pointer else None
        call_args: list[SSAValue] = [result_slot] if result_slot is not None else []
        args = iter(block.args)
        for orig in op.function_type.inputs.data:
            if isinstance(orig, UnrankedMemRefType):
                desc = builder.unranked(next(args), next(args))
            elif isinstance(orig, MemRefType):
                rank = orig.get_num_dims()
                fields = [next(args) for _ in range(3 + 2 * rank)]
                desc = builder.descriptor(orig, fields[0], fields[1], fields[2],
                                          fields[3 : 3 + rank], fields[3 + rank :])  # fmt: skip
            else:
                call_args.append(next(args))
                continue
            slot = builder.alloca_one(desc.type)
            builder.add(llvm.StoreOp(desc, slot))
            call_args.append(slot)
        call = llvm.CallOp("_mlir_ciface_" + op.sym_name.data, call_args,
                           llvm.result_types_of(type))  # fmt: skip
        builder.add(call)
        if result_slot is not None:
            builder.add(llvm.ReturnOp(builder.add(llvm.LoadOp(result_slot, fn.output))))
        else:
            builder.add(llvm.ReturnOp(call.result[0] if call.result else None))
        block.add_ops(builder.ops)
        new.body.add_block(block)
        # the body only forwards to the C function: upstream keeps it local
        new.properties["linkage"] = llvm.LinkageAttr("private")
        rewriter.insert(self._twin(new, op, type, None), InsertPoint.after(new))


@dataclass
class PackedResultsPattern(ConvertToLLVMPattern):
    """Base of the call and return patterns: once the function results an
    ``OP`` carries (``packed_types``) pack into one LLVM type and its
    operands convert, ``lower`` rewrites it."""

    OP: ClassVar[type[Operation]] = Operation

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.OP):
            return
        result_type = self.converter.pack_results(self.packed_types(op))
        if result_type is None:
            return
        operands = self.operands(rewriter, op)
        if operands is not None:
            self.lower(op, rewriter, result_type, operands, OpBuilder(self.converter))

    def packed_types(self, op: Operation) -> list[Attribute]:
        raise NotImplementedError

    def lower(self, op: Operation, rewriter: PatternRewriter, result_type: Attribute,
              operands: list[SSAValue], builder: OpBuilder) -> None:
        raise NotImplementedError


@dataclass
class CallOpToLLVMPattern(PackedResultsPattern):
    """``func.call`` to ``llvm.call``: memref operands unpacked, a packed
    result unpacked again."""

    OP: ClassVar = func.CallOp

    def packed_types(self, op: func.CallOp) -> list[Attribute]:  # type: ignore[override]
        return [r.type for r in op.results]

    def lower(self, op: func.CallOp, rewriter: PatternRewriter, result_type: Attribute,  # type: ignore[override]
              operands: list[SSAValue], builder: OpBuilder) -> None:
        args: list[SSAValue] = []
        for orig, value in zip(op.operands, operands):
            if isinstance(orig.type, UnrankedMemRefType):
                args += [builder.extract(value, 0), builder.extract(value, 1)]
            elif isinstance(orig.type, MemRefType):
                if self.converter.use_bare_ptr_call_conv:
                    if not self.converter.can_use_bare_ptr(orig.type):
                        return
                    args.append(builder.extract(value, 1))
                else:
                    args += builder.unpack(value, orig.type.get_num_dims())
            else:
                args.append(value)
        types = [] if isinstance(result_type, llvm.LLVMVoidType) else [result_type]
        call = llvm.CallOp(op.callee, args, types)
        builder.add(call)
        results: list[SSAValue] = []
        if len(op.results) == 1:
            results = [self._result(builder, op.results[0].type, call.result[0])]
        elif len(op.results) > 1:
            results = [self._result(builder, r.type, builder.extract(call.result[0], i))
                       for i, r in enumerate(op.results)]  # fmt: skip
        self.replace(rewriter, op, builder.ops, results)

    def _result(self, builder: OpBuilder, type: Attribute, value: SSAValue) -> SSAValue:
        if self.converter.use_bare_ptr_call_conv and isinstance(type, MemRefType):
            return builder.static_descriptor(type, value, value)
        return value


@dataclass
class ReturnOpToLLVMPattern(PackedResultsPattern):
    """``func.return`` to ``llvm.return``, packing several values in a struct."""

    OP: ClassVar = func.ReturnOp

    def packed_types(self, op: func.ReturnOp) -> list[Attribute]:  # type: ignore[override]
        return [v.type for v in op.operands]

    def lower(self, op: func.ReturnOp, rewriter: PatternRewriter, result_type: Attribute,  # type: ignore[override]
              operands: list[SSAValue], builder: OpBuilder) -> None:
        values = [
            builder.extract(v, 1)
            if self.converter.use_bare_ptr_call_conv and isinstance(o.type, MemRefType)
            else v
            for o, v in zip(op.operands, operands)
        ]
        if len(values) > 1:
            assert isinstance(result_type, llvm.LLVMStructType)
            values = [builder.pack_struct(result_type, values)]
        builder.add(llvm.ReturnOp(values[0] if values else None))
        rewriter.replace(op, builder.ops, [])


def func_to_llvm_patterns(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    """The patterns of this pass, for ``convert-to-llvm``."""
    return [FuncOpToLLVMPattern(converter), CallOpToLLVMPattern(converter),
            ReturnOpToLLVMPattern(converter)]  # fmt: skip


@dataclass(frozen=True)
class ConvertFuncToLLVM(ModulePass):
    """Convert from the Func dialect to LLVM dialect"""

    name = "convert-func-to-llvm"
    display_name: ClassVar[str] = "ConvertFuncToLLVMPass"

    use_bare_ptr_memref_call_conv: bool = False
    index_bitwidth: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter.from_options(
            self.index_bitwidth, self.use_bare_ptr_memref_call_conv
        )
        apply_llvm_patterns(op, func_to_llvm_patterns(converter))
