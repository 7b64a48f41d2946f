"""linalg.map, linalg.reduce, linalg.transpose and linalg.broadcast.

Each takes one init (map, transpose, broadcast) or a list of them (reduce) and
has upstream's custom syntax: ``ins(...) outs(...)``, a required ``dimensions`` or
``permutation`` list, and for map and reduce either the short payload form
``{ arith.addf }`` or an explicit ``(%in: f32, %init: f32) { ... }`` region.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseArrayBase, ShapedType, TensorType
from xdsl.dialects.builtin import i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import IRDLOperation, SameVariadicOperandSize, irdl_op_definition, operand_def
from xdsl.irdl import prop_def, region_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from mlkit.dialects.linalg.base import parse_ins_outs, print_ins_outs, verify_destination_style
from mlkit.dialects.linalg.base import value_shape, verify_structured
from mlkit.dialects.linalg.body import YieldOp, element_type
from mlkit.dialects.linalg.structural import build_payload_region, iterators_attr, maps_attr
from mlkit.dialects.linalg.structural import block_arg_names, parse_dense_i64_keyword
from mlkit.dialects.linalg.structural import parse_long_form_region, parse_short_form, payload_op
from mlkit.dialects.linalg.structural import print_dense_i64_keyword, print_long_form_region
from mlkit.dialects.linalg.structural import print_short_form
from mlkit.dialects.utils.attr_dict import print_attr_dict, split_attr_dict

__all__ = ["BroadcastOp", "MapOp", "ReduceOp", "TransposeOp"]


def _fmt_shape(shape: Sequence[int]) -> str:
    return ", ".join("?" if d < 0 else str(d) for d in shape)


class DestinationStyleOp(IRDLOperation):
    """The structured-op interface (maps, iterators) over a one-block body, plus
    the shared ``ins(...) outs(...) <keyword> = [...] {attrs}`` syntax."""

    KEYWORD: ClassVar[str | None] = None
    RESULT_NAME: ClassVar[str] = ""

    def asm_result_name(self) -> str | None:
        """Upstream's ``getAsmResultNames``: ``%mapped``, ``%transposed``, ``%pack``..."""
        return self.RESULT_NAME or None

    def inits_list(self) -> list[SSAValue]:
        raise NotImplementedError

    def inputs_list(self) -> list[SSAValue]:
        raise NotImplementedError

    def indexing_maps_list(self) -> list[AffineMap]:
        raise NotImplementedError

    def iterator_kinds(self) -> list[IteratorType]:
        raise NotImplementedError

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return maps_attr(self.indexing_maps_list())

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return iterators_attr(self.iterator_kinds())

    def get_num_loops(self) -> int:
        return len(self.iterator_kinds())

    @property
    def outputs(self) -> list[SSAValue]:
        return self.inits_list()

    def verify_op(self) -> None:
        """The op's own checks (upstream's ``verify()``). They run before the
        structured interface's: upstream reports a bad permutation or dimension
        list rather than the shape mismatch it implies."""

    def verify_(self) -> None:
        verify_destination_style(self, self.inits_list())
        self.verify_op()
        verify_structured(self, self.indexing_maps_list(), self.get_num_loops())

    def _keyword_values(self) -> Sequence[int]:
        assert self.KEYWORD is not None
        return self.properties[self.KEYWORD].get_values()  # type: ignore[union-attr]

    def _print_tail(self, printer: Printer) -> None:
        print_ins_outs(printer, self.inputs_list(), self.inits_list())
        if self.KEYWORD is not None:
            print_dense_i64_keyword(printer, self.KEYWORD, self._keyword_values())
        elided = () if self.KEYWORD is None else (self.KEYWORD,)
        print_attr_dict(printer, self, elided, properties_first=True)

    @classmethod
    def _parse_tail(
        cls, parser: Parser
    ) -> tuple[
        list[SSAValue], list[SSAValue], dict[str, Attribute], dict[str, Attribute]
    ]:
        """Upstream's ``parseDstStyleOp``: operands, the required list, attributes."""
        props = parser.parse_optional_properties_dict()
        attrs = parser.parse_optional_attr_dict()
        inputs, inits = parse_ins_outs(parser)
        if cls.KEYWORD is not None:
            props[cls.KEYWORD] = parse_dense_i64_keyword(parser, cls.KEYWORD)
        attrs.update(parser.parse_optional_attr_dict())
        inherent, attrs = split_attr_dict(cls, attrs)
        return inputs, inits, props | inherent, attrs

    @classmethod
    def _build_parsed(
        cls,
        operands: Sequence[SSAValue | Sequence[SSAValue]],
        inits: Sequence[SSAValue],
        props: dict[str, Attribute],
        attrs: dict[str, Attribute],
        region: Region,
    ) -> Self:
        """The parsed op: one tensor result per tensor init, named as upstream names them."""
        op = cls.build(
            operands=operands,
            result_types=[[v.type for v in inits if isinstance(v.type, TensorType)]],
            properties=props,
            attributes=attrs,
            regions=[region],
        )
        for result in op.results:
            result.name_hint = cls.RESULT_NAME
        return op


