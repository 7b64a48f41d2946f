"""Tests for mlkit.diagnostics.expectations: mlir-opt style ``--verify-diagnostics`` directives."""

from __future__ import annotations

import pytest

from mlkit.diagnostics import UNKNOWN, Diagnostic, Severity, SourceLoc
from mlkit.diagnostics.expectations import Expectation, check_expectations, parse_expectations

F = "t.mlir"


def parse_ok(text: str) -> list[Expectation]:
    exps, errors = parse_expectations(text, F)
    assert errors == []
    return exps


def parse_err(text: str) -> list[Diagnostic]:
    exps, errors = parse_expectations(text, F)
    assert exps == []
    assert errors, "expected a parse error"
    return errors


def diag(
    sev: Severity, msg: str, line: int = 0, col: int = 1, file: str = F
) -> Diagnostic:
    loc = SourceLoc(file, line, col) if line else UNKNOWN
    return Diagnostic(sev, msg, loc)


def err(msg: str, line: int = 0) -> Diagnostic:
    return diag(Severity.ERROR, msg, line)


def messages(ds: list[Diagnostic]) -> list[str]:
    return [d.message for d in ds]


# ----------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["error", "warning", "note", "remark"])
def test_parse_each_severity_same_line(kind: str) -> None:
    text = f'"op"() : () -> ()  // expected-{kind} {{{{some text}}}}\n'
    [e] = parse_ok(text)
    assert e.severity is Severity(kind)
    assert e.text == "some text"
    assert e.regex is None
    assert e.loc == SourceLoc(F, 1, 0)
    assert e.comment_loc == SourceLoc(F, 1, text.index("expected-") + 1)
    assert not e.matched


def test_parse_plus_and_minus_offsets() -> None:
    text = "a\n// expected-error@+2 {{p}}\nb\nc\n// expected-error@-3 {{m}}\n"
    p, m = parse_ok(text)
    assert p.loc == SourceLoc(F, 4, 0)
    assert m.loc == SourceLoc(F, 2, 0)
    assert p.comment_loc == SourceLoc(F, 2, 4)
    assert m.comment_loc == SourceLoc(F, 5, 4)


@pytest.mark.parametrize(
    "directive",
    [
        "expected-error@+1 {{x}}",
        "expected-error @+1 {{x}}",
        "expected-error@+1{{x}}",
        "expected-error  @+1   {{x}}",
    ],
)
def test_parse_spacing_variants(directive: str) -> None:
    [e] = parse_ok(f"// {directive}\nop\n")
    assert e.loc.line == 2
    assert e.text == "x"


def test_parse_no_space_before_braces() -> None:
    [e] = parse_ok("op // expected-error{{x}}\n")
    assert e.loc.line == 1 and e.text == "x"


def test_parse_above_skips_designator_lines() -> None:
    text = "op\n// expected-error {{a}}\n// expected-note@above {{b}}\n"
    a, b = parse_ok(text)
    assert a.loc.line == 2  # same line: no designator
    assert b.loc.line == 1


def test_parse_below_stacked() -> None:
    text = (
        "// expected-error@below {{a}}\n"
        "// expected-note@below {{b}}\n"
        "// expected-remark @below {{c}}\n"
        "op\n"
        "other\n"
    )
    exps = parse_ok(text)
    assert [e.loc.line for e in exps] == [4, 4, 4]
    assert [e.comment_loc.line for e in exps] == [1, 2, 3]


def test_parse_code_line_with_trailing_directive_is_a_target() -> None:
    # Only comment-only directive lines are skipped (upstream would also skip op1).
    text = "// expected-error@below {{a}}\nop1 // expected-error {{b}}\nop2\n"
    a, b = parse_ok(text)
    assert a.loc.line == 2
    assert b.loc.line == 2
    text = "op1 // expected-error {{b}}\n// expected-note@above {{a}}\n"
    b, a = parse_ok(text)
    assert a.loc.line == 1 and b.loc.line == 1


def test_parse_above_below_on_code_line() -> None:
    text = (
        "op1\n"
        "op2 // expected-error@above {{a}}\n"
        "op3 // expected-error@below {{b}}\n"
        "op4\n"
    )
    a, b = parse_ok(text)
    assert a.loc.line == 1
    assert b.loc.line == 4


