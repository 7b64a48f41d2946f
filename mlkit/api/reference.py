"""The Python API reference, ``docs/api.md``, generated from the docstrings.

Signatures and text are read with :mod:`inspect` off the objects themselves
(``mlkit.compile``, the program it returns, the registry, plugin loading), so
the reference cannot drift from the code; a test compares the committed file
with a fresh rendering. ``python -m mlkit.api.reference docs/api.md``
rewrites it; with no argument the reference goes to stdout.

Output is stable across machines: annotations are printed as written in the
source (every module here postpones their evaluation), and defaults that would
name a memory address or a path of this machine are elided.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

HEADER = """\
# Python API reference

The embedding API: `mlkit.compile` and the program it returns, parsing MLIR
into a module, the registry of dialects, passes and pipelines, and plugins.
This page is generated from the docstrings
(`python -m mlkit.api.reference docs/api.md`); the passes themselves are listed
in [passes.md](passes.md), and writing a plugin is described in
[plugins.md](plugins.md).
"""

# a signature longer than this goes one parameter a line
WIDTH = 88


@dataclass(frozen=True)
class Item:
    """One documented object: ``path`` is ``module:attribute``, ``shown`` the
    name it is shown under (its public spelling), ``instance`` the name an
    instance's members are shown on (``prog.mlir``), for a class."""

    path: str
    shown: str
    instance: str = ""
    constructor: bool = True  # False: made by the API, not by the user


@dataclass(frozen=True)
class Section:
    """A ``## title`` of the page: the docstring of ``module``, ``intro``,
    then each item in order."""

    title: str
    module: str  # whose module docstring opens the section ("" for none)
    intro: str = ""  # text of its own, after that docstring
    items: tuple[Item, ...] = field(default_factory=tuple)


PARSING = """\
`mlkit.compile` takes MLIR text or a module; a module is parsed in a context
that knows the registry's dialects:

```python
ctx = mlkit.make_context()
module = mlkit.parse_module(ctx, text, "kernel.mlir")
prog = mlkit.compile(module)
```"""

SECTIONS: tuple[Section, ...] = (
    Section("Compiling", "mlkit.api.compile", "", (
        Item("mlkit.api.compile:compile", "mlkit.compile"),
    )),
    Section("The compiled program", "mlkit.api.program", "", (
        Item("mlkit.api.program:CompiledProgram", "mlkit.api.program.CompiledProgram", "prog",
             constructor=False),
        Item("mlkit.api.call:BoundFunction", "mlkit.api.call.BoundFunction", "f",
             constructor=False),
        Item("mlkit.runtime.checks:RuntimeCheckError", "mlkit.RuntimeCheckError"),
    )),
    Section("JAX functions", "mlkit.api.jax",
            "They need the `jax` extra (`pip install -e '.[jax]'`); see [jax.md](jax.md).", (
        Item("mlkit.api.jax:compile_jax", "mlkit.compile_jax"),
        Item("mlkit.api.jax:jit", "mlkit.jit"),
        Item("mlkit.api.jax:JaxProgram", "mlkit.api.jax.JaxProgram", "prog", constructor=False),
    )),
    Section("Parsing MLIR", "", PARSING, (
        Item("mlkit.context:make_context", "mlkit.make_context"),
        Item("mlkit.syntax.parser:parse_module", "mlkit.parse_module"),
    )),
    Section("The registry", "mlkit.registry", "", (
        Item("mlkit.registry:Registry", "mlkit.Registry", "registry"),
        Item("mlkit.registry:Entry", "mlkit.registry.Entry", "entry", constructor=False),
        Item("mlkit.registry:DialectEntry", "mlkit.registry.DialectEntry", constructor=False),
        Item("mlkit.registry:RegistryError", "mlkit.registry.RegistryError"),
    )),
    Section("Plugins", "mlkit.plugins", "See [plugins.md](plugins.md) for writing one.", (
        Item("mlkit.plugins:load_plugin", "mlkit.load_plugin"),
        Item("mlkit.plugins:default_registry", "mlkit.default_registry"),
        Item("mlkit.plugins:load_entry_point_plugins", "mlkit.plugins.load_entry_point_plugins"),
        Item("mlkit.plugins:PluginError", "mlkit.plugins.PluginError"),
    )),
)