class _PayloadOp(DestinationStyleOp):
    """map and reduce: a body written ``{ arith.addf }`` when it is one op over
    the block arguments (``INIT_FIRST``: the init's argument first, as reduce's
    combiner takes it), as ``(%in: f32, %init: f32) { ... }`` otherwise."""

    INIT_FIRST: ClassVar[bool] = False

    def _payload_arity(self) -> int:
        return len(self.operands) if self.INIT_FIRST else len(self.inputs_list())

    @classmethod
    def _check_inits(cls, parser: Parser, inits: Sequence[SSAValue]) -> None:
        """The op's own check of the parsed inits."""

    @classmethod
    def _parse_payload(
        cls, parser: Parser
    ) -> tuple[list[SSAValue], list[SSAValue], dict[str, Attribute], dict[str, Attribute], Region]:
        """The operands, properties, attributes and body of the custom form."""
        short = parse_short_form(parser)
        inputs, inits, props, attrs = cls._parse_tail(parser)
        cls._check_inits(parser, inits)
        operand_types = [v.type for v in (*inputs, *inits)]
        if short is not None:
            arity = len(operand_types) if cls.INIT_FIRST else len(inputs)
            region = build_payload_region(*short, operand_types, arity, init_first=cls.INIT_FIRST)
        else:
            region = parse_long_form_region(parser)
        return inputs, inits, props, attrs, region

    def print(self, printer: Printer) -> None:
        body = self.body  # pyright: ignore[reportAttributeAccessIssue]
        payload = payload_op(body.block, self._payload_arity(), init_first=self.INIT_FIRST)
        if payload is not None:
            print_short_form(printer, payload)
        self._print_tail(printer)
        if payload is None:
            print_long_form_region(printer, body)

    def asm_block_arg_names(self, region: Region) -> list[str]:
        """``%in`` for the inputs' elements, ``%init`` for the inits'."""
        return block_arg_names(len(region.block.args), len(self.inputs_list()), "init")


def _copy_body(input_type: Attribute, init_type: Attribute) -> Region:
    """The hidden body of transpose and broadcast: yield the input element."""
    block = Block(arg_types=[element_type(input_type), element_type(init_type)])
    block.add_op(YieldOp(block.args[0]))
    return Region(block)


@irdl_op_definition
class MapOp(_PayloadOp):
    """Applies the body to the elements of each input at the same index."""

    name = "linalg.map"
    RESULT_NAME: ClassVar[str] = "mapped"

    inputs = var_operand_def()
    init = operand_def(ShapedType)
    result = var_result_def(TensorType)
    mapper = region_def("single_block")

    def inputs_list(self) -> list[SSAValue]:
        return list(self.inputs)

    def inits_list(self) -> list[SSAValue]:
        return [self.init]

    def indexing_maps_list(self) -> list[AffineMap]:
        rank = len(value_shape(self.init))
        return [AffineMap.identity(rank)] * (len(self.inputs) + 1)

    def iterator_kinds(self) -> list[IteratorType]:
        return [IteratorType.PARALLEL] * len(value_shape(self.init))

    @property
    def body(self) -> Region:
        return self.mapper

    def verify_op(self) -> None:
        args = self.mapper.block.args
        if len(self.inputs) + 1 != len(args):
            raise VerifyException(
                "expects number of operands to match the arity of mapper, but got: "
                f"{len(self.inputs) + 1} and {len(args)}"
            )
        for arg, value in zip(args, self.inputs):
            expected = element_type(value.type)
            if arg.type != expected:
                raise VerifyException(
                    f"expected element type of input '{expected}' to match bbArg type '{arg.type}'"
                )
        out_shape = value_shape(self.init)
        for value in self.inputs:
            if (in_shape := value_shape(value)) != out_shape:
                raise VerifyException(
                    f"expected shape of input ({_fmt_shape(in_shape)}) to match shape of "
                    f"output ({_fmt_shape(out_shape)})"
                )

    @classmethod
    def _check_inits(cls, parser: Parser, inits: Sequence[SSAValue]) -> None:
        if len(inits) != 1:
            parser.raise_error("expected exactly one init in 'outs'")

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        inputs, inits, props, attrs, region = cls._parse_payload(parser)
        return cls._build_parsed([inputs, inits[0]], inits, props, attrs, region)