def test_parse_malformed_comment_line_is_skipped_by_below() -> None:
    exps, errors = parse_expectations(
        "// expected-error@below {{a}}\n// expected-error oops\nop\n", F
    )
    assert [e.loc.line for e in exps] == [3]
    assert len(errors) == 1 and errors[0].loc.line == 2


def test_parse_indented_comment_directives() -> None:
    text = (
        "  op\n"
        "    // expected-error@above {{a}}\n"
        "  //expected-note@below{{b}}\n"
        "  op2\n"
    )
    a, b = parse_ok(text)
    assert a.loc.line == 1 and b.loc.line == 4
    assert a.comment_loc.col == 8


def test_parse_blank_line_is_a_target() -> None:
    [e] = parse_ok("// expected-error@below {{a}}\n\nop\n")
    assert e.loc.line == 2


def test_parse_unknown() -> None:
    [e] = parse_ok("// expected-error@unknown {{u}}\n")
    assert e.loc == UNKNOWN and not e.loc.known
    assert e.comment_loc == SourceLoc(F, 1, 4)
    [e] = parse_ok("// expected-warning @unknown {{u}}\n")
    assert e.severity is Severity.WARNING and not e.loc.known


def test_parse_payload_first_to_last_braces() -> None:
    [e] = parse_ok("// expected-error {{a {{b}} c}}   \n")
    assert e.text == "a {{b}} c"
    [e] = parse_ok("// expected-error {{}}\n")
    assert e.text == ""


def test_parse_crlf_lines() -> None:
    [e] = parse_ok("op\r\n// expected-error@above {{x}}\r\n")
    assert e.loc.line == 1 and e.text == "x"


def test_parse_no_trailing_newline() -> None:
    [e] = parse_ok("// expected-error@+1 {{x}}\nop")
    assert e.loc.line == 2


def test_parse_regex_form() -> None:
    [e] = parse_ok("// expected-error-re@+1 {{value {{[0-9]+}} is (bad)}}\nop\n")
    assert e.text == "value {{[0-9]+}} is (bad)"
    assert e.regex is not None
    assert e.matches("the value 42 is (bad)!")
    assert not e.matches("the value x is (bad)")
    assert not e.matches("the value 42 is bad")  # literal parts are escaped


def test_parse_regex_without_pieces_is_literal() -> None:
    [e] = parse_ok("op // expected-note-re {{a.b}}\n")
    assert e.regex is not None
    assert e.matches("xa.by") and not e.matches("axb")


def test_parse_regex_multiple_pieces() -> None:
    [e] = parse_ok("op // expected-error-re {{{{^}}start {{.*}} end{{$}}}}\n")
    assert e.matches("start middle end")
    assert not e.matches("xstart middle end")
    assert not e.matches("start middle endx")


def test_parse_ignores_text_without_directives() -> None:
    assert parse_ok("op\n// just a comment about expected errors\n") == []
    assert parse_ok("// unexpected-errors are fine {{x\n") == []


def test_parse_multiple_files_keep_filename() -> None:
    [e], _ = parse_expectations("op // expected-error {{x}}\n", "other.mlir")
    assert e.loc.file == "other.mlir" and e.comment_loc.file == "other.mlir"


# -- malformed directives -----------------------------------------------------


def test_malformed_missing_open_braces() -> None:
    [e] = parse_err("op // expected-error oops\n")
    assert e.severity is Severity.ERROR
    assert e.loc == SourceLoc(F, 1, 7)
    assert "cannot find start ('{{')" in e.message


def test_malformed_missing_close_braces() -> None:
    [e] = parse_err("// expected-warning {{oops\n")
    assert "cannot find end ('}}')" in e.message


def test_malformed_trailing_text() -> None:
    [e] = parse_err("// expected-error {{a}} trailing\n")
    assert "after '}}'" in e.message


@pytest.mark.parametrize("bad", ["@+x", "@", "@abovee", "@+", "@1", "@below2"])
def test_malformed_bad_designator(bad: str) -> None:
    [e] = parse_err(f"// expected-error{bad} {{{{x}}}}\nop\n")
    assert f"invalid location '{bad}'" in e.message


def test_malformed_count_is_not_supported() -> None:
    [e] = parse_err("op // expected-error 2 {{x}}\n")
    assert "does not take a count" in e.message


