"""What every linalg structured op shares: ``ins``/``outs`` syntax and the verifier.

The verifier is upstream's ``verifyDestinationStyleOpInterface`` followed by
``verifyStructuredOpInterface``, with upstream's messages. xDSL's
``LinalgStructuredOperation.verify_`` checks much of the same, but not the
destination-style rules and with different wording, so it is replaced here.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ShapedType, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.linalg.body import element_type
from mlkit.dialects.utils.operand_lists import parse_colon_typed_operands
from mlkit.dialects.utils.operand_lists import print_colon_typed_operands

__all__ = [
    "parse_ins_outs",
    "print_ins_outs",
    "verify_destination_style",
    "verify_structured",
]


# -- syntax ---------------------------------------------------------------------


def _parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """``keyword ( %a, %b : t1, t2 )``, or nothing when the keyword is absent."""
    if parser.parse_optional_keyword(keyword) is None:
        return []
    parser.parse_punctuation("(")
    pos = parser.pos
    names, types = parse_colon_typed_operands(parser)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(
            f"{len(names)} operands present, but expected {len(types)}", pos, parser.pos
        )
    return parser.resolve_operands(names, types, pos)


def parse_ins_outs(parser: Parser) -> tuple[list[SSAValue], list[SSAValue]]:
    """Upstream's ``parseCommonStructuredOpParts`` without the attribute dictionaries."""
    return _parse_operand_group(parser, "ins"), _parse_operand_group(parser, "outs")


def print_ins_outs(
    printer: Printer, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> None:
    for keyword, values in (("ins", inputs), ("outs", outputs)):
        if not values:
            continue
        printer.print_string(f" {keyword}(")
        print_colon_typed_operands(printer, values)
        printer.print_string(")")


# -- verification -----------------------------------------------------------------


def verify_destination_style(op: Operation, outputs: Sequence[SSAValue]) -> None:
    """Each tensor init has one result of its type; memref inits have none."""
    first_init = len(op.operands) - len(outputs)
    tensor_inits: list[tuple[int, SSAValue]] = []
    for index, value in enumerate(outputs, start=first_init):
        if isinstance(value.type, TensorType):
            tensor_inits.append((index, value))
        elif not isinstance(value.type, MemRefType):
            raise VerifyException(
                f"expected that operand #{index} is a tensor or a memref"
            )
    num_tensor_results = sum(isinstance(r.type, TensorType) for r in op.results)
    if num_tensor_results != len(tensor_inits):
        raise VerifyException(
            f"expected the number of tensor results ({num_tensor_results}) to be equal "
            f"to the number of output tensors ({len(tensor_inits)})"
        )
    for result, (index, value) in zip(op.results, tensor_inits):
        if result.type != value.type:
            raise VerifyException(
                f"expected type of operand #{index} ('{value.type}') to match type of "
                f"corresponding result ('{result.type}')"
            )


def value_shape(value: SSAValue) -> tuple[int, ...]:
    """The shape of a shaped value; ``()`` for a scalar."""
    t = value.type
    return tuple(t.get_shape()) if isinstance(t, ShapedType) else ()


def static_loop_ranges(
    maps: Sequence[AffineMap], operands: Sequence[SSAValue]
) -> list[int] | None:
    """Each loop's trip count, read off the first operand dimension indexed by that
    loop alone (upstream's ``getStaticLoopRanges``); None when some loop is not."""
    num_loops = maps[0].num_dims if maps else 0
    ranges: list[int | None] = [None] * num_loops
    for indexing_map, value in zip(maps, operands):
        for expr, size in zip(indexing_map.results, value_shape(value)):
            if isinstance(expr, AffineDimExpr) and ranges[expr.position] is None:
                ranges[expr.position] = size
    if any(r is None for r in ranges):
        return None
    return [r for r in ranges if r is not None]


def verify_structured(
    op: Operation,
    maps: Sequence[AffineMap],
    num_loops: int,
    *,
    check_block: bool = True,
) -> None:
    """Upstream's ``verifyStructuredOpInterface``: maps against operands, shapes
    against the loop ranges the maps imply, block arguments against elements."""
    operands = list(op.operands)
    if len(maps) != len(operands):
        raise VerifyException(
            f"expected the number of indexing_map ({len(maps)}) to be equal to the "
            f"number of input/output operands ({len(operands)})"
        )
    for index, (indexing_map, value) in enumerate(zip(maps, operands)):
        if indexing_map.num_symbols != 0:
            raise VerifyException(f"unexpected symbols in indexing_map #{index}")
        if indexing_map.num_dims != num_loops:
            raise VerifyException(
                f"expected indexing_map #{index} to have {num_loops} dim(s) to match "
                "the number of loops"
            )
        rank = len(value_shape(value))
        if len(indexing_map.results) != rank:
            raise VerifyException(
                f"expected operand #{index} rank ({rank}) to match the result rank of "
                f"indexing_map ({len(indexing_map.results)})"
            )

    ranges = static_loop_ranges(maps, operands)
    if ranges is None:
        raise VerifyException("expected the shape-to-loops map to be non-null")
    if DYNAMIC_INDEX not in ranges:
        ends = [r - 1 for r in ranges]
        starts = [0] * len(ranges)
        for index, (indexing_map, value) in enumerate(zip(maps, operands)):
            first = indexing_map.eval(starts, [])
            last = indexing_map.eval(ends, [])
            for dim, size in enumerate(value_shape(value)):
                if size == DYNAMIC_INDEX or size == 0:
                    continue
                inferred = max(first[dim], last[dim]) + 1
                if min(first[dim], last[dim]) < 0:
                    raise VerifyException(
                        f"unexpected result less than 0 at expression #{dim} in {indexing_map}"
                    )
                if isinstance(indexing_map.results[dim], AffineDimExpr):
                    if inferred != size:
                        raise VerifyException(
                            f"inferred input/output operand #{index} has shape's dimension "
                            f"#{dim} to be {inferred}, but found {size}"
                        )
                elif inferred > size:
                    raise VerifyException(
                        f"inferred input/output operand #{index} has shape's dimension "
                        f"#{dim} to be greater than or equal to {inferred}, but found {size}"
                    )

    if not check_block:
        return
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise VerifyException("expects to have 1 region with 1 block")
    block = op.regions[0].block
    if len(block.args) != len(operands):
        raise VerifyException(
            "expected as many non-induction variable region arguments as the number "
            "of input/output operands"
        )
    for index, (value, arg) in enumerate(zip(operands, block.args)):
        expected = element_type(value.type)
        if arg.type != expected:
            raise VerifyException(
                f"expected type of bb argument #{index} ('{arg.type}') to match element "
                f"or self type of the corresponding operand ('{expected}')"
            )
