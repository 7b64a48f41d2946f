"""The project's modules and the import graph among them, read from source.

Every import statement counts (module-level, function-local, under
``TYPE_CHECKING``): a cycle broken only by deferring an import is still a
cycle in the design. Importing ``a.b.c`` is an edge to ``a.b.c`` alone, not to
the packages above it, since Python runs those first whatever the order.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# installed package -> source folder, as pyproject.toml's package-dir maps them
SOURCE_ROOTS: dict[str, str] = {
    "mlkit.dialects": "dialects",
    "mlkit.passes": "passes",
    "mlkit.tools": "tools",
    "mlkit": "mlkit",
}


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    imports: set[str] = field(default_factory=set)


def _dotted(folder: str, package: str, path: Path) -> tuple[str, bool]:
    rel = path.relative_to(ROOT / folder).with_suffix("")
    parts = [package, *rel.parts]
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def project_modules() -> dict[str, Module]:
    """Every module of the installed package, by dotted name."""
    modules: dict[str, Module] = {}
    for package, folder in SOURCE_ROOTS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            name, is_package = _dotted(folder, package, path)
            if name in modules:
                continue  # a folder mapped on its own (mlkit.dialects) wins
            if package == "mlkit" and any(
                name == p or name.startswith(p + ".") for p in SOURCE_ROOTS if p != "mlkit"
            ):
                continue
            modules[name] = Module(name, path, is_package)
    for module in modules.values():
        module.imports = _imports_of(module, modules)
    return modules


def _resolve(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.name.split(".")
    if not module.is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports_of(module: Module, modules: dict[str, Module]) -> set[str]:
    found: set[str] = set()
    tree = ast.parse(module.path.read_text(), str(module.path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node)
            targets = [
                f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                for a in node.names
            ]
        else:
            continue
        found.update(t for t in targets if t in modules and t != module.name)
    return found


def import_cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(modules[start].imports)))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            name, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(modules[target].imports))))
                    break
                if target in on_stack:
                    low[name] = min(low[name], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[name])
                if low[name] == index[name]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == name:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))

    for name in sorted(modules):
        if name not in index:
            visit(name)
    return cycles
