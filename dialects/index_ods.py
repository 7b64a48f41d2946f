"""Upstream ODS behaviour that xDSL's IRDL lacks, for mlkit's ``index`` dialect.

* Verifier wording: xDSL's IRDL reports a violated constraint as ``operand 'lhs'
  at position 0 does not verify`` or ``property 'pred' expected in operation
  'index.cmp'``; upstream as ``operand #0 must be index, but got 'i32'`` and
  ``requires attribute 'pred'``.
* Inherent attributes in the custom form's ``attr-dict``: upstream stores
  ``index.constant {value = 5 : index} 3`` as the property ``value = 5``;
  xDSL keeps a discardable ``value`` beside the property ``value = 3``.

:func:`index_op` defines an op with both of upstream's behaviours.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from xdsl.dialects.builtin import IndexType, i1
from xdsl.irdl import EqAttrConstraint, IRDLOperation, VerificationContext, irdl_op_definition
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

OpT = TypeVar("OpT", bound=type[IRDLOperation])

# ODS descriptions of the constraints the index ops use, and the constraints
INDEX = "index"
I1 = "1-bit signless integer"
INTEGER_OR_INDEX = "integer or index"

INDEX_TYPE = EqAttrConstraint(IndexType())
I1_TYPE = EqAttrConstraint(i1)


def _count_error(kind: str, expected: int, found: int) -> str:
    """Upstream's wording for its NOperands/OneOperand/ZeroOperands/OneResult traits."""
    if kind == "result":
        return "requires one result"  # every index op has exactly one
    if expected == 0:
        return "requires zero operands"
    if expected == 1:
        return "requires a single operand"
    return f"expected {expected} operands, but found {found}"


def verify_ods_invariants(op: IRDLOperation) -> None:
    """Check what upstream's ``verifyInvariants`` checks, in its order and words:
    operand and result counts, then required attributes and their constraints,
    then operand and result types. ``CONSTRAINT_TEXT`` gives the ODS description
    of each constrained field."""
    op_def = type(op).get_irdl_definition()
    texts: dict[str, str] = getattr(type(op), "CONSTRAINT_TEXT", {})
    if len(op.results) != len(op_def.results):
        raise VerifyException(_count_error("result", len(op_def.results), len(op.results)))
    if len(op.operands) != len(op_def.operands):
        raise VerifyException(_count_error("operand", len(op_def.operands), len(op.operands)))
    ctx = VerificationContext()
    for name, prop in op_def.properties.items():
        attr = op.properties.get(name)
        if attr is None:
            raise VerifyException(f"requires attribute '{name}'")
        try:
            prop.constr.verify(attr, ctx)
        except VerifyException:
            raise VerifyException(
                f"attribute '{name}' failed to satisfy constraint: {texts[name]}"
            ) from None
    for kind, defs, values in (
        ("operand", op_def.operands, op.operands),
        ("result", op_def.results, op.results),
    ):
        for i, ((name, arg), value) in enumerate(zip(defs, values, strict=True)):
            try:
                arg.constr.verify((value.type,), ctx)
            except VerifyException:
                raise VerifyException(
                    f"{kind} #{i} must be {texts[name]}, but got '{value.type}'"
                ) from None


def index_op(cls: OpT) -> OpT:
    """``irdl_op_definition`` with upstream's verifier wording and its reading
    of inherent attributes written in the custom form's ``attr-dict``.

    The verifier checks the invariants upstream's ``verifyInvariants`` checks,
    in its words, then runs the generated verifier and the op's own ``verify_``.
    """
    cls = irdl_op_definition(cls)
    generated: Callable[[IRDLOperation], None] = cls.verify_
    parse_format: Callable[[type[IRDLOperation], Parser], IRDLOperation] = cls.parse.__func__
    inherent = tuple(cls.get_irdl_definition().properties)

    def verify_(self: IRDLOperation) -> None:
        verify_ods_invariants(self)
        generated(self)

    def parse(op_type: type[IRDLOperation], parser: Parser) -> IRDLOperation:
        op = parse_format(op_type, parser)
        for name in inherent:
            if name in op.attributes:
                op.properties[name] = op.attributes.pop(name)
        return op

    cls.verify_ = verify_  # type: ignore[method-assign]
    cls.parse = classmethod(parse)  # type: ignore[method-assign, assignment]
    return cls
