"""Shape utilities of mlkit's tensor dialect that the verifiers and later
passes both use: dynamic sizes, compatible shapes, rank reductions, bit widths.

Upstream's ODS descriptions of the tensor constraints live here too, for the
ops' ``CONSTRAINT_TEXT`` (see :func:`mlkit.dialects.utils.ods.upstream_op`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IntegerType, ShapedType, TensorType
from xdsl.dialects.builtin import UnrankedTensorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

# Upstream's ODS descriptions of the type constraints the tensor ops use.
ANY_TENSOR = "tensor of any non-token type values"
RANKED_TENSOR = "ranked tensor of any non-token type values"
STATIC_TENSOR = "statically shaped tensor of any non-token type values"


# --- shapes ---------------------------------------------------------------


def is_dynamic(size: int) -> bool:
    return size == DYNAMIC_INDEX


def shape_of(type_: Attribute) -> tuple[int, ...] | None:
    """The shape of a ranked shaped type, None for an unranked one."""
    if isinstance(type_, UnrankedTensorType):
        return None
    assert isinstance(type_, ShapedType)
    return tuple(type_.get_shape())


def element_type_of(type_: Attribute) -> Attribute:
    assert isinstance(type_, TensorType | UnrankedTensorType)
    return type_.element_type


def shapes_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's ``verifyCompatibleShape``: unranked matches anything; otherwise
    equal ranks and equal sizes wherever both are static."""
    sa, sb = shape_of(a), shape_of(b)
    if sa is None or sb is None:
        return True
    if len(sa) != len(sb):
        return False
    return all(is_dynamic(x) or is_dynamic(y) or x == y for x, y in zip(sa, sb))


def count_dynamic(sizes: Sequence[int]) -> int:
    return sum(1 for s in sizes if is_dynamic(s))


def verify_dynamic_size_count(result_type: Attribute, num_values: int) -> None:
    """Upstream's ``verifyDynamicDimensionCount``: one index value per ``?``."""
    shape = shape_of(result_type) or ()
    expected = count_dynamic(shape)
    if num_values != expected:
        raise VerifyException(
            f"incorrect number of dynamic sizes, has {num_values}, expected {expected}"
        )


def compute_rank_reduction_mask(
    original: Sequence[int], reduced: Sequence[int]
) -> set[int] | None:
    """The dimensions of ``original`` dropped to get ``reduced`` (MLIR's
    ``computeRankReductionMask``): unit dimensions, matched greedily from the
    left; None when ``reduced`` is not a rank reduction of ``original``."""
    unused: set[int] = set()
    reduced_idx = 0
    for original_idx, size in enumerate(original):
        if reduced_idx < len(reduced) and size == reduced[reduced_idx]:
            reduced_idx += 1
            continue
        unused.add(original_idx)
        if size != 1:
            return None
    if reduced_idx != len(reduced):
        return None
    return unused


def bit_width(element: Attribute) -> int | None:
    """Bit width of an integer or float element type."""
    if isinstance(element, IntegerType):
        return element.width.data
    if isinstance(element, AnyFloat):
        return element.bitwidth
    return None
