"""mlkit's ``index`` dialect: upstream MLIR's integer arithmetic on ``index``.

xDSL 0.75 has no index dialect, so every op and the ``#index<cmp_predicate ...>``
attribute are defined here, from upstream's ``IndexOps.td`` and ``IndexEnums.td``.
Syntax, property names, traits and verifier wording follow upstream:

* every op is ``Pure``; ``add``, ``mul``, ``maxs``, ``maxu``, ``mins``, ``minu``,
  ``and``, ``or`` and ``xor`` are ``Commutative`` (upstream's canonicalizer moves
  their constant operands to the right); ``constant`` and ``bool.constant`` are
  ``ConstantLike``;
* inherent attributes (``value``, ``pred``) are properties (generic ``<{...}>``);
* ``casts``/``castu`` check upstream's ``areCastCompatible``: exactly one side
  is ``index``;
* verifier errors use upstream's ODS wording (``operand #0 must be index, but
  got 'i32'``, ``requires attribute 'pred'``) rather than xDSL's, and an
  inherent attribute written in the custom form's attribute dictionary is the
  property, as upstream reads it (see :mod:`mlkit.dialects.utils.ods`).

The folders and ``cmp``'s canonicalization pattern are upstream's, in
:mod:`mlkit.dialects.index_folding`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IndexType, IndexTypeConstr, IntegerAttr, IntegerType
from xdsl.dialects.builtin import i1
from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.utils import EnumAttribute
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Dialect, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import AnyAttr, EqAttrConstraint, IRDLOperation, irdl_attr_definition, operand_def
from xdsl.irdl import prop_def, result_def, traits_def
from xdsl.parser import AttrParser
from xdsl.traits import Commutative, ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mlkit.dialects.index_folding import FOLDS_INDEX, CmpCanonicalization
from mlkit.dialects.utils.ods import INDEX, upstream_op, verify_cast_compatible
from mlkit.dialects.utils.op_classes import define_op
from mlkit.dialects.utils.dialects import op_lookup

# ODS descriptions of the other constraints the index ops use, and the constraints
I1 = "1-bit signless integer"
INTEGER_OR_INDEX = "integer or index"

INDEX_TYPE = EqAttrConstraint(IndexType())
I1_TYPE = EqAttrConstraint(i1)

# Upstream's index ops check their invariants in ODS's order and read an
# inherent attribute written in the attribute dictionary as the property.
index_op = upstream_op(invariants=True, attr_dict_properties=True)

# --------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------


class IndexCmpPredicate(StrEnum):
    """Upstream's ``IndexCmpPredicate`` cases, in upstream's order."""

    EQ = "eq"
    NE = "ne"
    SLT = "slt"
    SLE = "sle"
    SGT = "sgt"
    SGE = "sge"
    ULT = "ult"
    ULE = "ule"
    UGT = "ugt"
    UGE = "uge"


@irdl_attr_definition
class IndexCmpPredicateAttr(EnumAttribute[IndexCmpPredicate], SpacedOpaqueSyntaxAttribute):
    """``#index<cmp_predicate slt>``: upstream prints it in the opaque form."""

    name = "index.cmp_predicate"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IndexCmpPredicate:
        # xDSL words this "Expected `eq`, `ne`, ... or `uge`."; upstream as below
        start = parser.pos
        keyword = parser.parse_optional_identifier_or_str_literal()
        if keyword not in IndexCmpPredicate.__members__.values():
            parser.raise_error(
                "expected ::mlir::index::IndexCmpPredicate to be one of: "
                + ", ".join(p.value for p in IndexCmpPredicate),
                start,
            )
        return IndexCmpPredicate(keyword)


# --------------------------------------------------------------------------
# Binary ops
# --------------------------------------------------------------------------


class _TwoIndexOperands(IRDLOperation):
    """``index`` operands ``lhs`` and ``rhs`` of a ``Pure`` op."""

    lhs = operand_def(INDEX_TYPE)
    rhs = operand_def(INDEX_TYPE)

    traits = traits_def(Pure())


class IndexBinaryOp(_TwoIndexOperands):
    """Upstream's ``IndexBinaryOp``: two ``index`` operands, one ``index`` result."""

    result = result_def(INDEX_TYPE)

    assembly_format = "$lhs `,` $rhs attr-dict"

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"lhs": INDEX, "rhs": INDEX, "result": INDEX}

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation) -> None:
        super().__init__(operands=[lhs, rhs], result_types=[IndexType()])


class CommutativeIndexBinaryOp(IndexBinaryOp):
    """A binary op that upstream marks ``Commutative``."""

    traits = traits_def(Pure(), Commutative())


