"""The NVVM dialect (``nvvm``): the ops ``convert-gpu-to-nvvm`` produces and
the ``#nvvm.target`` attribute, as upstream MLIR writes them.

xDSL has no NVVM dialect, so everything here is new.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, DictionaryAttr, IntAttr, IntegerAttr
from xdsl.dialects.builtin import IntegerType, NoneAttr, StringAttr, UnitAttr, f32, i1, i32
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, ParsePropInAttrDict
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, operand_def, opt_operand_def
from xdsl.irdl import opt_prop_def, prop_def, result_def, traits_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mlkit.dialects.llvm.attrs import ConstantRangeAttr
from mlkit.dialects.llvm.types import LLVMStructType
from mlkit.dialects.utils.enums import enum_attribute
from mlkit.dialects.utils.op_classes import define_op
from mlkit.dialects.utils.dialects import op_lookup
from mlkit.dialects.utils.ods import upstream_op

# ---------------------------------------------------------------- #nvvm.target

_DEFAULT_O = 2
_DEFAULT_TRIPLE = "nvptx64-nvidia-cuda"
_DEFAULT_CHIP = "sm_75"
_DEFAULT_FEATURES = ""


@irdl_attr_definition
class NVVMTargetAttr(ParametrizedAttribute):
    """``#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">``: how a GPU
    module is compiled. Parameters equal to upstream's defaults (``O = 2``,
    triple ``nvptx64-nvidia-cuda``, chip ``sm_75``, no features,
    ``verifyTarget = true``) are not printed; with none left, the brackets go too."""

    name = "nvvm.target"

    O: IntAttr
    triple: StringAttr
    chip: StringAttr
    features: StringAttr
    flags: DictionaryAttr | NoneAttr
    link: ArrayAttr[StringAttr] | NoneAttr
    verifyTarget: IntAttr

    def __init__(
        self,
        O: int = _DEFAULT_O,
        triple: str = _DEFAULT_TRIPLE,
        chip: str = _DEFAULT_CHIP,
        features: str = _DEFAULT_FEATURES,
        flags: DictionaryAttr | None = None,
        link: Sequence[str] | None = None,
        verify_target: bool = True,
    ) -> None:
        super().__init__(
            IntAttr(O),
            StringAttr(triple),
            StringAttr(chip),
            StringAttr(features),
            flags if flags is not None else NoneAttr(),
            ArrayAttr([StringAttr(s) for s in link]) if link is not None else NoneAttr(),
            IntAttr(int(verify_target)),
        )

    def verify(self) -> None:
        if not 0 <= self.O.data <= 3:
            raise VerifyException("The optimization level must be a number between 0 and 3.")
        if not self.triple.data:
            raise VerifyException("The target triple cannot be empty.")
        if not self.chip.data:
            raise VerifyException("The target chip cannot be empty.")

    def print_parameters(self, printer: Printer) -> None:
        parts: list[str] = []
        if self.O.data != _DEFAULT_O:
            parts.append(f"O = {self.O.data}")
        for key, value, default in (
            ("triple", self.triple.data, _DEFAULT_TRIPLE),
            ("chip", self.chip.data, _DEFAULT_CHIP),
            ("features", self.features.data, _DEFAULT_FEATURES),
        ):
            if value != default:
                parts.append(f"{key} = {StringAttr(value)}")
        printed = bool(parts)
        if not printed and isinstance(self.flags, NoneAttr) and isinstance(self.link, NoneAttr) and self.verifyTarget.data:
            return
        printer.print_string("<" + ", ".join(parts))
        for key, value in (("flags", self.flags), ("link", self.link)):
            if not isinstance(value, NoneAttr):
                printer.print_string(", " if printed else "")
                printer.print_string(f"{key} = ")
                printer.print_attribute(value)
                printed = True
        if not self.verifyTarget.data:
            printer.print_string(", " if printed else "")
            printer.print_string("verifyTarget = false")
        printer.print_string(">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        values: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("<") is not None:

            def entry() -> None:
                at = parser.pos
                key = parser.parse_identifier()
                if key in values:
                    parser.raise_error(f"duplicate parameter '{key}'", at)
                parser.parse_punctuation("=")
                if key == "O":
                    level = parser.parse_integer()
                    if not 0 <= level <= 3:
                        parser.raise_error(
                            "The optimization level must be a number between 0 and 3.", at
                        )
                    values[key] = IntAttr(level)
                elif key in ("triple", "chip", "features"):
                    text = parser.parse_str_literal()
                    if not text and key != "features":
                        parser.raise_error(f"The target {key} cannot be empty.", at)
                    values[key] = StringAttr(text)
                elif key == "flags":
                    flags = parser.parse_attribute()
                    if not isinstance(flags, DictionaryAttr):
                        parser.raise_error("expected a dictionary of flags", at)
                    values[key] = flags
                elif key == "link":
                    link = parser.parse_attribute()
                    if not isinstance(link, ArrayAttr) or not all(
                        isinstance(s, StringAttr) for s in link
                    ):
                        parser.raise_error(
                            "All the elements in the `link` array must be strings.", at
                        )
                    values[key] = link
                elif key == "verifyTarget":
                    flag = parser.parse_boolean()
                    values[key] = IntAttr(int(flag))
                else:
                    parser.raise_error(f"unknown parameter '{key}' of #nvvm.target", at)

            parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
            parser.parse_punctuation(">")
        return [
            values.get("O", IntAttr(_DEFAULT_O)),
            values.get("triple", StringAttr(_DEFAULT_TRIPLE)),
            values.get("chip", StringAttr(_DEFAULT_CHIP)),
            values.get("features", StringAttr(_DEFAULT_FEATURES)),
            values.get("flags", NoneAttr()),
            values.get("link", NoneAttr()),
            values.get("verifyTarget", IntAttr(1)),
        ]


# ---------------------------------------------------------------- special registers


class _SpecialRegisterOp(IRDLOperation):
    """``nvvm.read.ptx.sreg.<name> (range <i32, lo, hi>)? : i32``."""

    res = result_def(IntegerType)
    range = opt_prop_def(ConstantRangeAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "(`range` $range^)? attr-dict `:` type($res)"

    def __init__(self) -> None:
        super().__init__(result_types=[i32])

    def verify_(self) -> None:
        if self.res.type != i32:
            raise VerifyException(
                f"result #0 must be 32-bit signless integer, but got '{self.res.type}'"
            )


def _special_register(register: str) -> type[IRDLOperation]:
    class_name = "".join(p.capitalize() for p in register.split(".")) + "Op"
    op_name = f"nvvm.read.ptx.sreg.{register}"
    return define_op(_SpecialRegisterOp, op_name, class_name, f"Reads ``%{register}``.")


SPECIAL_REGISTERS = [
    f"{base}.{dim}" for base in ("tid", "ntid", "ctaid", "nctaid") for dim in "xyz"
] + ["laneid", "warpsize"]
SPECIAL_REGISTER_OPS: dict[str, type[IRDLOperation]] = {
    register: _special_register(register) for register in SPECIAL_REGISTERS
}
ThreadIdXOp, ThreadIdYOp, ThreadIdZOp = (SPECIAL_REGISTER_OPS[f"tid.{d}"] for d in "xyz")
BlockDimXOp, BlockDimYOp, BlockDimZOp = (SPECIAL_REGISTER_OPS[f"ntid.{d}"] for d in "xyz")
BlockIdXOp, BlockIdYOp, BlockIdZOp = (SPECIAL_REGISTER_OPS[f"ctaid.{d}"] for d in "xyz")
GridDimXOp, GridDimYOp, GridDimZOp = (SPECIAL_REGISTER_OPS[f"nctaid.{d}"] for d in "xyz")
LaneIdOp = SPECIAL_REGISTER_OPS["laneid"]
WarpSizeOp = SPECIAL_REGISTER_OPS["warpsize"]

# ---------------------------------------------------------------- barriers, shuffles


Barrier0Op = define_op(
    IRDLOperation, "nvvm.barrier0", "Barrier0Op",
    """``nvvm.barrier0``: upstream defines no custom syntax for it, so it is
    written, and printed, in the generic form: ``"nvvm.barrier0"() : () -> ()``.""",
)


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``nvvm.barrier (id = %id)? (number_of_threads = %n)?``."""

    name = "nvvm.barrier"
    barrierId = opt_operand_def(i32)
    numberOfThreads = opt_operand_def(i32)
    aligned = prop_def(BoolAttr, default_value=IntegerAttr(1, i1))
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    assembly_format = (
        "(`id` `=` $barrierId^)? (`number_of_threads` `=` $numberOfThreads^)? attr-dict"
    )


