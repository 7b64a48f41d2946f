"""Mixed static and dynamic sizes, as upstream's ops store them: a static list
holding ``ShapedType::kDynamic`` (xDSL's ``DYNAMIC_INDEX``) wherever an SSA
value stands, upstream's check of a shaped result against its size values, and
``custom<DynamicIndexList>`` parsed with upstream's range check.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, ShapedType, i64
from xdsl.dialects.utils import DynamicIndexList as XDynamicIndexList
from xdsl.ir import Attribute
from xdsl.irdl.declarative_assembly_format import AttributeVariable, ParsingState
from xdsl.irdl.declarative_assembly_format import VariadicOperandVariable, irdl_custom_directive
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import VerifyException


def count_dynamic(sizes: Sequence[int]) -> int:
    """How many entries of ``sizes`` an SSA value stands for."""
    return sum(1 for s in sizes if s == DYNAMIC_INDEX)


def verify_dynamic_entries(plural: str, num_values: int, static: Sequence[int]) -> None:
    """One SSA value per ``kDynamic`` entry of ``static_<plural>`` (upstream's
    ``OffsetSizeAndStrideOpInterface`` wording)."""
    num_dynamic = count_dynamic(static)
    if num_values != num_dynamic:
        raise VerifyException(
            f"expected the number of '{plural}' to match the number of dynamic "
            f"entries in 'static_{plural}' ({num_values} vs {num_dynamic})"
        )


def verify_dynamic_size_count(result_type: Attribute, num_values: int) -> None:
    """Upstream's ``verifyDynamicDimensionCount``: one index value per ``?`` of
    a ranked result type (none for an unranked one)."""
    shape = result_type.get_shape() if isinstance(result_type, ShapedType) else ()
    expected = count_dynamic(shape)
    if num_values != expected:
        raise VerifyException(
            f"incorrect number of dynamic sizes, has {num_values}, expected {expected}"
        )


# --- custom<DynamicIndexList> -------------------------------------------------

_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1


def _parse_entry(parser: Parser) -> int | UnresolvedOperand:
    """``%v`` or an integer that fits ``int64_t``, as upstream's
    ``parseInteger<int64_t>`` reads it: a larger one would wrap (2^63 becomes
    ``kDynamic``, which later stands for a value that is not there)."""
    if (value := parser.parse_optional_unresolved_operand()) is not None:
        return value
    start = parser.pos
    integer = parser.parse_integer(allow_boolean=False)
    if not _I64_MIN <= integer <= _I64_MAX:
        parser.raise_error("integer value too large", start, parser.pos)
    return integer


def parse_index_list(
    parser: Parser, delimiter: Parser.Delimiter = Parser.Delimiter.SQUARE
) -> tuple[list[UnresolvedOperand], list[int]]:
    """``[%a, 4, %b]``: the SSA values, and the static list with ``kDynamic``
    where they stand."""
    dynamic: list[UnresolvedOperand] = []
    static: list[int] = []
    for entry in parser.parse_comma_separated_list(delimiter, lambda: _parse_entry(parser)):
        if isinstance(entry, int):
            static.append(entry)
        else:
            static.append(DYNAMIC_INDEX)
            dynamic.append(entry)
    return dynamic, static


@irdl_custom_directive
class DynamicIndexList(XDynamicIndexList):
    """xDSL's ``custom<DynamicIndexList>`` with upstream's range check of the
    static entries (see :func:`_parse_entry`)."""

    dynamic_position: VariadicOperandVariable
    static_position: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        dynamic, static = parse_index_list(parser)
        self.dynamic_position.set(state, dynamic)
        self.static_position.set(state, DenseArrayBase.from_list(i64, static))
