"""Shared pieces of mlkit's tensor dialect: upstream-worded verification and
shape utilities that the verifiers and later passes both use.

Upstream reports a violated operand or result constraint as
``operand #1 must be ranked tensor of any non-token type values, but got
'tensor<*xf32>'``; xDSL's IRDL reports ``operand 'tensor' at position 0 does not
verify``. :func:`tensor_op` defines an op with IRDL and rewrites xDSL's wording
into upstream's, from the ``CONSTRAINT_TEXT`` each op declares next to its fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IntegerType,
    ShapedType,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, VerificationContext, irdl_op_definition
from xdsl.utils.exceptions import VerifyException

OpT = TypeVar("OpT", bound=type[IRDLOperation])

# Upstream's ODS descriptions of the type constraints the tensor ops use.
ANY_TENSOR = "tensor of any non-token type values"
RANKED_TENSOR = "ranked tensor of any non-token type values"
STATIC_TENSOR = "statically shaped tensor of any non-token type values"
INDEX = "index"
VARIADIC_INDEX = "variadic of index"

_IRDL_ARG_ERROR = re.compile(
    r"^(operand|result) '(\w+)' (?:expected )?at positions? (\d+)(?: to (\d+))? does not verify"
)


def type_str(attr: Attribute) -> str:
    """An attribute as upstream quotes it in diagnostics: ``'tensor<4xf32>'``."""
    return f"'{attr}'"


def _upstream_constraint_error(op: IRDLOperation, err: VerifyException) -> VerifyException:
    """Upstream's wording for an IRDL operand/result constraint failure, when
    the op declares a description for that field; ``err`` otherwise."""
    match = _IRDL_ARG_ERROR.match(str(err))
    texts: dict[str, str] = getattr(type(op), "CONSTRAINT_TEXT", {})
    if match is None or match.group(2) not in texts:
        return err
    kind, field, first = match.group(1), match.group(2), int(match.group(3))
    values: Sequence[SSAValue] = op.operands if kind == "operand" else op.results
    if first >= len(values):
        return err
    index = first
    last = int(match.group(4)) if match.group(4) else first
    # For a variadic field, name the first value whose type breaks the element constraint.
    arg_defs = dict(
        type(op).get_irdl_definition().operands
        if kind == "operand"
        else type(op).get_irdl_definition().results
    )
    element = getattr(arg_defs[field].constr, "constr", None)
    if element is not None and last > first:
        for i in range(first, last + 1):
            try:
                element.verify(values[i].type, VerificationContext())
            except VerifyException:
                index = i
                break
    return VerifyException(
        f"{kind} #{index} must be {texts[field]}, but got {type_str(values[index].type)}"
    )


def tensor_op(cls: OpT) -> OpT:
    """``irdl_op_definition`` with upstream's wording for constraint failures.

    A class that subclasses an xDSL op must define its own ``verify_`` (else
    IRDL would run the parent's generated verifier, constraints included, again).
    An optional ``verify_relations_`` runs first: upstream's ``TypesMatchWith``
    checks, which must guard against operands of the wrong kind themselves.
    """
    cls = irdl_op_definition(cls)
    generated: Callable[[IRDLOperation], None] = cls.verify_
    relations: Callable[[IRDLOperation], None] | None = getattr(cls, "verify_relations_", None)

    def verify_(self: IRDLOperation) -> None:
        # Upstream's TypesMatchWith predicates, before IRDL's type variables
        # would report the same mismatch in xDSL's words.
        if relations is not None:
            relations(self)
        try:
            generated(self)
        except VerifyException as err:
            translated = _upstream_constraint_error(self, err)
            if translated is err:
                raise
            raise translated from err

    cls.verify_ = verify_  # type: ignore[method-assign]
    return cls


class DeclarativeSyntax:
    """Mixin, listed first, for a subclass of an xDSL op with hand-written
    ``parse``/``print`` that declares an ``assembly_format`` instead: IRDL
    refuses both, so this restores ``Operation``'s defaults for it to replace."""

    print = Operation.print
    parse = classmethod(Operation.parse.__func__)  # type: ignore[attr-defined]


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
