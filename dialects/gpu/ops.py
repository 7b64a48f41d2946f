"""Device-side ``gpu`` ops with upstream's syntax.

xDSL's versions of these ops have no custom syntax at all (every one prints
only in generic form), several lack upstream's ``upper_bound`` property, and
the reduction kinds differ; so each op is declared here again, with upstream's
ODS assembly format. Verifier messages are upstream's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects.builtin import I32, AnyFloat, ArrayAttr, IndexType, IntegerAttr, IntegerType
from xdsl.dialects.builtin import StringAttr, UnitAttr, VectorType, i1, i32
from xdsl.dialects.gpu import DimensionAttr
from xdsl.ir import Attribute
from xdsl.irdl import AnyAttr, IRDLOperation, VarConstraint, irdl_op_definition, operand_def
from xdsl.irdl import opt_prop_def, prop_def, region_def, result_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.gpu.attrs import FLOAT_ONLY_REDUCTIONS, INTEGER_ONLY_REDUCTIONS
from mlkit.dialects.gpu.attrs import AddressSpaceAttr, AllReduceOperation, AllReduceOperationAttr
from mlkit.dialects.gpu.attrs import BarrierScope, BarrierScopeAttr, ShuffleModeAttr
from xdsl.irdl.declarative_assembly_format import AttributeVariable, ParsingState
from xdsl.irdl.declarative_assembly_format import irdl_custom_directive

from mlkit.dialects.utils.directives import SpacedDirective
from mlkit.dialects.utils.ods import upstream_op, verify_that
from mlkit.dialects.utils.op_classes import define_op

# ---------------------------------------------------------------------------
# Id and size queries
# ---------------------------------------------------------------------------


class _BoundedIndexOp(IRDLOperation):
    """An ``index`` result with an optional ``upper_bound`` on its value."""

    upper_bound = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType())

    traits = traits_def(Pure())


class IndexQueryOp(_BoundedIndexOp):
    """An ``index`` along dimension x, y or z, with an optional upper bound."""

    dimension = prop_def(DimensionAttr)

    assembly_format = "$dimension (`upper_bound` $upper_bound^)? attr-dict"


ThreadIdOp = define_op(IndexQueryOp, "gpu.thread_id", "ThreadIdOp")
BlockIdOp = define_op(IndexQueryOp, "gpu.block_id", "BlockIdOp")
BlockDimOp = define_op(IndexQueryOp, "gpu.block_dim", "BlockDimOp")
GridDimOp = define_op(IndexQueryOp, "gpu.grid_dim", "GridDimOp")
GlobalIdOp = define_op(IndexQueryOp, "gpu.global_id", "GlobalIdOp")
ClusterIdOp = define_op(IndexQueryOp, "gpu.cluster_id", "ClusterIdOp")
ClusterDimOp = define_op(IndexQueryOp, "gpu.cluster_dim", "ClusterDimOp")
ClusterBlockIdOp = define_op(IndexQueryOp, "gpu.cluster_block_id", "ClusterBlockIdOp")
ClusterDimBlocksOp = define_op(IndexQueryOp, "gpu.cluster_dim_blocks", "ClusterDimBlocksOp")


@irdl_op_definition
class LaneIdOp(_BoundedIndexOp):
    name = "gpu.lane_id"

    assembly_format = "(`upper_bound` $upper_bound^)? attr-dict"


class SubgroupQueryOp(_BoundedIndexOp):
    """Subgroup queries print their (always ``index``) result type."""

    assembly_format = "(`upper_bound` $upper_bound^)? attr-dict `:` type($result)"


SubgroupIdOp = define_op(SubgroupQueryOp, "gpu.subgroup_id", "SubgroupIdOp")
NumSubgroupsOp = define_op(SubgroupQueryOp, "gpu.num_subgroups", "NumSubgroupsOp")
SubgroupSizeOp = define_op(SubgroupQueryOp, "gpu.subgroup_size", "SubgroupSizeOp")


# ---------------------------------------------------------------------------
# Synchronization and communication within a workgroup or subgroup
# ---------------------------------------------------------------------------

_WORKGROUP_SCOPE = BarrierScopeAttr(BarrierScope.WORKGROUP)


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``gpu.barrier (memfence [spaces])? (scope <s>)?``, clauses in any order.

    Hand-written syntax: the declarative format cannot accept clauses in any
    order. Upstream's named-barrier clause (``named(%nb : !gpu.named_barrier)``)
    is not supported."""

    name = "gpu.barrier"

    address_spaces = opt_prop_def(ArrayAttr[AddressSpaceAttr])
    scope = prop_def(BarrierScopeAttr, default_value=_WORKGROUP_SCOPE)

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        props: dict[str, Attribute] = {}
        while True:
            if parser.parse_optional_keyword("memfence") is not None:
                if "address_spaces" in props:
                    parser.raise_error("'memfence' clause specified more than once")
                spaces = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_attribute
                )
                props["address_spaces"] = ArrayAttr(spaces)
            elif parser.parse_optional_keyword("scope") is not None:
                if "scope" in props:
                    parser.raise_error("'scope' clause specified more than once")
                props["scope"] = BarrierScopeAttr(
                    BarrierScopeAttr.parse_parameter(parser)  # pyright: ignore[reportArgumentType]
                )
            else:
                break
        attrs = parser.parse_optional_attr_dict()
        props.setdefault("scope", _WORKGROUP_SCOPE)
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.address_spaces is not None:
            printer.print_string(" memfence [")
            printer.print_list(self.address_spaces.data, printer.print_attribute)
            printer.print_string("]")
        if self.scope != _WORKGROUP_SCOPE:
            printer.print_string(" scope ")
            self.scope.print_parameter(printer)
        printer.print_op_attributes(self.attributes)


