"""The LLVM dialect's attributes and the enum keywords its ops print.

Upstream stores most LLVM enums (atomic orderings, predicates, visibility)
as plain integer properties (``ordering = 2 : i64``) and prints them as keywords
in the custom form; :func:`enum_directive` makes a declarative-format directive
for each such enum. ``#llvm.linkage`` prints its value bare and ``#llvm.fastmath``
lists flags in upstream's order, where xDSL quotes the linkage and orders flags
differently; hence the replacements here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, irdl_custom_directive
from xdsl.irdl.operations import IRDLOperation
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

LINKAGES = (
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
)

CALLING_CONVENTIONS = (
    "ccc",
    "fastcc",
    "coldcc",
    "cc_10",
    "cc_11",
    "webkit_jscc",
    "anyregcc",
    "preserve_mostcc",
    "preserve_allcc",
    "swiftcc",
    "cxx_fast_tlscc",
    "tailcc",
    "cfguard_checkcc",
    "swifttailcc",
    "x86_stdcallcc",
    "x86_fastcallcc",
    "arm_apcscc",
    "arm_aapcscc",
    "arm_aapcs_vfpcc",
    "msp430_intrcc",
    "x86_thiscallcc",
    "ptx_kernelcc",
    "ptx_devicecc",
    "spir_funccc",
    "spir_kernelcc",
    "intel_ocl_bicc",
    "x86_64_sysvcc",
    "win64cc",
    "x86_vectorcallcc",
    "hhvmcc",
    "hhvm_ccc",
    "x86_intrcc",
    "avr_intrcc",
    "avr_builtincc",
    "amdgpu_vscc",
    "amdgpu_gscc",
    "amdgpu_cscc",
    "amdgpu_kernelcc",
    "x86_regcallcc",
    "amdgpu_hscc",
    "msp430_builtincc",
    "amdgpu_lscc",
    "amdgpu_escc",
    "aarch64_vectorcallcc",
    "aarch64_sve_vectorcallcc",
    "wasm_emscripten_invokecc",
    "amdgpu_gfxcc",
    "m68k_intrcc",
)

ATOMIC_ORDERINGS = {
    "not_atomic": 0,
    "unordered": 1,
    "monotonic": 2,
    "acquire": 4,
    "release": 5,
    "acq_rel": 6,
    "seq_cst": 7,
}
ATOMIC_BIN_OPS = dict(
    (name, i)
    for i, name in enumerate(
        "xchg add sub _and nand _or _xor max min umax umin fadd fsub fmax fmin "
        "uinc_wrap udec_wrap usub_cond usub_sat fmaximum fminimum".split()
    )
)
ICMP_PREDICATES = dict(
    (name, i) for i, name in enumerate("eq ne slt sle sgt sge ult ule ugt uge".split())
)
FCMP_PREDICATES = dict(
    (name, i)
    for i, name in enumerate(
        "_false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno _true".split()
    )
)
VISIBILITIES = {"default": 0, "hidden": 1, "protected": 2}
UNNAMED_ADDRS = {"": 0, "local_unnamed_addr": 1, "unnamed_addr": 2}
TLS_MODES = {"": 0, "thread_local": 1}


ORDERING_NAMES = {v: k for k, v in ATOMIC_ORDERINGS.items()}


def parse_ordering(parser: Parser) -> int:
    """An atomic ordering keyword (``monotonic``), as its value."""
    at = parser.pos
    word = parser.parse_optional_identifier()
    if word not in ATOMIC_ORDERINGS:
        parser.raise_error(f"expected ordering to be one of: {', '.join(ATOMIC_ORDERINGS)}", at)
    return ATOMIC_ORDERINGS[word]


def i64_enum(value: int) -> IntegerAttr:
    return IntegerAttr(value, IntegerType(64))


def alignment_property(alignment: int | None) -> dict[str, Attribute]:
    """The ``alignment = N : i64`` property of a builder given one; none otherwise."""
    return {} if alignment is None else {"alignment": IntegerAttr(alignment, 64)}


def parse_keyword_of(parser: Parser, keywords: Sequence[str], what: str) -> str:
    """One of ``keywords``; an error naming them otherwise."""
    at = parser.pos
    word = parser.parse_optional_identifier()
    if word is None:
        word = parser.parse_optional_str_literal()
    if word not in keywords:
        parser.raise_error(f"expected {what} to be one of: {', '.join(keywords)}", at)
    return word


def enum_directive(name: str, cases: dict[str, int], quoted: bool = False) -> type[CustomDirective]:
    """A directive that reads and writes an integer enum property as its
    keyword (``monotonic``) or, with ``quoted``, as a string (``"slt"``)."""
    names = {value: key for key, value in cases.items()}

    @irdl_custom_directive
    class EnumDirective(CustomDirective):
        attr: AttributeVariable

        def parse(self, parser: Parser, state: ParsingState) -> None:
            at = parser.pos
            if quoted:
                word = parser.parse_str_literal()
            else:
                word = parser.parse_optional_identifier()
            if word not in cases:
                parser.raise_error(
                    f"expected {name} to be one of: {', '.join(cases)}", at
                )
            self.attr.set(state, i64_enum(cases[word]))

        def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
            state.print_whitespace(printer)
            attr = self.attr.get(op)
            assert isinstance(attr, IntegerAttr)
            word = names[attr.value.data]
            printer.print_string(f'"{word}"' if quoted else word)

    EnumDirective.__name__ = name
    EnumDirective.__qualname__ = name
    return EnumDirective


AtomicOrdering = enum_directive("AtomicOrdering", ATOMIC_ORDERINGS)
AtomicBinOp = enum_directive("AtomicBinOp", ATOMIC_BIN_OPS)


class _KeywordAttr(ParametrizedAttribute):
    """An attribute holding one of ``KEYWORDS`` (a ``StringAttr``), written
    ``<keyword>`` as upstream's enum attributes with `` `<` $value `>` `` are."""

    KEYWORDS: ClassVar[tuple[str, ...]]
    WHAT: ClassVar[str]  # what the keyword names, for the parse error
    DEFAULT: ClassVar[str | None] = None

    def __init_subclass__(
        cls,
        keywords: tuple[str, ...] | None = None,
        what: str | None = None,
        default: str | None = None,
        **kwargs: object,
    ) -> None:
        """``class X(_KeywordAttr, keywords=..., what=..., default=...)``; the
        subclass ``irdl_attr_definition`` derives keeps them."""
        super().__init_subclass__(**kwargs)
        if keywords is not None:
            cls.KEYWORDS = keywords
        if what is not None:
            cls.WHAT = what
        if default is not None:
            cls.DEFAULT = default

    def __init__(self, value: str | StringAttr | None = None) -> None:
        value = self.DEFAULT if value is None else value
        assert value is not None, f"{self.name} needs a value"
        super().__init__(StringAttr(value) if isinstance(value, str) else value)

    @property
    def keyword(self) -> str:
        value = self.parameters[0]
        assert isinstance(value, StringAttr)
        return value.data

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.keyword}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            word = parse_keyword_of(parser, cls.KEYWORDS, cls.WHAT)  # type: ignore[arg-type]
        return [StringAttr(word)]


