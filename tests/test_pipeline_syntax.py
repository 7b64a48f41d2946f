"""Tests for mlkit.pipeline.syntax: MLIR textual pass pipeline parsing/printing."""

from __future__ import annotations

import pytest

from mlkit.pipeline.syntax import (
    OpPipeline,
    PassSpec,
    PipelineElement,
    PipelineSyntaxError,
    format_pass_options,
    format_pipeline,
    parse_pass_options,
    parse_pipeline,
)

FULL = (
    "builtin.module(func.func(cse,canonicalize),"
    'some-pass{opt=1 flag list=1,2,3 s="a b" nested={x=1 y=2}})'
)


def strip_offsets(elements: list[PipelineElement]) -> list[PipelineElement]:
    """Copies with offsets zeroed, to compare trees that were printed and reparsed."""
    out: list[PipelineElement] = []
    for e in elements:
        if isinstance(e, OpPipeline):
            out.append(OpPipeline(e.anchor, strip_offsets(e.elements), 0))
        else:
            out.append(PassSpec(e.name, e.options, 0))
    return out


# ---------------------------------------------------------------- parsing


def test_full_example() -> None:
    (mod,) = parse_pipeline(FULL)
    assert isinstance(mod, OpPipeline)
    assert (mod.anchor, mod.offset) == ("builtin.module", 0)
    func, some = mod.elements
    assert func == OpPipeline(
        "func.func", [PassSpec("cse", {}, 25), PassSpec("canonicalize", {}, 29)], 15
    )
    assert some == PassSpec(
        "some-pass",
        {
            "opt": ["1"],
            "flag": None,
            "list": ["1", "2", "3"],
            "s": ["a b"],
            "nested": ["{x=1 y=2}"],
        },
        43,
    )


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_pipeline(text: str) -> None:
    assert parse_pipeline(text) == []


@pytest.mark.parametrize("text", ["builtin.module()", "builtin.module(  )"])
def test_empty_nested_pipeline(text: str) -> None:
    assert parse_pipeline(text) == [OpPipeline("builtin.module", [], 0)]


def test_flat_list_and_offsets() -> None:
    assert parse_pipeline("cse,canonicalize") == [
        PassSpec("cse", {}, 0),
        PassSpec("canonicalize", {}, 4),
    ]


def test_whitespace_everywhere() -> None:
    text = "  builtin.module ( func.func ( cse , p { a=1 } ) , any ( x ) )  "
    (mod,) = parse_pipeline(text)
    assert isinstance(mod, OpPipeline) and mod.offset == 2
    func, anyp = mod.elements
    assert isinstance(func, OpPipeline) and isinstance(anyp, OpPipeline)
    assert func.elements == [PassSpec("cse", {}, 31), PassSpec("p", {"a": ["1"]}, 37)]
    assert anyp.anchor == "any" and anyp.elements == [PassSpec("x", {}, 57)]
    assert text[31:34] == "cse" and text[37] == "p" and text[57] == "x"


def test_deep_nesting() -> None:
    (m,) = parse_pipeline("builtin.module(gpu.module(func.func(a),b),c)")
    assert isinstance(m, OpPipeline)
    g, c = m.elements
    assert isinstance(g, OpPipeline) and g.anchor == "gpu.module"
    f, b = g.elements
    assert isinstance(f, OpPipeline) and f.elements == [PassSpec("a", {}, 36)]
    assert b == PassSpec("b", {}, 39) and c == PassSpec("c", {}, 42)


def test_pass_names_with_dots_digits_underscores() -> None:
    assert [e.name for e in parse_pipeline("a.b_c-1,X9") if isinstance(e, PassSpec)] == [
        "a.b_c-1",
        "X9",
    ]


def test_empty_braces() -> None:
    assert parse_pipeline("p{}") == [PassSpec("p", {}, 0)]
    assert parse_pipeline("p{  }") == [PassSpec("p", {}, 0)]