@irdl_op_definition
class ReduceOp(_PayloadOp):
    """Reduces the inputs along ``dimensions`` into the inits with the body."""

    name = "linalg.reduce"
    KEYWORD: ClassVar[str | None] = "dimensions"
    RESULT_NAME: ClassVar[str] = "reduced"
    INIT_FIRST: ClassVar[bool] = True

    inputs = var_operand_def(ShapedType)
    inits = var_operand_def(ShapedType)
    result = var_result_def(TensorType)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    combiner = region_def("single_block")

    irdl_options = (SameVariadicOperandSize(),)

    def inputs_list(self) -> list[SSAValue]:
        return list(self.inputs)

    def inits_list(self) -> list[SSAValue]:
        return list(self.inits)

    def indexing_maps_list(self) -> list[AffineMap]:
        rank = len(value_shape(self.inputs[0])) if self.inputs else 0
        reduced = set(self.dimensions.get_values())
        kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in reduced)
        return [AffineMap.identity(rank)] * len(self.inputs) + [
            AffineMap(rank, 0, kept)
        ] * len(self.inits)

    def iterator_kinds(self) -> list[IteratorType]:
        rank = len(value_shape(self.inputs[0])) if self.inputs else 0
        reduced = set(self.dimensions.get_values())
        return [
            IteratorType.REDUCTION if d in reduced else IteratorType.PARALLEL
            for d in range(rank)
        ]

    @property
    def body(self) -> Region:
        return self.combiner

    def verify_op(self) -> None:
        for group, what in ((self.inputs, "inputs"), (self.inits, "outputs")):
            index_name = "input" if what == "inputs" else "output"
            for i in range(1, len(group)):
                if value_shape(group[i]) != value_shape(group[0]):
                    raise VerifyException(
                        f"expects all {what} to have the same shapes. Shape at {index_name}-index "
                        f"{i} is not equal to the shape at {index_name}-index 0."
                    )
        in_shape = value_shape(self.inputs[0])
        init_shape = value_shape(self.inits[0])
        dims = self.dimensions.get_values()
        for d in dims:
            if d < 0 or d >= len(in_shape):
                raise VerifyException(
                    f"dimensions for reduction should be in the range [0, {len(in_shape) - 1}]."
                )
        kept = [s for i, s in enumerate(in_shape) if i not in set(dims)]
        if len(kept) != len(init_shape):
            raise VerifyException(
                f"number of dimensions after reduction {len(kept)} doesn't match the init "
                f"rank {len(init_shape)}"
            )
        if tuple(kept) != init_shape:
            raise VerifyException(
                f"init dimensions [{_fmt_shape(init_shape)}] doesn't match input dimensions "
                f"after reduction [{_fmt_shape(kept)}]"
            )
        block = self.combiner.block
        if len(block.args) != len(self.operands):
            raise VerifyException("mismatching number of operands and block arguments")
        for value, arg in zip(self.inputs, block.args):
            if element_type(value.type) != arg.type:
                raise VerifyException(
                    f"input element type '{element_type(value.type)}' does not match "
                    f"corresponding block argument type '{arg.type}'"
                )
        for value, arg in zip(
            self.inits, block.args[len(block.args) - len(self.inits) :]
        ):
            if element_type(value.type) != arg.type:
                raise VerifyException(
                    f"output element type '{element_type(value.type)}' does not match "
                    f"corresponding block argument type '{arg.type}'"
                )

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        inputs, inits, props, attrs, region = cls._parse_payload(parser)
        return cls._build_parsed([inputs, inits], inits, props, attrs, region)