# special methods a user reaches through syntax, and how that syntax reads
SYNTAX: dict[str, Callable[[str, str], str]] = {
    "__call__": lambda obj, params: f"{obj}({params})",
    "__getitem__": lambda obj, params: f"{obj}[{params}]",
    "__getattr__": lambda obj, params: f"{obj}.<{params}>",
}

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class _Text:
    """Prints as its text: an annotation or default in a signature."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _annotation(annotation: Any) -> Any:
    if annotation is inspect.Parameter.empty:
        return annotation
    if isinstance(annotation, str):
        return _Text(annotation)
    return _Text(inspect.formatannotation(annotation))


def _default(value: Any) -> Any:
    if value is inspect.Parameter.empty:
        return value
    text = _ADDRESS.sub("", repr(value))
    if any(place in text for place in _machine_paths()):
        text = "..."  # a path of this machine
    return _Text(text)


def _machine_paths() -> list[str]:
    """Folders whose names differ between machines: no default may show them."""
    places = {sys.prefix, sys.exec_prefix, os.path.expanduser("~"), os.getcwd(), "/home/"}
    return sorted(place for place in places if len(place) > 1)


def _parameters(sig: inspect.Signature, skip_first: bool) -> list[str]:
    """Each parameter as written, with the ``/`` and ``*`` markers."""
    params = list(sig.parameters.values())[1 if skip_first else 0:]
    texts: list[str] = []
    starred = False
    for i, p in enumerate(params):
        if p.kind is p.KEYWORD_ONLY and not starred:
            texts.append("*")
        starred = starred or p.kind in (p.VAR_POSITIONAL, p.KEYWORD_ONLY)
        clean = p.replace(annotation=_annotation(p.annotation), default=_default(p.default))
        texts.append(str(clean))
        last_positional = i + 1 == len(params) or params[i + 1].kind is not p.POSITIONAL_ONLY
        if p.kind is p.POSITIONAL_ONLY and last_positional:
            texts.append("/")
    return texts


def _returns(sig: inspect.Signature) -> str:
    if sig.return_annotation is inspect.Signature.empty:
        return ""
    return f" -> {_annotation(sig.return_annotation)!r}"


def signature(shown: str, obj: Callable[..., Any] | inspect.Signature, *,
              skip_first: bool = False,
              syntax: Callable[[str, str], str] | None = None) -> str:
    """``obj``'s signature under the name ``shown``, wrapped one parameter a
    line where it is longer than :data:`WIDTH`; ``skip_first`` drops ``self``."""
    sig = obj if isinstance(obj, inspect.Signature) else inspect.signature(obj)
    params = _parameters(sig, skip_first)
    write = syntax or (lambda name, inner: f"{name}({inner})")
    returns = _returns(sig)
    line = write(shown, ", ".join(params)) + returns
    if len(line) <= WIDTH or not params:
        return line
    inner = "\n" + "".join(f"    {p},\n" for p in params)
    return write(shown, inner) + returns


def _own_doc(obj: Any) -> str:
    """``obj``'s own docstring, cleaned; "" without one (not inherited, and
    not the signature ``@dataclass`` writes in its place)."""
    if isinstance(obj, type):
        doc = obj.__dict__.get("__doc__")
    else:
        doc = getattr(obj, "__doc__", None)
    if not doc:
        return ""
    doc = inspect.cleandoc(doc)
    if isinstance(obj, type) and doc.startswith(f"{obj.__name__}("):
        return ""
    return doc


_ROLE = re.compile(r":(?:class|func|meth|mod|attr|exc|data|obj):`~?([^`]+)`")
_DOUBLE = re.compile(r"``([^`]+)``")


def markdown(doc: str) -> str:
    """A docstring's reST roles and literals as Markdown code spans."""
    doc = _ROLE.sub(lambda m: f"`{m.group(1)}`", doc)
    return _DOUBLE.sub(lambda m: f"`{m.group(1)}`", doc)


