"""Upstream ODS behaviour that xDSL's IRDL lacks, for any mlkit dialect.

* Verifier wording: IRDL reports a violated constraint as ``operand 'lhs' at
  position 0 does not verify``; upstream as ``operand #0 must be index, but got
  'i32'``, from the ODS description of the constraint. Each op lists those
  descriptions in ``CONSTRAINT_TEXT``, by field name.
* Invariant order (optional): upstream's ``verifyInvariants`` checks operand
  and result counts, then required attributes (``requires attribute 'pred'``),
  then types; IRDL checks in another order and words.
* Predicates: :func:`verify_that` words a failed ODS predicate as upstream does.
* Types the custom form names that break a constraint: xDSL's format parser
  checks them as it reads (``Unexpected attribute i32``); upstream's verifier
  reports them as for any op (``'arith.addf' op operand #0 must be
  floating-point-like, but got 'i32'``). :func:`_resolve_in_upstream_words`
  gives the parser's check upstream's words where the op has descriptions.
* Inherent attributes in the custom form's ``attr-dict`` (optional): upstream
  stores ``index.constant {value = 5 : index} 3`` as the property ``value = 5``;
  xDSL keeps a discardable ``value`` beside the property ``value = 3``.

:func:`upstream_op` defines an op with these behaviours; it is the one place
every dialect gets them from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar, overload

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import AttrConstraint, IRDLOperation, OpDef, RangeOf, VerificationContext
from xdsl.irdl import irdl_op_definition
from xdsl.irdl import VarConstraint, VariadicDef
from xdsl.irdl.constraints import RangeLengthConstraint
from xdsl.irdl.declarative_assembly_format import FormatProgram, ParsingState
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.utils.kinds import invalid_kind_error

OpT = TypeVar("OpT", bound=type[IRDLOperation])

# ODS descriptions more than one dialect uses.
INDEX = "index"
VARIADIC_INDEX = "variadic of index"

_IRDL_ARG_ERROR = re.compile(
    r"^(operand|result) '(\w+)' (?:expected )?at positions? (\d+)(?: to (\d+))? does not verify"
)


def type_str(attr: Attribute) -> str:
    """An attribute as upstream quotes it in diagnostics: ``'tensor<4xf32>'``."""
    return f"'{attr}'"


def verify_that(holds: bool, summary: str) -> None:
    """An ODS predicate (``TypesMatchWith``, ``AllTypesMatch``, ``PredOpTrait``):
    upstream reports a false one as ``failed to verify that <summary>``."""
    if not holds:
        raise VerifyException(f"failed to verify that {summary}")


def verify_cast_compatible(compatible: bool, source: Attribute, result: Attribute) -> None:
    """Upstream's ``CastOpInterface`` verifier, given what the op's
    ``areCastCompatible`` says of its operand and result types."""
    if not compatible:
        raise VerifyException(
            f"operand type {type_str(source)} and result type {type_str(result)} "
            "are cast incompatible"
        )


_DESCRIBED: dict[type, dict[str, str]] = {}


def describe_constraints(op_class: type[IRDLOperation], texts: dict[str, str]) -> None:
    """Give ``op_class`` and its subclasses ``texts`` as their ``CONSTRAINT_TEXT``:
    for ops mlkit takes from xDSL, whose classes cannot carry the attribute
    (IRDL rejects an unannotated class attribute in the subclasses)."""
    _DESCRIBED[op_class] = texts


def constraint_texts(op_class: type[IRDLOperation]) -> dict[str, str]:
    """The upstream descriptions of ``op_class``'s constraints, by field name."""
    texts: dict[str, str] = {}
    for klass in reversed(op_class.__mro__):
        texts.update(_DESCRIBED.get(klass, {}))
    texts.update(getattr(op_class, "CONSTRAINT_TEXT", {}))
    return texts


def _constraint_texts(op: IRDLOperation) -> dict[str, str]:
    return constraint_texts(type(op))


def _upstream_constraint_error(op: IRDLOperation, err: VerifyException) -> VerifyException:
    """Upstream's wording for an IRDL operand/result constraint failure, when
    the op declares a description for that field; ``err`` otherwise."""
    match = _IRDL_ARG_ERROR.match(str(err))
    texts = _constraint_texts(op)
    if match is None or match.group(2) not in texts:
        return err
    kind, field, first = match.group(1), match.group(2), int(match.group(3))
    values: Sequence[SSAValue] = op.operands if kind == "operand" else op.results
    if first >= len(values):
        return err
    index = first
    last = int(match.group(4)) if match.group(4) else first
    # For a variadic field, name the first value whose type breaks the element constraint.
    op_def = type(op).get_irdl_definition()
    arg_defs = dict(op_def.operands if kind == "operand" else op_def.results)
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


def _count_error(kind: str, expected: int, found: int) -> str:
    """Upstream's wording for its NOperands/OneOperand/ZeroOperands/OneResult traits."""
    if kind == "result":
        return "requires one result"  # the ops checked this way have exactly one
    if expected == 0:
        return "requires zero operands"
    if expected == 1:
        return "requires a single operand"
    return f"expected {expected} operands, but found {found}"


def verify_ods_invariants(op: IRDLOperation) -> None:
    """Check what upstream's ``verifyInvariants`` checks, in its order and words:
    operand and result counts, then required attributes and their constraints,
    then operand and result types (for ops without variadic fields)."""
    op_def = type(op).get_irdl_definition()
    texts = _constraint_texts(op)
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