@irdl_attr_definition
class LinkageAttr(_KeywordAttr, keywords=LINKAGES, what="linkage"):
    """``#llvm.linkage<internal>``: printed bare, as upstream does."""

    name = "llvm.linkage"
    linkage: StringAttr

    def verify(self) -> None:
        if self.linkage.data not in LINKAGES:
            raise VerifyException(f"unknown linkage '{self.linkage.data}'")


@irdl_attr_definition
class CConvAttr(
    _KeywordAttr, keywords=CALLING_CONVENTIONS, what="calling convention", default="ccc"
):
    """``#llvm.cconv<fastcc>``: a function's or call's calling convention."""

    name = "llvm.cconv"
    cconv: StringAttr


TAIL_CALL_KINDS = ("none", "tail", "musttail", "notail")


@irdl_attr_definition
class TailCallKindAttr(
    _KeywordAttr, keywords=TAIL_CALL_KINDS, what="tail call kind", default="none"
):
    """``#llvm.tailcallkind<tail>``."""

    name = "llvm.tailcallkind"
    kind: StringAttr


# upstream's declaration order, which is also its printing order
FASTMATH_FLAGS = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")


@irdl_attr_definition
class FastMathAttr(ParametrizedAttribute):
    """``#llvm.fastmath<nnan, ninf>``; ``none`` and ``fast`` (every flag)."""

    name = "llvm.fastmath"

    flags: StringAttr  # the set flags, comma-separated in upstream's order

    def __init__(self, flags: Sequence[str] | str | None = None) -> None:
        if flags is None or flags == "none":
            chosen: Sequence[str] = ()
        elif flags == "fast":
            chosen = FASTMATH_FLAGS
        elif isinstance(flags, str):
            chosen = (flags,)
        else:
            chosen = flags
        super().__init__(StringAttr(",".join(f for f in FASTMATH_FLAGS if f in chosen)))

    @property
    def flag_set(self) -> frozenset[str]:
        return frozenset(self.flags.data.split(",")) - {""}

    def print_parameters(self, printer: Printer) -> None:
        flags = self.flag_set
        if not flags:
            text = "none"
        elif flags == set(FASTMATH_FLAGS):
            text = "fast"
        else:
            text = ", ".join(f for f in FASTMATH_FLAGS if f in flags)
        printer.print_string(f"<{text}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        chosen: set[str] = set()

        def one() -> None:
            word = parse_keyword_of(parser, (*FASTMATH_FLAGS, "none", "fast"), "fastmath flag")  # type: ignore[arg-type]
            if word == "fast":
                chosen.update(FASTMATH_FLAGS)
            elif word != "none":
                chosen.add(word)

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, one)
        return [StringAttr(",".join(f for f in FASTMATH_FLAGS if f in chosen))]


NO_FASTMATH = FastMathAttr()


@irdl_attr_definition
class ConstantRangeAttr(ParametrizedAttribute):
    """``#llvm.constant_range<i32, 0, 1024>``: the half-open range a value is
    known to lie in (NVVM's special registers carry one)."""

    name = "llvm.constant_range"

    type: IntegerType
    lower: IntegerAttr
    upper: IntegerAttr

    def __init__(self, type: IntegerType, lower: int, upper: int) -> None:
        super().__init__(type, IntegerAttr(lower, type), IntegerAttr(upper, type))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.type)
        printer.print_string(f", {self.lower.value.data}, {self.upper.value.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            at = parser.pos
            type = parser.parse_type()
            if not isinstance(type, IntegerType):
                parser.raise_error("expected integer type", at)
            parser.parse_punctuation(",")
            lower = parser.parse_integer()
            parser.parse_punctuation(",")
            upper = parser.parse_integer()
        return [type, IntegerAttr(lower, type), IntegerAttr(upper, type)]