def test_options_quotes_and_braces() -> None:
    (p,) = parse_pipeline("p{s='x, {y}' t=\"}\" n={a={b=1} c=\"}\"},{z}}")
    assert isinstance(p, PassSpec)
    assert p.options == {"s": ["x, {y}"], "t": ["}"], "n": ['{a={b=1} c="}"}', "{z}"]}


# ---------------------------------------------------------------- options


def test_parse_pass_options_llvm_style() -> None:
    text = "bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
    assert parse_pass_options(text) == {
        "bufferize-function-boundaries": None,
        "function-boundary-type-conversion": ["identity-layout-map"],
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", {}),
        ("a", {"a": None}),
        ("a=1", {"a": ["1"]}),
        ("a=", {"a": []}),
        ('a=""', {"a": [""]}),
        ("a=1,,2", {"a": ["1", "", "2"]}),
        ("a=1,", {"a": ["1", ""]}),
        ("l=1 l=2,3", {"l": ["1", "2", "3"]}),
        ("  a=1 \t\n b  ", {"a": ["1"], "b": None}),
        ('s="a b,c"', {"s": ["a b,c"]}),
        ("s='a \"b\"'", {"s": ['a "b"']}),
        ('s=x"y z"w', {"s": ["xy zw"]}),
        ('l="a,b",c', {"l": ["a,b", "c"]}),
        ("n={x=1 y={z=2}}", {"n": ["{x=1 y={z=2}}"]}),
        ("n={a}b", {"n": ["{a}b"]}),
        ("k.x_y-z=v", {"k.x_y-z": ["v"]}),
        ("a==b", {"a": ["=b"]}),
    ],
)
def test_parse_pass_options(text: str, expected: dict[str, list[str] | None]) -> None:
    assert parse_pass_options(text) == expected


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "text, message, offset",
    [
        ("a,,b", "empty element in pass pipeline", 2),
        ("a,", "empty element in pass pipeline", 2),
        ("a, ", "empty element in pass pipeline", 3),
        (",a", "empty element in pass pipeline", 0),
        ("builtin.module(a,)", "empty element in pass pipeline", 17),
        ("builtin.module(,)", "empty element in pass pipeline", 15),
        (
            "builtin.module(a",
            "encountered unbalanced parentheses while parsing pipeline",
            14,
        ),
        (
            "builtin.module(func.func(a)",
            "encountered unbalanced parentheses while parsing pipeline",
            14,
        ),
        (
            "a)",
            "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline",
            1,
        ),
        (
            ")",
            "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline",
            0,
        ),
        (
            "builtin.module(a))",
            "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline",
            17,
        ),
        ("p{a", "missing closing '}' while processing pass options", 1),
        ("x,p{a={b}", "missing closing '}' while processing pass options", 3),
        ('p{s="a}', "unterminated string", 4),
        ("p{s='a", "unterminated string", 4),
        ("p{a=1}}", "unbalanced '}' while parsing pipeline", 6),
        ("a}", "unbalanced '}' while parsing pipeline", 1),
        ("}", "unbalanced '}' while parsing pipeline", 0),
        ("{x}", "missing pass name before '{'", 0),
        ("a,{x}", "missing pass name before '{'", 2),
        ("(a)", "missing anchor operation name before '('", 0),
        ("builtin.module((a))", "missing anchor operation name before '('", 15),
        ("a b", "expected ',' after 'a'", 2),
        ("builtin.module(a b)", "expected ',' or ')' after 'a'", 17),
        ("p{a}x", "expected ',' after pass options", 4),
        ("p{a}{b}", "expected ',' after pass options", 4),
        ("func.func(p{a} x)", "expected ',' or ')' after pass options", 15),
        ("builtin.module(a) b", "expected ',' after parsing pipeline", 18),
        ("builtin.module(a)(b)", "expected ',' after parsing pipeline", 17),
        ("builtin.module(a){b}", "expected ',' after parsing pipeline", 17),
        ("x$", "invalid character '$' in pass pipeline", 1),
        ("$", "invalid character '$' in pass pipeline", 0),
        ('"a"', "invalid character '\"' in pass pipeline", 0),
        (
            "cse(a)",
            "invalid anchor 'cse': expected an operation name like 'func.func' or 'any'",
            0,
        ),
        ("p{=1}", "expected option name before '='", 2),
        ("p{a {b}}", "expected option name, found '{'", 4),
        ("p{a$=1}", "invalid character '$' in option name", 3),
        ("p{a a}", "flag option 'a' specified more than once", 4),
        ("p{a=1 a}", "flag option 'a' specified more than once", 6),
        ("p{a=x}y}", "expected ',' after pass options", 6),
    ],
)
def test_errors(text: str, message: str, offset: int) -> None:
    with pytest.raises(PipelineSyntaxError) as info:
        parse_pipeline(text)
    assert info.value.message == message
    assert str(info.value) == message
    assert info.value.offset == offset
    assert "\n" not in message


