"""``convert-openmp-to-llvm``: the OpenMP ops stay, their types become the
LLVM dialect's (upstream's ``OpenMPToLLVM.cpp``).

``omp.loop_nest`` takes converted bounds and gives its induction variables
the converted type (``index`` becomes ``i64``), so the body converts like any
other code. ``convert-to-llvm`` runs this pattern as well. Turning the
teams into threads is the LLVM IR translation's work, as upstream's
``OpenMPIRBuilder`` does it there (:mod:`mlkit.target.llvmir.dialect.omp`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from mlkit.dialects import omp
from mlkit.passes.conversion.llvm_common.type_converter import ConvertToLLVMPattern
from mlkit.passes.conversion.llvm_common.type_converter import LLVMTypeConverter
from mlkit.passes.conversion.llvm_common.type_converter import apply_llvm_patterns
from mlkit.passes.conversion.llvm_common.type_converter import convert_block_signature


@dataclass
class LoopNestToLLVMPattern(ConvertToLLVMPattern):
    """``omp.loop_nest`` with converted bounds and induction variables, in place."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, omp.LoopNestOp):
            return
        block = op.region.blocks[0]
        if all(self.converter.is_legal(v.type) for v in (*op.operands, *block.args)):
            return
        operands = self.operands(rewriter, op)
        if operands is None:
            return
        if not convert_block_signature(rewriter, block, self.converter, self.state):
            return
        for index, value in enumerate(operands):
            op.operands[index] = value
        rewriter.handle_operation_modification(op)


def openmp_to_llvm_patterns(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    """The patterns ``convert-to-llvm`` takes for the omp dialect."""
    return [LoopNestToLLVMPattern(converter)]


@dataclass(frozen=True)
class ConvertOpenMPToLLVMPass(ModulePass):
    """Convert the OpenMP ops to OpenMP ops with LLVM dialect"""

    name = "convert-openmp-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_llvm_patterns(op, openmp_to_llvm_patterns(LLVMTypeConverter()))
