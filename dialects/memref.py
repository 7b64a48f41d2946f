"""The ``memref`` dialect with upstream's syntax for the ops xDSL prints generically.

xDSL 0.75 has no custom syntax for ``memref.global``, ``memref.cast``,
``memref.copy``, ``memref.rank``, ``memref.memory_space_cast`` and
``memref.extract_aligned_pointer_as_index``: it prints them in generic form and
cannot read upstream's custom form. Its ``memref.global`` also requires the
visibility and initial value upstream leaves optional, ``memref.rank`` and
``memref.copy`` reject unranked memrefs, and ``memref.cast`` checks nothing.
Those ops are subclassed here (so passes matching xDSL's classes keep matching).
xDSL has no ``memref.reshape``, ``memref.transpose`` or ``memref.prefetch``;
they are defined here with upstream's syntax and verifiers. ``reinterpret_cast``
and ``expand_shape`` get upstream's verifiers in :mod:`mlkit.dialects.memref_views`.
Every other op is xDSL's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import I64, AffineMapAttr, AnyFloat, BoolAttr, DenseArrayBase
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, IndexType, IntegerAttr
from xdsl.dialects.builtin import MemRefType, NoneAttr, StridedLayoutAttr, StringAttr
from xdsl.dialects.builtin import SymbolNameConstraint, SymbolRefAttr, TensorType, UnitAttr, i64
from xdsl.dialects.builtin import UnrankedMemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation, base, operand_def, opt_prop_def, prop_def, result_def
from xdsl.irdl import traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryAllocEffect, NoMemoryEffect, Pure, SymbolTable
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.tensor.common import compute_rank_reduction_mask, is_dynamic
from mlkit.dialects.tensor.slices import verify_in_bounds, verify_offset_size_stride
from mlkit.dialects.utils.dialects import op_lookup, with_replacements
from mlkit.dialects.utils.dynamic_sizes import DynamicIndexList
from mlkit.dialects.utils.enums import ATOMIC_RMW_KINDS
from mlkit.dialects.utils.ods import VARIADIC_INDEX, DeclarativeSyntax, type_str, upstream_op
from mlkit.dialects.utils.ods import verify_cast_compatible
from mlkit.dialects.utils.strided_layout import canonical_type, has_identity_layout
from mlkit.dialects.utils.strided_layout import infer_transpose_type, is_permutation, not_strided
from mlkit.dialects.utils.strided_layout import saturated_mul, strided_form, strides_and_offset
from mlkit.dialects.utils.symbols import UpstreamSymbol
from mlkit.dialects.memref_views import ExpandShapeOp, ReinterpretCastOp

_ANY_MEMREF = base(MemRefType) | base(UnrankedMemRefType)
ANY_MEMREF_TEXT = "ranked or unranked memref of any non-token type values"
_MEMREF_TEXT = "memref of any non-token type values"


def _dynamic_or_equal(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a < 0 or b < 0 or a == b


def _strided(type_: MemRefType) -> tuple[list[int | None], int | None] | None:
    """Strides and offset of a strided (or identity) layout; None otherwise."""
    if not isinstance(type_.layout, NoneAttr | StridedLayoutAttr):
        return None
    strides = type_.get_strides()
    return (list(strides), type_.get_offset()) if strides is not None else None


def cast_compatible(a: Attribute, b: Attribute) -> bool:
    """Upstream's ``memref::CastOp::areCastCompatible``."""
    if isinstance(a, MemRefType) and isinstance(b, MemRefType):
        if a.element_type != b.element_type or a.memory_space != b.memory_space:
            return False
        if a.layout != b.layout:
            sa, sb = _strided(a), _strided(b)
            if sa is None or sb is None or len(sa[0]) != len(sb[0]):
                return False
            if not _dynamic_or_equal(sa[1], sb[1]):
                return False
            if not all(_dynamic_or_equal(x, y) for x, y in zip(sa[0], sb[0])):
                return False
        shape_a, shape_b = a.get_shape(), b.get_shape()
        return len(shape_a) == len(shape_b) and all(
            _dynamic_or_equal(x, y) for x, y in zip(shape_a, shape_b)
        )
    assert isinstance(a, MemRefType | UnrankedMemRefType)
    assert isinstance(b, MemRefType | UnrankedMemRefType)
    return a.element_type == b.element_type and a.memory_space == b.memory_space