def _define(cls: OpT, invariants: bool, attr_dict_properties: bool) -> OpT:
    cls = irdl_op_definition(cls)
    generated: Callable[[IRDLOperation], None] = cls.verify_
    relations: Callable[[IRDLOperation], None] | None = getattr(cls, "verify_relations_", None)

    def verify_(self: IRDLOperation) -> None:
        if invariants:
            verify_ods_invariants(self)
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
    if attr_dict_properties:
        parse_format: Callable[[type[IRDLOperation], Parser], IRDLOperation] = cls.parse.__func__
        inherent = tuple(cls.get_irdl_definition().properties)

        def parse(op_type: type[IRDLOperation], parser: Parser) -> IRDLOperation:
            op = parse_format(op_type, parser)
            for name in inherent:
                if name in op.attributes:
                    op.properties[name] = op.attributes.pop(name)
            return op

        cls.parse = classmethod(parse)  # type: ignore[method-assign, assignment]
    return cls


@overload
def upstream_op(cls: OpT, /) -> OpT: ...


@overload
def upstream_op(
    *, invariants: bool = False, attr_dict_properties: bool = False
) -> Callable[[OpT], OpT]: ...


def upstream_op(
    cls: OpT | None = None,
    /,
    *,
    invariants: bool = False,
    attr_dict_properties: bool = False,
) -> OpT | Callable[[OpT], OpT]:
    """``irdl_op_definition`` with upstream's wording for constraint failures.

    ``invariants`` first checks counts, attributes and types as upstream's
    ``verifyInvariants`` does; ``attr_dict_properties`` reads an inherent
    attribute written in the custom form's ``attr-dict`` as the property.

    A class that subclasses an xDSL op must define its own ``verify_`` (else
    IRDL would run the parent's generated verifier, constraints included, again).
    An optional ``verify_relations_`` runs before IRDL's checks: upstream's
    ``TypesMatchWith`` predicates, which must guard against operands of the
    wrong kind themselves.
    """
    if cls is not None:
        return _define(cls, invariants, attr_dict_properties)
    return lambda c: _define(c, invariants, attr_dict_properties)


class DeclarativeSyntax:
    """Mixin, listed first, for a subclass of an xDSL op with hand-written
    ``parse``/``print`` that declares an ``assembly_format`` instead: IRDL
    refuses both, so this restores ``Operation``'s defaults for it to replace."""

    print = Operation.print
    parse = classmethod(Operation.parse.__func__)  # type: ignore[attr-defined]


_xdsl_resolve_constraint_variables = FormatProgram.resolve_constraint_variables


def _element_constraint(constr: object) -> AttrConstraint | None:
    """The constraint each value of an operand or result definition must meet
    (IRDL wraps it in a length and a range constraint)."""
    if isinstance(constr, RangeLengthConstraint):
        constr = constr.constraint
    if isinstance(constr, RangeOf):
        constr = constr.constr
    return constr if isinstance(constr, AttrConstraint) else None


def _first_failing(
    defs: Sequence[tuple[str, object]], types: Sequence[object]
) -> tuple[int, str, Attribute] | None:
    """(position, field, type) of the first parsed type its field's constraint rejects."""
    position = 0
    for (name, arg), parsed in zip(defs, types, strict=True):
        group = () if parsed is None else (parsed,) if isinstance(parsed, Attribute) else parsed
        for type_ in group:  # pyright: ignore[reportGeneralTypeIssues]
            element = _element_constraint(getattr(arg, "constr", None))
            if element is None:
                return None
            try:
                element.verify(type_, VerificationContext())
            except VerifyException:
                return position, name, type_
            except Exception:  # a constraint that needs the whole group: not ours to word
                return None
            position += 1
        if parsed is None:
            position += 1
    return None


def _resolve_in_upstream_words(self: FormatProgram, state: ParsingState, op_def: OpDef) -> None:
    """xDSL's check of the types a custom form names, with upstream's message
    when a type breaks a constraint the op describes in ``CONSTRAINT_TEXT``."""
    try:
        _xdsl_resolve_constraint_variables(self, state, op_def)
    except VerifyException as err:
        if (kind_error := invalid_kind_error(state, op_def)) is not None:
            raise kind_error from err
        texts = constraint_texts(state.op_type)
        for kind, defs, types in (
            ("operand", op_def.operands, state.operand_types),
            ("result", op_def.results, state.result_types),
        ):
            found = _first_failing(defs, types)
            if found is None or found[1] not in texts:
                continue
            index, field, type_ = found
            if kind == "result":
                # an operand whose type the format takes from this result's
                # (``: type($result)``) is what upstream's verifier names first
                inferred = _inferred_operand(op_def, state, dict(defs)[field])
                if inferred is not None and inferred[1] in texts:
                    kind, (index, field) = "operand", inferred
            raise VerifyException(
                f"'{op_def.name}' op {kind} #{index} must be {texts[field]}, "
                f"but got {type_str(type_)}"
            ) from err
        raise


def _variable(arg: object) -> str | None:
    """The name of the type variable an operand or result definition binds."""
    element = _element_constraint(getattr(arg, "constr", None))
    return element.name if isinstance(element, VarConstraint) else None


def _inferred_operand(op_def: OpDef, state: ParsingState, result: object) -> tuple[int, str] | None:
    """(position, field) of the first single operand whose type was not written
    but binds the same type variable as ``result``."""
    name = _variable(result)
    if name is None:
        return None
    for index, ((field, arg), parsed) in enumerate(zip(op_def.operands, state.operand_types)):
        if isinstance(arg, VariadicDef):
            return None  # positions past a variadic are not known here
        if parsed is None and _variable(arg) == name:
            return index, field
    return None


FormatProgram.resolve_constraint_variables = _resolve_in_upstream_words  # pyright: ignore[reportAttributeAccessIssue]
