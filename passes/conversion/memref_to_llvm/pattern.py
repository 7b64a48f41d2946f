"""The base of the ``finalize-memref-to-llvm`` patterns and the helpers the
pattern modules share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.memref_descriptor import OpBuilder
from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern
from mlkit.passes.conversion.llvm_common.type_converter import enclosing_module, lookup_or_declare


@dataclass
class MemRefPattern(ConvertToLLVMPattern):
    """Base of the memref patterns: the allocation function names and a
    builder; ``lower`` returns the new ops' result values. ``OP`` is the op
    a pattern lowers; ``RANKED`` names the operand or result that must be a
    ranked memref for it to be lowered (as upstream's patterns match only
    ``MemRefType``s there)."""

    use_generic_functions: bool = False
    use_aligned_alloc: bool = False
    OP: ClassVar[type[Operation]] = Operation
    RANKED: ClassVar[str | None] = None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.OP):
            return
        if any(self.convert(r.type) is None for r in op.results):
            return
        operands = self.operands(rewriter, op)
        if operands is None:
            return
        if self.RANKED is not None and not isinstance(getattr(op, self.RANKED).type, MemRefType):
            return
        builder = OpBuilder(self.converter)
        results = self.lower(op, operands, builder, rewriter)
        if results is None:
            return
        self.replace(rewriter, op, builder.ops, results)

    def lower(self, op: Operation, operands: list[SSAValue], b: OpBuilder,
              rewriter: PatternRewriter) -> list[SSAValue] | None:
        raise NotImplementedError

    def declare(self, rewriter: PatternRewriter, op: Operation, name: str,
                inputs: list[Attribute], output: Attribute | None) -> str | None:
        module = enclosing_module(op)
        if module is None:
            return None
        return lookup_or_declare(rewriter, module, name, llvm.LLVMFunctionType(inputs, output))


def alignment_of(op: Operation) -> int | None:
    """The op's ``alignment`` property (or attribute), if it has one."""
    attr = op.properties.get("alignment", op.attributes.get("alignment"))
    return attr.value.data if isinstance(attr, IntegerAttr) else None
