"""The base of linalg's named structured ops (matmul, conv_2d_nhwc_hwcf, add, ...).

A named op is a ``linalg.generic`` with fixed indexing maps, iterator types and
body. Its custom syntax leaves the body implicit, so the parser builds it; its
generic form prints it. Each op says:

- ``get_default_indexing_maps()`` and ``iterator_kinds()``: its loops;
- ``region_builder(b, props)``: its scalar body, built with ``BodyBuilder``.

It subclasses xDSL's ``NamedOperation`` so xDSL's passes that match named ops
(``linalg-generalize-named-ops``, ``convert-linalg-to-loops``) see it; the syntax,
construction and verifier are upstream's, not xDSL's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ShapedType, TensorType
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer

from mlkit.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from mlkit.dialects.linalg.base import parse_ins_outs, print_ins_outs, verify_destination_style
from mlkit.dialects.linalg.base import verify_structured
from mlkit.dialects.linalg.body import BodyBuilder, BodyError, build_region
from mlkit.dialects.utils.attr_dict import print_attr_dict, split_attr_dict
from mlkit.dialects.utils.type_lists import parse_optional_arrow_type_list
from mlkit.dialects.utils.type_lists import print_optional_arrow_type_list

__all__ = ["NamedStructuredOp", "rank_of"]

# Never printed in a named op's attribute dictionary (upstream's elided names).
_ALWAYS_ELIDED = ("operandSegmentSizes", "linalg.memoized_indexing_maps")


def rank_of(value: SSAValue) -> int:
    t = value.type
    return len(t.get_shape()) if isinstance(t, ShapedType) else 0


class NamedStructuredOp(NamedOperation, ABC):
    """A structured op whose maps, iterators and body are implied by its name."""

    # irdl_options (operand segments as a property) come from NamedOperation.

    # Property names printed by the op's own syntax rather than its attr-dict.
    ELIDED: ClassVar[tuple[str, ...]] = ()
    NUM_REGION_ARGS: ClassVar[int | None] = None

    # -- what each op declares ---------------------------------------------------
    @abstractmethod
    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        """The op's indexing maps, one per operand, inputs then inits."""

    @abstractmethod
    def iterator_kinds(self) -> list[IteratorType]:
        """One iterator type per loop."""

    @classmethod
    @abstractmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        """Append the scalar body to ``b``'s block (arguments: inputs then inits)."""

    # -- derived ------------------------------------------------------------------
    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr(k) for k in self.iterator_kinds()])

    def indexing_maps_list(self) -> list[AffineMap]:
        return [m.data for m in self.get_indexing_maps()]

    def get_num_loops(self) -> int:
        return len(self.iterator_kinds())

    @classmethod
    def build_region(
        cls, operand_types: Sequence[Attribute], props: Mapping[str, Attribute]
    ) -> Region:
        """The body upstream builds for these operand types and properties: also
        the body of the equivalent ``linalg.generic``."""
        return build_region(operand_types, lambda b: cls.region_builder(b, props))

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return cls.build_region([v.type for v in (*inputs, *outputs)], {})

    @classmethod
    def num_region_args(cls, props: Mapping[str, Attribute]) -> int | None:
        """How many operands the op's body takes (upstream's ``numRegionArgs``)."""
        return cls.NUM_REGION_ARGS

    @classmethod
    def default_properties(
        cls, operand_types: Sequence[Attribute], props: Mapping[str, Attribute]
    ) -> dict[str, Attribute]:
        """Properties upstream's parser and builders fill in when absent."""
        return {}

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        result_types: Sequence[Attribute] | None = None,
        properties: Mapping[str, Attribute] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ) -> None:
        if result_types is None:
            result_types = [v.type for v in outputs if isinstance(v.type, TensorType)]
        types = [v.type for v in (*inputs, *outputs)]
        props = {
            **self.default_properties(types, properties or {}),
            **(properties or {}),
        }
        IRDLOperation.__init__(
            self,
            operands=[inputs, outputs],
            result_types=[list(result_types)],
            properties=props,
            attributes=dict(attributes or {}),
            regions=[self.build_region(types, props)],
        )

    # -- verification ---------------------------------------------------------------
    def verify_(self) -> None:
        verify_destination_style(self, list(self.outputs))
        verify_structured(self, self.indexing_maps_list(), self.get_num_loops())
        self.verify_op()

    def verify_op(self) -> None:
        """The op's own checks, after the interfaces' (upstream's ``verify()``)."""

    # -- syntax ---------------------------------------------------------------------
    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        """Op-specific syntax before the attribute dictionary (matmul's maps)."""
        return {}

    def print_prefix(self, printer: Printer) -> None:
        pass

    @classmethod
    def parse(cls, parser: Parser) -> NamedStructuredOp:
        start = parser.pos
        prefix = cls.parse_prefix(parser)
        props = parser.parse_optional_properties_dict()
        attrs = parser.parse_optional_attr_dict()
        inputs, outputs = parse_ins_outs(parser)
        # current upstream also takes the dictionary after ``outs(...)``
        attrs.update(parser.parse_optional_attr_dict())
        result_types = parse_optional_arrow_type_list(parser) or []
        inherent, attrs = split_attr_dict(cls, attrs)
        props.update(inherent)
        props.update(prefix)
        types = [v.type for v in (*inputs, *outputs)]
        props = {**cls.default_properties(types, props), **props}
        props.pop("operandSegmentSizes", None)
        expected_args = cls.num_region_args(props)
        if expected_args is not None and expected_args != len(types):
            parser.raise_error(
                "[parseNamedStructuredOpRegion] ods-gen generated region expects "
                f"{expected_args} args, got {len(types)}",
                start,
                parser.pos,
            )
        try:
            region = cls.build_region(types, props)
        except BodyError as err:
            parser.raise_error(str(err), start, parser.pos)
        return cls.build(
            operands=[inputs, outputs],
            result_types=[result_types],
            properties=props,
            attributes=attrs,
            regions=[region],
        )

    def print(self, printer: Printer) -> None:
        self.print_prefix(printer)
        print_attr_dict(printer, self, (*_ALWAYS_ELIDED, *self.ELIDED), properties_first=True)
        print_ins_outs(printer, self.inputs, self.outputs)
        print_optional_arrow_type_list(printer, self.res.types)


def maps_array(maps: Sequence[AffineMap]) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr([AffineMapAttr(m) for m in maps])


def parse_maps_keyword(parser: Parser) -> ArrayAttr[AffineMapAttr] | None:
    """``indexing_maps = [affine_map<...>, ...]`` when present."""
    if parser.parse_optional_keyword("indexing_maps") is None:
        return None
    parser.parse_punctuation("=")
    pos = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, ArrayAttr) or not all(
        isinstance(a, AffineMapAttr) for a in attr.data
    ):
        parser.raise_error("expected an array of affine maps", pos, parser.pos)
    return attr


def print_maps_keyword(printer: Printer, maps: ArrayAttr[AffineMapAttr]) -> None:
    printer.print_string(" indexing_maps = ")
    printer.print_attribute(maps)
