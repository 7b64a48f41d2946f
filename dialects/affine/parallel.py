"""affine.parallel with upstream's syntax and verifier.

It subclasses xDSL's op (same property names as upstream) but replaces its
syntax, which xDSL cannot read in custom form, and its ``reductions``, which
xDSL stores as strings where upstream stores ``arith::AtomicRMWKind`` integers.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ArrayAttr, DenseIntOrFPElementsAttr
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, Signedness, TensorType, i32
from xdsl.dialects.builtin import i64
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, prop_def, region_def, traits_def, var_operand_def
from xdsl.irdl import var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.affine.loops import ensure_yield
from mlkit.dialects.affine.ops import YieldOp
from mlkit.dialects.affine.scope import verify_dims_and_symbols
from mlkit.dialects.affine.syntax import MapOfSSAIds, parse_expr_of_ssa_ids, parse_map_of_ssa_ids
from mlkit.dialects.affine.syntax import print_expr_of_ssa_ids, print_map_of_ssa_ids
from mlkit.dialects.utils.enums import ATOMIC_RMW_KINDS
from mlkit.dialects.utils.type_lists import parse_optional_arrow_type_list
from mlkit.dialects.utils.type_lists import print_arrow_paren_type_list


def _reduction_fits(kind: str, result: Attribute) -> bool:
    """Upstream's ``isResultTypeMatchAtomicRMWKind``."""
    if kind == "assign":
        return True
    if kind in ("addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf"):
        return isinstance(result, AnyFloat)
    if not isinstance(result, IntegerType):
        return False
    if kind in ("maxs", "mins"):
        return result.signedness.data == Signedness.SIGNED
    if kind in ("maxu", "minu"):
        return result.signedness.data == Signedness.UNSIGNED
    return True


def _group_attr(sizes: Sequence[int]) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(i32, [len(sizes)]), sizes)


def _parse_parallel_bound(parser: Parser, keyword: str) -> tuple[AffineMap, list[int], list[SSAValue]]:
    """Upstream's ``parseAffineMapWithMinMax``: groups of expressions, a group
    of several written ``max(...)``/``min(...)``; operands are deduplicated."""
    groups: list[MapOfSSAIds] = []

    def parse_group() -> None:
        if parser.parse_optional_keyword(keyword) is not None:
            groups.append(parse_map_of_ssa_ids(parser, Parser.Delimiter.PAREN))
        else:
            groups.append(parse_expr_of_ssa_ids(parser))

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_group)
    dims: list[SSAValue] = []
    syms: list[SSAValue] = []
    exprs: list[AffineExpr] = []
    index = IndexType()
    for group in groups:
        m = group.map
        values = [parser.resolve_operand(u, index) for u in group.operands]
        new_dims: list[AffineExpr] = []
        for v in values[: m.num_dims]:
            if v not in dims:
                dims.append(v)
            new_dims.append(AffineExpr.dimension(dims.index(v)))
        new_syms: list[AffineExpr] = []
        for v in values[m.num_dims :]:
            if v not in syms:
                syms.append(v)
            new_syms.append(AffineExpr.symbol(syms.index(v)))
        exprs.extend(e.replace_dims_and_symbols(new_dims, new_syms) for e in m.results)
    sizes = [len(g.map.results) for g in groups]
    return AffineMap(len(dims), len(syms), tuple(exprs)), sizes, [*dims, *syms]


def _print_parallel_bound(
    printer: Printer, amap: AffineMap, groups: Sequence[int], operands: Sequence[SSAValue], keyword: str
) -> None:
    """Upstream's ``printMinMaxBound``."""
    dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
    start = 0
    for i, size in enumerate(groups):
        if i:
            printer.print_string(", ")
        if size == 1:
            print_expr_of_ssa_ids(printer, amap.results[start], dims, syms)
        else:
            printer.print_string(f"{keyword}(")
            sub = AffineMap(amap.num_dims, amap.num_symbols, amap.results[start : start + size])
            print_map_of_ssa_ids(printer, sub, operands)
            printer.print_string(")")
        start += size


