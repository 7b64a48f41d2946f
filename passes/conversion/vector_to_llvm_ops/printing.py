"""``vector.print`` to calls of the runner utils, as upstream's
VectorPrintOpConversion: a vector is ``( a, b, c )`` built from ``printOpen``,
``printComma`` and ``printClose`` around one call per element, rows nested,
then the op's punctuation (``printNewline`` by default). Integers print
through ``printI64`` after a sign extension (``i1`` zero-extended, so it
prints 1/0), unsigned ones and ``index`` through ``printU64``; a string
through ``printString`` of a private global."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from mlkit.dialects import llvm
from mlkit.dialects.vector import PrintOp
from mlkit.passes.conversion.llvm_common.type_converter import (
    ConvertToLLVMPattern,
    enclosing_module,
    lookup_or_declare,
)
from mlkit.passes.conversion.vector_to_llvm_ops.values import Builder
from xdsl.dialects.builtin import (
    Float32Type, Float64Type, IndexType, IntegerType, Signedness, StringAttr, VectorType,
    i8, i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

_PUNCTUATION = {"newline": "printNewline", "comma": "printComma", "open": "printOpen",
                "close": "printClose"}  # fmt: skip


def _printer(element: Attribute) -> tuple[str, Attribute, str | None] | None:
    """(runtime function, its argument type, extension: 'zext'/'sext'/None)."""
    if isinstance(element, Float32Type):
        return "printF32", element, None
    if isinstance(element, Float64Type):
        return "printF64", element, None
    if isinstance(element, IndexType):
        return "printU64", i64, None
    if isinstance(element, IntegerType) and element.width.data <= 64:
        width = element.width.data
        extend = None if width == 64 else "sext"
        if element.signedness.data == Signedness.UNSIGNED:
            return "printU64", i64, None if width == 64 else "zext"
        return "printI64", i64, "zext" if width == 1 else extend
    return None


@dataclass
class PrintLowering(ConvertToLLVMPattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PrintOp, rewriter: PatternRewriter) -> None:
        module = enclosing_module(op)
        if module is None:
            return
        b = Builder(self.converter)

        def call(name: str, args: list[SSAValue] | None = None) -> None:
            types = [a.type for a in args or []]
            lookup_or_declare(rewriter, module, name, llvm.LLVMFunctionType(types))
            b.ops.append(llvm.CallOp(name, args or []))

        if op.source is not None:
            type = op.source.type
            element = type.element_type if isinstance(type, VectorType) else type
            found = _printer(element)
            value = self.remap(rewriter, op.source)
            if found is None or value is None or self.convert(type) is None:
                return
            name, arg_type, extend = found

            def scalar(v: SSAValue) -> None:
                if extend == "zext":
                    v = b.add(llvm.ZExtOp(v, arg_type))
                elif extend == "sext":
                    v = b.add(llvm.SExtOp(v, arg_type))
                call(name, [v])

            if isinstance(type, VectorType):
                if any(type.get_scalable_dims()):
                    return
                self._vector(b, value, list(type.get_shape()), scalar, call)
            else:
                scalar(value)
        if op.stringLiteral is not None:
            call("printString", [self._string(rewriter, module, op.stringLiteral.data, b)])
        punctuation = op.punctuation_value
        if punctuation in _PUNCTUATION:
            call(_PUNCTUATION[punctuation])
        self.replace(rewriter, op, b.ops, [])

    def _vector(self, b: Builder, value: SSAValue, shape: list[int],
                scalar: Callable[[SSAValue], None], call: Callable[[str], None]) -> None:
        """Open, the elements row by row with commas, close; 0-d as 1 element."""
        rank = max(len(shape), 1)
        dims = shape or [1]

        def emit(prefix: tuple[int, ...]) -> None:
            call("printOpen")
            depth = len(prefix)
            for i in range(dims[depth]):
                if depth + 1 == len(dims):
                    scalar(b.element(value, rank, (*prefix, i)))
                else:
                    emit((*prefix, i))
                if i + 1 != dims[depth]:
                    call("printComma")
            call("printClose")

        emit(())

    def _string(self, rewriter: PatternRewriter, module: Operation, text: str, b: Builder) -> SSAValue:
        """The address of a private constant global holding ``text`` and a NUL."""
        data = text.encode() + b"\0"
        symbols = {getattr(o, "sym_name", None) for o in module.regions[0].block.ops}
        names = (f"vector_print_str_{i}" if i else "vector_print_str" for i in itertools.count())
        name = next(n for n in names if StringAttr(n) not in symbols)
        array = llvm.LLVMArrayType(len(data), i8)
        glob = llvm.GlobalOp(array, name, linkage="private", value=StringAttr(data.decode()),
                             constant=True)
        block = module.regions[0].block
        if block.first_op is None:
            block.add_op(glob)
        else:
            block.insert_op_before(glob, block.first_op)
        return b.add(llvm.AddressOfOp(name, llvm.LLVMPointerType()))


