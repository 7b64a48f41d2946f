"""``finalize-memref-to-llvm``: memref ops to the LLVM dialect.

As upstream's MemRefToLLVM, with the descriptor layout of
:mod:`llvm_common.type_converter`:

* ``alloc``, ``alloca``, ``dealloc``, ``global`` and ``get_global``:
  :mod:`.allocation`;
* ``load``, ``store``, ``prefetch``, ``dim`` and ``rank``: :mod:`.access`;
* ``cast``, ``reinterpret_cast``, ``transpose``, ``reshape`` (shape of static
  length), ``copy``, ``extract_strided_metadata``,
  ``extract_aligned_pointer_as_index`` and ``assume_alignment``:
  :mod:`.views`.

``subview``, ``expand_shape``, ``collapse_shape`` and ``view`` are left
alone, as upstream's pass leaves them: run ``expand-strided-metadata`` first.
Atomic ops, ``realloc``, ``memory_space_cast``, ``alloca_scope`` and DMA ops
are not converted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern
from mlkit.passes.conversion.llvm_common.type_converter import LLVMTypeConverter
from mlkit.passes.conversion.llvm_common.type_converter import apply_llvm_patterns
from mlkit.passes.conversion.memref_to_llvm.access import ACCESS_PATTERNS
from mlkit.passes.conversion.memref_to_llvm.allocation import ALLOCATION_PATTERNS
from mlkit.passes.conversion.memref_to_llvm.views import VIEW_PATTERNS


def memref_to_llvm_patterns(
    converter: LLVMTypeConverter, use_generic_functions: bool = False, use_aligned_alloc: bool = False
) -> list[ConvertToLLVMPattern]:
    """Every pattern of the pass, for ``convert-to-llvm`` too."""
    return [cls(converter, use_generic_functions=use_generic_functions,
                use_aligned_alloc=use_aligned_alloc)
            for cls in (*ALLOCATION_PATTERNS, *ACCESS_PATTERNS, *VIEW_PATTERNS)]  # fmt: skip


@dataclass(frozen=True)
class FinalizeMemRefToLLVM(ModulePass):
    """Finalize MemRef dialect to LLVM dialect conversion"""

    name = "finalize-memref-to-llvm"
    display_name: ClassVar[str] = "FinalizeMemRefToLLVMConversionPass"

    use_aligned_alloc: bool = False
    index_bitwidth: int = 0
    use_generic_functions: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter.from_options(self.index_bitwidth)
        apply_llvm_patterns(
            op, memref_to_llvm_patterns(converter, self.use_generic_functions, self.use_aligned_alloc)
        )
