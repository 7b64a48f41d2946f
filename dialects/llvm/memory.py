"""LLVM memory ops: alloca, load, store and getelementptr.

Replaces xDSL's versions, which lack atomic loads and stores, ``syncscope`` and the ``nusw``/``nuw`` GEP flags.
Properties follow upstream, with its defaults (``ordering = 0 : i64``,
``noWrapFlags = 0 : i32``) stored, so the generic form matches upstream's.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, DenseArrayBase, IntegerAttr, IntegerType, StringAttr
from xdsl.dialects.builtin import FunctionType, UnitAttr, VectorType, i32
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.traits import Pure
from xdsl.irdl import AnyAttr, IRDLOperation, irdl_op_definition, operand_def
from xdsl.irdl import opt_prop_def, prop_def, result_def, traits_def, var_operand_def
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, irdl_custom_directive
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.llvm.atomic import parse_optional_syncscope, print_syncscope
from mlkit.dialects.llvm.attrs import ORDERING_NAMES, alignment_property, i64_enum, parse_ordering
from mlkit.dialects.llvm.interfaces import LLVMOp, MemoryAccessOp
from mlkit.dialects.llvm.types import LLVMArrayType, LLVMPointerType, LLVMStructType
from mlkit.dialects.utils.attr_dict import print_attr_dict, split_attr_dict

NOT_ATOMIC = i64_enum(0)

GEP_DYNAMIC_INDEX = -2147483648
"""Marks, in ``rawConstantIndices``, the place of a dynamic index."""

GEP_FLAGS = {"inbounds_flag": 1, "nusw": 2, "nuw": 4}  # "inbounds" = nusw | inbounds_flag


@irdl_custom_directive
class AtomicSpec(CustomDirective):
    """`` atomic syncscope("s") ordering`` of a load or store; nothing when not atomic."""

    syncscope: AttributeVariable
    ordering: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        ordering = 0
        if parser.parse_optional_keyword("atomic") is not None:
            if (scope := parse_optional_syncscope(parser)) is not None:
                self.syncscope.set(state, scope)
            ordering = parse_ordering(parser)
        self.ordering.set(state, i64_enum(ordering))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        ordering = self.ordering.get(op)
        if not isinstance(ordering, IntegerAttr) or ordering.value.data == 0:
            return
        state.print_whitespace(printer)
        printer.print_string("atomic ")
        scope = self.syncscope.get(op)
        if isinstance(scope, StringAttr):
            print_syncscope(printer, scope)
            printer.print_string(" ")
        printer.print_string(ORDERING_NAMES[ordering.value.data])


class _MemoryAccess(MemoryAccessOp):
    """Properties load and store share with upstream's ``LLVM_MemAccessOpBase``."""

    nontemporal = opt_prop_def(UnitAttr)
    invariantGroup = opt_prop_def(UnitAttr)
    ordering = prop_def(IntegerAttr, default_value=NOT_ATOMIC)
    custom_directives = (AtomicSpec,)

    def _verify_atomic(self, type: Attribute, release_ok: bool, acquire_ok: bool) -> None:
        assert isinstance(self.ordering, IntegerAttr)
        ordering = self.ordering.value.data
        if ordering == 0:
            if self.syncscope is not None:
                raise VerifyException("expected syncscope to be null for non-atomic access")
            return
        if self.alignment is None:
            raise VerifyException("expected alignment for atomic access")
        if not release_ok and ordering in (5, 6):
            raise VerifyException(f"unsupported ordering '{ORDERING_NAMES[ordering]}'")
        if not acquire_ok and ordering in (4, 6):
            raise VerifyException(f"unsupported ordering '{ORDERING_NAMES[ordering]}'")



@irdl_op_definition
class LoadOp(_MemoryAccess):
    name = "llvm.load"
    addr = operand_def(LLVMPointerType)
    res = result_def()
    invariant = opt_prop_def(UnitAttr)
    dereferenceable = opt_prop_def(AnyAttr())
    assembly_format = (
        "(`volatile` $volatile_^)? $addr custom<AtomicSpec>($syncscope, $ordering)"
        " (`invariant` $invariant^)? (`invariant_group` $invariantGroup^)?"
        " attr-dict `:` type($addr) `->` type($res)"
    )

    def __init__(self, addr: SSAValue, type: Attribute, alignment: int | None = None) -> None:
        props = alignment_property(alignment)
        super().__init__(operands=[addr], result_types=[type], properties=props)

    def verify_(self) -> None:
        self._verify_atomic(self.res.type, release_ok=False, acquire_ok=True)