class ShflKind(StrEnum):
    BFLY = "bfly"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


ShflKindAttr = enum_attribute(
    "nvvm.shfl_kind", "ShflKindAttr", ShflKind, "opaque",
    """``#nvvm<shfl_kind bfly>``, written bare (``bfly``) in ``nvvm.shfl.sync``.""",
)


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """``nvvm.shfl.sync bfly %mask, %val, %offset, %clamp : f32 -> f32``; with
    ``return_value_and_is_valid`` the result is ``!llvm.struct<(T, i1)>``."""

    name = "nvvm.shfl.sync"
    thread_mask = operand_def(i32)
    val = operand_def()
    offset = operand_def(i32)
    mask_and_clamp = operand_def(i32)
    res = result_def()
    kind = prop_def(ShflKindAttr)
    return_value_and_is_valid = opt_prop_def(UnitAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$kind $thread_mask `,` $val `,` $offset `,` $mask_and_clamp attr-dict"
        " `:` type($val) `->` type($res)"
    )

    def verify_(self) -> None:
        val, res = self.val.type, self.res.type
        if self.return_value_and_is_valid is None:
            if res != val:
                raise VerifyException(
                    f"expected return type to be of type '{val}' but got '{res}' instead"
                )
            return
        if not isinstance(res, LLVMStructType) or len(res.types) != 2:
            raise VerifyException("expected return type to be a two-element struct")
        first, second = res.types.data
        if first != val:
            raise VerifyException(
                f"expected first element in the returned struct to be of type '{val}' "
                f"but got '{first}' instead"
            )
        if second != i1:
            raise VerifyException(
                "expected second element in the returned struct to be of type 'i1' "
                f"but got '{second}' instead"
            )


