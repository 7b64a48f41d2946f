"""The shape the simple conversions to the LLVM dialect share: one option,
upstream's ``index-bitwidth``, and one walk of the dialect's patterns with
the type converter it asks for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern
from mlkit.passes.conversion.llvm_common.type_converter import LLVMTypeConverter
from mlkit.passes.conversion.llvm_common.type_converter import apply_llvm_patterns


@dataclass(frozen=True)
class IndexBitwidthConversionPass(ModulePass):
    """Base of ``convert-arith-to-llvm``, ``convert-cf-to-llvm`` and
    ``convert-index-to-llvm``: one instance of each of ``PATTERNS``, all
    sharing the converter, in one walk over the IR."""

    PATTERNS: ClassVar[tuple[type[ConvertToLLVMPattern], ...]] = ()

    index_bitwidth: int = 0

    @classmethod
    def patterns(cls, converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
        """The pass's patterns for ``converter``, for ``convert-to-llvm`` too."""
        return [pattern(converter) for pattern in cls.PATTERNS]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_llvm_patterns(op, self.patterns(LLVMTypeConverter.from_options(self.index_bitwidth)))