def _is_int_or_float(t: Attribute) -> bool:
    return isinstance(t, IntegerType | AnyFloat)


def _check_int_float_or_1d_vector(op: IRDLOperation, what: str, t: Attribute) -> None:
    """Upstream's ``AnyIntegerOrFloatOr1DVector`` constraint."""
    if _is_int_or_float(t):
        return
    if (
        isinstance(t, VectorType)
        and t.get_num_dims() == 1
        and not any(t.get_scalable_dims())
        and _is_int_or_float(t.element_type)
    ):
        return
    raise VerifyException(
        f"{what} must be Integer or Float or fixed-length vector of Integer or Float "
        f"values of ranks 1, but got '{t}'"
    )


@upstream_op
class ShuffleOp(IRDLOperation):
    """``%r, %valid = gpu.shuffle xor %v, %offset, %width : f32``."""

    name = "gpu.shuffle"

    T: ClassVar = VarConstraint("T", AnyAttr())

    value = operand_def(T)
    offset = operand_def(I32)
    width = operand_def(I32)
    mode = prop_def(ShuffleModeAttr)
    shuffleResult = result_def(T)
    valid = result_def(i1)

    traits = traits_def(Pure())
    assembly_format = "$mode $value `,` $offset `,` $width attr-dict `:` type($value)"

    def verify_relations_(self) -> None:
        verify_that(
            self.value.type == self.shuffleResult.type,
            "all of {value, shuffleResult} have same type",
        )

    def verify_(self) -> None:
        _check_int_float_or_1d_vector(self, "operand #0", self.value.type)


def _i32_attr(op: IRDLOperation, name: str, holds: Callable[[int], bool], what: str) -> int:
    """A required ``ConfinedAttr<I32Attr, ...>`` property, checked with upstream's
    words (IRDL's own check would come later and read differently)."""
    attr = op.properties.get(name)
    if attr is None:
        raise VerifyException(f"requires attribute '{name}'")
    if not (isinstance(attr, IntegerAttr) and attr.type == i32 and holds(attr.value.data)):
        raise VerifyException(
            f"attribute '{name}' failed to satisfy constraint: 32-bit signless integer "
            f"attribute whose {what}"
        )
    return attr.value.data


