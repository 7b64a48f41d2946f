"""The LLVM dialect's types, printed and parsed as upstream MLIR does.

xDSL prints an LLVM type nested in another LLVM type with its dialect prefix
(``!llvm.struct<(!llvm.ptr)>``); upstream prints it bare (``!llvm.struct<(ptr)>``)
and has packed, opaque and self-referencing identified structs, which xDSL lacks.
xDSL's type classes are final, so these replace them rather than subclass them;
they keep xDSL's parameter names and helpers (``from_type_list``,
``is_variadic``) so code written against xDSL's types reads the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import AnyFloat, ArrayAttr, IntAttr, IntegerType, NoneAttr, Signedness
from xdsl.dialects.builtin import StringAttr, UnitAttr, VectorType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

def parse_llvm_type(parser: AttrParser) -> Attribute:
    """A type nested in an LLVM type: an LLVM type keyword without the
    ``!llvm.`` prefix, or any type written in full."""
    for keyword, cls in _TYPE_BY_KEYWORD.items():
        if parser.parse_optional_keyword(keyword) is not None:
            return cls.new(cls.parse_parameters(parser))
    return parser.parse_type()


def print_llvm_type(printer: Printer, type: Attribute) -> None:
    """Print a type nested in an LLVM type: LLVM types lose their prefix."""
    if isinstance(type, LLVM_TYPES):
        printer.print_string(type.name.removeprefix("llvm."))
        type.print_parameters(printer)
    else:
        printer.print_attribute(type)


def _print_type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    with printer.in_parens():
        printer.print_list(types, lambda t: print_llvm_type(printer, t))


@irdl_attr_definition
class LLVMPointerType(ParametrizedAttribute, TypeAttribute):
    """``!llvm.ptr`` or ``!llvm.ptr<addrspace>``; address space 0 prints bare."""

    name = "llvm.ptr"

    addr_space: IntAttr | NoneAttr

    def __init__(self, addr_space: IntAttr | NoneAttr | int = NoneAttr()) -> None:
        if isinstance(addr_space, int):
            addr_space = IntAttr(addr_space) if addr_space else NoneAttr()
        super().__init__(addr_space)

    @property
    def address_space(self) -> int:
        return self.addr_space.data if isinstance(self.addr_space, IntAttr) else 0

    def print_parameters(self, printer: Printer) -> None:
        if self.address_space:
            printer.print_string(f"<{self.address_space}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr | NoneAttr]:
        if parser.parse_optional_punctuation("<") is None:
            return (NoneAttr(),)
        space = parser.parse_integer(allow_negative=False)
        parser.parse_punctuation(">")
        return (IntAttr(space) if space else NoneAttr(),)


@irdl_attr_definition
class LLVMArrayType(ParametrizedAttribute, TypeAttribute):
    """``!llvm.array<N x T>``."""

    name = "llvm.array"

    size: IntAttr
    type: Attribute

    def __init__(self, size: int | IntAttr, type: Attribute) -> None:
        super().__init__(IntAttr(size) if isinstance(size, int) else size, type)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.size.data} x ")
        print_llvm_type(printer, self.type)
        printer.print_string(">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr, Attribute]:
        with parser.in_angle_brackets():
            size = IntAttr(parser.parse_integer(allow_negative=False))
            parser.parse_shape_delimiter()
            type = parse_llvm_type(parser)
        return (size, type)


def _keyword_type(name: str, class_name: str, doc: str) -> type[ParametrizedAttribute]:
    """An LLVM type that is a keyword alone: one table row instead of a class
    body each."""
    namespace = {"name": name, "__doc__": doc, "__module__": __name__, "__qualname__": class_name}
    return irdl_attr_definition(type(class_name, (ParametrizedAttribute, TypeAttribute), namespace))


LLVMVoidType = _keyword_type(
    "llvm.void", "LLVMVoidType", "``!llvm.void``: the result of a function that returns nothing."
)
LLVMLabelType = _keyword_type("llvm.label", "LLVMLabelType", "``!llvm.label``.")
LLVMMetadataType = _keyword_type("llvm.metadata", "LLVMMetadataType", "``!llvm.metadata``.")
LLVMX86AMXType = _keyword_type("llvm.x86_amx", "LLVMX86AMXType", "``!llvm.x86_amx``.")
LLVMPPCFP128Type = _keyword_type("llvm.ppc_fp128", "LLVMPPCFP128Type", "``!llvm.ppc_fp128``.")


@irdl_attr_definition
class LLVMFunctionType(ParametrizedAttribute, TypeAttribute):
    """``!llvm.func<R (A, B, ...)>``; ``void`` results print as ``void``."""

    name = "llvm.func"

    inputs: ArrayAttr[Attribute]
    output: Attribute
    variadic: UnitAttr | NoneAttr

    def __init__(
        self,
        inputs: Sequence[Attribute],
        output: Attribute | None = None,
        is_variadic: bool = False,
    ) -> None:
        super().__init__(
            ArrayAttr(inputs),
            LLVMVoidType() if output is None else output,
            UnitAttr() if is_variadic else NoneAttr(),
        )

    @property
    def is_variadic(self) -> bool:
        return isinstance(self.variadic, UnitAttr)

    def verify(self) -> None:
        for type in self.inputs:
            if isinstance(type, (LLVMVoidType, LLVMFunctionType)):
                raise VerifyException(f"invalid function argument type: '{type}'")
        if isinstance(self.output, LLVMFunctionType):
            raise VerifyException(f"invalid function result type: '{self.output}'")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        print_llvm_type(printer, self.output)
        printer.print_string(" (")
        printer.print_list(self.inputs, lambda t: print_llvm_type(printer, t))
        if self.is_variadic:
            printer.print_string(", ..." if self.inputs else "...")
        printer.print_string(")>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        output = parse_llvm_type(parser)
        inputs: list[Attribute] = []
        variadic = False
        parser.parse_punctuation("(")
        if parser.parse_optional_punctuation(")") is None:
            while True:
                if parser.parse_optional_punctuation("...") is not None:
                    variadic = True
                    parser.parse_punctuation(")")
                    break
                inputs.append(parse_llvm_type(parser))
                if parser.parse_optional_punctuation(")") is not None:
                    break
                parser.parse_punctuation(",")
        parser.parse_punctuation(">")
        return [ArrayAttr(inputs), output, UnitAttr() if variadic else NoneAttr()]


@irdl_attr_definition
class LLVMStructType(ParametrizedAttribute, TypeAttribute):
    """``!llvm.struct<(T...)>``, ``<packed (T...)>``, ``<"name", (T...)>``,
    ``<"name", opaque>``, or ``<"name">`` for a reference to an enclosing
    identified struct of that name (how upstream writes a recursive type).

    Unlike xDSL's, it records packing and opaqueness; ``body`` is ``NoneAttr``
    for opaque structs and for references."""

    name = "llvm.struct"

    struct_name: StringAttr
    body: ArrayAttr[Attribute] | NoneAttr
    packed: UnitAttr | NoneAttr
    opaque: UnitAttr | NoneAttr

    def __init__(
        self,
        types: Sequence[Attribute] | None = (),
        name: str = "",
        *,
        packed: bool = False,
        opaque: bool = False,
    ) -> None:
        super().__init__(
            StringAttr(name),
            NoneAttr() if types is None or opaque else ArrayAttr(types),
            UnitAttr() if packed else NoneAttr(),
            UnitAttr() if opaque else NoneAttr(),
        )

    @staticmethod
    def from_type_list(types: Sequence[Attribute]) -> LLVMStructType:
        return LLVMStructType(types)

    @property
    def types(self) -> ArrayAttr[Attribute]:
        return self.body if isinstance(self.body, ArrayAttr) else ArrayAttr(())

    @property
    def is_packed(self) -> bool:
        return isinstance(self.packed, UnitAttr)

    @property
    def is_opaque(self) -> bool:
        return isinstance(self.opaque, UnitAttr)

    @property
    def is_identified(self) -> bool:
        return bool(self.struct_name.data)

    def verify(self) -> None:
        if not self.is_identified and isinstance(self.body, NoneAttr):
            raise VerifyException("literal structs must have a body")
        for type in self.types:
            if isinstance(type, (LLVMVoidType, LLVMFunctionType, LLVMLabelType, LLVMMetadataType)):
                raise VerifyException(f"invalid LLVM structure element type: {type}")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        if self.is_identified:
            printer.print_string_literal(self.struct_name.data)
            if self.is_opaque:
                printer.print_string(", opaque>")
                return
            if isinstance(self.body, NoneAttr):
                printer.print_string(">")
                return
            printer.print_string(", ")
        if self.is_packed:
            printer.print_string("packed ")
        _print_type_list(printer, self.types)
        printer.print_string(">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        name = parser.parse_optional_str_literal() or ""
        if name:
            if parser.parse_optional_punctuation(">") is not None:
                return [StringAttr(name), NoneAttr(), NoneAttr(), NoneAttr()]
            parser.parse_punctuation(",")
            if parser.parse_optional_keyword("opaque") is not None:
                parser.parse_punctuation(">")
                return [StringAttr(name), NoneAttr(), NoneAttr(), UnitAttr()]
        packed = parser.parse_optional_keyword("packed") is not None
        types = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parse_llvm_type(parser)
        )
        parser.parse_punctuation(">")
        return [StringAttr(name), ArrayAttr(types), UnitAttr() if packed else NoneAttr(), NoneAttr()]


LLVM_TYPES = (
    LLVMPointerType,
    LLVMArrayType,
    LLVMVoidType,
    LLVMFunctionType,
    LLVMStructType,
    LLVMLabelType,
    LLVMMetadataType,
    LLVMX86AMXType,
    LLVMPPCFP128Type,
)

_TYPE_BY_KEYWORD: dict[str, type[ParametrizedAttribute]] = {
    cls.name.removeprefix("llvm."): cls for cls in LLVM_TYPES
}


SIGNLESS_INT_LIKE = "signless integer or LLVM dialect-compatible vector of signless integer"
FLOAT_LIKE = (
    "floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type"
)
"""Upstream's ODS descriptions of ``LLVM_ScalarOrVectorOf<AnySignlessInteger>``
and ``LLVM_ScalarOrVectorOf<LLVM_AnyFloat>``."""


def scalar_of(type: Attribute) -> Attribute:
    """The element type of a vector, otherwise the type itself: what upstream's
    ``LLVM_ScalarOrVectorOf`` constraints look at."""
    return type.element_type if isinstance(type, VectorType) else type


def is_integer_like(type: Attribute) -> bool:
    return isinstance(scalar_of(type), IntegerType)


def is_signless_integer_like(type: Attribute) -> bool:
    scalar = scalar_of(type)
    return isinstance(scalar, IntegerType) and scalar.signedness.data == Signedness.SIGNLESS


def is_float_like(type: Attribute) -> bool:
    return isinstance(scalar_of(type), AnyFloat)


def is_compatible_type(type: Attribute) -> bool:
    """Upstream's ``LLVM::isCompatibleType``: signless integers, floats, LLVM
    types and 1-D vectors of those."""
    if isinstance(type, IntegerType):
        return type.signedness.data == Signedness.SIGNLESS
    if isinstance(type, (AnyFloat, *LLVM_TYPES)):
        return not isinstance(type, (LLVMLabelType, LLVMMetadataType))
    if isinstance(type, VectorType):
        return type.get_num_dims() == 1 and is_compatible_type(type.element_type)
    return False
