"""A pass report to look at: one self-contained HTML page of a pipeline run.

``mlkit-opt --pass-report=FILE.html`` and ``mlkit.compile(..., report=PATH)``
record every pass the pipeline runs (its name, the op it ran on, its time,
and the IR before and after it) and write one page: the passes in order with
their times, each with a diff against the IR before it and the whole IR after
it to open; passes that left the IR as it was are folded into one line. The
page has no scripts from elsewhere, no fonts, no network: it opens from disk.
"""

from __future__ import annotations

import difflib
import html
from dataclasses import dataclass, field

from mlkit.files import write_atomically

__all__ = ["PassReport", "PassStep", "write_report"]


@dataclass
class PassStep:
    """One run of one pass."""

    name: str
    display_name: str
    where: str  # the op it ran on, as the IR dumps name it
    seconds: float
    before: str
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass
class PassReport:
    """What the pass runner records for a report."""

    title: str = "mlkit pass report"
    steps: list[PassStep] = field(default_factory=list[PassStep])
    input_ir: str | None = None

    def record(
        self, name: str, display_name: str, where: str, seconds: float, before: str, after: str
    ) -> None:
        """One pass run: the IR before and after it, as printed."""
        if self.input_ir is None:
            self.input_ir = before
        self.steps.append(PassStep(name, display_name, where, seconds, before, after))

    def html(self) -> str:
        return render(self)


_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1b1b; }
h1 { font-size: 1.3em; margin-bottom: 0.2em; }
.summary { color: #555; margin-bottom: 1em; }
table { border-collapse: collapse; margin-bottom: 1.5em; }
th, td { padding: 0.15em 0.8em; text-align: left; border-bottom: 1px solid #e3e3e3; }
td.time { text-align: right; font-variant-numeric: tabular-nums; }
tr.same td { color: #999; }
details { margin: 0.3em 0; border: 1px solid #ddd; border-radius: 4px; }
details > summary { cursor: pointer; padding: 0.3em 0.6em; background: #f6f6f6; }
details.same > summary { color: #888; background: #fbfbfb; }
pre { margin: 0; padding: 0.5em 0.8em; overflow-x: auto; font: 12px/1.35 monospace; }
.add { background: #e6ffec; display: block; }
.del { background: #ffebe9; display: block; }
.hunk { color: #6a737d; display: block; }
.ir { border-top: 1px solid #eee; }
"""


def _diff(before: str, after: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(), after.splitlines(), "before", "after", lineterm="", n=3
    )
    out: list[str] = []
    for line in list(lines)[2:]:  # the file header says nothing here
        text = html.escape(line)
        kind = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1])
        out.append(f'<span class="{kind}">{text}</span>' if kind else text)
    return "\n".join(out)


def _step_html(index: int, step: PassStep) -> str:
    label = f"{index}. {html.escape(step.display_name)} ({html.escape(step.name)})"
    where = f" on {html.escape(step.where)}" if step.where else ""
    ms = f"{step.seconds * 1e3:.2f} ms"
    if not step.changed:
        return ""
    return (
        f'<details class="pass"><summary>{label}{where} &mdash; {ms}</summary>'
        f"<pre>{_diff(step.before, step.after)}</pre>"
        f'<details class="ir"><summary>IR after</summary>'
        f"<pre>{html.escape(step.after)}</pre></details></details>"
    )


def render(report: PassReport) -> str:
    """The page: a table of every pass run, then each one that changed the IR
    with its diff; runs of unchanged passes fold into one line each."""
    total = sum(step.seconds for step in report.steps)
    changed = sum(step.changed for step in report.steps)
    rows = []
    for i, step in enumerate(report.steps, 1):
        kind = "changed" if step.changed else "same"
        rows.append(
            f'<tr class="{kind}"><td>{i}</td><td>{html.escape(step.name)}</td>'
            f"<td>{html.escape(step.where)}</td>"
            f'<td class="time">{step.seconds * 1e3:.2f} ms</td>'
            f"<td>{'changed' if step.changed else 'unchanged'}</td></tr>"
        )
    body: list[str] = []
    unchanged: list[str] = []

    def flush() -> None:
        if unchanged:
            names = ", ".join(unchanged)
            body.append(
                f'<details class="same"><summary>{len(unchanged)} pass run(s) left the IR '
                f"unchanged</summary><pre>{names}</pre></details>"
            )
            unchanged.clear()

    for i, step in enumerate(report.steps, 1):
        if step.changed:
            flush()
            body.append(_step_html(i, step))
        else:
            unchanged.append(f"{i}. {html.escape(step.name)}")
    flush()
    first = report.input_ir if report.input_ir is not None else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(report.title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{html.escape(report.title)}</h1>"
        f'<div class="summary">{len(report.steps)} pass runs, {changed} changed the IR, '
        f"{total * 1e3:.1f} ms in all</div>"
        "<table><thead><tr><th>#</th><th>pass</th><th>on</th><th>time</th><th></th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
        f'<details class="input"><summary>Input IR</summary><pre>{html.escape(first)}</pre>'
        f"</details>{''.join(body)}</body></html>\n"
    )


def write_report(report: PassReport, path: str) -> None:
    """Write the page whole (:func:`mlkit.files.write_atomically`)."""
    write_atomically(path, report.html().encode("utf-8"))