@upstream_op
class RotateOp(IRDLOperation):
    """``%r, %valid = gpu.rotate %v, 1, 16 : f32``: each of the first ``width``
    lanes reads ``value`` from lane ``(lane + offset) mod width``."""

    name = "gpu.rotate"

    T: ClassVar = VarConstraint("T", AnyAttr())

    value = operand_def(T)
    offset = prop_def(IntegerAttr[I32])
    width = prop_def(IntegerAttr[I32])
    rotateResult = result_def(T)
    valid = result_def(i1)

    traits = traits_def(Pure())
    assembly_format = "$value `,` $offset `,` $width attr-dict `:` type($value)"

    def verify_relations_(self) -> None:
        # Upstream's order: counts, attributes, operand and result types, traits.
        if len(self.results) != 2:
            raise VerifyException("expected 2 results")
        if len(self.operands) != 1:
            raise VerifyException("requires a single operand")
        _i32_attr(self, "offset", lambda v: v >= 0, "minimum value is 0")
        _i32_attr(self, "width", _is_power_of_two, "value is a power of two > 0")
        _check_int_float_or_1d_vector(self, "operand #0", self.value.type)
        _check_int_float_or_1d_vector(self, "result #0", self.rotateResult.type)
        if self.valid.type != i1:
            raise VerifyException(
                f"result #1 must be 1-bit signless integer, but got '{self.valid.type}'"
            )
        if self.rotateResult.type != self.value.type:
            raise VerifyException(
                "failed to verify that all of {value, rotateResult} have same type"
            )

    def verify_(self) -> None:
        width = self.width.value.data & 0xFFFFFFFF  # upstream reads both as uint32_t
        if self.offset.value.data & 0xFFFFFFFF >= width:
            raise VerifyException(f"offset must be in the range [0, {width})")


@irdl_custom_directive
class AllReduceOperationDirective(SpacedDirective):
    """``custom<AllReduceOperation>($op)``: an optional bare reduction kind."""

    op: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        kind = parser.parse_optional_identifier()
        if kind is None:
            return
        if kind not in AllReduceOperation.__members__.values():
            parser.raise_error("invalid op kind", pos, parser.pos)
        self.op.set(state, AllReduceOperationAttr(AllReduceOperation(kind)))

    def print_body(self, printer: Printer, op: IRDLOperation) -> None:
        if (attr := self.op.get(op)) is not None:
            assert isinstance(attr, AllReduceOperationAttr)
            printer.print_string(attr.data.value)

    def is_present(self, op: IRDLOperation) -> bool:
        return self.op.get(op) is not None


