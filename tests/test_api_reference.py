"""docs/api.md, the Python API reference, matches the docstrings it is
generated from, and covers the public API."""

from __future__ import annotations

import re

from project_layout import ROOT

import mlkit
from mlkit.api.reference import MISSING, main, render, signature

STALE = "docs/api.md is stale: run python -m mlkit.api.reference docs/api.md"


def test_api_reference_is_current() -> None:
    committed = (ROOT / "docs" / "api.md").read_text()
    assert committed == render(), STALE


def test_api_reference_covers_the_public_api() -> None:
    page = render()
    for name in mlkit.__all__:
        assert f"`mlkit.{name}" in page, name
    for text in ("### `mlkit.compile()`", "mlkit.compile(", "#### `prog.mlir`",
                 "#### `prog.mlir_after()`", "#### `prog[name]`", "#### `prog.function()`",
                 "#### `f(...)`", "registry.register_pass(", "registry.register_dialect(",
                 "registry.register_pipeline(", "mlkit.load_plugin("):
        assert text in page, text


def test_every_documented_object_has_a_docstring() -> None:
    page = render()
    assert MISSING not in page, "give the object before each '(no docstring)' one"


def test_api_reference_is_stable() -> None:
    page = render()
    assert page == render()
    assert not re.search(r"0x[0-9a-f]{6,}", page)  # no memory addresses
    assert str(ROOT) not in page


def test_signatures_wrap_and_mark_keyword_only_parameters() -> None:
    # this module postpones annotations too: they are read as written
    def short(a: int, /, b: str = "x", *, c: bool = False) -> None: ...

    assert signature("short", short) == (
        "short(a: int, /, b: str = 'x', *, c: bool = False) -> None"
    )

    def long(first_parameter: int, second_parameter: int, *, third_parameter: int = 3,
             fourth_parameter: int = 4) -> int: ...

    assert signature("long", long) == (
        "long(\n    first_parameter: int,\n    second_parameter: int,\n    *,\n"
        "    third_parameter: int = 3,\n    fourth_parameter: int = 4,\n) -> int"
    )


def test_main_prints_or_writes(tmp_path, capsys) -> None:
    assert main([]) == 0
    assert capsys.readouterr().out == render()
    out = tmp_path / "api.md"
    assert main([str(out)]) == 0
    assert out.read_text() == render()
    assert main(["a", "b"]) == 1
