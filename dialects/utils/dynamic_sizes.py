"""Mixed static and dynamic sizes, as upstream's ops store them: a static list
holding ``ShapedType::kDynamic`` (xDSL's ``DYNAMIC_INDEX``) wherever an SSA
value stands, and upstream's check of a shaped result against its size values.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, ShapedType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException


def count_dynamic(sizes: Sequence[int]) -> int:
    """How many entries of ``sizes`` an SSA value stands for."""
    return sum(1 for s in sizes if s == DYNAMIC_INDEX)


def verify_dynamic_size_count(result_type: Attribute, num_values: int) -> None:
    """Upstream's ``verifyDynamicDimensionCount``: one index value per ``?`` of
    a ranked result type (none for an unranked one)."""
    shape = result_type.get_shape() if isinstance(result_type, ShapedType) else ()
    expected = count_dynamic(shape)
    if num_values != expected:
        raise VerifyException(
            f"incorrect number of dynamic sizes, has {num_values}, expected {expected}"
        )