@irdl_op_definition
class StoreOp(_MemoryAccess):
    name = "llvm.store"
    value = operand_def()
    addr = operand_def(LLVMPointerType)
    assembly_format = (
        "(`volatile` $volatile_^)? $value `,` $addr custom<AtomicSpec>($syncscope, $ordering)"
        " (`invariant_group` $invariantGroup^)? attr-dict `:` type($value) `,` type($addr)"
    )

    def __init__(self, value: SSAValue, addr: SSAValue, alignment: int | None = None) -> None:
        super().__init__(operands=[value, addr], properties=alignment_property(alignment))

    def verify_(self) -> None:
        self._verify_atomic(self.value.type, release_ok=True, acquire_ok=False)


@irdl_op_definition
class AllocaOp(LLVMOp):
    name = "llvm.alloca"
    arraySize = operand_def(IntegerType)
    res = result_def(LLVMPointerType)
    alignment = opt_prop_def(IntegerAttr)
    elem_type = prop_def(TypeAttribute)
    inalloca = opt_prop_def(UnitAttr)
    assembly_format = (
        "(`inalloca` $inalloca^)? $arraySize `x` $elem_type attr-dict `:` "
        "functional-type($arraySize, results)"
    )

    def __init__(
        self, size: SSAValue, elem_type: Attribute, alignment: int | None = None, addr_space: int = 0
    ) -> None:
        props = {"elem_type": elem_type, **alignment_property(alignment)}
        super().__init__(
            operands=[size], result_types=[LLVMPointerType(addr_space)], properties=props
        )


_alloca_format_parse = AllocaOp.parse.__func__  # pyright: ignore[reportFunctionMemberAccess]


def _parse_alloca(cls: type[AllocaOp], parser: Parser) -> AllocaOp:
    """The declarative format's parser, after upstream's check of the trailing
    type (the format would fail on it in xDSL's words): it is read ahead, then
    the format parses from the start again."""
    start = parser.pos
    parser.parse_optional_keyword("inalloca")
    parser.parse_unresolved_operand()
    parser.parse_keyword("x")
    parser.parse_type()
    parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    at = parser.pos
    trailing = parser.parse_optional_type()
    if not isinstance(trailing, FunctionType) or len(trailing.inputs) != 1 or len(trailing.outputs) != 1:
        parser.raise_error("expected trailing function type with one argument and one result", at)
    parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
    return _alloca_format_parse(cls, parser)


AllocaOp.parse = classmethod(_parse_alloca)  # type: ignore[method-assign, assignment]


