"""``vector.mask`` and ``vector.yield``, which xDSL 0.75 lacks: one maskable
op in a region, predicated lane by lane, with upstream's custom syntax
(``vector.mask %m[, %passthru] { op } : vector<4xi1> -> vector<4xf32>``, the
terminator left implicit when it yields the masked op's results)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, VectorType, i1
from xdsl.dialects import vector as xvector
from xdsl.dialects.vector import CreateMaskOp as XCreateMaskOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_operand_def, operand_def
from xdsl.irdl import region_def, result_def, traits_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.utils.attr_dict import add_attr_dict, print_attr_dict
from mlkit.dialects.utils.ods import DeclarativeSyntax, upstream_op
from mlkit.dialects.vector.contract import ContractionOp

MASKABLE = frozenset({
    "vector.transfer_read", "vector.transfer_write", "vector.contract", "vector.reduction",
    "vector.multi_reduction", "vector.outerproduct", "vector.gather", "vector.scatter",
    "vector.expandload", "vector.compressstore",
})
"""Ops with upstream's ``MaskableOpInterface``."""


@irdl_op_definition
class MaskOp(IRDLOperation):
    """Predicates the one op in its region with ``mask``; masked-off result
    lanes take ``passthru`` when given."""

    name = "vector.mask"

    mask = operand_def(VectorType.constr(i1))
    passthru = opt_operand_def()
    results_ = var_result_def()
    body = region_def("single_block")

    def __init__(self, mask: SSAValue, masked: Operation, passthru: SSAValue | None = None) -> None:
        block = Block([masked, YieldOp(masked.results)])
        super().__init__(
            operands=[mask, passthru],
            result_types=[[r.type for r in masked.results]],
            regions=[Region(block)],
        )

    @property
    def masked_op(self) -> Operation | None:
        """The op the mask applies to (None for a region that only yields)."""
        first = self.body.block.first_op
        return None if first is None or isinstance(first, YieldOp) else first

    @classmethod
    def parse(cls, parser: Parser) -> MaskOp:
        mask = parser.parse_unresolved_operand()
        passthru = None
        if parser.parse_optional_punctuation(","):
            passthru = parser.parse_unresolved_operand()
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mask_type = parser.parse_type()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            result_types = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_type
            )
        block = region.blocks[0] if region.blocks else None
        if block is None:
            region.add_block(block := Block())
        last = block.last_op
        if last is None or not isinstance(last, YieldOp):
            values = list(last.results) if last is not None else []
            block.add_op(YieldOp(values))
        operands = [parser.resolve_operand(mask, mask_type)]
        if passthru is not None:
            if len(result_types) != 1:
                parser.raise_error("expects a result type for the passthru value")
            operands.append(parser.resolve_operand(passthru, result_types[0]))
        op = cls.__new__(cls)
        IRDLOperation.__init__(
            op, operands=[operands[0], operands[1:]], result_types=[result_types], regions=[region]
        )
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.mask)
        if self.passthru is not None:
            printer.print_string(", ")
            printer.print_operand(self.passthru)
        block = self.body.block
        yield_ = block.last_op
        masked = self.masked_op
        implicit = (
            masked is not None and isinstance(yield_, YieldOp)
            and list(yield_.operands) == list(masked.results)
        )
        if implicit:
            assert masked is not None
            # upstream writes the masked op without its results
            printer.print_string(" { " + masked.name)
            masked.print(printer)
            printer.print_string(" }")
        else:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.mask.type)
        if self.results:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.results], printer.print_attribute)

    def verify_(self) -> None:
        block = self.body.block
        ops = list(block.ops)
        if not ops or not isinstance(ops[-1], YieldOp):
            raise VerifyException("expects a terminator within the mask region")
        if len(ops) > 2:
            raise VerifyException("expects only one operation to mask")
        yielded = ops[-1].operands
        if len(yielded) != len(self.results):
            raise VerifyException("expects number of results to match mask region yielded values")
        for value, result in zip(yielded, self.results):
            if value.type != result.type:
                raise VerifyException("expects result type to match mask region yielded value type")
        masked = self.masked_op
        if masked is None:
            return
        if masked.name not in MASKABLE:
            raise VerifyException("expects a MaskableOpInterface within the mask region")
        if len(masked.results) != len(self.results):
            raise VerifyException(
                "expects number of results to match maskable operation number of results"
            )
        for value, result in zip(masked.results, self.results):
            if value.type != result.type:
                raise VerifyException("expects result type to match maskable operation result type")
        if self.passthru is not None and (
            len(self.results) != 1 or self.passthru.type != self.results[0].type
        ):
            raise VerifyException("expects passthru type to match result type")
        expected = expected_mask_type(masked)
        if expected is not None and expected != self.mask.type:
            raise VerifyException(f"expects a '{expected}' mask for the maskable operation")


def expected_mask_type(op: Operation) -> VectorType | None:
    """The mask a maskable op takes (upstream's ``getExpectedMaskType``):
    over the memory dimensions a transfer touches, the iteration space of a
    contraction, the reduced vector of a reduction; None where not checked."""
    if isinstance(op, (xvector.TransferReadOp, xvector.TransferWriteOp)):
        vec = op.result.type if isinstance(op, xvector.TransferReadOp) else op.vector.type
        if isinstance(vec, VectorType) and len(op.permutation_map.data.results) == vec.get_num_dims():
            try:
                return xvector.TransferReadOp.infer_transfer_op_mask_type(vec, op.permutation_map.data)
            except AssertionError:
                return None  # not a permutation: the transfer's own verifier says so
        return None
    if isinstance(op, ContractionOp):
        extents = op.extents()
        if set(extents) != set(range(len(op.iterator_types.data))):
            return None
        return VectorType(i1, [extents[d] for d in range(len(extents))])
    if isinstance(op, xvector.ReductionOp) and isinstance(op.vector.type, VectorType):
        return VectorType(i1, op.vector.type.get_shape())
    return None


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a ``vector.mask`` region, yielding the masked op's results."""

    name = "vector.yield"

    operands_ = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(MaskOp))
    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, values: Sequence[SSAValue] = ()) -> None:
        super().__init__(operands=[list(values)])


@upstream_op
class CreateMaskOp(DeclarativeSyntax, XCreateMaskOp):
    """xDSL's op with upstream's wording for a missing size."""

    name = "vector.create_mask"

    mask_dim_sizes = var_operand_def(IndexType)
    mask_vector = result_def(VectorType.constr(i1))

    def verify_(self) -> None:
        mask_type = self.mask_vector.type
        if isinstance(mask_type, VectorType) and mask_type.get_num_dims() != len(self.mask_dim_sizes):
            raise VerifyException("must specify an operand for each result vector dimension")