def _index_op(
    base: type[IRDLOperation], op_name: str, class_name: str, doc: str | None = None
) -> type[IRDLOperation]:
    """An index op of a family: a row of a table, as upstream's TableGen makes it."""
    return define_op(base, op_name, class_name, doc, definition=index_op)


AddOp = _index_op(CommutativeIndexBinaryOp, "index.add", "AddOp")
SubOp = _index_op(IndexBinaryOp, "index.sub", "SubOp")
MulOp = _index_op(CommutativeIndexBinaryOp, "index.mul", "MulOp")
DivSOp = _index_op(IndexBinaryOp, "index.divs", "DivSOp", "Signed division towards zero.")
DivUOp = _index_op(IndexBinaryOp, "index.divu", "DivUOp", "Unsigned division towards zero.")
CeilDivSOp = _index_op(IndexBinaryOp, "index.ceildivs", "CeilDivSOp", "Signed, rounded up.")
CeilDivUOp = _index_op(IndexBinaryOp, "index.ceildivu", "CeilDivUOp", "Unsigned, rounded up.")
FloorDivSOp = _index_op(IndexBinaryOp, "index.floordivs", "FloorDivSOp", "Signed, rounded down.")
RemSOp = _index_op(IndexBinaryOp, "index.rems", "RemSOp")
RemUOp = _index_op(IndexBinaryOp, "index.remu", "RemUOp")
MaxSOp = _index_op(CommutativeIndexBinaryOp, "index.maxs", "MaxSOp")
MaxUOp = _index_op(CommutativeIndexBinaryOp, "index.maxu", "MaxUOp")
MinSOp = _index_op(CommutativeIndexBinaryOp, "index.mins", "MinSOp")
MinUOp = _index_op(CommutativeIndexBinaryOp, "index.minu", "MinUOp")
ShlOp = _index_op(IndexBinaryOp, "index.shl", "ShlOp")
ShrSOp = _index_op(IndexBinaryOp, "index.shrs", "ShrSOp", "Arithmetic (sign-filling) shift right.")
ShrUOp = _index_op(IndexBinaryOp, "index.shru", "ShrUOp", "Logical (zero-filling) shift right.")
AndOp = _index_op(CommutativeIndexBinaryOp, "index.and", "AndOp")
OrOp = _index_op(CommutativeIndexBinaryOp, "index.or", "OrOp")
XOrOp = _index_op(CommutativeIndexBinaryOp, "index.xor", "XOrOp")


# --------------------------------------------------------------------------
# Casts
# --------------------------------------------------------------------------


def _is_integer_or_index(t: Attribute) -> bool:
    """Upstream's ``AnyTypeOf<[AnyInteger, Index]>``: any signedness, or index."""
    return isinstance(t, IntegerType | IndexType)


class IndexCastOp(IRDLOperation):
    """``casts``/``castu``: index to a fixed-width integer or back.

    The operand and result are declared ``AnyAttr`` and checked in ``verify_``:
    xDSL's declarative parser checks declared type constraints while parsing the
    custom form, so ``index.casts %x : f32 to index`` would fail to parse with
    ``Unexpected attribute f32`` instead of upstream's verifier error.
    """

    input = operand_def(AnyAttr())
    output = result_def(AnyAttr())

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"

    def __init__(self, input: SSAValue | Operation, output_type: Attribute) -> None:
        super().__init__(operands=[input], result_types=[output_type])

    def verify_(self) -> None:
        in_type, out_type = self.input.type, self.output.type
        for kind, t in (("operand", in_type), ("result", out_type)):
            if not _is_integer_or_index(t):
                raise VerifyException(f"{kind} #0 must be {INTEGER_OR_INDEX}, but got '{t}'")
        # CastSOp/CastUOp::areCastCompatible: exactly one side is index
        one_index = isinstance(in_type, IndexType) != isinstance(out_type, IndexType)
        verify_cast_compatible(one_index, in_type, out_type)


CastSOp = _index_op(  # sign-extends when widening, truncates when narrowing.
    IndexCastOp, "index.casts", "CastSOp", "Sign-extends when widening, truncates when narrowing."
)
CastUOp = _index_op(  # zero-extends when widening, truncates when narrowing.
    IndexCastOp, "index.castu", "CastUOp", "Zero-extends when widening, truncates when narrowing."
)


# --------------------------------------------------------------------------
# Compare, sizeof, constants
# --------------------------------------------------------------------------