@irdl_op_definition
class ParallelOp(xaffine.ParallelOp):
    """``affine.parallel (%i, %j) = (lbs) to (ubs) step (...) reduce (...) -> (...)``."""

    name = "affine.parallel"
    map_operands = var_operand_def(IndexType)
    reductions = prop_def(ArrayAttr[IntegerAttr])
    lowerBoundsMap = prop_def(AffineMapAttr)
    lowerBoundsGroups = prop_def(DenseIntOrFPElementsAttr)
    upperBoundsMap = prop_def(AffineMapAttr)
    upperBoundsGroups = prop_def(DenseIntOrFPElementsAttr)
    steps = prop_def(ArrayAttr[IntegerAttr])
    res = var_result_def()
    body = region_def("single_block")
    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        lb_map, lb_groups, lb_operands = _parse_parallel_bound(parser, "max")
        parser.parse_keyword("to")
        ub_map, ub_groups, ub_operands = _parse_parallel_bound(parser, "min")
        steps = [1] * len(ivs)
        if parser.parse_optional_keyword("step") is not None:
            pos = parser.pos
            step_map = parse_map_of_ssa_ids(parser, Parser.Delimiter.PAREN).map
            steps = []
            for expr in step_map.results:
                if not isinstance(expr, AffineConstantExpr):
                    parser.raise_error("steps must be constant integers", pos)
                steps.append(expr.value)
        reductions: list[int] = []
        if parser.parse_optional_keyword("reduce") is not None:

            def parse_reduction() -> int:
                pos = parser.pos
                name = parser.parse_str_literal()
                if name not in ATOMIC_RMW_KINDS:
                    parser.raise_error(f'invalid reduction value: "{name}"', pos)
                return ATOMIC_RMW_KINDS.index(name)

            reductions = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_reduction)
        types = parse_optional_arrow_type_list(parser) or []
        body = parser.parse_region([iv.resolve(IndexType()) for iv in ivs])
        attrs = parser.parse_optional_attr_dict()
        ensure_yield(body)
        return cls.create(
            operands=[*lb_operands, *ub_operands],
            result_types=types,
            properties={
                "reductions": ArrayAttr(IntegerAttr(r, i64) for r in reductions),
                "lowerBoundsMap": AffineMapAttr(lb_map),
                "lowerBoundsGroups": _group_attr(lb_groups),
                "upperBoundsMap": AffineMapAttr(ub_map),
                "upperBoundsGroups": _group_attr(ub_groups),
                "steps": ArrayAttr(IntegerAttr(s, i64) for s in steps),
            },
            attributes=attrs,
            regions=[body],
        )

    @property
    def lower_operands(self) -> Sequence[SSAValue]:
        m = self.lowerBoundsMap.data
        return self.map_operands[: m.num_dims + m.num_symbols]

    @property
    def upper_operands(self) -> Sequence[SSAValue]:
        m = self.lowerBoundsMap.data
        return self.map_operands[m.num_dims + m.num_symbols :]

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.body.block.args, printer.print_ssa_value)
        printer.print_string(") = (")
        _print_parallel_bound(
            printer, self.lowerBoundsMap.data, self.lowerBoundsGroups.get_values(), self.lower_operands, "max"
        )
        printer.print_string(") to (")
        _print_parallel_bound(
            printer, self.upperBoundsMap.data, self.upperBoundsGroups.get_values(), self.upper_operands, "min"
        )
        printer.print_string(")")
        steps = [s.value.data for s in self.steps]
        if any(s != 1 for s in steps):
            printer.print_string(" step (" + ", ".join(map(str, steps)) + ")")
        if self.res:
            names = (ATOMIC_RMW_KINDS[r.value.data] for r in self.reductions)
            printer.print_string(" reduce (" + ", ".join(f'"{n}"' for n in names) + ")")
            print_arrow_paren_type_list(printer, self.result_types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=bool(self.res))
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        num_dims = len(self.steps)
        lb_groups = self.lowerBoundsGroups.get_values()
        ub_groups = self.upperBoundsGroups.get_values()
        num_args = len(self.body.block.args) if self.body.blocks else 0
        if not (len(lb_groups) == len(ub_groups) == num_args == num_dims):
            raise VerifyException(
                f"the number of region arguments ({num_args}) and the number of map groups for "
                f"lower ({len(lb_groups)}) and upper bound ({len(ub_groups)}), and the number of "
                f"steps ({num_dims}) must all match"
            )
        for bound, groups, amap in (
            ("lower", lb_groups, self.lowerBoundsMap),
            ("upper", ub_groups, self.upperBoundsMap),
        ):
            if sum(groups) != len(amap.data.results):
                raise VerifyException(f"expected {bound} bounds map to have {sum(groups)} results")
        if len(self.reductions) != len(self.res):
            raise VerifyException("a reduction must be specified for each output")
        for reduction, result in zip(self.reductions, self.res):
            kind = reduction.value.data
            if not 0 <= kind < len(ATOMIC_RMW_KINDS):
                raise VerifyException("invalid reduction attribute")
            if not _reduction_fits(ATOMIC_RMW_KINDS[kind], result.type):
                raise VerifyException("result type cannot match reduction attribute")
        lb = self.lowerBoundsMap.data
        if len(self.map_operands) < lb.num_dims + lb.num_symbols:
            raise VerifyException("too few operands for the lower bounds map")
        verify_dims_and_symbols(self, self.lower_operands, lb.num_dims)
        verify_dims_and_symbols(self, self.upper_operands, self.upperBoundsMap.data.num_dims)