class _CopyLikeOp(DestinationStyleOp):
    """One input, one init and a body that yields the input element."""

    input = operand_def(ShapedType)
    init = operand_def(ShapedType)
    result = var_result_def(TensorType)
    region = region_def("single_block")

    def __init__(self, input: SSAValue, init: SSAValue, values: Sequence[int]) -> None:
        """Build the op from Python, as ``TransposeOp(x, init, [1, 0])`` (the values are
        the permutation or the broadcast dimensions); the hidden body is made here,
        and a tensor init gives the op its result."""
        assert self.KEYWORD is not None
        super().__init__(
            operands=[input, init],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={self.KEYWORD: DenseArrayBase.from_list(i64, values)},
            regions=[_copy_body(input.type, init.type)],
        )
        for result in self.results:
            result.name_hint = self.RESULT_NAME

    @property
    def body(self) -> Region:
        return self.region

    def inputs_list(self) -> list[SSAValue]:
        return [self.input]

    def inits_list(self) -> list[SSAValue]:
        return [self.init]

    def iterator_kinds(self) -> list[IteratorType]:
        return [IteratorType.PARALLEL] * len(value_shape(self.init))

    @classmethod
    def parse(cls, parser: Parser) -> _CopyLikeOp:
        inputs, inits, props, attrs = cls._parse_tail(parser)
        if len(inputs) != 1 or len(inits) != 1:
            parser.raise_error(f"'{cls.name}' expects one input and one init")
        body = _copy_body(inputs[0].type, inits[0].type)
        return cls._build_parsed([inputs[0], inits[0]], inits, props, attrs, body)

    def print(self, printer: Printer) -> None:
        self._print_tail(printer)


@irdl_op_definition
class TransposeOp(_CopyLikeOp):
    """Permutes the dimensions of the input: ``init[i] = input[permutation[i]]``."""

    name = "linalg.transpose"
    KEYWORD: ClassVar[str | None] = "permutation"
    RESULT_NAME: ClassVar[str] = "transposed"

    permutation = prop_def(DenseArrayBase.constr(i64))

    def indexing_maps_list(self) -> list[AffineMap]:
        perm = self.permutation.get_values()
        rank = len(perm)
        # The input is read at the inverse permutation of the init's index.
        results = [AffineDimExpr(0)] * rank
        for i, p in enumerate(perm):
            if 0 <= p < rank:
                results[p] = AffineDimExpr(i)
        return [AffineMap(rank, 0, tuple(results)), AffineMap.identity(rank)]

    def verify_op(self) -> None:
        perm = list(self.permutation.get_values())
        if sorted(perm) != list(range(len(perm))):
            raise VerifyException("permutation is not valid")
        in_shape, init_shape = value_shape(self.input), value_shape(self.init)
        if len(in_shape) != len(init_shape):
            raise VerifyException(
                f"input rank ({len(in_shape)}) does not match init rank ({len(init_shape)})"
            )
        if len(perm) != len(in_shape):
            raise VerifyException(
                f"size of permutation ({len(perm)}) does not match the argument rank ({len(in_shape)})"
            )
        for i, p in enumerate(perm):
            if in_shape[p] != init_shape[i]:
                raise VerifyException(
                    f"dim(result, {i}) = {init_shape[i]} doesn't match dim(input, "
                    f"permutation[{i}]) = {in_shape[p]}"
                )


@irdl_op_definition
class BroadcastOp(_CopyLikeOp):
    """Adds the ``dimensions`` of the init that the input lacks."""

    name = "linalg.broadcast"
    KEYWORD: ClassVar[str | None] = "dimensions"
    RESULT_NAME: ClassVar[str] = "broadcasted"

    dimensions = prop_def(DenseArrayBase.constr(i64))

    def indexing_maps_list(self) -> list[AffineMap]:
        rank = len(value_shape(self.init))
        added = set(self.dimensions.get_values())
        kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in added)
        return [AffineMap(rank, 0, kept), AffineMap.identity(rank)]

    def verify_op(self) -> None:
        dims = list(self.dimensions.get_values())
        in_shape, init_shape = value_shape(self.input), value_shape(self.init)
        if len(in_shape) + len(dims) != len(init_shape):
            raise VerifyException(
                "input rank plus added dimensions does not match init rank. input rank: "
                f"{len(in_shape)}, dimensions size: {len(dims)}, init rank: {len(init_shape)}"
            )
        for index, d in enumerate(dims):
            if d < 0 or d >= len(init_shape):
                raise VerifyException(
                    f"dimension {index} is out of range. expected range: [0, "
                    f"{len(init_shape) - 1}], got: {d}"
                )
        kept = [d for d in range(len(init_shape)) if d not in dims]
        for in_dim, init_dim in enumerate(kept):
            if in_shape[in_dim] != init_shape[init_dim]:
                raise VerifyException(
                    f"input dim {in_dim} should match init dim {init_dim}. input: "
                    f"{in_shape[in_dim]}, init: {init_shape[init_dim]}"
                )
