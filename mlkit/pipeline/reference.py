"""The pass reference, ``docs/passes.md``, generated from a registry.

Names, summaries and options are read off the registered classes, so the
reference cannot drift from ``mlkit-opt --list-passes``; a test compares the
committed file with a fresh rendering. ``python -m mlkit.pipeline.reference
docs/passes.md`` rewrites it.
"""

from __future__ import annotations

import sys

from mlkit.pipeline.options import option_infos
from mlkit.registry import PassEntry, PipelineEntry, Registry

HEADER = """\
# Passes and pipelines

`mlkit-opt --list-passes` prints every registered pass with its summary and
options; `mlkit-opt --help` lists them as flags. Each pass keeps upstream
MLIR's name, option names and semantics; where a pass covers only part of
upstream's ops, its module docstring says which. This page is generated from
the registry (`python -m mlkit.pipeline.reference docs/passes.md`).
"""

SYNTAX = """\
## Pipeline syntax

```
builtin.module(func.func(cse,canonicalize),some-pass{opt=1 flag list=1,2,3 s="a b"})
```

- `anchor(...)` nests a pass manager that runs on each op named `anchor`
  directly inside the op its parent runs on; `any(...)` matches every op.
- Options go in braces, separated by spaces: `key=value`, a bare boolean
  flag, comma lists, quoted strings, nested `{...}`.
- A pass with an anchor (for example one that runs only on `gpu.module`) must
  be nested explicitly in a textual pipeline; as a command-line flag it is
  nested implicitly.
- `--dump-pass-pipeline` prints the pipeline that will run.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _options(entry: PassEntry | PipelineEntry) -> str:
    parts = []
    for info in option_infos(entry.load()):
        default = f" = {info.default}" if info.default not in (None, "") else ""
        parts.append(f"`{info.name}`{_cell(default)}")
    return ", ".join(parts)


def _table(kind: str, entries: dict[str, PassEntry] | dict[str, PipelineEntry]) -> list[str]:
    lines = [f"| {kind} | summary | options |", "| --- | --- | --- |"]
    for name, entry in sorted(entries.items()):
        lines.append(f"| `{name}` | {_cell(entry.summary)} | {_options(entry)} |")
    return lines


def render(registry: Registry) -> str:
    """``docs/passes.md`` for every pass, pipeline and emitter in ``registry``."""
    lines = [HEADER, "## Passes", "", *_table("pass", registry.passes), ""]
    lines += ["## Named pipelines", "", *_table("pipeline", registry.pipelines), ""]
    lines += ["## Emitters (`--emit=`)", "", "| emitter | output |", "| --- | --- |"]
    lines.append("| `mlir` | MLIR text (default) |")
    for name, entry in sorted(registry.emitters.items()):
        lines.append(f"| `{name}` | {_cell(entry.summary)} |")
    return "\n".join(lines) + "\n\n" + SYNTAX


def main(argv: list[str]) -> int:
    from mlkit.plugins import default_registry

    if len(argv) != 1:
        print("usage: python -m mlkit.pipeline.reference OUTPUT.md", file=sys.stderr)
        return 1
    with open(argv[0], "w") as f:
        f.write(render(default_registry()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