MISSING = "*(no docstring)*"


def _block(code: str, doc: str) -> list[str]:
    return ["```python", code, "```", "", markdown(doc) if doc else MISSING, ""]


def _load(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def _bases(cls: type) -> str:
    names = [
        b.__name__ if isinstance(b, type) else str(b).replace("typing.", "").replace("~", "")
        for b in getattr(cls, "__orig_bases__", cls.__bases__)
        if b is not object
    ]
    return f"({', '.join(names)})" if names else ""


def _members(cls: type) -> Iterator[tuple[str, Any]]:
    """The public members ``cls`` defines itself, in source order: methods,
    properties, and the special methods reached through syntax."""
    for name, value in cls.__dict__.items():
        if name.startswith("_") and name not in SYNTAX:
            continue
        if isinstance(value, (property, staticmethod, classmethod)) or inspect.isfunction(value):
            yield name, value


def _member(item: Item, name: str, value: Any) -> list[str]:
    obj = item.instance
    if isinstance(value, property):
        returns = _returns(inspect.signature(value.fget)) if value.fget else ""
        code = f"{obj}.{name}" + (f": {returns[4:]}" if returns else "")
        return [f"#### `{obj}.{name}`", "", *_block(code, _own_doc(value))]
    if name in SYNTAX:
        code = signature(obj, value, skip_first=True, syntax=SYNTAX[name])
        params = list(inspect.signature(value).parameters)[1:]
        heading = SYNTAX[name](obj, params[0] if len(params) == 1 else "...")
    else:
        function = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
        skip = not isinstance(value, staticmethod)
        code = signature(f"{obj}.{name}", function, skip_first=skip)
        heading = f"{obj}.{name}()"
    return [f"#### `{heading}`", "", *_block(code, _own_doc(value))]


def _constructor(item: Item, cls: type) -> str:
    if issubclass(cls, BaseException) or not item.constructor:
        return f"class {item.shown}{_bases(cls)}"
    sig = inspect.signature(cls).replace(return_annotation=inspect.Signature.empty)
    return "class " + signature(item.shown, sig)


def render_item(item: Item) -> list[str]:
    """The Markdown for one object and, for a class, its members."""
    obj = _load(item.path)
    if not isinstance(obj, type):
        return [f"### `{item.shown}()`", "", *_block(signature(item.shown, obj), _own_doc(obj))]
    lines = [f"### `{item.shown}`", "", *_block(_constructor(item, obj), _own_doc(obj))]
    for name, value in _members(obj):
        lines += _member(item, name, value)
    return lines


def _contents() -> list[str]:
    lines = []
    for section in SECTIONS:
        anchor = re.sub(r"[^a-z0-9 -]", "", section.title.lower()).replace(" ", "-")
        names = ", ".join(f"`{item.shown}`" for item in section.items)
        lines.append(f"- [{section.title}](#{anchor}): {names}")
    return lines


def render() -> str:
    """``docs/api.md``: every section of :data:`SECTIONS`, in order."""
    lines = [HEADER, *_contents(), ""]
    for section in SECTIONS:
        lines += [f"## {section.title}", ""]
        if section.module:
            intro = _own_doc(importlib.import_module(section.module))
            lines += [markdown(intro), ""]
        if section.intro:
            lines += [section.intro, ""]
        for item in section.items:
            lines += render_item(item)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        print("usage: python -m mlkit.api.reference [OUTPUT.md]", file=sys.stderr)
        return 1
    text = render()
    if not argv:
        sys.stdout.write(text)
        return 0
    with open(argv[0], "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
