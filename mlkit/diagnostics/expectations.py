"""``expected-*`` comments and their checking, as mlir-opt's ``--verify-diagnostics``.

Mirrors upstream ``SourceMgrDiagnosticVerifierHandler`` (mlir/lib/IR/Diagnostics.cpp)
so that test files written for mlir-opt behave the same here: the same directive
syntax, the same line designators and the same report wording.  Two deliberate
differences: a malformed ``expected-*`` comment is reported rather than silently
ignored (a never-parsed expectation makes a test pass vacuously), and
``@above``/``@below`` skip only comment-only directive lines (see
:func:`parse_expectations`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mlkit.diagnostics import UNKNOWN, Diagnostic, Severity, SourceLoc

# Upstream's regex, verbatim: only spaces may separate the parts, and the payload
# runs from the first ``{{`` to the last ``}}``, which must end the (rstripped) line.
_DIRECTIVE = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *"
    r"(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$"
)
# Something that looks like a directive but may be malformed; used only to diagnose
# lines ``_DIRECTIVE`` rejected, so it insists on a whole word inside a ``//`` comment.
_LOOSE = re.compile(r"(?<![\w-])expected-(?:error|note|remark|warning)(?:-re)?(?![\w-])")
_DESIGNATOR = re.compile(r"[+-][0-9]+|above|below|unknown")


@dataclass
class Expectation:
    """One ``expected-*`` directive: what is expected, where, and whether it was seen."""

    severity: Severity
    text: str  # the payload between the outer ``{{`` and ``}}``
    regex: re.Pattern[str] | None  # compiled payload for the ``-re`` form
    loc: SourceLoc  # expected line (col 0), or UNKNOWN for ``@unknown``
    comment_loc: SourceLoc  # position of ``expected-`` in the comment
    matched: bool = False

    def matches(self, message: str) -> bool:
        """Substring match, or a regex *search* (not a full match) for ``-re``."""
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message


def _compile_re(payload: str) -> re.Pattern[str] | str:
    """Literal text with ``{{regex}}`` pieces -> one pattern, or an error message.

    Literal parts are escaped and each piece is wrapped in a group, as upstream does;
    a piece ends at the first ``}}`` after its ``{{``.
    """
    parts: list[str] = []
    rest = payload
    while rest:
        start = rest.find("{{")
        if start < 0:
            parts.append(re.escape(rest))
            break
        parts.append(re.escape(rest[:start]))
        rest = rest[start + 2 :]
        end = rest.find("}}")
        if end < 0:
            return "found start of regex with no end '}}'"
        piece = rest[:end]
        try:
            re.compile(piece)
        except re.error as err:
            return f"invalid regex: {err}"
        parts.append(f"({piece})")
        rest = rest[end + 2 :]
    return re.compile("".join(parts))


def _explain_malformed(token: str, rest: str) -> str:
    """Say why ``token rest`` failed the directive syntax, so the user can fix it."""
    rest = rest.lstrip(" ")
    if rest.startswith("@"):
        where = re.match(r"@([^\s{]*)", rest)
        assert where is not None
        if not _DESIGNATOR.fullmatch(where.group(1)):
            return (
                f"invalid location '@{where.group(1)}' in '{token}'; "
                "expected @+N, @-N, @above, @below or @unknown"
            )
        rest = rest[where.end() :].lstrip(" ")
    if re.match(r"[0-9]+ *\{\{", rest):
        return f"'{token}' does not take a count; write one directive per diagnostic"
    if not rest.startswith("{{"):
        return f"cannot find start ('{{{{') of '{token}' string"
    if "}}" not in rest[2:]:
        return f"cannot find end ('}}}}') of '{token}' string"
    return f"unexpected text after '}}}}' in '{token}'"


def parse_expectations(
    text: str, filename: str
) -> tuple[list[Expectation], list[Diagnostic]]:
    """Collect the ``expected-*`` directives of a buffer, plus errors for bad ones.

    ``@above``/``@below`` skip lines that are only a comment holding a directive
    (well-formed or not), so stacked directives share one target; a line of code
    with a trailing directive is a target.  (Upstream also skips the latter; we do
    not, as it silently retargets the directive.)  Malformed directives are reported
    rather than ignored and produce no expectation.
    """
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()  # the empty string after the final newline is not a line
    expectations: list[Expectation] = []
    errors: list[Diagnostic] = []
    below: list[Expectation] = []  # waiting for the next non-designator line
    last_plain = 0  # last non-designator line (1-based), 0 if none yet

    def error(loc: SourceLoc, message: str) -> None:
        errors.append(Diagnostic(Severity.ERROR, message, loc))

    for lineno, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        # a directive ends the line with ``}}``; without one, searching would try
        # every ``expected-`` and scan to the end from each: quadratic
        m = _DIRECTIVE.search(line) if line.endswith("}}") and "expected-" in line else None
        loose = _LOOSE.search(line) if m is None else None
        if loose is not None and "//" not in line[: loose.start()]:
            loose = None
        found = m or loose
        above = last_plain  # before this line, which may itself be code
        if found is None or not line[: found.start()].lstrip().startswith("//"):
            for exp in below:  # a line of code (or blank): @below/@above targets it
                exp.loc = SourceLoc(filename, lineno, 0)
            below.clear()
            last_plain = lineno
        if loose is not None:
            where = SourceLoc(filename, lineno, loose.start() + 1)
            error(where, _explain_malformed(loose.group(0), line[loose.end() :]))
        if m is None:
            continue

        comment_loc = SourceLoc(filename, lineno, m.start() + 1)
        payload = m.group(5)
        regex: re.Pattern[str] | None = None
        if m.group(2):
            compiled = _compile_re(payload)
            if isinstance(compiled, str):
                error(comment_loc, compiled)
                continue
            regex = compiled
        here = SourceLoc(filename, lineno, 0)
        exp = Expectation(Severity(m.group(1)), payload, regex, here, comment_loc)
        designator = m.group(4) or ""
        token = f"expected-{m.group(1)}{m.group(2) or ''}@{designator}"
        if designator == "unknown":
            exp.loc = UNKNOWN
        elif designator == "above":
            if above == 0:
                error(comment_loc, f"'{token}' has no preceding line to refer to")
                continue
            exp.loc = SourceLoc(filename, above, 0)
        elif designator == "below":
            below.append(exp)
        elif designator:
            target = lineno + int(designator)
            if not 1 <= target <= len(lines):
                error(comment_loc, f"'{token}' refers to line {target}, outside input")
                continue
            exp.loc = SourceLoc(filename, target, 0)
        expectations.append(exp)

    for exp in below:
        token = f"expected-{exp.severity.value}{'-re' if exp.regex else ''}@below"
        error(exp.comment_loc, f"'{token}' has no following line to refer to")
    dangling = {id(exp) for exp in below}
    return [e for e in expectations if id(e) not in dangling], errors


def _flatten(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic followed by its notes: notes are checked like any diagnostic."""
    out: list[Diagnostic] = []
    for diag in diags:
        out.append(diag)
        out.extend(_flatten(diag.notes))
    return out


def _same_place(exp: Expectation, loc: SourceLoc) -> bool:
    """Known locations match by file and line; unknown ones only ``@unknown``."""
    if not loc.known:
        return not exp.loc.known
    return exp.loc.known and exp.loc.file == loc.file and exp.loc.line == loc.line


def check_expectations(
    expectations: list[Expectation], emitted: list[Diagnostic]
) -> list[Diagnostic]:
    """Match emitted diagnostics against expectations; return the errors to report.

    Sets ``matched`` on the expectations.  A diagnostic takes the first unmatched
    expectation that fits; failing that, an already matched one (upstream lets one
    directive absorb repeated identical diagnostics).  A diagnostic whose text fits an
    expectation on its line but whose severity differs is reported as a near miss at
    the directive, as upstream does.  Unexpected diagnostics come first, in emission
    order, then directives never matched: located ones, then ``@unknown`` ones.
    """
    errors: list[Diagnostic] = []
    for diag in _flatten(emitted):
        candidates = [e for e in expectations if _same_place(e, diag.loc)]
        fitting = [e for e in candidates if e.matches(diag.message)]
        same_kind = [e for e in fitting if e.severity is diag.severity]
        if same_kind:
            chosen = next((e for e in same_kind if not e.matched), same_kind[0])
            chosen.matched = True
            continue
        kind = diag.severity.value
        if fitting:
            near = fitting[-1]
            message = (
                f"'{kind}' diagnostic emitted when expecting a '{near.severity.value}'"
            )
            errors.append(Diagnostic(Severity.ERROR, message, near.comment_loc))
        else:
            message = f"unexpected {kind}: {diag.message}"
            errors.append(Diagnostic(Severity.ERROR, message, diag.loc))
    missing = [e for e in expectations if not e.matched]
    missing.sort(key=lambda e: not e.loc.known)  # stable: upstream's order
    for exp in missing:
        message = f'expected {exp.severity.value} "{exp.text}" was not produced'
        errors.append(Diagnostic(Severity.ERROR, message, exp.comment_loc))
    return errors
