"""Typed pass options: raw pipeline option strings -> ModulePass instances.

A pass is an xDSL ``ModulePass`` frozen dataclass whose init fields are its
options; option ``foo-bar`` sets field ``foo_bar``.  Values are converted from
the raw strings produced by :mod:`mlkit.pipeline.syntax` following LLVM
``cl::opt`` conventions, so pipelines written for ``mlir-opt`` keep working.
Every user mistake becomes a :class:`PassOptionError` naming pass and option.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, Union

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.passes import ModulePass

__all__ = [
    "OptionInfo",
    "PassOptionError",
    "build_pass",
    "option_infos",
    "pass_options_of",
]

PassT = TypeVar("PassT", bound="ModulePass")
RawOptions = dict[str, list[str] | None]

_INT_RE = re.compile(r"[+-]?(0[xX][0-9a-fA-F]+|[0-9]+)")
_FLOAT_RE = re.compile(
    r"[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|inf|infinity|nan)",
    re.IGNORECASE,
)
_BOOLS = {"true": True, "1": True, "false": False, "0": False}


class PassOptionError(Exception):
    """A bad option for a pass; ``str(e)`` is a one-line, user-facing message."""

    def __init__(self, message: str, pass_name: str, option: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.pass_name = pass_name
        self.option = option

    def __str__(self) -> str:
        return self.message


@dataclass
class OptionInfo:
    """What ``--help`` / ``--list-passes`` shows for one option."""

    name: str
    type_name: str
    default: str | None
    help: str | None


def option(default: Any, help: str) -> Any:
    """A pass or pipeline option: its default and its ``--help`` text."""
    return dataclasses.field(default=default, metadata={"help": help})


def _dashed(field_name: str) -> str:
    return field_name.replace("_", "-")


def _strip_optional(tp: Any) -> Any:
    """``X | None`` -> ``X``; None-ness only means "defaults to unset"."""
    if typing.get_origin(tp) in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def _element_type(tp: Any) -> Any | None:
    """The ``T`` of ``tuple[T, ...]``, or None when ``tp`` is not a list type."""
    if typing.get_origin(tp) is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
    return None


def _scalar_name(tp: Any) -> str:
    if typing.get_origin(tp) is Literal:
        return "one of " + "|".join(_format_scalar(a) for a in typing.get_args(tp))
    names = {int: "int", float: "float", bool: "bool", str: "string"}
    if tp in names:
        return names[tp]
    raise TypeError(f"unsupported pass option type {tp!r}")


def _type_name(tp: Any) -> str:
    tp = _strip_optional(tp)
    elem = _element_type(tp)
    return f"list<{_scalar_name(elem)}>" if elem is not None else _scalar_name(tp)


def _format_scalar(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _format_value(value: object) -> list[str]:
    if isinstance(value, tuple):
        return [_format_scalar(v) for v in typing.cast(tuple[object, ...], value)]
    return [_format_scalar(value)]


def _convert_scalar(tp: Any, raw: str) -> tuple[object, str | None]:
    """Convert one string; returns (value, None) or (None, what-was-expected)."""
    text = raw.strip()
    if typing.get_origin(tp) is Literal:
        for choice in typing.get_args(tp):
            if _format_scalar(choice) == raw:
                return choice, None
        return None, "expected " + _scalar_name(tp)
    if tp is bool:
        value = _BOOLS.get(text.lower())
        if value is None:
            return None, "expected a boolean (true/false/1/0)"
        return value, None
    if tp is int:
        if not _INT_RE.fullmatch(text):
            return None, "expected an integer"
        return int(text, 0 if "x" in text.lower() else 10), None
    if tp is float:
        if not _FLOAT_RE.fullmatch(text):
            return None, "expected a number"
        return float(text), None
    if tp is str:
        return raw, None
    raise TypeError(f"unsupported pass option type {tp!r}")


def _convert(tp: Any, raw: list[str] | None, option: str, pass_name: str) -> object:
    """Convert one option's raw values to the field type ``tp``."""
    tp = _strip_optional(tp)
    elem = _element_type(tp)
    if raw is None:
        if tp is bool:
            return True
        raise PassOptionError(
            f"option '{option}' of pass '{pass_name}' requires a value", pass_name, option
        )
    if elem is None:
        if not raw and tp is str:
            raw = [""]
        if not raw:
            raise PassOptionError(
                f"option '{option}' of pass '{pass_name}' requires a value",
                pass_name,
                option,
            )
        if len(raw) > 1:
            raise PassOptionError(
                f"option '{option}' of pass '{pass_name}' takes a single value, "
                f"got {len(raw)}: '{','.join(raw)}'",
                pass_name,
                option,
            )
    values: list[object] = []
    for item in raw:
        value, expected = _convert_scalar(tp if elem is None else elem, item)
        if expected is not None:
            raise PassOptionError(
                f"invalid value '{item}' for option '{option}' of pass "
                f"'{pass_name}': {expected}",
                pass_name,
                option,
            )
        values.append(value)
    return tuple(values) if elem is not None else values[0]