def _reduction_fits_type(kind: AllReduceOperation, t: Attribute) -> bool:
    if kind in FLOAT_ONLY_REDUCTIONS and not isinstance(t, AnyFloat):
        return False
    if kind in INTEGER_ONLY_REDUCTIONS and not isinstance(t, IntegerType):
        return False
    return True


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    """Reduction across a workgroup, by a named kind or by a region.

    Replaces xDSL's op: its reduction kinds and verifier messages differ from
    upstream's, and it has no custom syntax."""

    name = "gpu.all_reduce"

    T: ClassVar = VarConstraint("T", AnyAttr())

    value = operand_def(T)
    op = opt_prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    result = result_def(T)
    body = region_def()

    traits = traits_def(IsolatedFromAbove())
    custom_directives = (AllReduceOperationDirective,)
    assembly_format = (
        "custom<AllReduceOperationDirective>($op) $value (`uniform` $uniform^)? $body "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        t = self.value.type
        if not _is_int_or_float(t):
            raise VerifyException(f"operand #0 must be Integer or Float, but got '{t}'")
        if (not self.body.blocks) != (self.op is not None):
            raise VerifyException("expected either an op attribute or a non-empty body")
        if self.op is not None:
            if not _reduction_fits_type(self.op.data, t):
                raise VerifyException(
                    f"`{self.op.data.value}` reduction operation is not compatible with type '{t}'"
                )
            return
        entry = self.body.blocks[0]
        if len(entry.args) != 2:
            raise VerifyException("expected two region arguments")
        if any(arg.type != t for arg in entry.args):
            raise VerifyException("incorrect region argument type")
        yields = 0
        for block in self.body.blocks:
            last = block.last_op
            if isinstance(last, YieldOp):
                if len(last.values) != 1:
                    raise VerifyException("expected one gpu.yield operand")
                if last.values[0].type != t:
                    raise VerifyException("incorrect gpu.yield type")
                yields += 1
        if yields == 0:
            raise VerifyException("expected gpu.yield op in region")


@irdl_op_definition
class SubgroupReduceOp(IRDLOperation):
    """Reduction across (clusters of) a subgroup."""

    name = "gpu.subgroup_reduce"

    T: ClassVar = VarConstraint("T", AnyAttr())

    value = operand_def(T)
    op = prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    cluster_size = opt_prop_def(IntegerAttr[I32])
    cluster_stride = prop_def(IntegerAttr[I32], default_value=IntegerAttr(1, i32))
    result = result_def(T)

    custom_directives = (AllReduceOperationDirective,)
    assembly_format = (
        "custom<AllReduceOperationDirective>($op) $value (`uniform` $uniform^)? "
        "(`cluster` `(` `size` `=` $cluster_size^ (`,` `stride` `=` $cluster_stride^)? `)`)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        t = self.value.type
        _check_int_float_or_1d_vector(self, "operand #0", t)
        elem = t.element_type if isinstance(t, VectorType) else t
        if isinstance(t, VectorType) and any(t.get_scalable_dims()):
            raise VerifyException("is not compatible with scalable vector types")
        if not _reduction_fits_type(self.op.data, elem):
            raise VerifyException(
                f"`{self.op.data.value}` reduction operation is not compatible with type '{t}'"
            )
        size = self.cluster_size.value.data if self.cluster_size is not None else None
        if size is not None and not _is_power_of_two(size):
            raise VerifyException(f"cluster size {size} is not a power of two")
        stride = self.cluster_stride.value.data
        if stride != 1 and size is None:
            raise VerifyException(
                "cluster stride can only be specified if cluster size is specified"
            )
        if not _is_power_of_two(stride):
            raise VerifyException(f"cluster stride {stride} is not a power of two")


def _is_power_of_two(n: int) -> bool:
    n &= 0xFFFFFFFF  # upstream checks the value as uint32_t
    return n != 0 and n & (n - 1) == 0


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Returns values to the enclosing gpu op. Replaces xDSL's op, whose
    verifier demands the values match the parent's results, which upstream
    does not (``gpu.all_reduce`` checks its own yields)."""

    name = "gpu.yield"

    values = var_operand_def()

    traits = traits_def(IsTerminator(), Pure(), ReturnLike())
    assembly_format = "attr-dict ($values^ `:` type($values))?"


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """``gpu.printf "fmt", %a : f32``: device-side printf."""

    name = "gpu.printf"

    format = prop_def(StringAttr)
    args = var_operand_def()

    assembly_format = "$format attr-dict (`,` $args^ `:` type($args))?"

    def verify_(self) -> None:
        for i, arg in enumerate(self.args):
            t = arg.type
            if not isinstance(t, IntegerType | IndexType | AnyFloat):
                raise VerifyException(
                    f"operand #{i} must be variadic of integer or index or floating-point, "
                    f"but got '{t}'"
                )


GPU_OPS: tuple[type[IRDLOperation], ...] = (
    ThreadIdOp,
    BlockIdOp,
    BlockDimOp,
    GridDimOp,
    GlobalIdOp,
    ClusterIdOp,
    ClusterDimOp,
    ClusterBlockIdOp,
    ClusterDimBlocksOp,
    LaneIdOp,
    SubgroupIdOp,
    NumSubgroupsOp,
    SubgroupSizeOp,
    BarrierOp,
    ShuffleOp,
    RotateOp,
    AllReduceOp,
    SubgroupReduceOp,
    YieldOp,
    PrintfOp,
)