def _shapes_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's ``verifyCompatibleShape``: unranked matches anything."""
    if not isinstance(a, MemRefType) or not isinstance(b, MemRefType):
        return True
    sa, sb = a.get_shape(), b.get_shape()
    return len(sa) == len(sb) and all(_dynamic_or_equal(x, y) for x, y in zip(sa, sb))


class _FromMemRef(DeclarativeSyntax, IRDLOperation):
    """An op reading facts of a ranked or unranked memref ``source``, without
    touching memory; listed before xDSL's op, whose ``source`` takes ranked ones
    only, so that IRDL takes these definitions and this class's ``verify_``."""

    source = operand_def(_ANY_MEMREF)
    traits = traits_def(NoMemoryEffect())
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"source": ANY_MEMREF_TEXT}

    def verify_(self) -> None:
        pass


@upstream_op
class CastOp(_FromMemRef, xmemref.CastOp):
    """xDSL's op with upstream's syntax and its cast-compatibility check."""

    name = "memref.cast"

    dest = result_def(_ANY_MEMREF)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"source": ANY_MEMREF_TEXT, "dest": ANY_MEMREF_TEXT}

    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def verify_(self) -> None:
        source, dest = self.source.type, self.dest.type
        verify_cast_compatible(cast_compatible(source, dest), source, dest)


@upstream_op
class CopyOp(DeclarativeSyntax, xmemref.CopyOp):
    """xDSL's op with upstream's syntax; like upstream it accepts unranked
    memrefs and only needs compatible shapes (``SameOperandsShape``)."""

    name = "memref.copy"

    source = operand_def(_ANY_MEMREF)
    destination = operand_def(_ANY_MEMREF)
    traits = xmemref.CopyOp.traits
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": ANY_MEMREF_TEXT,
        "destination": ANY_MEMREF_TEXT,
    }

    assembly_format = "$source `,` $destination attr-dict `:` type($source) `to` type($destination)"

    def verify_(self) -> None:
        src, dst = self.source.type, self.destination.type
        assert isinstance(src, MemRefType | UnrankedMemRefType)
        assert isinstance(dst, MemRefType | UnrankedMemRefType)
        if src.element_type != dst.element_type:
            raise VerifyException("requires the same element type for all operands")
        if not _shapes_compatible(src, dst):
            raise VerifyException("requires the same shape for all operands")


@upstream_op
class RankOp(_FromMemRef, xmemref.RankOp):
    """xDSL's op with upstream's syntax; upstream also takes unranked memrefs."""

    name = "memref.rank"

    rank = result_def(IndexType)

    assembly_format = "$source attr-dict `:` type($source)"


@upstream_op
class MemorySpaceCastOp(_FromMemRef, xmemref.MemorySpaceCastOp):
    """xDSL's op with upstream's syntax and cast-compatibility check."""

    name = "memref.memory_space_cast"

    dest = result_def(_ANY_MEMREF)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {}

    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def verify_(self) -> None:
        # upstream's areCastCompatible; xDSL words it differently and crashes on unranked
        a, b = self.source.type, self.dest.type
        if isinstance(a, MemRefType) and isinstance(b, MemRefType):
            ok = (
                a.element_type == b.element_type
                and a.layout == b.layout
                and tuple(a.get_shape()) == tuple(b.get_shape())
            )
        elif isinstance(a, UnrankedMemRefType) and isinstance(b, UnrankedMemRefType):
            ok = a.element_type == b.element_type
        else:
            ok = False
        verify_cast_compatible(ok, a, b)


