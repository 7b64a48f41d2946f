"""The layout's rules (docs/architecture.md), checked on the source tree:
no import cycles, a core that names no dialect, pass or target, packages
instead of name prefixes, modules of a readable size, and generated files
that match what they are generated from."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from project_layout import ROOT, import_cycles, project_modules

import mlkit.passes as builtin_passes
from mlkit.pipeline.reference import render
from mlkit.plugins import default_registry
from mlkit.registry import RegistryError, first_doc_line, import_object

MODULES = project_modules()

# the core everything plugs into, and the rooms it may not import
CORE = ("mlkit.registry", "mlkit.plugins", "mlkit.context", "mlkit.entry_points",
        "mlkit.syntax", "mlkit.diagnostics", "mlkit.pipeline")
NOT_FROM_CORE = ("mlkit.dialects", "mlkit.passes", "mlkit.target", "mlkit.execution",
                 "mlkit.runtime", "mlkit.api", "mlkit.driver", "mlkit.tools")


def _in(name: str, rooms: tuple[str, ...]) -> bool:
    return any(name == room or name.startswith(room + ".") for room in rooms)


def test_the_graph_sees_every_kind_of_import() -> None:
    # a function-local import is an edge, as is one under TYPE_CHECKING
    assert "mlkit.plugins" in MODULES["mlkit.context"].imports
    assert len(MODULES) > 100


def test_no_import_cycles() -> None:
    assert import_cycles(MODULES) == []


def test_import_cycle_detection_finds_a_cycle() -> None:
    modules = dict(MODULES)
    a, b = modules["mlkit.registry"], modules["mlkit.plugins"]
    fake_a = type(a)(a.name, a.path, a.is_package, {*a.imports, b.name})
    modules[a.name] = fake_a
    assert [sorted([a.name, b.name])] == [c for c in import_cycles(modules) if a.name in c]


def test_core_imports_no_dialect_pass_or_target() -> None:
    bad = [
        f"{name} -> {target}"
        for name, module in sorted(MODULES.items())
        if _in(name, CORE)
        for target in sorted(module.imports)
        if _in(target, NOT_FROM_CORE)
    ]
    assert bad == []


def test_no_module_over_800_lines() -> None:
    long = {n: len(m.path.read_text().splitlines()) for n, m in MODULES.items()}
    assert {n: count for n, count in long.items() if count > 800} == {}


def _pass_modules() -> set[str]:
    catalogue = json.loads(builtin_passes.CATALOGUE.read_text())
    return {
        f"mlkit.passes.{path.partition(':')[0]}"
        for rows in catalogue.values()
        for _, path, _ in rows
    }


def test_no_folder_has_four_modules_sharing_a_prefix() -> None:
    """Four modules named ``x_*`` in one folder are a package ``x/`` waiting
    to happen; pass modules, named after the pass they register, may share."""
    passes = _pass_modules()
    groups: Counter[tuple[str, str]] = Counter()
    for name, module in MODULES.items():
        if module.is_package or name in passes:
            continue
        folder, _, leaf = name.rpartition(".")
        if "_" in leaf:
            groups[folder, leaf.split("_")[0]] += 1
    assert {key: n for key, n in groups.items() if n >= 4} == {}


def test_pass_reference_is_current() -> None:
    committed = (ROOT / "docs" / "passes.md").read_text()
    assert committed == render(default_registry()), (
        "docs/passes.md is stale: run python -m mlkit.pipeline.reference docs/passes.md"
    )


def test_catalogue_is_current() -> None:
    assert builtin_passes.CATALOGUE.read_text() == builtin_passes.catalogue_text(), (
        "passes/catalogue.json is stale: run python -m mlkit.passes"
    )


def test_every_table_entry_is_registered_under_its_class_name() -> None:
    registry = default_registry()
    for paths, table in ((builtin_passes.PASSES, registry.passes),
                         (builtin_passes.PIPELINES, registry.pipelines)):
        for path in paths:
            cls = import_object(f"mlkit.passes.{path}")
            assert table[cls.name].load() is cls
            assert table[cls.name].summary == first_doc_line(cls)


def test_a_stale_catalogue_entry_does_not_load_another_pass() -> None:
    load = builtin_passes._loader("not-cse", "transforms.cse:CSE")
    with pytest.raises(RegistryError, match="catalogue.json is stale: transforms.cse:CSE is 'cse'"):
        load()


def test_architecture_page_names_every_package() -> None:
    """docs/architecture.md must match the tree: each package is named there
    as ``folder/`` and each folder it names exists."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    folders = {
        module.path.parent.relative_to(ROOT).as_posix()
        for module in MODULES.values()
        if module.is_package
    }
    for folder in sorted(folders):
        leaf = folder.rsplit("/", 1)[-1] + "/"
        assert f"`{leaf}" in page or f"`{folder}/" in page or f"{leaf}`" in page, folder
    for named in re.findall(r"`((?:mlkit|dialects|passes|tools)/[\w/]*?)/?`", page):
        assert (ROOT / named).exists(), named


def test_pyproject_lists_every_package() -> None:
    """A non-editable install ships only the packages pyproject.toml lists."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    packages = {name for name, module in MODULES.items() if module.is_package}
    assert packages - listed == set()
    assert listed - packages == set()