def test_malformed_below_without_following_line() -> None:
    [e] = parse_err("op\n// expected-error@below {{x}}\n")
    assert e.loc == SourceLoc(F, 2, 4)
    assert "no following line" in e.message


def test_malformed_below_followed_only_by_directives() -> None:
    errors = parse_err("// expected-error@below {{x}}\n// expected-note@below {{y}}\n")
    assert len(errors) == 2


def test_malformed_above_without_preceding_line() -> None:
    [e] = parse_err("// expected-error@above {{x}}\nop\n")
    assert "no preceding line" in e.message


@pytest.mark.parametrize(
    "text", ["// expected-error@-1 {{x}}\n", "// expected-error@+2 {{x}}\nop\n"]
)
def test_malformed_offset_out_of_range(text: str) -> None:
    [e] = parse_err(text)
    assert "outside input" in e.message


def test_malformed_regex_unterminated_piece() -> None:
    [e] = parse_err("op // expected-error-re {{a {{b}}\n")
    assert e.message == "found start of regex with no end '}}'"


def test_malformed_regex_invalid() -> None:
    [e] = parse_err("op // expected-error-re {{a {{(}} b}}\n")
    assert e.message.startswith("invalid regex: ")


def test_malformed_lines_do_not_hide_good_ones() -> None:
    text = "op // expected-error oops\nop // expected-error {{x}}\n"
    exps, errors = parse_expectations(text, F)
    assert len(exps) == 1 and exps[0].loc.line == 2
    assert len(errors) == 1 and errors[0].loc.line == 1


# ----------------------------------------------------------------------------
# Matching
# ----------------------------------------------------------------------------


def check(text: str, emitted: list[Diagnostic]) -> list[Diagnostic]:
    return check_expectations(parse_ok(text), emitted)


def test_match_met() -> None:
    exps = parse_ok("op // expected-error {{bad op}}\n")
    assert check_expectations(exps, [err("this is a bad op here", 1)]) == []
    assert exps[0].matched


def test_match_no_expectations_no_diags() -> None:
    assert check_expectations([], []) == []


def test_match_missing() -> None:
    text = "op // expected-error {{bad op}}\n"
    [r] = check(text, [])
    assert r.severity is Severity.ERROR
    assert r.message == 'expected error "bad op" was not produced'
    assert r.loc == SourceLoc(F, 1, 7)


def test_match_unexpected() -> None:
    d = diag(Severity.WARNING, "surprise", 3, 5)
    [r] = check("a\nb\nc\n", [d])
    assert r.message == "unexpected warning: surprise"
    assert r.loc == SourceLoc(F, 3, 5)
    assert r.severity is Severity.ERROR


@pytest.mark.parametrize("kind", ["error", "warning", "note", "remark"])
def test_match_unexpected_wording(kind: str) -> None:
    [r] = check("op\n", [diag(Severity(kind), "m", 1)])
    assert r.message == f"unexpected {kind}: m"


def test_match_wrong_severity_is_near_miss() -> None:
    text = "op // expected-error {{bad}}\n"
    near, missing = check(text, [diag(Severity.WARNING, "bad", 1)])
    assert near.message == "'warning' diagnostic emitted when expecting a 'error'"
    assert near.loc == SourceLoc(F, 1, 7)
    assert missing.message == 'expected error "bad" was not produced'


def test_match_wrong_line() -> None:
    text = "op // expected-error {{bad}}\nop2\n"
    unexpected, missing = check(text, [err("bad", 2)])
    assert unexpected.message == "unexpected error: bad"
    assert unexpected.loc.line == 2
    assert missing.message == 'expected error "bad" was not produced'


def test_match_wrong_file() -> None:
    text = "op // expected-error {{bad}}\n"
    errors = check(text, [diag(Severity.ERROR, "bad", 1, file="other.mlir")])
    assert messages(errors) == [
        "unexpected error: bad",
        'expected error "bad" was not produced',
    ]


def test_match_wrong_text() -> None:
    errors = check("op // expected-error {{bad}}\n", [err("good", 1)])
    assert messages(errors) == [
        "unexpected error: good",
        'expected error "bad" was not produced',
    ]


def test_match_column_is_ignored() -> None:
    emitted = [diag(Severity.ERROR, "bad", 1, 42)]
    assert check("op // expected-error {{bad}}\n", emitted) == []


