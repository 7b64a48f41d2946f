"""Translating one ``llvm.func`` body: blocks, phis from block arguments,
and instructions numbered the way LLVM numbers unnamed values. An op of
another dialect goes to that dialect's translation
(:mod:`mlkit.target.llvmir.interface`).

Values and blocks are numbered in one pass before any text is written, so a
use may come before its definition (phis, blocks in source order) as in
LLVM's own printer. A terminator that reaches the same block twice with
arguments gets a forwarding block for the later edges, placed after the
function's blocks (LLVM allows one phi entry per predecessor), as upstream's
``LegalizeForExport`` does. Arguments of a block without predecessors are
poison (upstream writes an empty phi there).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from xdsl.ir import Attribute, Block, Operation, SSAValue

from mlkit.dialects import llvm
from mlkit.target.llvmir.initializers import ConstantFolder
from mlkit.target.llvmir.interface import ModuleContext, translation_of
from mlkit.target.llvmir.ops import CONSTANT_OPS, INSTRUCTIONS, constant_text, intrinsic_op
from mlkit.target.llvmir.types import ConstantBuilder, TranslationFailure, TypeTable


def successor_operands(op: Operation) -> list[Sequence[SSAValue]]:
    """The operands passed to each successor of an llvm dialect terminator."""
    if isinstance(op, llvm.BrOp):
        return [op.destOperands]
    if isinstance(op, llvm.CondBrOp):
        return [op.trueDestOperands, op.falseDestOperands]
    if isinstance(op, llvm.SwitchOp):
        return [op.defaultOperands, *op.case_operands_per_case()]
    if op.successors:
        raise TranslationFailure("has successors but is not a known branch")
    return []


class FunctionTranslation:
    """The state of one function's translation; instruction handlers read it."""

    def __init__(self, module: ModuleContext, func: llvm.FuncOp) -> None:
        self.module = module
        self.func = func
        self.types: TypeTable = module.types
        self.constants: ConstantBuilder = module.constants
        self.values: dict[SSAValue, str] = {}
        self.labels: dict[Block, int] = {}
        self.forwarded: dict[tuple[Operation, int], int] = {}
        self.folder = ConstantFolder(module)
        self.folded: set[Operation] = set()
        self.incoming: dict[Block, list[tuple[int, list[SSAValue | str], Operation]]] = defaultdict(
            list
        )
        self.pending: list[tuple[Operation, int, Block, Sequence[SSAValue]]] = []
        self.forwarders: list[tuple[int, Operation, Block, list[tuple[str, SSAValue]]]] = []

    # -- what instruction handlers use ------------------------------------------------
    def ty(self, type: Attribute) -> str:
        return self.types.spell(type)

    def ref(self, value: SSAValue) -> str:
        text = self.values.get(value)
        if text is None:
            raise TranslationFailure("uses a value that is not defined in this function")
        return text

    def typed(self, value: SSAValue) -> str:
        return f"{self.ty(value.type)} {self.ref(value)}"

    def successor(self, op: Operation, index: int) -> str:
        number = self.forwarded.get((op, index))
        if number is None:
            number = self.labels[op.successors[index]]
        return f"label %{number}"

    # -- translation ---------------------------------------------------------------------
    def translate(self) -> list[str]:
        blocks = list(self.func.body.blocks)
        self._number(blocks)
        lines: list[str] = []
        for block in blocks:
            if block is not blocks[0]:
                lines.append(f"\n{self.labels[block]}:")
            lines += self._phis(block)
            for op in block.ops:
                if isinstance(op, CONSTANT_OPS) or op in self.folded:
                    continue
                text = self.module.guarded(op, lambda op=op: self._instruction(op))
                lines.append(
                    f"  {self.values[op.results[0]]} = {text}" if op.results else f"  {text}"
                )
        return lines + self._forwarder_lines()

    def _instruction(self, op: Operation) -> str:
        if op.dialect_name() != "llvm":
            return translation_of(self.module, op).convert_operation(self, op)
        handler = INSTRUCTIONS.get(op.name)
        if handler is None and op.name.startswith("llvm.intr."):
            handler = intrinsic_op
        if handler is None:
            raise TranslationFailure("the op has no translation")
        return handler(self, op)

    def _number(self, blocks: list[Block]) -> None:
        """Give each instruction result and block its LLVM number, and each
        constant op its constant, in the order LLVM prints them."""
        has_predecessors = {dest for block in blocks for op in block.ops for dest in op.successors}
        entry = blocks[0]
        if entry in has_predecessors:
            raise TranslationFailure("the entry block of a function cannot have predecessors")
        for index, arg in enumerate(entry.args):
            self.values[arg] = f"%{index}"
        counter = len(entry.args)
        for block in blocks:
            self.labels[block] = counter
            counter += 1
            if block is not entry:
                for arg in block.args:
                    if block in has_predecessors:
                        self.values[arg] = f"%{counter}"
                        counter += 1
                    else:  # an unreachable block's arguments have no incoming value
                        self.values[arg] = "poison"
            for op in block.ops:
                if isinstance(op, CONSTANT_OPS):
                    self.values[op.results[0]] = self.module.guarded(
                        op, lambda op=op: constant_text(self.constants, op)
                    )
                    continue
                if self._fold(op):
                    continue
                for result in op.results:
                    self.values[result] = f"%{counter}"
                    counter += 1
                self._edges(block, op)
        self._forwarders(counter)

    def _fold(self, op: Operation) -> bool:
        """Fold an aggregate op of constants into a constant, as upstream's
        constant-folding IR builder does."""
        if not isinstance(op, (llvm.InsertValueOp, llvm.ExtractValueOp)):
            return False
        texts = [self.values.get(v) for v in op.operands]
        if any(t is None or t.startswith("%") for t in texts):
            return False
        for value, text in zip(op.operands, texts):
            self.folder.values.setdefault(value, text)  # type: ignore[arg-type]
        result = op.results[0]
        try:
            folded = self.folder.fold(op)
        except TranslationFailure:
            # a constant the folder cannot take apart (a dense array constant,
            # kept as text): the instruction stays, and LLVM folds it
            return False
        self.folder.values[result] = folded
        self.folded.add(op)
        self.values[result] = self.module.guarded(
            op, lambda: self.folder.render(folded, result.type)
        )
        return True

    def _edges(self, block: Block, op: Operation) -> None:
        operands = self.module.guarded(op, lambda: successor_operands(op))
        seen: set[Block] = set()
        for index, (dest, args) in enumerate(zip(op.successors, operands)):
            if dest in seen and dest.args:
                self.pending.append((op, index, dest, args))
                self.incoming[dest].append((-1, [], op))  # filled in by _forwarders
            else:
                self.incoming[dest].append((self.labels[block], list(args), op))
            seen.add(dest)

    def _forwarders(self, counter: int) -> None:
        """Number the forwarding blocks, placed after the function's blocks."""
        for op, index, dest, args in self.pending:
            label = counter
            values = [f"%{counter + 1 + i}" for i in range(len(args))]
            counter += 1 + len(args)
            self.forwarded[(op, index)] = label
            edges = self.incoming[dest]
            slot = next(i for i, e in enumerate(edges) if e[0] == -1 and e[2] is op)
            edges[slot] = (label, values, op)
            self.forwarders.append((label, op, dest, list(zip(values, args))))

    def _forwarder_lines(self) -> list[str]:
        lines = []
        for label, op, dest, phis in self.forwarders:
            lines.append(f"\n{label}:")
            source = self.labels[op.parent_block()]  # type: ignore[index]
            for value, arg in phis:
                lines.append(f"  {value} = phi {self.ty(arg.type)} [ {self.ref(arg)}, %{source} ]")
            lines.append(f"  br label %{self.labels[dest]}")
        return lines

    def _phis(self, block: Block) -> list[str]:
        # newest edge first: the order of MLIR's predecessor lists, which upstream follows
        edges = self.incoming.get(block, [])[::-1]
        if not edges or not block.args:
            return []
        lines = []
        for position, arg in enumerate(block.args):
            entries = []
            for predecessor, args, op in edges:
                if len(args) != len(block.args):
                    raise self.module.error(
                        op,
                        f"passes {len(args)} operands to a block with {len(block.args)} arguments",
                    )
                value = args[position]
                text = (
                    value
                    if isinstance(value, str)
                    else self.module.guarded(op, lambda v=value: self.ref(v))
                )
                entries.append(f"[ {text}, %{predecessor} ]")
            type_text = self.module.guarded(self.func, lambda a=arg: self.ty(a.type))
            lines.append(f"  {self.values[arg]} = phi {type_text} {', '.join(entries)}")
        return lines
