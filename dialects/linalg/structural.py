"""linalg's structural ops, generic and index, and the short and long body
forms that generic, map and reduce share.

xDSL defines generic, index, yield, reduce, transpose and broadcast, but prints
them in syntax upstream does not read (``ins(%x:t)``, ``attrs = {...}`` on generic,
generic's region-less ``dimensions``) and lacks map and upstream's verifiers.
``GenericOp`` subclasses xDSL's so xDSL passes that match it keep working; the
others are defined here.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseArrayBase, IndexType, IntegerAttr
from xdsl.dialects.builtin import DictionaryAttr, StringAttr, i64
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, opt_prop_def
from xdsl.irdl import prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from mlkit.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from mlkit.dialects.linalg.base import parse_ins_outs, print_ins_outs, verify_destination_style
from mlkit.dialects.linalg.base import verify_structured
from mlkit.dialects.linalg.body import YieldOp, element_type, structured_op_parent
from mlkit.dialects.utils.type_lists import parse_optional_arrow_type_list
from mlkit.dialects.utils.type_lists import print_optional_arrow_type_list

# The names under which upstream keeps a generic op's trait attributes.
_GENERIC_TRAIT_NAMES = ("doc", "indexing_maps", "iterator_types", "library_call")


def maps_attr(maps: Sequence[AffineMap]) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr([AffineMapAttr(m) for m in maps])


def iterators_attr(kinds: Sequence[IteratorType]) -> ArrayAttr[IteratorTypeAttr]:
    return ArrayAttr([IteratorTypeAttr(k) for k in kinds])


def block_arg_names(block_args: int, num_inputs: int, init_name: str) -> list[str]:
    """Upstream's ``getAsmBlockArgumentNames`` of a linalg body: ``in`` for
    each input, ``init_name`` (``out`` or ``init``) for each init."""
    return ["in" if index < num_inputs else init_name for index in range(block_args)]


def _dense_i64(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


def parse_dense_i64_value(parser: Parser) -> DenseArrayBase:
    """``= [1, 2]`` after a keyword, as upstream's ``parseDenseI64ArrayAttr``."""
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_integer
    )
    return _dense_i64(values)


def parse_dense_i64_keyword(parser: Parser, keyword: str) -> DenseArrayBase:
    """``keyword = [1, 2]``."""
    parser.parse_keyword(keyword)
    return parse_dense_i64_value(parser)


def print_dense_i64_keyword(
    printer: Printer, keyword: str, values: Sequence[int]
) -> None:
    # Upstream's printDenseI64ArrayAttr ends with a space.
    printer.print_string(f" {keyword} = [{', '.join(str(v) for v in values)}] ")


def _num_loops(op: Operation) -> int:
    return len(op.get_iterator_types())  # type: ignore[attr-defined]


@irdl_op_definition
class IndexOp(IRDLOperation):
    """The induction variable of one loop of the enclosing structured op."""

    name = "linalg.index"

    dim = prop_def(IntegerAttr)
    result = result_def(IndexType)

    # Upstream's `$dim attr-dict : type($result)` prints the i64 without its
    # type; xDSL's declarative format would read `1 : index` as one attribute.
    @classmethod
    def parse(cls, parser: Parser) -> IndexOp:
        dim = parser.parse_integer()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(dim)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.dim.value.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : index")

    def __init__(self, dim: int) -> None:
        super().__init__(
            properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()]
        )

    def verify_(self) -> None:
        # Upstream's `ConfinedAttr<I64Attr, [IntMinValue<0>]>`, checked first:
        # a negative dim would otherwise pick a loop from the end.
        if self.dim.value.data < 0:
            raise VerifyException(
                "attribute 'dim' failed to satisfy constraint: 64-bit signless integer "
                "attribute whose minimum value is 0"
            )
        parent = structured_op_parent(self)
        if parent is None:
            raise VerifyException("expected parent op with LinalgOp interface")
        loops = _num_loops(parent)
        if loops <= self.dim.value.data:
            raise VerifyException(
                f"expected dim ({self.dim.value.data}) to be lower than the number of loops "
                f"({loops}) of the enclosing LinalgOp"
            )