@pytest.mark.parametrize(
    "text, message, offset",
    [
        ("a=b}", "unbalanced '}' in pass options", 3),
        ("a={b", "missing closing '}' while processing option value", 2),
        ("a='b", "unterminated string", 2),
        ('x a={"}', "unterminated string", 5),
        ("=1", "expected option name before '='", 0),
        ("'a'=1", "expected option name, found '''", 0),
    ],
)
def test_option_errors(text: str, message: str, offset: int) -> None:
    with pytest.raises(PipelineSyntaxError) as info:
        parse_pass_options(text)
    assert (info.value.message, info.value.offset) == (message, offset)


def test_option_error_offsets_are_relative_to_pipeline() -> None:
    with pytest.raises(PipelineSyntaxError) as info:
        parse_pipeline("builtin.module(p{a=1 b=x}y})")
    assert info.value.offset == 25


# ---------------------------------------------------------------- printing


def test_format_canonical() -> None:
    assert (
        format_pipeline(parse_pipeline(" builtin.module( func.func( cse , canonicalize ) , p{ a=1   b } ) "))
        == "builtin.module(func.func(cse,canonicalize),p{a=1 b})"
    )


def test_format_full_example() -> None:
    assert format_pipeline(parse_pipeline(FULL)) == FULL


def test_format_single_element_and_empty() -> None:
    assert format_pipeline(PassSpec("p", {"x": ["1", "2"]})) == "p{x=1,2}"
    assert format_pipeline([]) == ""
    assert format_pipeline([OpPipeline("builtin.module", [])]) == "builtin.module()"


@pytest.mark.parametrize(
    "options, text",
    [
        ({"a": None}, "a"),
        ({"a": []}, "a="),
        ({"a": [""]}, 'a=""'),
        ({"a": ["", ""]}, 'a="",""'),
        ({"a": ["x y"]}, 'a="x y"'),
        ({"a": ["x,y"]}, 'a="x,y"'),
        ({"a": ['say "hi"']}, "a='say \"hi\"'"),
        ({"a": ["{x=1 y=2}"]}, "a={x=1 y=2}"),
        ({"a": ["{unbalanced"]}, 'a="{unbalanced"'),
        ({"a": ["}"]}, 'a="}"'),
        ({"a": ["1", "2"], "b": None}, "a=1,2 b"),
    ],
)
def test_format_pass_options(options: dict[str, list[str] | None], text: str) -> None:
    assert format_pass_options(options) == text
    assert parse_pass_options(text) == options


def test_format_rejects_unprintable() -> None:
    with pytest.raises(ValueError):
        format_pass_options({"a": ["'\""]})
    with pytest.raises(ValueError):
        format_pipeline([PassSpec("bad name", {})])


@pytest.mark.parametrize(
    "text",
    [
        FULL,
        "",
        "cse",
        "a,b,c",
        "builtin.module()",
        "any(p{a=1,2 b})",
        "builtin.module(gpu.module(func.func(a{x=\"}\" y='a b'})),b{n={p{q=1}}})",
        "p{s=\"a,b\",c,'d e' t= u=\"\"}",
    ],
)
def test_round_trip(text: str) -> None:
    parsed = parse_pipeline(text)
    printed = format_pipeline(parsed)
    assert strip_offsets(parse_pipeline(printed)) == strip_offsets(parsed)
    assert format_pipeline(parse_pipeline(printed)) == printed
