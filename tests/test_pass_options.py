"""Tests for mlkit.pipeline.options: raw option strings -> typed ModulePass instances."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mlkit.pipeline.options import (
    OptionInfo,
    PassOptionError,
    build_pass,
    option_infos,
    pass_options_of,
)
from mlkit.pipeline.syntax import format_pass_options, parse_pass_options


@dataclass(frozen=True)
class P(ModulePass):
    name = "p"

    n: int = 1
    x: float = 0.5
    flag: bool = False
    s: str = "hi"
    ints: tuple[int, ...] = ()
    strs: tuple[str, ...] = ("a", "b")
    floats: tuple[float, ...] = field(default=(1.0,), metadata={"help": "some floats"})
    maybe: int | None = None
    maybe_flag: bool | None = None
    mode: Literal["fast", "slow"] = "fast"
    modes: tuple[Literal["x", "y"], ...] = ()
    some_long_name: int = field(default=3, metadata={"help": "a dashed option"})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class Required(ModulePass):
    name = "req"

    count: int
    label: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class Checked(ModulePass):
    name = "checked"

    n: int = 0

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("n must be non-negative")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class Factory(ModulePass):
    name = "factory"

    xs: tuple[int, ...] = field(default_factory=lambda: (1, 2))

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


def build(text: str, cls: type[ModulePass] = P) -> ModulePass:
    return build_pass(cls, parse_pass_options(text))


# ---------------------------------------------------------------- values


def test_defaults() -> None:
    assert build("") == P()


@pytest.mark.parametrize(
    "text, attr, value",
    [
        ("n=42", "n", 42),
        ("n=-7", "n", -7),
        ("n=+7", "n", 7),
        ("n=0x1F", "n", 31),
        ("n=-0X10", "n", -16),
        ("n=007", "n", 7),
        ("x=2", "x", 2.0),
        ("x=-1.5e3", "x", -1500.0),
        ("x=.25", "x", 0.25),
        ("x=1.", "x", 1.0),
        ("x=inf", "x", float("inf")),
        ("flag", "flag", True),
        ("flag=true", "flag", True),
        ("flag=TRUE", "flag", True),
        ("flag=1", "flag", True),
        ("flag=False", "flag", False),
        ("flag=0", "flag", False),
        ("s=abc", "s", "abc"),
        ('s="a b, c"', "s", "a b, c"),
        ("s=", "s", ""),
        ('s=""', "s", ""),
        ("s={x=1 y=2}", "s", "{x=1 y=2}"),
        ("ints=1,2,-3,0x4", "ints", (1, 2, -3, 4)),
        ("ints=5", "ints", (5,)),
        ("ints=", "ints", ()),
        ("ints=1 ints=2", "ints", (1, 2)),
        ("strs=x", "strs", ("x",)),
        ('strs="a,b",c', "strs", ("a,b", "c")),
        ('strs=""', "strs", ("",)),
        ("floats=1,2.5", "floats", (1.0, 2.5)),
        ("maybe=3", "maybe", 3),
        ("maybe_flag", "maybe_flag", True),
        ("maybe-flag=false", "maybe_flag", False),
        ("mode=slow", "mode", "slow"),
        ("modes=x,y,x", "modes", ("x", "y", "x")),
        ("some-long-name=9", "some_long_name", 9),
        ("some_long_name=9", "some_long_name", 9),
    ],
)
def test_values(text: str, attr: str, value: object) -> None:
    built = build(text)
    assert isinstance(built, P)
    assert getattr(built, attr) == value
    assert type(getattr(built, attr)) is type(value)


def test_required_given() -> None:
    assert build("count=2", Required) == Required(count=2)


def test_default_factory_kept() -> None:
    assert build("", Factory) == Factory(xs=(1, 2))


def test_pass_name_override() -> None:
    with pytest.raises(PassOptionError, match="pass 'alias' has no option 'zz'"):
        build_pass(P, {"zz": None}, pass_name="alias")


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "text, message",
    [
        ("foo", "pass 'p' has no option 'foo'"),
        ("foo=1", "pass 'p' has no option 'foo'"),
        ("n=x", "invalid value 'x' for option 'n' of pass 'p': expected an integer"),
        ("n=1.5", "invalid value '1.5' for option 'n' of pass 'p': expected an integer"),
        ("n=1_000", "invalid value '1_000' for option 'n' of pass 'p': expected an integer"),
        ("n=0x", "invalid value '0x' for option 'n' of pass 'p': expected an integer"),
        ("x=abc", "invalid value 'abc' for option 'x' of pass 'p': expected a number"),
        (
            "flag=yes",
            "invalid value 'yes' for option 'flag' of pass 'p': "
            "expected a boolean (true/false/1/0)",
        ),
        (
            "ints=1,x",
            "invalid value 'x' for option 'ints' of pass 'p': expected an integer",
        ),
        ("ints=1,", "invalid value '' for option 'ints' of pass 'p': expected an integer"),
        (
            "floats=a",
            "invalid value 'a' for option 'floats' of pass 'p': expected a number",
        ),
        ("mode=medium", "invalid value 'medium' for option 'mode' of pass 'p': expected one of fast|slow"),
        ("modes=x,z", "invalid value 'z' for option 'modes' of pass 'p': expected one of x|y"),
        ("n", "option 'n' of pass 'p' requires a value"),
        ("n=", "option 'n' of pass 'p' requires a value"),
        ("s", "option 's' of pass 'p' requires a value"),
        ("ints", "option 'ints' of pass 'p' requires a value"),
        ("maybe", "option 'maybe' of pass 'p' requires a value"),
        ("mode", "option 'mode' of pass 'p' requires a value"),
        ("flag=", "option 'flag' of pass 'p' requires a value"),
        ("n=1,2", "option 'n' of pass 'p' takes a single value, got 2: '1,2'"),
        ("n=1 n=2", "option 'n' of pass 'p' takes a single value, got 2: '1,2'"),
        ("flag=true,false", "option 'flag' of pass 'p' takes a single value, got 2: 'true,false'"),
        ("s=a,b", "option 's' of pass 'p' takes a single value, got 2: 'a,b'"),
        ("n=1 n=1", "option 'n' of pass 'p' takes a single value, got 2: '1,1'"),
        ("some-long-name=1 some_long_name=2", "option 'some_long_name' of pass 'p' specified more than once"),
    ],
)
def test_errors(text: str, message: str) -> None:
    with pytest.raises(PassOptionError) as info:
        build(text)
    assert str(info.value) == message
    assert info.value.message == message
    assert info.value.pass_name == "p"


def test_error_records_option() -> None:
    with pytest.raises(PassOptionError) as info:
        build("n=x")
    assert info.value.option == "n"


def test_missing_required() -> None:
    with pytest.raises(PassOptionError) as info:
        build("label=x", Required)
    assert str(info.value) == "missing required option 'count' of pass 'req'"
    assert info.value.option == "count"


def test_post_init_failure_is_option_error() -> None:
    with pytest.raises(PassOptionError) as info:
        build("n=-1", Checked)
    assert str(info.value) == "invalid options for pass 'checked': n must be non-negative"


# ---------------------------------------------------------------- introspection


def test_option_infos() -> None:
    infos = {i.name: i for i in option_infos(P)}
    assert list(infos) == [
        "n",
        "x",
        "flag",
        "s",
        "ints",
        "strs",
        "floats",
        "maybe",
        "maybe-flag",
        "mode",
        "modes",
        "some-long-name",
    ]
    assert infos["n"] == OptionInfo("n", "int", "1", None)
    assert infos["x"] == OptionInfo("x", "float", "0.5", None)
    assert infos["flag"] == OptionInfo("flag", "bool", "false", None)
    assert infos["s"] == OptionInfo("s", "string", "hi", None)
    assert infos["ints"] == OptionInfo("ints", "list<int>", "", None)
    assert infos["strs"] == OptionInfo("strs", "list<string>", "a,b", None)
    assert infos["floats"] == OptionInfo("floats", "list<float>", "1.0", "some floats")
    assert infos["maybe"] == OptionInfo("maybe", "int", None, None)
    assert infos["maybe-flag"] == OptionInfo("maybe-flag", "bool", None, None)
    assert infos["mode"] == OptionInfo("mode", "one of fast|slow", "fast", None)
    assert infos["modes"] == OptionInfo("modes", "list<one of x|y>", "", None)
    assert infos["some-long-name"].help == "a dashed option"


def test_option_infos_required_and_factory() -> None:
    assert option_infos(Required)[0] == OptionInfo("count", "int", None, None)
    assert option_infos(Factory) == [OptionInfo("xs", "list<int>", "1,2", None)]


def test_unsupported_type_is_a_bug() -> None:
    @dataclass(frozen=True)
    class Bad(ModulePass):
        name = "bad"
        d: dict[str, int] = field(default_factory=lambda: {})

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            pass

    with pytest.raises(TypeError):
        option_infos(Bad)
    with pytest.raises(TypeError):
        build_pass(Bad, {"d": ["1"]})


def test_pass_options_of_round_trip() -> None:
    p = build('n=0x10 s="a b" strs=x,"y,z" flag maybe=4 mode=slow ints= x=2.5')
    raw = pass_options_of(p)
    assert raw["n"] == ["16"] and raw["flag"] == ["true"] and raw["ints"] == []
    assert "maybe-flag" not in raw  # None cannot be spelled
    text = format_pass_options(raw)
    assert build(text) == p


def test_pass_options_of_without_defaults() -> None:
    assert pass_options_of(P(), include_defaults=False) == {}
    assert pass_options_of(P(n=2, flag=True), include_defaults=False) == {
        "n": ["2"],
        "flag": ["true"],
    }
    assert pass_options_of(Factory(), include_defaults=False) == {}
    assert pass_options_of(Required(count=1), include_defaults=False) == {"count": ["1"]}