@irdl_op_definition
class GenericOp(LinalgStructuredOperation):
    """``linalg.generic`` with upstream's syntax and verifier. xDSL's own class
    cannot be subclassed (its fields are already accessors), so this shares its
    base, ``LinalgStructuredOperation``, which xDSL's loop lowering matches."""

    name = "linalg.generic"

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[IteratorTypeAttr])
    doc = opt_prop_def(StringAttr)
    library_call = opt_prop_def(StringAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        body: Region,
        indexing_maps: Sequence[AffineMapAttr] | ArrayAttr[AffineMapAttr],
        iterator_types: Sequence[Attribute] | ArrayAttr[Attribute],
        result_types: Sequence[Attribute] = (),
        doc: StringAttr | None = None,
        library_call: StringAttr | None = None,
    ) -> None:
        super().__init__(
            operands=[inputs, outputs],
            result_types=[result_types],
            properties={
                "indexing_maps": ArrayAttr(indexing_maps),
                "iterator_types": ArrayAttr(iterator_types),
                "doc": doc,
                "library_call": library_call,
            },
            regions=[body],
        )

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return self.iterator_types

    def asm_block_arg_names(self, region: Region) -> list[str]:
        """``%in`` for the inputs' elements, ``%out`` for the outputs'."""
        if not region.blocks:
            return []
        return block_arg_names(len(region.block.args), len(self.inputs), "out")

    def verify_(self) -> None:
        verify_destination_style(self, list(self.outputs))
        maps = [m.data for m in self.indexing_maps]
        verify_structured(self, maps, len(self.iterator_types))

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        pos = parser.pos
        if parser._current_token.kind == MLIRTokenKind.HASH_IDENT:  # pyright: ignore[reportPrivateUsage]
            # the trait dictionary by an alias (``#trait = {...}``), as upstream allows
            alias = parser.parse_attribute()
            if not isinstance(alias, DictionaryAttr):
                parser.raise_error("expected a dictionary attribute for the trait", pos, parser.pos)
            trait_attrs = dict(alias.data)
        else:
            trait_attrs = parser.parse_optional_attr_dict()
        iterators = trait_attrs.get("iterator_types")
        if not isinstance(iterators, ArrayAttr):
            parser.raise_error(
                'expected "iterator_types" array attribute', pos, parser.pos
            )
        kinds: list[Attribute] = []
        for kind in iterators.data:
            if isinstance(kind, IteratorTypeAttr):
                kinds.append(kind)
                continue
            text = kind.data if isinstance(kind, StringAttr) else str(kind)
            if text not in IteratorType.__members__.values():
                parser.raise_error(f"unexpected iterator_type ({text})")
            kinds.append(IteratorTypeAttr(IteratorType(text)))
        trait_attrs["iterator_types"] = ArrayAttr(kinds)
        props = parser.parse_optional_properties_dict()
        trait_attrs.update(parser.parse_optional_attr_dict())
        inputs, outputs = parse_ins_outs(parser)
        if parser.parse_optional_keyword("attrs") is not None:
            parser.parse_punctuation("=")
            trait_attrs.update(parser.parse_optional_attr_dict())
        region = parser.parse_region()
        result_types = parse_optional_arrow_type_list(parser) or []
        for name in _GENERIC_TRAIT_NAMES:
            if name in trait_attrs:
                props[name] = trait_attrs.pop(name)
        op = cls.build(
            operands=[inputs, outputs],
            result_types=[result_types],
            properties=props,
            attributes=trait_attrs,
            regions=[region],
        )
        return op

    def print(self, printer: Printer) -> None:
        traits: dict[str, Attribute] = {
            name: self.properties[name]
            for name in _GENERIC_TRAIT_NAMES
            if name in self.properties
        }
        traits["iterator_types"] = ArrayAttr(
            [StringAttr(k.data.value) for k in self.iterator_types]
        )
        printer.print_string(" ")
        printer.print_attr_dict(traits)
        print_ins_outs(printer, self.inputs, self.outputs)
        if self.attributes:
            # Upstream prints ` attrs = ` and then the dictionary with its own leading space.
            printer.print_string(" attrs = ")
            printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body)
        print_optional_arrow_type_list(printer, self.res.types)


def payload_op(block: Block, num_operands: int, init_first: bool) -> Operation | None:
    """The one op of a body that the short form ``{ op.name }`` stands for, as
    upstream's ``findPayloadOp``: its operands are the block arguments in order
    (with ``init_first``, the last argument comes first)."""
    ops = list(block.ops)
    if len(ops) != 2 or not isinstance(ops[1], YieldOp):
        return None
    payload = ops[0]
    args = list(block.args)
    expected = [args[-1], *args[:-1]] if init_first else args[:num_operands]
    if not payload.operands or list(payload.operands) != expected:
        return None
    if payload.regions or len(payload.results) != 1:
        return None
    if list(ops[1].operands) != [payload.results[0]]:
        return None
    return payload


def print_short_form(printer: Printer, payload: Operation) -> None:
    printer.print_string(f" {{ {payload.name}")
    attrs = {**payload.properties, **payload.attributes}
    # Upstream elides fastmath only when it is `none`.
    if attrs.get("fastmath") == FastMathFlagsAttr("none"):
        del attrs["fastmath"]
    printer.print_op_attributes(attrs)
    printer.print_string(" }")


def parse_short_form(
    parser: Parser,
) -> tuple[type[Operation], dict[str, Attribute]] | None:
    if parser.parse_optional_punctuation("{") is None:
        return None
    pos = parser.pos
    name = parser.parse_identifier()
    op_def = parser.ctx.get_optional_op(name)
    if op_def is None:
        parser.raise_error(f"unregistered operation '{name}'", pos, parser.pos)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")
    return op_def, attrs


def build_payload_region(
    op_def: type[Operation],
    attrs: dict[str, Attribute],
    operand_types: Sequence[Attribute],
    num_payload_operands: int,
    init_first: bool,
) -> Region:
    """Upstream's ``addBodyWithPayloadOp``: one block argument per operand, the
    payload op over them and a yield of its result."""
    block = Block(arg_types=[element_type(t) for t in operand_types])
    args = list(block.args)
    operands = [args[-1], *args[:-1]] if init_first else args[:num_payload_operands]
    prop_names = (
        op_def.get_irdl_definition().properties
        if hasattr(op_def, "get_irdl_definition")
        else {}
    )
    props = {k: v for k, v in attrs.items() if k in prop_names}
    discardable = {k: v for k, v in attrs.items() if k not in prop_names}
    payload = op_def.create(
        operands=operands,
        result_types=[element_type(operand_types[-1])],
        properties=props,
        attributes=discardable,
    )
    block.add_op(payload)
    block.add_op(YieldOp(payload.results[0]))
    return Region(block)


def parse_long_form_region(parser: Parser) -> Region:
    args = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_argument
    )
    return parser.parse_region(args)


def print_long_form_region(printer: Printer, region: Region) -> None:
    """A newline, ``(%in: f32, %init: f32) {...}`` one level deeper, as upstream."""
    with printer.indented():
        printer._print_new_line()
        printer.print_string("(")
        printer.print_list(region.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(region, print_entry_block_args=False)