@irdl_op_definition
class GEPOp(LLVMOp):
    """``llvm.getelementptr inbounds %base[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, T``:
    constant indices live in ``rawConstantIndices``, with a marker where the
    next dynamic index goes."""

    name = "llvm.getelementptr"
    base = operand_def()
    dynamicIndices = var_operand_def(IntegerType)
    res = result_def()
    rawConstantIndices = prop_def(DenseArrayBase)
    elem_type = prop_def(TypeAttribute)
    noWrapFlags = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, 32))
    traits = traits_def(Pure())  # address arithmetic only, as upstream: cse merges equal ones

    def __init__(
        self,
        base: SSAValue,
        indices: Sequence[int | SSAValue],
        elem_type: Attribute,
        result_type: Attribute | None = None,
        *,
        inbounds: bool = False,
    ) -> None:
        raw = [i if isinstance(i, int) else GEP_DYNAMIC_INDEX for i in indices]
        dynamic = [i for i in indices if not isinstance(i, int)]
        super().__init__(
            operands=[base, dynamic],
            result_types=[result_type or base.type],
            properties={
                "rawConstantIndices": DenseArrayBase.from_list(i32, raw),
                "elem_type": elem_type,
                "noWrapFlags": IntegerAttr(3 if inbounds else 0, 32),
            },
        )

    @property
    def indices(self) -> list[int | SSAValue]:
        dynamic = iter(self.dynamicIndices)
        raw = self.rawConstantIndices
        assert isinstance(raw, DenseArrayBase)
        return [next(dynamic) if i == GEP_DYNAMIC_INDEX else int(i) for i in raw.iter_values()]

    def verify_(self) -> None:
        raw = self.rawConstantIndices
        assert isinstance(raw, DenseArrayBase)
        marks = sum(1 for i in raw.iter_values() if i == GEP_DYNAMIC_INDEX)
        if marks != len(self.dynamicIndices):
            raise VerifyException(
                "expected as many dynamic indices as specified in 'rawConstantIndices'"
            )
        base = self.base.type
        if isinstance(base, VectorType):
            base = base.element_type
        if not isinstance(base, LLVMPointerType):
            raise VerifyException(
                f"operand #0 must be LLVM pointer type or LLVM dialect-compatible vector "
                f"of LLVM pointer type, but got '{self.base.type}'"
            )
        indices = self.indices
        elem = self.elem_type
        for position, index in enumerate(indices[1:], 1):
            if isinstance(elem, LLVMStructType):
                if not isinstance(index, int):
                    raise VerifyException(
                        "expected index " + str(position) + " indexing a struct to be constant"
                    )
                if index < 0 or index >= len(elem.types):
                    raise VerifyException(
                        f"index {position} indexing a struct is out of bounds"
                    )
                elem = elem.types.data[index]
            elif isinstance(elem, LLVMArrayType):
                elem = elem.type
            elif isinstance(elem, VectorType):
                elem = elem.element_type
            else:
                raise VerifyException(
                    f"type {elem} cannot be indexed (index #{position})"
                )

    @classmethod
    def parse(cls, parser: Parser) -> GEPOp:
        start = parser.pos
        flags = 0
        while True:
            word = parser.parse_optional_keyword_in(("inbounds", "nusw", "nuw"))
            if word is None:
                break
            flags |= 3 if word == "inbounds" else GEP_FLAGS[word]
            if parser.parse_optional_punctuation("|") is None:
                break
        base = parser.parse_unresolved_operand()
        raw: list[int] = []
        dynamic = []

        def index() -> None:
            if (value := parser.parse_optional_unresolved_operand()) is not None:
                dynamic.append(value)
                raw.append(GEP_DYNAMIC_INDEX)
            else:
                raw.append(parser.parse_integer())

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, index)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        fn = parser.parse_type()
        if not isinstance(fn, FunctionType):
            parser.raise_error(
                f"invalid kind of type specified: expected builtin.function, but found '{fn}'", at
            )
        parser.parse_punctuation(",")
        elem_type = parser.parse_type()
        if len(fn.inputs) != len(dynamic) + 1:
            parser.raise_error(
                f"number of operands and types do not match: got {len(dynamic) + 1} operands "
                f"and {len(fn.inputs)} types",
                start,
            )
        if len(fn.outputs) != 1:
            parser.raise_error("expected types for the base and each dynamic index", at)
        operands = parser.resolve_operands([base, *dynamic], fn.inputs.data, at)
        props, attributes = split_attr_dict(cls, attrs)
        props |= {
            "rawConstantIndices": DenseArrayBase.from_list(i32, raw),
            "elem_type": elem_type,
            "noWrapFlags": IntegerAttr(flags, 32),
        }
        return cls.create(
            operands=operands,
            result_types=[fn.outputs.data[0]],
            properties=props,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        assert isinstance(self.noWrapFlags, IntegerAttr)
        flags = self.noWrapFlags.value.data
        words = []
        if flags & 3 == 3:
            words.append("inbounds")
        elif flags & 2:
            words.append("nusw")
        if flags & 4:
            words.append("nuw")
        if words:
            printer.print_string(" " + "|".join(words))
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string("[")
        printer.print_list(
            self.indices,
            lambda i: printer.print_string(str(i)) if isinstance(i, int) else printer.print_operand(i),
        )
        printer.print_string("]")
        print_attr_dict(printer, self, ("rawConstantIndices", "elem_type", "noWrapFlags"))
        printer.print_string(" : (")
        printer.print_list([o.type for o in self.operands], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)
        printer.print_string(", ")
        printer.print_attribute(self.elem_type)


MEMORY_OPS = [LoadOp, StoreOp, AllocaOp, GEPOp]