def _fields(cls: type[ModulePass]) -> list[tuple[dataclasses.Field[Any], Any]]:
    """The option fields of ``cls`` with resolved types."""
    try:
        hints = typing.get_type_hints(cls, include_extras=False)
    except (NameError, TypeError):
        hints = {}
    return [
        (f, hints.get(f.name, f.type)) for f in dataclasses.fields(cls) if f.init
    ]


def _pass_name(cls: type[ModulePass], pass_name: str | None) -> str:
    return pass_name or getattr(cls, "name", None) or cls.__name__


def build_pass(
    cls: type[PassT], options: RawOptions, pass_name: str | None = None
) -> PassT:
    """Instantiate ``cls`` from raw options (as parsed from ``name{...}``).

    ``pass_name`` is what error messages call the pass (defaults to ``cls.name``).
    """
    name = _pass_name(cls, pass_name)
    fields = {f.name: (f, tp) for f, tp in _fields(cls)}
    kwargs: dict[str, object] = {}
    for key, raw in options.items():
        field_name = key.replace("-", "_")
        if field_name not in fields:
            raise PassOptionError(f"pass '{name}' has no option '{key}'", name, key)
        if field_name in kwargs:
            raise PassOptionError(
                f"option '{key}' of pass '{name}' specified more than once", name, key
            )
        kwargs[field_name] = _convert(fields[field_name][1], raw, key, name)
    for field_name, (f, _) in fields.items():
        required = (
            f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING
        )
        if required and field_name not in kwargs:
            option = _dashed(field_name)
            raise PassOptionError(
                f"missing required option '{option}' of pass '{name}'", name, option
            )
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as e:  # e.g. a __post_init__ range check
        raise PassOptionError(f"invalid options for pass '{name}': {e}", name) from e


def option_infos(cls: type[ModulePass]) -> list[OptionInfo]:
    """Describe every option of ``cls`` in declaration order (for help output)."""
    infos: list[OptionInfo] = []
    for f, tp in _fields(cls):
        if f.default is not dataclasses.MISSING:
            default: object = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = None
        text = None if default is None else ",".join(_format_value(default))
        help_text = f.metadata.get("help")
        infos.append(
            OptionInfo(_dashed(f.name), _type_name(tp), text, help_text)
        )
    return infos


def pass_options_of(instance: ModulePass, include_defaults: bool = True) -> RawOptions:
    """The raw options that rebuild ``instance`` (for ``--dump-pass-pipeline``).

    Options whose value is None are omitted; they cannot be spelled.
    """
    options: RawOptions = {}
    for f, _ in _fields(type(instance)):
        value = getattr(instance, f.name)
        if value is None:
            continue
        if not include_defaults:
            if f.default is not dataclasses.MISSING and value == f.default:
                continue
            factory = f.default_factory
            if factory is not dataclasses.MISSING and value == factory():
                continue
        options[_dashed(f.name)] = _format_value(value)
    return options
