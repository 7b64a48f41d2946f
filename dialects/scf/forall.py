"""``scf.forall`` and its terminator ``scf.forall.in_parallel`` (missing in xDSL).

Bounds are mixed static/dynamic lists, as upstream stores them: the
``static*`` properties hold each value, with ``ShapedType::kDynamic`` where an
index operand supplies it. The loop prints in upstream's normalized form
``in (%n, 4)`` when every lower bound is a static 0 and every step a static 1,
and as ``= (lb) to (ub) step (s)`` otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, DenseArrayBase, IndexType, TensorType
from xdsl.dialects.builtin import UnregisteredAttr, i32, i64
from xdsl.dialects.utils import parse_assignment, print_assignment
from xdsl.dialects.utils.dynamic_index_list import print_dynamic_index_list
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, lazy_traits_def
from xdsl.irdl import opt_prop_def, prop_def, region_def, traits_def, var_operand_def
from xdsl.irdl import var_result_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, NoTerminator, RecursiveMemoryEffect
from xdsl.traits import SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from mlkit.diagnostics.verifier import ErrorAt
from mlkit.dialects.utils.dynamic_sizes import count_dynamic, parse_index_list
from mlkit.dialects.utils.regions import ensure_implicit_terminator
from mlkit.dialects.utils.type_lists import print_arrow_paren_type_list



_PARALLEL_COMBINING: dict[str, int] = {"tensor.parallel_insert_slice": 1}
"""Upstream's ``ParallelCombiningOpInterface`` ops: the operand each updates."""


def _is_device_mask(attr: Attribute) -> bool:
    """Upstream's ``DeviceMaskingAttrInterface`` (``#gpu.mask<...>``), which
    ``mapping`` may hold besides one attribute per loop."""
    if isinstance(attr, UnregisteredAttr):
        return attr.attr_name.data.split("<", 1)[0] == "gpu.mask"
    return getattr(attr, "name", None) == "gpu.mask"


def _parse_mixed(parser: Parser) -> tuple[list[int], list[UnresolvedOperand]]:
    """``(4, %n)``: static values, with the dynamic marker where an operand stands."""
    dynamic, static = parse_index_list(parser, parser.Delimiter.PAREN)
    return list(static), list(dynamic)