@index_op
class CmpOp(_TwoIndexOperands):
    """``index.cmp slt(%a, %b)``: compares two index values, yields ``i1``."""

    name = "index.cmp"

    pred = prop_def(IndexCmpPredicateAttr)
    result = result_def(I1_TYPE)

    # upstream: "`` $pred `(` $lhs `,` $rhs `)` attr-dict"; xDSL prints the
    # enum bare and puts no space before `(`, which gives the same text
    assembly_format = "$pred `(` $lhs `,` $rhs `)` attr-dict"

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "pred": "index comparison predicate kind",
        "lhs": INDEX,
        "rhs": INDEX,
        "result": I1,
    }

    def __init__(
        self,
        pred: IndexCmpPredicate | str,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
    ) -> None:
        super().__init__(
            operands=[lhs, rhs],
            result_types=[i1],
            properties={"pred": IndexCmpPredicateAttr(IndexCmpPredicate(pred))},
        )


@index_op
class SizeOfOp(IRDLOperation):
    """The bit width of ``index`` on the target, as an ``index`` value."""

    name = "index.sizeof"

    result = result_def(INDEX_TYPE)

    traits = traits_def(Pure())

    assembly_format = "attr-dict"

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"result": INDEX}

    def __init__(self) -> None:
        super().__init__(result_types=[IndexType()])


# upstream stores index attributes in 64 bits; its parser rejects wider literals
_INDEX_MIN, _INDEX_MAX = -(2**63), 2**63 - 1


class _ConstantOp(IRDLOperation, HasFolderInterface):
    """``index.constant`` and ``index.bool.constant``: ``attr-dict $value``."""

    traits = traits_def(Pure(), ConstantLike())

    assembly_format = "attr-dict $value"

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        return (self.properties["value"],)


@index_op
class ConstantOp(_ConstantOp):
    """``index.constant 42``: an ``index`` constant (upstream's ``IndexAttr``)."""

    name = "index.constant"

    value = prop_def(IntegerAttr.constr(IndexTypeConstr))
    result = result_def(INDEX_TYPE)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"value": "index attribute", "result": INDEX}

    def __init__(self, value: int | IntegerAttr) -> None:
        if isinstance(value, int):
            value = IntegerAttr(value, IndexType())
        super().__init__(result_types=[IndexType()], properties={"value": value})

    def verify_(self) -> None:
        # xDSL's IntegerAttr puts no bound on index values; upstream's does
        if not _INDEX_MIN <= self.value.value.data <= _INDEX_MAX:
            raise VerifyException("integer constant out of range for attribute")


@index_op
class BoolConstantOp(_ConstantOp):
    """``index.bool.constant true``: the ``i1`` constants that folding ``cmp`` makes."""

    name = "index.bool.constant"

    value = prop_def(BoolAttr)
    result = result_def(I1_TYPE)

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"value": "bool attribute", "result": I1}

    def __init__(self, value: bool | BoolAttr) -> None:
        if isinstance(value, bool):
            value = BoolAttr.from_bool(value)
        super().__init__(result_types=[i1], properties={"value": value})


BINARY_OPS: tuple[type[IndexBinaryOp], ...] = (
    AddOp,
    SubOp,
    MulOp,
    DivSOp,
    DivUOp,
    CeilDivSOp,
    CeilDivUOp,
    FloorDivSOp,
    RemSOp,
    RemUOp,
    MaxSOp,
    MaxUOp,
    MinSOp,
    MinUOp,
    ShlOp,
    ShrSOp,
    ShrUOp,
    AndOp,
    OrOp,
    XOrOp,
)

class IndexConstantMaterialization(ConstantMaterializationInterface):
    """Upstream's ``IndexDialect::materializeConstant``: ``index.constant`` for
    ``index`` values, ``index.bool.constant`` for ``i1``, nothing else."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
            return ConstantOp(value) if isinstance(type, IndexType) else None
        if isinstance(value, IntegerAttr) and value.type == i1 and type == i1:
            return BoolConstantOp(BoolAttr.from_bool(bool(value.value.data)))
        return None


for _op in (*BINARY_OPS, CastSOp, CastUOp, CmpOp):
    _op.traits.add_trait(FOLDS_INDEX)
CmpOp.traits.add_trait(CmpCanonicalization())

Index = Dialect(
    "index",
    [*BINARY_OPS, CastSOp, CastUOp, CmpOp, SizeOfOp, ConstantOp, BoolConstantOp],
    [IndexCmpPredicateAttr],
    [IndexConstantMaterialization()],
)

__getattr__ = op_lookup(__name__, lambda: Index)
