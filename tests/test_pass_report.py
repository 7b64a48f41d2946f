"""The pass report (``mlkit-opt --pass-report``, ``mlkit.compile(report=)``):
one self-contained HTML page listing every pass run in order with its time,
the changed ones with a diff and the IR after them, the unchanged ones folded
together; opened in a headless Chromium where one is installed."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

import mlkit
from mlkit.tools.opt import run

PROGRAM = """
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %s = arith.addf %a, %b : tensor<8xf32>
  %m = arith.mulf %s, %s : tensor<8xf32>
  return %m : tensor<8xf32>
}
"""


class Page(HTMLParser):
    """The parts of the page the tests look at."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.summaries: list[str] = []
        self.external: list[str] = []
        self._cell: list[str] | None = None
        self._in_summary = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.external.append(value)
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self._cell = []
        elif tag == "summary":
            self._in_summary = True
            self.summaries.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "summary":
            self._in_summary = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._in_summary:
            self.summaries[-1] += data


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text())
    return page


@pytest.fixture
def src(tmp_path: Path) -> Path:
    path = tmp_path / "f.mlir"
    path.write_text(PROGRAM)
    return path


PIPELINE = "builtin.module(func.func(convert-elementwise-to-linalg,linalg-fuse-elementwise-ops),cse,canonicalize)"


def test_mlkit_opt_writes_every_pass_in_order(src: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    out, err = io.StringIO(), io.StringIO()
    assert run([str(src), "-p", PIPELINE, f"--pass-report={report}"], out, err) == 0, err.getvalue()
    page = parse(report)
    passes = [row[1] for row in page.rows if row]
    assert passes == [
        "convert-elementwise-to-linalg", "linalg-fuse-elementwise-ops", "cse", "canonicalize"
    ]
    states = {row[1]: row[4] for row in page.rows if row}
    assert states["convert-elementwise-to-linalg"] == "changed"
    assert states["linalg-fuse-elementwise-ops"] == "changed"  # two generics become one
    assert all(row[3].endswith(" ms") for row in page.rows if row)
    assert page.rows[1][2] == "'func.func' operation: @f"
    # changed passes open with their diff; the unchanged ones fold into one line
    assert any("linalg-fuse-elementwise-ops" in s for s in page.summaries)
    assert any("left the IR unchanged" in s for s in page.summaries)
    assert page.external == []  # nothing fetched from anywhere
    text = report.read_text()
    assert '<span class="del">' in text and '<span class="add">' in text
    # the output is unchanged: the module, after the aliases of its maps
    assert re.match(r"(#map\d* = affine_map<.*>\n)*module \{", out.getvalue())


def test_report_is_written_when_a_pass_fails(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  return\n}\n")
    report = tmp_path / "r.html"
    out, err = io.StringIO(), io.StringIO()
    rc = run([str(bad), "-p", "builtin.module(no-such-pass)", f"--pass-report={report}"], out, err)
    assert rc == 1 and "no-such-pass" in err.getvalue() and not report.exists()


def test_unwritable_report_is_a_clean_error(src: Path, tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    target = tmp_path / "missing-dir" / "r.html"
    rc = run([str(src), "-p", "builtin.module(cse)", f"--pass-report={target}"], out, err)
    assert rc == 1 and "could not write the pass report" in err.getvalue()
    assert "Traceback" not in err.getvalue()


def test_compile_writes_a_report_even_from_the_cache(tmp_path: Path) -> None:
    mlkit.compile(PROGRAM)  # now in the cache
    report = tmp_path / "compile.html"
    program = mlkit.compile(PROGRAM, report=report)
    import numpy as np

    a = np.arange(8, dtype=np.float32)
    np.testing.assert_allclose(program.f(a, a), (a + a) ** 2)
    page = parse(report)
    passes = [row[1] for row in page.rows if row]
    assert "one-shot-bufferize" in passes and "convert-to-llvm" in passes
    assert passes.index("one-shot-bufferize") < passes.index("convert-to-llvm")


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if path := shutil.which(name):
            return path
    return None


@pytest.mark.skipif(_chromium() is None, reason="no Chromium installed")
def test_report_renders_in_a_browser(src: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    out, err = io.StringIO(), io.StringIO()
    assert run([str(src), "-p", PIPELINE, f"--pass-report={report}"], out, err) == 0
    browser = _chromium()
    assert browser is not None
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", report.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert dom.returncode == 0, dom.stderr
    rendered = Page()
    rendered.feed(dom.stdout)
    assert [row[1] for row in rendered.rows if row][:2] == [
        "convert-elementwise-to-linalg", "linalg-fuse-elementwise-ops"
    ]