def _print_mixed(printer: Printer, static: Sequence[int], dynamic: Sequence[SSAValue]) -> None:
    print_dynamic_index_list(
        printer, DYNAMIC_INDEX, dynamic, static, delimiter=Parser.Delimiter.PAREN
    )


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """``scf.forall.in_parallel { ... }``: the parallel-combining terminator."""

    name = "scf.forall.in_parallel"

    region = region_def("single_block")
    traits = lazy_traits_def(lambda: (IsTerminator(), NoTerminator(), HasParent(ForallOp)))

    def __init__(self) -> None:
        super().__init__(regions=[Region(Block())])

    def verify_(self) -> None:
        """Upstream's ``InParallelOp::verify``: only parallel-combining ops,
        each updating a shared output of the enclosing loop."""
        forall = self.parent_op()
        if not isinstance(forall, ForallOp):
            raise VerifyException("expected forall op parent")
        outs = forall.body.block.args[len(forall.staticUpperBound.get_values()) :]
        for op in self.region.block.ops:
            if op.name not in _PARALLEL_COMBINING:
                raise VerifyException("expected only ParallelCombiningOpInterface ops")
            if op.operands[_PARALLEL_COMBINING[op.name]] not in outs:
                raise ErrorAt(op, "may only insert into an output block argument")

    @classmethod
    def parse(cls, parser: Parser) -> InParallelOp:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls.create(regions=[region])
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.region, print_entry_block_args=False, print_empty_block=False)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ForallOp(IRDLOperation):
    """``scf.forall (%i) in (%n) shared_outs(%o = %t) -> (tensor<?xf32>)``."""

    name = "scf.forall"

    dynamicLowerBound = var_operand_def(IndexType)
    dynamicUpperBound = var_operand_def(IndexType)
    dynamicStep = var_operand_def(IndexType)
    outputs = var_operand_def(TensorType)
    staticLowerBound = prop_def(DenseArrayBase.constr(i64))
    staticUpperBound = prop_def(DenseArrayBase.constr(i64))
    staticStep = prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(ArrayAttr)
    res = var_result_def(TensorType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(SingleBlockImplicitTerminator(InParallelOp), RecursiveMemoryEffect())

    def verify_(self) -> None:
        """Upstream's ``ForallOp::verify`` checks, in its order and words."""
        if len(self.res) != len(self.outputs):
            raise VerifyException(
                f"produces {len(self.res)} results, but has only {len(self.outputs)} outputs"
            )
        first_out = len(self.operands) - len(self.outputs)
        for i, (res, out) in enumerate(zip(self.res, self.outputs)):
            if res.type != out.type:
                raise VerifyException(
                    f"expected type of operand #{first_out + i} ('{out.type}') to match type "
                    f"of corresponding result ('{res.type}')"
                )
        rank = len(self.staticLowerBound.get_values())
        args = self.body.block.args
        if len(args) != rank + len(self.outputs):
            raise VerifyException(f"region expects {rank} arguments")
        for i in range(rank):
            if not isinstance(args[i].type, IndexType):
                raise VerifyException(f"expects {i}-th block argument to be an index")
        for i, out in enumerate(self.outputs):
            if args[rank + i].type != out.type:
                raise VerifyException(
                    f"type mismatch between {i}-th output and corresponding block argument"
                )
        if self.mapping is not None and self.mapping.data:
            masks = sum(map(_is_device_mask, self.mapping.data))
            if len(self.mapping.data) - masks != rank:
                raise VerifyException("mapping attribute size must match op rank")
            if masks > 1:
                raise VerifyException(
                    '"mapping" supports at most one device masking attribute'
                )
        for what, static, dynamic in (
            ("lower bound", self.staticLowerBound.get_values(), self.dynamicLowerBound),
            ("upper bound", self.staticUpperBound.get_values(), self.dynamicUpperBound),
            ("step", self.staticStep.get_values(), self.dynamicStep),
        ):
            if len(static) != rank:
                raise VerifyException(f"expected {rank} {what} values, got {len(static)}")
            if (expected := count_dynamic(static)) != len(dynamic):
                raise VerifyException(
                    f"expected {expected} dynamic {what} values, got {len(dynamic)}"
                )

    def _normalized(self) -> bool:
        return (
            not self.dynamicLowerBound
            and not self.dynamicStep
            and all(v == 0 for v in self.staticLowerBound.get_values())
            and all(v == 1 for v in self.staticStep.get_values())
        )

    @classmethod
    def parse(cls, parser: Parser) -> ForallOp:
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        rank = len(ivs)
        if parser.parse_optional_keyword("in") is not None:
            ub, ub_dyn = _parse_mixed(parser)
            lb, lb_dyn, step, step_dyn = [0] * rank, [], [1] * rank, []
        else:
            parser.parse_punctuation("=")
            lb, lb_dyn = _parse_mixed(parser)
            parser.parse_keyword("to")
            ub, ub_dyn = _parse_mixed(parser)
            parser.parse_keyword("step")
            step, step_dyn = _parse_mixed(parser)
        outs: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        out_types: list[Attribute] = []
        outs_pos = parser.pos
        if parser.parse_optional_keyword("shared_outs") is not None:
            outs = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            parser.parse_punctuation("->")
            out_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        index = IndexType()

        def resolve(values: list[UnresolvedOperand]) -> list[SSAValue]:
            return [parser.resolve_operand(v, index) for v in values]

        out_values = parser.resolve_operands([o for _, o in outs], out_types, outs_pos)
        args = [iv.resolve(index) for iv in ivs] + [a.resolve(t) for (a, _), t in zip(outs, out_types)]
        region = parser.parse_region(args)
        attrs = parser.parse_optional_attr_dict()
        props: dict[str, Attribute] = {
            "staticLowerBound": DenseArrayBase.from_list(i64, lb),
            "staticUpperBound": DenseArrayBase.from_list(i64, ub),
            "staticStep": DenseArrayBase.from_list(i64, step),
        }
        if "mapping" in attrs:
            props["mapping"] = attrs.pop("mapping")
        op = cls.create(
            operands=[*resolve(lb_dyn), *resolve(ub_dyn), *resolve(step_dyn), *out_values],
            result_types=out_types,
            properties=props,
            attributes=attrs,
            regions=[region],
        )
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [len(lb_dyn), len(ub_dyn), len(step_dyn), len(out_values)]
        )
        # the implicit, empty terminator; another one is the verifier's to report
        ensure_implicit_terminator(op.body, InParallelOp)
        return op

    def print(self, printer: Printer) -> None:
        rank = len(self.staticUpperBound.get_values())
        args = self.body.block.args
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(args[:rank], printer.print_operand)
        if self._normalized():
            printer.print_string(" in ")
            _print_mixed(printer, self.staticUpperBound.get_values(), self.dynamicUpperBound)
        else:
            printer.print_string(" = ")
            _print_mixed(printer, self.staticLowerBound.get_values(), self.dynamicLowerBound)
            printer.print_string(" to ")
            _print_mixed(printer, self.staticUpperBound.get_values(), self.dynamicUpperBound)
            printer.print_string(" step ")
            _print_mixed(printer, self.staticStep.get_values(), self.dynamicStep)
        if self.outputs:
            printer.print_string(" shared_outs(")
            printer.print_list(
                zip(args[rank:], self.outputs), lambda pair: print_assignment(printer, *pair)
            )
            printer.print_string(")")
            print_arrow_paren_type_list(printer, self.res.types)
        printer.print_string(" ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_block_terminators=bool(self.res)
        )
        extra = dict(self.attributes)
        if self.mapping is not None:
            extra["mapping"] = self.mapping
        printer.print_op_attributes(extra)

