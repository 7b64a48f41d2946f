"""``convert-cf-to-llvm``: ControlFlow dialect branches and asserts to the LLVM dialect.

As upstream's ControlFlowToLLVM: ``cf.br``, ``cf.cond_br`` and ``cf.switch``
become ``llvm.br``, ``llvm.cond_br`` and ``llvm.switch`` with operands in
converted types, and the destination blocks' arguments are converted with
them (casts back to the old types keep unconverted users valid).
``cf.assert`` splits its block: on failure the message is printed with
``puts`` from a private ``assert_msg`` global and ``abort`` is called.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects import cf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    StringAttr,
    TensorType,
    i8,
    i32,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from mlkit.dialects import llvm
from mlkit.passes.conversion.llvm_common.conversion_pass import IndexBitwidthConversionPass
from mlkit.passes.conversion.llvm_common.type_converter import (
    ConvertToLLVMPattern,
    LLVMTypeConverter,
    convert_block_signature,
    enclosing_module,
    lookup_or_declare,
)


@dataclass
class BranchToLLVMPattern(ConvertToLLVMPattern):
    """``cf.br``, ``cf.cond_br`` and ``cf.switch``; converts the successors'
    block signatures too."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, (cf.BranchOp, cf.ConditionalBranchOp, cf.SwitchOp)):
            return
        if any(self.convert(arg.type) is None for s in op.successors for arg in s.args):
            return
        operands = self.operands(rewriter, op)
        if operands is None:
            return
        for successor in op.successors:
            convert_block_signature(rewriter, successor, self.converter, self.state)
        values = dict(zip(op.operands, operands))
        new: Operation
        if isinstance(op, cf.BranchOp):
            new = llvm.BrOp(op.successor, *[values[v] for v in op.arguments])
        elif isinstance(op, cf.ConditionalBranchOp):
            new = llvm.CondBrOp(
                values[op.cond],
                op.then_block, [values[v] for v in op.then_arguments],
                op.else_block, [values[v] for v in op.else_arguments],
            )  # fmt: skip
        else:
            new = self._switch(op, values)
        rewriter.replace(op, new, [])

    @staticmethod
    def _switch(op: cf.SwitchOp, values: dict[SSAValue, SSAValue]) -> Operation:
        case_ops = [[values[v] for v in group] for group in _case_groups(op)]
        props = {
            "case_operand_segments": DenseArrayBase.from_list(i32, [len(g) for g in case_ops]),
            "operandSegmentSizes": DenseArrayBase.from_list(
                i32, [1, len(op.default_operands), sum(len(g) for g in case_ops)]
            ),
        }
        if op.case_values is not None:
            props["case_values"] = op.case_values
        return llvm.SwitchOp.create(
            operands=[values[op.flag], *(values[v] for v in op.default_operands),
                      *(v for g in case_ops for v in g)],  # fmt: skip
            properties=props,
            successors=[op.default_block, *op.case_blocks],
        )


def _case_groups(op: cf.SwitchOp) -> list[list[SSAValue]]:
    segments = op.case_operand_segments
    sizes = [int(s) for s in segments.iter_values()] if isinstance(segments, DenseArrayBase) else []
    groups: list[list[SSAValue]] = []
    start = 0
    for size in sizes:
        groups.append(list(op.case_operands[start : start + size]))
        start += size
    return groups


@dataclass
class AssertToLLVMPattern(ConvertToLLVMPattern):
    """``cf.assert %c, "msg"``: branch to a block that prints the message and aborts."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, cf.AssertOp):
            return
        module = enclosing_module(op)
        block = op.parent_block()
        if module is None or block is None or block.parent is None or op.next_op is None:
            return
        continuation = block.split_before(op.next_op)
        failure = Block()
        block.parent.add_block(failure)
        message = op.msg.data if isinstance(op.msg, StringAttr) else ""
        pointer = self._message_pointer(rewriter, module, failure, message)
        puts = lookup_or_declare(rewriter, module, "puts", llvm.LLVMFunctionType([llvm.LLVMPointerType()]))
        abort = lookup_or_declare(rewriter, module, "abort", llvm.LLVMFunctionType([]))
        rewriter.insert(
            [llvm.CallOp(puts, [pointer]), llvm.CallOp(abort, []), llvm.UnreachableOp()],
            InsertPoint.at_end(failure),
        )
        condition = self.remap(rewriter, op.arg)
        assert condition is not None
        rewriter.replace(op, llvm.CondBrOp(condition, continuation, [], failure, []), [])

    @staticmethod
    def _message_pointer(
        rewriter: PatternRewriter, module: Operation, block: Block, message: str
    ) -> SSAValue:
        """A NUL-terminated global holding ``message``, and its address."""
        data = list(message.encode()) + [0]
        array = llvm.LLVMArrayType(len(data), i8)
        name = _unique_name(module, "assert_msg")
        value = DenseIntOrFPElementsAttr.from_list(TensorType(i8, [len(data)]), data)
        glob = llvm.GlobalOp(array, name, linkage="private", value=value, constant=True)
        rewriter.insert(glob, InsertPoint.at_start(module.regions[0].blocks[0]))
        address = llvm.AddressOfOp(name)
        gep = llvm.GEPOp(address.res, [0], array)
        rewriter.insert([address, gep], InsertPoint.at_end(block))
        return gep.res


def _unique_name(module: Operation, base: str) -> str:
    """``base``, or ``base_0``, ``base_1``, ... if taken, as upstream uniques symbols."""
    name, counter = base, 0
    while SymbolTable.lookup_symbol(module, name) is not None:
        name = f"{base}_{counter}"
        counter += 1
    return name


def cf_to_llvm_patterns(converter: LLVMTypeConverter) -> list[ConvertToLLVMPattern]:
    """The patterns of this pass, for ``convert-to-llvm``."""
    return ConvertControlFlowToLLVM.patterns(converter)


@dataclass(frozen=True)
class ConvertControlFlowToLLVM(IndexBitwidthConversionPass):
    """Convert ControlFlow operations to the LLVM dialect"""

    name = "convert-cf-to-llvm"
    display_name: ClassVar[str] = "ConvertControlFlowToLLVMPass"
    PATTERNS: ClassVar = (BranchToLLVMPattern, AssertToLLVMPattern)
