"""``convert-to-llvm``: every conversion to the LLVM dialect mlkit has, in one walk.

Upstream's pass gathers the to-LLVM patterns of each loaded dialect through
``ConvertToLLVMPatternInterface`` and runs them as one conversion with a
shared type converter; ``filter-dialects`` restricts it to the named
dialects. mlkit does the same with the pattern lists of its conversions:
arith, cf, func, index, omp, memref (as ``finalize-memref-to-llvm`` with default
options), and math and vector where those conversions are installed.
``dynamic`` (upstream's per-op interface lookup) gives the same result here
and is accepted for compatibility, as is ``allow-pattern-rollback``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mlkit.passes.conversion.llvm_common.type_converter import (
    ConvertToLLVMPattern,
    LLVMTypeConverter,
    apply_llvm_patterns,
)
from mlkit.pipeline.options import option


def _arith(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    from mlkit.passes.conversion.arith_to_llvm import ArithToLLVMPattern

    return [ArithToLLVMPattern(converter)]


def _index(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    from mlkit.passes.conversion.index_to_llvm import IndexToLLVMPattern

    return [IndexToLLVMPattern(converter)]


def _cf(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    from mlkit.passes.conversion.cf_to_llvm import cf_to_llvm_patterns

    return cf_to_llvm_patterns(converter)


def _func(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    from mlkit.passes.conversion.func_to_llvm import func_to_llvm_patterns

    return func_to_llvm_patterns(converter)


def _memref(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    from mlkit.passes.conversion.memref_to_llvm import memref_to_llvm_patterns

    return memref_to_llvm_patterns(converter)


def _omp(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    from mlkit.passes.conversion.openmp_to_llvm import openmp_to_llvm_patterns

    return openmp_to_llvm_patterns(converter)


def _optional(module: str, function: str) -> Callable[[LLVMTypeConverter], list[ConvertToLLVMPattern]]:
    """Patterns of a conversion that may not be installed; each pattern gets
    the shared type converter."""

    def patterns(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
        try:
            found = getattr(importlib.import_module(module), function)
        except (ImportError, AttributeError):
            return []
        result = list(found())
        for pattern in result:
            if isinstance(pattern, ConvertToLLVMPattern):
                pattern.converter = converter
        return result

    return patterns


DIALECT_PATTERNS: dict[str, Callable[[LLVMTypeConverter], list[ConvertToLLVMPattern]]] = {
    "arith": _arith,
    "cf": _cf,
    "func": _func,
    "index": _index,
    "math": _optional("mlkit.passes.conversion.math_to_llvm", "math_to_llvm_patterns"),
    "memref": _memref,
    "omp": _omp,
    "vector": _optional("mlkit.passes.conversion.vector_to_llvm", "vector_to_llvm_patterns"),
}
"""Dialect name -> its to-LLVM patterns, as upstream's interface registry."""


@dataclass(frozen=True)
class ConvertToLLVM(ModulePass):
    """Convert to LLVM via dialect interfaces found in the input IR"""

    name = "convert-to-llvm"
    display_name: ClassVar[str] = "ConvertToLLVMPass"

    filter_dialects: tuple[str, ...] = option((), "Test conversion patterns of only the specified dialects")
    dynamic: bool = option(False, "Use op conversion attributes to configure the conversion")
    allow_pattern_rollback: bool = option(
        True,
        "Experimental performance flag to disallow pattern rollback (mlkit's conversion "
        "never rolls a pattern back, so either value converts the same)",
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter()
        chosen = self.filter_dialects or tuple(DIALECT_PATTERNS)
        patterns: list[ConvertToLLVMPattern] = []
        for dialect in chosen:
            if dialect in DIALECT_PATTERNS:
                patterns += DIALECT_PATTERNS[dialect](converter)
        apply_llvm_patterns(op, patterns)