# ---------------------------------------------------------------- math, clusters, warps


@upstream_op
class RcpApproxFtzFOp(IRDLOperation):
    """``nvvm.rcp.approx.ftz.f %x : f32``: approximate ``1/x``, subnormals flushed to zero."""

    name = "nvvm.rcp.approx.ftz.f"
    arg = operand_def(f32)
    res = result_def(f32)
    traits = traits_def(NoMemoryEffect())
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"arg": "32-bit float", "res": "32-bit float"}
    assembly_format = "$arg attr-dict `:` type($res)"


class _ClusterBarrierOp(IRDLOperation):
    aligned = opt_prop_def(UnitAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"


ClusterArriveOp = define_op(
    _ClusterBarrierOp, "nvvm.cluster.arrive", "ClusterArriveOp",
    """``nvvm.cluster.arrive {aligned}?``: this thread arrives at the cluster barrier.""",
)
ClusterWaitOp = define_op(
    _ClusterBarrierOp, "nvvm.cluster.wait", "ClusterWaitOp",
    """``nvvm.cluster.wait {aligned}?``: waits until every thread of the cluster has arrived.""",
)


@irdl_op_definition
class FenceScClusterOp(IRDLOperation):
    """``nvvm.fence.sc.cluster``: a sequentially consistent fence at cluster scope."""

    name = "nvvm.fence.sc.cluster"
    assembly_format = "attr-dict"


@irdl_op_definition
class BarWarpSyncOp(IRDLOperation):
    """``nvvm.bar.warp.sync %mask : i32``: the threads of ``mask`` in the warp wait for each other."""

    name = "nvvm.bar.warp.sync"
    mask = operand_def(i32)
    assembly_format = "$mask attr-dict `:` type($mask)"


SYNC_OPS = [RcpApproxFtzFOp, ClusterArriveOp, ClusterWaitOp, FenceScClusterOp, BarWarpSyncOp]

NVVM = Dialect(
    "nvvm",
    [*SPECIAL_REGISTER_OPS.values(), Barrier0Op, BarrierOp, ShflSyncOp, *SYNC_OPS],
    [NVVMTargetAttr, ShflKindAttr],
)

__getattr__ = op_lookup(__name__, lambda: NVVM)