@upstream_op
class ExtractAlignedPointerAsIndexOp(_FromMemRef, xmemref.ExtractAlignedPointerAsIndexOp):
    """xDSL's op with upstream's syntax; upstream also takes unranked memrefs."""

    name = "memref.extract_aligned_pointer_as_index"

    aligned_pointer = result_def(IndexType)

    assembly_format = "$source `:` type($source) `->` type($aligned_pointer) attr-dict"


@upstream_op
class GetGlobalOp(DeclarativeSyntax, xmemref.GetGlobalOp):
    """xDSL's op with upstream's symbol check (xDSL leaves the type unchecked)."""

    name = "memref.get_global"

    memref = result_def(MemRefType)
    name_ = prop_def(SymbolRefAttr, prop_name="name")
    traits = traits_def(NoMemoryEffect())

    assembly_format = "$name `:` type($memref) attr-dict"

    def verify_(self) -> None:
        found = SymbolTable.lookup_symbol(self, self.name_)
        if not isinstance(found, xmemref.GlobalOp):
            raise VerifyException(
                f"'{self.name_.string_value()}' does not reference a valid global memref"
            )
        if found.type != self.memref.type:
            raise VerifyException(
                f"result type '{self.memref.type}' does not match type '{found.type}' "
                f"of the global memref @{self.name_.string_value()}"
            )


_FLOAT_KINDS = frozenset({"addf", "maximumf", "minimumf", "mulf"})
_INT_KINDS = frozenset({"addi", "maxs", "maxu", "mins", "minu", "muli", "ori", "andi"})


