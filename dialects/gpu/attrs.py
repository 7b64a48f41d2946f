"""Attributes and enums of mlkit's ``gpu`` dialect.

Reused from xDSL as they agree with upstream: ``!gpu.async.token`` and
``#gpu<dim x>``. Replaced or added here:

* ``#gpu<all_reduce_op ...>``: xDSL's enum has ``max``/``min`` and lacks
  ``minui``, ``minsi``, ``minnumf``, ``maxnumf``, ``minimumf``, ``maximumf``;
  upstream has exactly the latter set.
* ``#gpu.block<x>`` and the other ``scf.forall`` device mappings,
  ``#gpu<shuffle_mode ...>``, ``#gpu.address_space<...>``,
  ``#gpu.barrier_scope<...>``, ``#gpu.object<...>``, ``#gpu.select_object``:
  missing from xDSL.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from mlkit.dialects.utils.enums import enum_attribute


class AllReduceOperation(StrEnum):
    """Upstream's ``AllReduceOperation`` cases, spelled as upstream spells them."""

    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MINIMUMF = "minimumf"
    MAXIMUMF = "maximumf"


FLOAT_ONLY_REDUCTIONS = frozenset(
    {
        AllReduceOperation.MINNUMF,
        AllReduceOperation.MAXNUMF,
        AllReduceOperation.MINIMUMF,
        AllReduceOperation.MAXIMUMF,
    }
)
INTEGER_ONLY_REDUCTIONS = frozenset(
    {
        AllReduceOperation.MINSI,
        AllReduceOperation.MINUI,
        AllReduceOperation.MAXSI,
        AllReduceOperation.MAXUI,
        AllReduceOperation.AND,
        AllReduceOperation.OR,
        AllReduceOperation.XOR,
    }
)


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


class AddressSpace(StrEnum):
    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"
    CONSTANT = "constant"


class BarrierScope(StrEnum):
    SUBGROUP = "subgroup"
    WORKGROUP = "workgroup"
    CLUSTER = "cluster"


class CompilationTarget(StrEnum):
    OFFLOAD = "offload"
    ASSEMBLY = "assembly"
    BINARY = "bin"
    FATBIN = "fatbin"


AllReduceOperationAttr = enum_attribute(
    "gpu.all_reduce_op", "AllReduceOperationAttr", AllReduceOperation, "opaque",
    """``#gpu<all_reduce_op add>``; inside ops printed bare (``add``).""",
)


ShuffleModeAttr = enum_attribute(
    "gpu.shuffle_mode", "ShuffleModeAttr", ShuffleMode, "opaque",
    """``#gpu<shuffle_mode xor>``; inside ops printed bare (``xor``).""",
)


AddressSpaceAttr = enum_attribute(
    "gpu.address_space", "AddressSpaceAttr", AddressSpace, "angle",
    """``#gpu.address_space<workgroup>``: a GPU memory space, used as a memref
    memory space and in ``gpu.barrier memfence [...]``; inside ops printed
    ``<workgroup>``.""",
)


BarrierScopeAttr = enum_attribute(
    "gpu.barrier_scope", "BarrierScopeAttr", BarrierScope, "angle",
    """``#gpu.barrier_scope<subgroup>``: the execution scope of ``gpu.barrier``.""",
)


class MappingId(StrEnum):
    """Upstream's ``MappingId``: what an ``scf.forall`` dimension maps onto."""

    X = "x"
    Y = "y"
    Z = "z"
    LINEAR_DIM_0 = "linear_dim_0"
    LINEAR_DIM_1 = "linear_dim_1"
    LINEAR_DIM_2 = "linear_dim_2"
    LINEAR_DIM_3 = "linear_dim_3"
    LINEAR_DIM_4 = "linear_dim_4"
    LINEAR_DIM_5 = "linear_dim_5"
    LINEAR_DIM_6 = "linear_dim_6"
    LINEAR_DIM_7 = "linear_dim_7"
    LINEAR_DIM_8 = "linear_dim_8"
    LINEAR_DIM_9 = "linear_dim_9"


# ``#gpu.block<x>``, ``#gpu.thread<y>``...: the device mappings of ``scf.forall``.
MAPPING_ATTRS = tuple(
    enum_attribute(f"gpu.{kind}", f"GPU{kind.capitalize()}MappingAttr", MappingId, "angle")
    for kind in ("block", "warpgroup", "warp", "thread", "lane")
)


@irdl_attr_definition
class SelectObjectAttr(ParametrizedAttribute):
    """``#gpu.select_object`` / ``#gpu.select_object<1 : i64>`` /
    ``#gpu.select_object<#target>``: the default offloading handler of
    ``gpu.binary``; a missing target is stored as an empty dictionary
    (xDSL parameters cannot be null) and printed without brackets."""

    name = "gpu.select_object"

    target: Attribute

    def __init__(self, target: Attribute | None = None) -> None:
        super().__init__(DictionaryAttr({}) if target is None else target)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        if parser.parse_optional_punctuation("<") is None:
            return (DictionaryAttr({}),)
        target = parser.parse_attribute()
        parser.parse_punctuation(">")
        return (target,)

    def print_parameters(self, printer: Printer) -> None:
        if self.target != DictionaryAttr({}):
            with printer.in_angle_brackets():
                printer.print_attribute(self.target)

    def verify(self) -> None:
        from xdsl.utils.exceptions import VerifyException

        if isinstance(self.target, IntegerAttr) and self.target.value.data < 0:
            raise VerifyException("the object index must be positive")


@irdl_attr_definition
class ObjectAttr(ParametrizedAttribute):
    """``#gpu.object<#target, properties = {...}, bin = "...">``: a serialized
    GPU module. The kernel-table parameter of upstream is not supported.

    The object is bytes, as upstream's string attribute is: it is kept one
    character per byte (latin-1), since xDSL's strings must be UTF-8 text and
    a cubin is not."""

    name = "gpu.object"

    target: Attribute
    format: StringAttr
    object: StringAttr
    properties: DictionaryAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            target = parser.parse_attribute()
            parser.parse_punctuation(",")
            props = DictionaryAttr({})
            if parser.parse_optional_keyword("properties") is not None:
                parser.parse_punctuation("=")
                parsed = parser.parse_attribute()
                if not isinstance(parsed, DictionaryAttr):
                    parser.raise_error("expected a dictionary of object properties")
                props = parsed
                parser.parse_punctuation(",")
            fmt = CompilationTarget.FATBIN
            if (word := parser.parse_optional_identifier()) is not None:
                if word not in CompilationTarget.__members__.values():
                    parser.raise_error("expected keyword for GPU object format")
                fmt = CompilationTarget(word)
                parser.parse_punctuation("=")
            # xDSL lexes valid UTF-8 as a string and anything else as bytes
            text = parser.parse_optional_str_literal()
            data = text.encode() if text is not None else parser.parse_bytes_literal()
            obj = data.decode("latin-1")
        return (target, StringAttr(fmt.value), StringAttr(obj), props)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.target)
            printer.print_string(", ")
            if self.properties.data:
                printer.print_string("properties = ")
                printer.print_attribute(self.properties)
                printer.print_string(", ")
            if self.format.data != CompilationTarget.FATBIN:
                printer.print_string(f"{self.format.data} = ")
            printer.print_bytes_literal(self.object.data.encode("latin-1"))