def test_match_offsets_above_below() -> None:
    text = (
        "// expected-error@+1 {{one}}\n"
        "op1\n"
        "op2\n"
        "// expected-error@-1 {{two}}\n"
        "// expected-error@below {{three}}\n"
        "op3\n"
        "// expected-error@above {{four}}\n"
    )
    emitted = [err("one", 2), err("two", 3), err("three", 6), err("four", 6)]
    assert check(text, emitted) == []


def test_match_regex() -> None:
    text = "op // expected-error-re {{type {{i[0-9]+}} mismatch}}\n"
    assert check(text, [err("operand type i32 mismatch", 1)]) == []
    errors = check(text, [err("operand type f32 mismatch", 1)])
    assert messages(errors) == [
        "unexpected error: operand type f32 mismatch",
        'expected error "type {{i[0-9]+}} mismatch" was not produced',
    ]


def test_match_notes_are_checked() -> None:
    text = "op // expected-error {{main}}\nprev // expected-note {{see here}}\n"
    d = err("main", 1)
    d.notes.append(diag(Severity.NOTE, "see here", 2))
    assert check(text, [d]) == []


def test_match_unexpected_note() -> None:
    d = err("main", 1)
    d.notes.append(diag(Severity.NOTE, "see here", 2, 3))
    [r] = check("op // expected-error {{main}}\nprev\n", [d])
    assert r.message == "unexpected note: see here"
    assert r.loc == SourceLoc(F, 2, 3)


def test_match_note_at_unknown_location() -> None:
    d = err("main", 1)
    d.notes.append(diag(Severity.NOTE, "somewhere"))
    text = "op // expected-error {{main}}\n// expected-note@unknown {{somewhere}}\n"
    assert check(text, [d]) == []


def test_match_unknown() -> None:
    text = "// expected-error@unknown {{lost}}\n"
    assert check(text, [err("lost")]) == []


def test_match_unknown_does_not_match_located() -> None:
    text = "op\n// expected-error@unknown {{lost}}\n"
    errors = check(text, [err("lost", 1)])
    assert messages(errors) == [
        "unexpected error: lost",
        'expected error "lost" was not produced',
    ]
    assert errors[1].loc == SourceLoc(F, 2, 4)


def test_match_located_does_not_match_unknown() -> None:
    errors = check("op // expected-error {{lost}}\n", [err("lost")])
    assert messages(errors) == [
        "unexpected error: lost",
        'expected error "lost" was not produced',
    ]
    assert not errors[0].loc.known


def test_match_two_expectations_two_diagnostics() -> None:
    text = "// expected-error@+2 {{dup}}\n// expected-error@+1 {{dup}}\nop\n"
    exps = parse_ok(text)
    assert check_expectations(exps, [err("dup", 3), err("dup", 3)]) == []
    assert all(e.matched for e in exps)


def test_match_one_expectation_absorbs_repeats_like_upstream() -> None:
    assert check("op // expected-error {{dup}}\n", [err("dup", 1), err("dup", 1)]) == []


def test_match_two_expectations_one_diagnostic() -> None:
    text = "// expected-error@+2 {{dup}}\n// expected-error@+1 {{dup}}\nop\n"
    errors = check(text, [err("dup", 3)])
    assert messages(errors) == ['expected error "dup" was not produced']
    assert errors[0].loc.line == 2


def test_match_severity_distinguishes_expectations() -> None:
    text = "op // expected-warning {{x}}\n// expected-error@above {{x}}\n"
    emitted = [err("x", 1), diag(Severity.WARNING, "x", 1)]
    assert check(text, emitted) == []


def test_match_report_order() -> None:
    text = "// expected-error@unknown {{u}}\nop // expected-error {{a}}\n"
    errors = check(text, [err("z", 2), err("y")])
    assert messages(errors) == [
        "unexpected error: z",
        "unexpected error: y",
        'expected error "a" was not produced',
        'expected error "u" was not produced',
    ]


@pytest.mark.parametrize(
    ("kind", "word"), [("warning", "warning"), ("note", "note"), ("remark", "remark")]
)
def test_match_missing_wording(kind: str, word: str) -> None:
    [r] = check(f"op // expected-{kind} {{{{m}}}}\n", [])
    assert r.message == f'expected {word} "m" was not produced'