@upstream_op
class AtomicRMWOp(xmemref.AtomicRMWOp):
    """xDSL's op with upstream's syntax
    ``memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32``
    and upstream's kind/type and subscript checks."""

    name = "memref.atomic_rmw"

    T: ClassVar = xmemref.AtomicRMWOp.T
    value = operand_def(T)
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    kind = prop_def(IntegerAttr[I64])
    result = result_def(T)
    traits = xmemref.AtomicRMWOp.traits

    def verify_(self) -> None:
        _check_index_count(self.memref.type, len(self.indices))
        value = self.kind.value.data
        kind = ATOMIC_RMW_KINDS[value] if 0 <= value < len(ATOMIC_RMW_KINDS) else None
        if kind is None:
            raise VerifyException(f"invalid properties {{kind = {value} : i64}}")
        if kind in _FLOAT_KINDS and not isinstance(self.value.type, AnyFloat):
            raise VerifyException(f"with kind '{kind}' expects a floating-point type")
        if kind in _INT_KINDS and not isinstance(self.value.type, IntegerType):
            raise VerifyException(f"with kind '{kind}' expects an integer type")

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        pos = parser.pos
        kind = parser.parse_identifier()
        if kind not in ATOMIC_RMW_KINDS:
            parser.raise_error(f"invalid atomic_rmw kind '{kind}'", pos, parser.pos)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        memref_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(memref, memref_type),
            *(parser.resolve_operand(i, IndexType()) for i in indices),
        ]
        return cls.create(
            operands=operands,
            result_types=[result_type],
            properties={"kind": IntegerAttr(ATOMIC_RMW_KINDS.index(kind), i64)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        value = self.kind.value.data
        printer.print_string(f" {ATOMIC_RMW_KINDS[value]} ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.memref)
        with printer.in_square_brackets():
            printer.print_list(self.indices, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.memref.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


def infer_subview_type(
    source: MemRefType, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> MemRefType | None:
    """Upstream's ``SubViewOp::inferResultType`` (saturating at dynamic values);
    None when the source's strides are unknown."""
    layout = strides_and_offset(source)
    if layout is None:
        return None
    source_strides, offset = layout
    for static_offset, stride in zip(offsets, source_strides):
        term = saturated_mul(static_offset, stride)
        offset = None if offset is None or term is None else offset + term
    result_strides = [saturated_mul(a, b) for a, b in zip(source_strides, strides)]
    return MemRefType(
        source.element_type,
        list(sizes),
        StridedLayoutAttr(result_strides, offset),
        source.memory_space,
    )


def _rank_reduction_mask(
    expected: MemRefType, reduced: MemRefType, sizes: Sequence[int]
) -> set[int] | None:
    """Upstream's ``computeMemRefRankReductionMask``: the dimensions dropped,
    told apart by their strides where more than one has size 1."""
    if expected.get_num_dims() == reduced.get_num_dims():
        return set()
    unused = {i for i, size in enumerate(sizes) if size == 1}
    if len(unused) + reduced.get_num_dims() == expected.get_num_dims():
        return unused
    original, candidate = strides_and_offset(expected), strides_and_offset(reduced)
    if original is None or candidate is None:
        return None
    unaccounted = Counter(original[0])
    occurrences = Counter(candidate[0])
    for dim in sorted(unused):
        stride = original[0][dim]
        if unaccounted[stride] > occurrences[stride]:
            unaccounted[stride] -= 1
        elif unaccounted[stride] == occurrences[stride]:
            unused.discard(dim)
        else:
            return None
    if len(unused) + reduced.get_num_dims() != expected.get_num_dims():
        return None
    return unused


@upstream_op
class SubviewOp(DeclarativeSyntax, xmemref.SubviewOp):
    """xDSL's op with upstream's verifier: xDSL's verifier checks only the
    number of dynamic values, so a result type that disagrees with the offsets,
    sizes and strides (a wrong layout, say) verified and was lowered wrongly."""

    name = "memref.subview"

    source = operand_def(MemRefType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)
    traits = xmemref.SubviewOp.traits
    custom_directives = (DynamicIndexList,)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": _MEMREF_TEXT,
        "offsets": VARIADIC_INDEX,
        "sizes": VARIADIC_INDEX,
        "strides": VARIADIC_INDEX,
        "result": _MEMREF_TEXT,
    }

    def verify_(self) -> None:
        base_type, view_type = self.source.type, self.result.type
        verify_offset_size_stride(self, base_type.get_num_dims())
        offsets = tuple(self.static_offsets.get_values())
        sizes = tuple(self.static_sizes.get_values())
        strides = tuple(self.static_strides.get_values())
        if base_type.memory_space != view_type.memory_space:
            raise VerifyException(
                f"different memory spaces specified for base memref type "
                f"{type_str(base_type)} and subview memref type {type_str(view_type)}"
            )
        if not_strided(base_type):
            raise VerifyException(f"base type {type_str(base_type)} is not strided")
        expected = infer_subview_type(base_type, offsets, sizes, strides)
        if expected is None:
            return
        got = type_str(view_type)
        layout_error = VerifyException(
            f"expected result type to be {type_str(expected)} or a rank-reduced version. "
            f"(mismatch of result layout), but got {got}"
        )
        if view_type != expected:
            if view_type.get_num_dims() > expected.get_num_dims():
                raise VerifyException(
                    f"expected result rank to be smaller or equal to the source rank, but got {got}"
                )
            if compute_rank_reduction_mask(expected.get_shape(), view_type.get_shape()) is None:
                raise VerifyException(
                    f"expected result type to be {type_str(expected)} or a rank-reduced "
                    f"version. (mismatch of result sizes), but got {got}"
                )
            if expected.element_type != view_type.element_type:
                raise VerifyException(
                    f"expected result element type to be '{expected.element_type}', but got {got}"
                )
        view_layout = strides_and_offset(view_type)
        if view_layout is None or view_layout[1] != expected.get_offset():
            raise layout_error
        unused = _rank_reduction_mask(expected, view_type, sizes)
        if unused is None:
            raise layout_error
        kept = [s for i, s in enumerate(expected.get_strides() or ()) if i not in unused]
        if kept != view_layout[0]:
            raise layout_error
        verify_in_bounds(base_type.get_shape(), offsets, sizes, strides)


_GLOBAL_SYNTAX_PROPS = ("sym_name", "sym_visibility", "type", "initial_value", "constant")


@upstream_op
class GlobalOp(xmemref.GlobalOp):
    """xDSL's op with upstream's custom syntax
    ``memref.global "private" constant @c : memref<2xf32> = dense<...>``;
    upstream's visibility and initial value are optional (xDSL requires both),
    and the verifier checks the initial value against the type."""

    name = "memref.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(Attribute)
    initial_value = opt_prop_def(Attribute)
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr)
    traits = traits_def(UpstreamSymbol(), MemoryAllocEffect())

    def verify_(self) -> None:
        type_ = self.type
        if not isinstance(type_, MemRefType) or any(d < 0 for d in type_.get_shape()):
            raise VerifyException(f"type should be static shaped memref, but got '{type_}'")
        init = self.initial_value
        if init is not None and not isinstance(init, UnitAttr):
            if not isinstance(init, DenseIntOrFPElementsAttr):
                raise VerifyException(
                    f"initial value should be a unit or elements attribute, but got {init}"
                )
            shape, init_shape = tuple(type_.get_shape()), tuple(init.type.get_shape())
            if shape != init_shape:
                raise VerifyException(
                    f"initial value shape expected to be {', '.join(map(str, shape))} "
                    f"but was {', '.join(map(str, init_shape))}"
                )
            if init.type.element_type != type_.element_type:
                raise VerifyException(
                    f"initial value element expected to be of type '{type_.element_type}', "
                    f"but was of type '{init.type.element_type}'"
                )
        if self.alignment is not None:
            value = self.alignment.value.data
            if self.alignment.type != i64 or value <= 0 or value & (value - 1):
                raise VerifyException(
                    "attribute 'alignment' failed to satisfy constraint: 64-bit signless "
                    "integer attribute whose value is positive and whose value is a power "
                    "of two > 0"
                )

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        props: dict[str, Attribute] = {}
        if (visibility := parser.parse_optional_str_literal()) is not None:
            props["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            props["constant"] = UnitAttr()
        props["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        type_pos = parser.pos
        type_ = parser.parse_type()
        if not isinstance(type_, MemRefType) or any(d < 0 for d in type_.get_shape()):
            parser.raise_error(
                f"type should be static shaped memref, but got '{type_}'", type_pos, parser.pos
            )
        props["type"] = type_
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is not None:
                props["initial_value"] = UnitAttr()
            elif parser.parse_optional_keyword("dense") is not None:
                tensor = TensorType(type_.element_type, type_.get_shape())
                props["initial_value"] = parser.parse_dense_int_or_fp_elements_attr(tensor)
            else:
                props["initial_value"] = parser.parse_attribute()
        attrs = parser.parse_optional_attr_dict()
        if "alignment" in attrs:
            props["alignment"] = attrs.pop("alignment")
        op = cls.create(properties=props, attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f' "{self.sym_visibility.data}"')
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(f" @{self.sym_name.data} : ")
        printer.print_attribute(self.type)
        init = self.initial_value
        if init is not None:
            printer.print_string(" = ")
            if isinstance(init, UnitAttr):
                printer.print_string("uninitialized")
            elif isinstance(init, DenseIntOrFPElementsAttr):
                init.print_without_type(printer)
            else:
                printer.print_attribute(init)
        extra = dict(self.attributes)
        extra.update({k: v for k, v in self.properties.items() if k not in _GLOBAL_SYNTAX_PROPS})
        printer.print_op_attributes(extra)


# ---- reshape, transpose, prefetch -------------------------------------------------------------

_STRIDED_TEXT = "strided memref of any non-token type values"
_SHAPE_TEXT = "1D memref of signless integer or index values"


@upstream_op
class ReshapeOp(IRDLOperation):
    """``memref.reshape %src(%shape) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32>``:
    a view of an identity-layout buffer with the sizes held in ``shape``."""

    name = "memref.reshape"

    source = operand_def(_ANY_MEMREF)
    shape = operand_def(MemRefType)
    result = result_def(_ANY_MEMREF)
    traits = traits_def(Pure())
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "source": ANY_MEMREF_TEXT,
        "shape": _SHAPE_TEXT,
        "result": ANY_MEMREF_TEXT,
    }

    assembly_format = "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)"

    def asm_result_name(self) -> str:
        return "reshape"

    def verify_(self) -> None:
        shape = self.shape.type
        assert isinstance(shape, MemRefType)
        element = shape.element_type
        if shape.get_num_dims() != 1 or not (
            isinstance(element, IndexType)
            or (isinstance(element, IntegerType) and element.signedness.data.name == "SIGNLESS")
        ):
            raise VerifyException(f"operand #1 must be {_SHAPE_TEXT}, but got {type_str(shape)}")
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType | UnrankedMemRefType)
        assert isinstance(result, MemRefType | UnrankedMemRefType)
        if source.element_type != result.element_type:
            raise VerifyException(
                "element types of source and destination memref types should be the same"
            )
        if isinstance(source, MemRefType) and not has_identity_layout(source):
            raise VerifyException("source memref type should have identity affine map")
        if isinstance(result, MemRefType):
            if not has_identity_layout(result):
                raise VerifyException("result memref type should have identity affine map")
            length = shape.get_shape()[0]
            if is_dynamic(length):
                raise VerifyException(
                    "cannot use shape operand with dynamic length to reshape to "
                    "statically-ranked memref type"
                )
            if length != result.get_num_dims():
                raise VerifyException(
                    "length of shape operand differs from the result's memref rank"
                )


def _require_properties(op: IRDLOperation) -> None:
    """Upstream's check for a missing inherent attribute, worded as upstream
    words it, before IRDL reports the same in its words."""
    for name in type(op).get_irdl_definition().properties:
        if name not in op.properties:
            raise VerifyException(f"requires attribute '{name}'")


@upstream_op
class TransposeOp(IRDLOperation):
    """``memref.transpose %v (i, j) -> (j, i) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>``:
    a view with permuted sizes and strides."""

    name = "memref.transpose"

    in_ = operand_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    result = result_def(MemRefType)
    traits = traits_def(Pure())
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"in_": _STRIDED_TEXT, "result": _STRIDED_TEXT}

    def verify_relations_(self) -> None:
        _require_properties(self)

    def __init__(self, source: SSAValue, permutation: AffineMap, result_type: Attribute) -> None:
        super().__init__(
            operands=[source],
            result_types=[result_type],
            properties={"permutation": AffineMapAttr(permutation)},
        )

    def verify_(self) -> None:
        for kind, value in (("operand", self.in_), ("result", self.result)):
            type_ = value.type
            if not isinstance(type_, MemRefType) or strided_form(type_) is None:
                raise VerifyException(f"{kind} #0 must be {_STRIDED_TEXT}, but got {type_str(type_)}")
        source, result = self.in_.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        permutation = self.permutation.data
        if not is_permutation(permutation):
            raise VerifyException("expected a permutation map")
        if permutation.num_dims != source.get_num_dims():
            raise VerifyException("expected a permutation map of same rank as the input")
        expected, expected_text = canonical_type(infer_transpose_type(source, permutation))
        if canonical_type(result)[0] != expected:
            raise VerifyException(
                f"result type {type_str(result)} is not equivalent to the canonical "
                f"transposed input type '{expected_text}'"
            )

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        source = parser.parse_unresolved_operand()
        permutation = parser.parse_affine_map()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = _parse_memref_type(parser)
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        op = cls(parser.resolve_operand(source, source_type), permutation, result_type)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.in_)
        printer.print_string(f" {self.permutation.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.in_.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)


def _check_index_count(memref_type: Attribute, count: int) -> None:
    """Upstream's check that an access names one index per dimension."""
    assert isinstance(memref_type, MemRefType)
    if count != memref_type.get_num_dims():
        raise VerifyException(
            "invalid number of indices for accessed memref, expected "
            f"{memref_type.get_num_dims()} but got {count}"
        )


def _parse_memref_type(parser: Parser) -> MemRefType:
    """A ranked memref type, or upstream's error for another type there."""
    pos = parser.pos
    type_ = parser.parse_type()
    if not isinstance(type_, MemRefType):
        parser.raise_error(
            f"invalid kind of type specified: expected builtin.memref, but found '{type_}'",
            pos,
            parser.pos,
        )
    return type_


_LOCALITY_TEXT = (
    "32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3"
)


@upstream_op
class PrefetchOp(IRDLOperation):
    """``memref.prefetch %m[%i, %j], read, locality<3>, data : memref<400x400xi32>``:
    a hint to fetch the element's cache line (``llvm.intr.prefetch``)."""

    name = "memref.prefetch"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    isWrite = prop_def(BoolAttr)
    localityHint = prop_def(IntegerAttr)
    isDataCache = prop_def(BoolAttr)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"memref": _MEMREF_TEXT, "indices": VARIADIC_INDEX}

    def verify_relations_(self) -> None:
        _require_properties(self)

    def verify_(self) -> None:
        hint = self.localityHint
        if hint.type != IntegerType(32) or not 0 <= hint.value.data <= 3:
            raise VerifyException(
                f"attribute 'localityHint' failed to satisfy constraint: {_LOCALITY_TEXT}"
            )
        _check_index_count(self.memref.type, len(self.indices))

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(",")
        pos = parser.pos
        access = parser.parse_identifier()
        if access not in ("read", "write"):
            parser.raise_error("rw specifier has to be 'read' or 'write'", pos, parser.pos)
        parser.parse_punctuation(",")
        parser.parse_keyword("locality")
        parser.parse_punctuation("<")
        hint = parser.parse_integer()
        parser.parse_punctuation(">")
        parser.parse_punctuation(",")
        pos = parser.pos
        cache = parser.parse_identifier()
        if cache not in ("data", "instr"):
            parser.raise_error("cache type has to be 'data' or 'instr'", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        memref_type = _parse_memref_type(parser)
        operands = [parser.resolve_operand(memref, memref_type)]
        operands += [parser.resolve_operand(i, IndexType()) for i in indices]
        return cls.create(
            operands=operands,
            properties={
                "isWrite": BoolAttr.from_bool(access == "write"),
                "localityHint": IntegerAttr(hint, IntegerType(32)),
                "isDataCache": BoolAttr.from_bool(cache == "data"),
            },
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.memref)
        with printer.in_square_brackets():
            printer.print_list(self.indices, printer.print_operand)
        printer.print_string(", write" if self.isWrite.value.data else ", read")
        printer.print_string(f", locality<{self.localityHint.value.data}>")
        printer.print_string(", data" if self.isDataCache.value.data else ", instr")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


def _verify_index_count(self: xmemref.LoadOp | xmemref.StoreOp) -> None:
    """Upstream's index-count check; xDSL's raises a bare ``Exception``."""
    _check_index_count(self.memref.type, len(self.indices))


xmemref.LoadOp.verify_ = xmemref.StoreOp.verify_ = _verify_index_count  # type: ignore[method-assign]

_REPLACED: dict[type, type] = {
    xmemref.CastOp: CastOp,
    xmemref.CopyOp: CopyOp,
    xmemref.RankOp: RankOp,
    xmemref.MemorySpaceCastOp: MemorySpaceCastOp,
    xmemref.ExtractAlignedPointerAsIndexOp: ExtractAlignedPointerAsIndexOp,
    xmemref.GlobalOp: GlobalOp,
    xmemref.AtomicRMWOp: AtomicRMWOp,
    xmemref.GetGlobalOp: GetGlobalOp,
    xmemref.SubviewOp: SubviewOp,
    xmemref.ReinterpretCastOp: ReinterpretCastOp,
    xmemref.ExpandShapeOp: ExpandShapeOp,
}

MemRef = with_replacements(xmemref.MemRef, _REPLACED, [ReshapeOp, TransposeOp, PrefetchOp])

__getattr__ = op_lookup(__name__, lambda: MemRef)
