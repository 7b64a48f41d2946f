"""LLVM atomic ops: atomicrmw, cmpxchg and fence.

xDSL has none of them. Orderings and the read-modify-write operation are
integer properties, as upstream stores them (``ordering = 2 : i64``), printed
as keywords (``monotonic``, ``_and``) in the custom form.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, UnitAttr
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AnyAttr, IRDLOperation, VarConstraint
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, irdl_custom_directive
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.llvm.attrs import ATOMIC_ORDERINGS, ORDERING_NAMES, AtomicBinOp, AtomicOrdering
from mlkit.dialects.llvm.attrs import i64_enum, parse_ordering
from mlkit.dialects.llvm.interfaces import LLVMOp, MemoryAccessOp
from mlkit.dialects.llvm.types import LLVMPointerType, LLVMStructType
from mlkit.dialects.utils.attr_dict import print_attr_dict, split_attr_dict

def parse_optional_syncscope(parser: Parser) -> StringAttr | None:
    """`` syncscope("s")`` of atomic ops, when there is one."""
    if parser.parse_optional_keyword("syncscope") is None:
        return None
    parser.parse_punctuation("(")
    scope = StringAttr(parser.parse_str_literal())
    parser.parse_punctuation(")")
    return scope


def print_syncscope(printer: Printer, scope: StringAttr) -> None:
    printer.print_string("syncscope(")
    printer.print_string_literal(scope.data)
    printer.print_string(")")


@irdl_custom_directive
class SyncScope(CustomDirective):
    """`` syncscope("s")`` of atomicrmw and fence, when there is one."""

    syncscope: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if (scope := parse_optional_syncscope(parser)) is not None:
            self.syncscope.set(state, scope)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        scope = self.syncscope.get(op)
        if isinstance(scope, StringAttr):
            state.print_whitespace(printer)
            print_syncscope(printer, scope)


@irdl_op_definition
class AtomicRMWOp(MemoryAccessOp):
    name = "llvm.atomicrmw"
    T: ClassVar = VarConstraint("T", AnyAttr())
    ptr = operand_def(LLVMPointerType)
    val = operand_def(T)
    res = result_def(T)
    bin_op = prop_def(IntegerAttr)
    ordering = prop_def(IntegerAttr)
    custom_directives = (AtomicBinOp, AtomicOrdering, SyncScope)
    assembly_format = (
        "(`volatile` $volatile_^)? custom<AtomicBinOp>($bin_op) $ptr `,` $val"
        " custom<SyncScope>($syncscope) custom<AtomicOrdering>($ordering) attr-dict `:`"
        " type($ptr) `,` type($val)"
    )

    def verify_(self) -> None:
        if self.res.type != self.val.type:
            raise VerifyException("expected LLVM IR result type to match value type")
        assert isinstance(self.ordering, IntegerAttr)
        if self.ordering.value.data < 2:
            raise VerifyException("expected at least 'monotonic' ordering")


@irdl_op_definition
class AtomicCmpXchgOp(MemoryAccessOp):
    name = "llvm.cmpxchg"
    ptr = operand_def(LLVMPointerType)
    cmp = operand_def()
    val = operand_def()
    res = result_def(LLVMStructType)
    success_ordering = prop_def(IntegerAttr)
    failure_ordering = prop_def(IntegerAttr)
    weak = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("weak") is not None:
            props["weak"] = UnitAttr()
        if parser.parse_optional_keyword("volatile") is not None:
            props["volatile_"] = UnitAttr()
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        cmp = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        if (scope := parse_optional_syncscope(parser)) is not None:
            props["syncscope"] = scope
        for key in ("success_ordering", "failure_ordering"):
            props[key] = i64_enum(parse_ordering(parser))
        extra, attributes = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        at = parser.pos
        ptr_type = parser.parse_type()
        parser.parse_punctuation(",")
        val_type = parser.parse_type()
        operands = parser.resolve_operands([ptr, cmp, val], [ptr_type, val_type, val_type], at)
        return cls.create(
            operands=operands,
            result_types=[LLVMStructType([val_type, IntegerType(1)])],
            properties=props | extra,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        for word, prop in (("weak", self.weak), ("volatile", self.volatile_)):
            if prop is not None:
                printer.print_string(f" {word}")
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if self.syncscope is not None:
            printer.print_string(" ")
            print_syncscope(printer, self.syncscope)
        for prop in (self.success_ordering, self.failure_ordering):
            assert isinstance(prop, IntegerAttr)
            printer.print_string(" " + ORDERING_NAMES[prop.value.data])
        print_attr_dict(
            printer,
            self,
            ("weak", "volatile_", "syncscope", "success_ordering", "failure_ordering"),
        )
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.val.type)

    def verify_(self) -> None:
        if self.cmp.type != self.val.type:
            raise VerifyException("expected LLVM IR element type for operand #1 to match type for operand #2")
        if self.res.type != LLVMStructType([self.val.type, IntegerType(1)]):
            raise VerifyException("expected LLVM IR result type to be a struct of the value type and i1")
        assert isinstance(self.success_ordering, IntegerAttr)
        assert isinstance(self.failure_ordering, IntegerAttr)
        success = self.success_ordering.value.data
        failure = self.failure_ordering.value.data
        if success < 2 or failure < 2:
            raise VerifyException("ordering must be at least 'monotonic'")
        if failure in (5, 6):
            raise VerifyException("failure ordering cannot be 'release' or 'acq_rel'")


@irdl_op_definition
class FenceOp(LLVMOp):
    name = "llvm.fence"
    ordering = prop_def(IntegerAttr)
    syncscope = opt_prop_def(StringAttr)
    custom_directives = (AtomicOrdering, SyncScope)
    assembly_format = "custom<SyncScope>($syncscope) custom<AtomicOrdering>($ordering) attr-dict"

    def __init__(self, ordering: str, syncscope: str | None = None) -> None:
        props: dict[str, Attribute] = {"ordering": i64_enum(ATOMIC_ORDERINGS[ordering])}
        if syncscope is not None:
            props["syncscope"] = StringAttr(syncscope)
        super().__init__(properties=props)

    def verify_(self) -> None:
        assert isinstance(self.ordering, IntegerAttr)
        if self.ordering.value.data not in (4, 5, 6, 7):
            raise VerifyException(
                "can be given only acquire, release, acq_rel, and seq_cst orderings"
            )


ATOMIC_OPS = [AtomicRMWOp, AtomicCmpXchgOp, FenceOp]
