"""Folding a global's initializer region into one LLVM IR constant.

Upstream translates the region with a constant-folding IR builder; here the
ops a lowering puts there fold directly: constants, ``insertvalue`` into
aggregates (built element by element), ``extractvalue`` of those, and the
ops LLVM keeps as constant expressions (``getelementptr``, pointer and bit
casts, ``trunc``, ``add``/``sub``/``xor``). Anything else is a located error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Attribute, Operation, SSAValue

from mlkit.dialects import llvm
from mlkit.target.llvmir.interface import ModuleContext
from mlkit.target.llvmir.ops import CONSTANT_OPS, check_props, constant_text, gep_flags
from mlkit.target.llvmir.ops import gep_operands, position
from mlkit.target.llvmir.types import TranslationFailure, zero_value

_FILLS = ("undef", "poison")
_CAST_EXPRS = {"llvm.bitcast", "llvm.ptrtoint", "llvm.inttoptr", "llvm.addrspacecast", "llvm.trunc"}
_BINARY_EXPRS = {"llvm.add", "llvm.sub", "llvm.xor"}


@dataclass
class Aggregate:
    """A struct or array constant whose elements are known one by one."""

    type: Attribute
    elements: list[Aggregate | str]


Constant = Aggregate | str


def fold_initializer(translation: ModuleContext, op: llvm.GlobalOp) -> str:
    """The initializer region of ``op`` as one constant (without its type)."""
    if len(op.initializer.blocks) != 1:
        raise TranslationFailure("the initializer region must have one block")
    folder = ConstantFolder(translation)
    for inner in op.initializer.blocks[0].ops:
        if isinstance(inner, llvm.ReturnOp):
            return folder.render(folder.values[inner.operands[0]], inner.operands[0].type)
        result = translation.guarded(inner, lambda inner=inner: folder.fold(inner))
        folder.values[inner.results[0]] = result
    raise TranslationFailure("the initializer region must end in 'llvm.return'")


class ConstantFolder:
    """Folds ops whose operands are all constants into one constant."""

    def __init__(self, translation: ModuleContext) -> None:
        self.translation = translation
        self.types = translation.types
        self.values: dict[SSAValue, Constant] = {}

    def fold(self, op: Operation) -> Constant:
        if op.dialect_name() != "llvm":
            raise TranslationFailure("the op is not in the llvm dialect")
        if isinstance(op, CONSTANT_OPS):
            return constant_text(self.translation.constants, op)
        if isinstance(op, llvm.InsertValueOp):
            check_props(op, {"position"})
            container = self._expand(self.values[op.container], op.container.type)
            target, path = container, position(op)
            for index in path[:-1]:
                child = target.elements[index]
                sub_type = _element_type(target.type, index)
                target.elements[index] = child = self._expand(child, sub_type)
                target = child
            target.elements[path[-1]] = self.values[op.value]
            return container
        if isinstance(op, llvm.ExtractValueOp):
            check_props(op, {"position"})
            value: Constant = self.values[op.container]
            type = op.container.type
            for index in position(op):
                value = self._expand(value, type).elements[index]
                type = _element_type(type, index)
            return value
        if isinstance(op, llvm.GEPOp):
            words = gep_flags(op)
            parts = gep_operands(op, self.types.spell, self.typed)
            return f"getelementptr{words} ({', '.join(parts)})"
        if op.name in _CAST_EXPRS:
            check_props(op, {"overflowFlags"})
            keyword = op.name.removeprefix("llvm.")
            return f"{keyword} ({self.typed(op.operands[0])} to {self.types.spell(op.results[0].type)})"
        if op.name in _BINARY_EXPRS:
            check_props(op, {"overflowFlags"})
            lhs, rhs = op.operands
            return f"{op.name.removeprefix('llvm.')} ({self.typed(lhs)}, {self.typed(rhs)})"
        raise TranslationFailure("the op cannot be folded into a global's initializer")

    def typed(self, value: SSAValue) -> str:
        return f"{self.types.spell(value.type)} {self.render(self.values[value], value.type)}"

    def _expand(self, value: Constant, type: Attribute) -> Aggregate:
        if isinstance(value, Aggregate):
            return Aggregate(value.type, list(value.elements))
        count = _element_count(type)
        if value in _FILLS:
            return Aggregate(type, [value] * count)
        if value == "zeroinitializer":
            return Aggregate(type, [zero_value(_element_type(type, i)) for i in range(count)])
        raise TranslationFailure("cannot take apart this aggregate constant")

    def render(self, value: Constant, type: Attribute) -> str:
        if isinstance(value, str):
            return value
        parts = ", ".join(
            f"{self.types.spell(_element_type(type, i))} {self.render(e, _element_type(type, i))}"
            for i, e in enumerate(value.elements)
        )
        if isinstance(type, llvm.LLVMArrayType):
            return f"[{parts}]"
        body = f"{{ {parts} }}" if parts else "{}"
        return f"<{body}>" if isinstance(type, llvm.LLVMStructType) and type.is_packed else body


def _element_count(type: Attribute) -> int:
    if isinstance(type, llvm.LLVMArrayType):
        return type.size.data
    if isinstance(type, llvm.LLVMStructType):
        return len(type.types)
    raise TranslationFailure(f"type '{type}' is not an aggregate")


def _element_type(type: Attribute, index: int) -> Attribute:
    if isinstance(type, llvm.LLVMArrayType):
        return type.type
    if isinstance(type, llvm.LLVMStructType):
        return type.types.data[index]
    raise TranslationFailure(f"type '{type}' is not an aggregate")
