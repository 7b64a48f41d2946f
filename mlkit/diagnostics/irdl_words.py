"""Upstream's words for the invariants xDSL's IRDL verifies for every op.

IRDL checks the counts of operands, results, regions and successors, the
presence of properties and the block count of single-block regions, as
upstream's ODS traits (``OneRegion``, ``NOperands<2>``, ``AtLeastNOperands``,
``SizedRegion<1>``) and required attributes do, in its own words (``Expected
2 operands, but got 1``). :func:`upstream_invariant_message` gives upstream's
(``expected 2 operands, but found 1``) for any op, where the verifier turns
an op's failure into a diagnostic.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation, VariadicDef

_Words = Callable[[re.Match[str]], str]


def _fixed_count(m: re.Match[str]) -> str:
    expected, construct, found = int(m.group(1)), m.group(2), m.group(3)
    if construct == "successor":
        plural = "" if expected == 1 else "s"
        return f"requires {expected} successor{plural} but found {found}"
    if expected == 0:
        return f"requires zero {construct}s"
    if expected == 1:
        return {"operand": "requires a single operand"}.get(construct, f"requires one {construct}")
    if construct == "operand":
        return f"expected {expected} operands, but found {found}"
    return f"expected {expected} {construct}s"


def _at_least(m: re.Match[str]) -> str:
    expected, construct, found = m.group(1), m.group(2), m.group(3)
    if construct == "successor":
        return f"requires at least {expected} successors but found {found}"
    if construct == "operand":
        return f"expected {expected} or more operands, but found {found}"
    return f"expected {expected} or more {construct}s"


_RULES: tuple[tuple[re.Pattern[str], _Words], ...] = (
    (re.compile(r"^Expected (\d+) (operand|result|region|successor)s?, but got (\d+)$"), _fixed_count),
    (re.compile(r"^Expected (?:at least )?(\d+) (?:or \d+ )?(operand|result|region|successor)s?, "
                r"but got (\d+)$"), _at_least),
    (re.compile(r"^(?:property|attribute) '([^']+)' expected in operation '[^']*'$"),
     lambda m: f"requires attribute '{m.group(1)}'"),
    (re.compile(r"^Region '[^']*' at position (\d+) expected a single block, but got \d+ blocks$"),
     lambda m: f"expects region #{m.group(1)} to have 0 or 1 blocks"),
)


def upstream_invariant_message(message: str) -> str:
    """Upstream's wording of IRDL's ``message``, or ``message`` itself."""
    for pattern, words in _RULES:
        if (m := pattern.match(message)) is not None:
            return words(m)
    return message


_LEAST: dict[type[Operation], int | None] = {}


def least_operands(op_class: type[Operation]) -> int | None:
    """Upstream's ``AtLeastNOperands<N>``, which ODS gives an op with variadic
    operands and checks before anything else (IRDL's first complaint is the
    segment sizes): N, or None for an op without variadic operands."""
    if op_class not in _LEAST:
        least = None
        if issubclass(op_class, IRDLOperation):
            defs = [d for _, d in op_class.get_irdl_definition().operands]
            if any(isinstance(d, VariadicDef) for d in defs):
                least = sum(not isinstance(d, VariadicDef) for d in defs)
        _LEAST[op_class] = least
    return _LEAST[op_class]
