"""Shape utilities of mlkit's tensor dialect that the verifiers and later
passes both use: compatible shapes, rank reductions, bit widths (the checks of
dynamic sizes are shared with other dialects, in :mod:`mlkit.dialects.utils.dynamic_sizes`).

Upstream's ODS descriptions of the tensor constraints live here too, for the
ops' ``CONSTRAINT_TEXT`` (see :func:`mlkit.dialects.utils.ods.upstream_op`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IntegerType, ShapedType, TensorType
from xdsl.dialects.builtin import UnrankedTensorType
from xdsl.ir import Attribute, SSAValue

from mlkit.dialects.utils.ods import verify_that

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


def verify_element_type_match(value: SSAValue, tensor: Attribute, summary: str) -> None:
    """Upstream's ``TypesMatchWith`` between ``value`` and the element type of
    ``tensor``, checked only once ``tensor`` is one (its own constraint reports
    any other type)."""
    if isinstance(tensor, TensorType):
        verify_that(value.type == tensor.element_type, summary)


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
