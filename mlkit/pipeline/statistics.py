"""Pass statistics, as upstream's ``Pass::Statistic`` and
``--mlir-pass-statistics`` report them.

A pass declares what it counts in ``STATISTICS`` (name, description) and adds
to a count with :func:`add` on the context it is given; the pass runner sums
the counts of each pass in the pipeline and ``mlkit-opt`` prints upstream's
report: per pass in pipeline order (``pipeline`` display, the default) or
merged by pass name (``list``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

__all__ = ["STATS_ATTR", "add", "declared", "render"]

STATS_ATTR = "mlkit_pass_statistics"


def add(ctx: Any, name: str, amount: int = 1) -> None:
    """Count ``amount`` more of statistic ``name`` for the running pass."""
    counts: Counter[str] | None = getattr(ctx, STATS_ATTR, None)
    if counts is not None:
        counts[name] += amount


def declared(pass_class: type) -> tuple[tuple[str, str], ...]:
    return tuple(getattr(pass_class, "STATISTICS", ()))


_BAR = "===" + "-" * 73 + "==="


def _entry(lines: list[str], indent: int, name: str, stats: tuple[tuple[str, str], ...],
           counts: Counter[str]) -> None:
    """Upstream's ``printPassEntry``: the name, then its statistics sorted by
    name, values right-aligned and names padded to the widest."""
    lines.append(" " * indent + name)
    ordered = sorted(stats)
    if not ordered:
        return
    width = max(len(stat) for stat, _ in ordered)
    digits = max(len(str(counts[stat])) for stat, _ in ordered)
    for stat, description in ordered:
        value = str(counts[stat]).rjust(digits)
        lines.append(" " * (indent + 2) + f"(S) {value} {stat.ljust(width)} - {description}")


def render(
    rows: list[tuple[int, str, tuple[tuple[str, str], ...], Counter[str]]], display: str
) -> str:
    """Upstream's report. ``rows``: (nesting depth, display name, declared
    statistics, counts) per pass or pipeline, in pipeline order; ``list``
    merges the passes of one name (pipelines left out), sorted by name."""
    lines = [_BAR, "... Pass statistics report ...".center(len(_BAR)).rstrip(), _BAR]
    if display == "list":
        merged: dict[str, tuple[tuple[tuple[str, str], ...], Counter[str]]] = {}
        for _, name, stats, counts in rows:
            if not name.endswith("' Pipeline"):
                merged.setdefault(name, (stats, Counter[str]()))[1].update(counts)
        for name, (stats, counts) in sorted(merged.items()):
            _entry(lines, 2, name, stats, counts)
    else:
        for depth, name, stats, counts in rows:
            _entry(lines, 2 * depth, name, stats, counts)
    return "\n".join(lines) + "\n\n"
