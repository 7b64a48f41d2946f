"""docs/tutorial.md works as written: every code block, run in order in a fresh
folder outside the repository, as a newcomer following it would.

A block tagged ``file=NAME`` is written to that file (blocks of one name are
joined in order); a ``sh`` block runs in bash and must exit 0; a ``text output``
block right after it is the output it must print (stdout and stderr together,
trailing spaces ignored, ``...`` matching anything within a line).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"
_FENCE = re.compile(r"^```(\w+)((?: [\w.=/-]+)*)\n(.*?)^```$", re.M | re.S)


@dataclass
class Block:
    lang: str
    tags: list[str]
    body: str
    line: int

    def tag(self, key: str) -> str | None:
        return next((t.split("=", 1)[1] for t in self.tags if t.startswith(key + "=")), None)


def blocks() -> list[Block]:
    text = TUTORIAL.read_text()
    return [
        Block(m.group(1), m.group(2).split(), m.group(3), text.count("\n", 0, m.start()) + 1)
        for m in _FENCE.finditer(text)
    ]


def _matches(expected: str, actual: str) -> bool:
    want = [line.rstrip() for line in expected.rstrip("\n").splitlines()]
    got = [line.rstrip() for line in actual.rstrip("\n").splitlines()]
    if len(want) != len(got):
        return False
    return all(
        re.fullmatch(".*".join(re.escape(part) for part in w.split("...")), g)
        for w, g in zip(want, got)
    )


def test_every_block_is_understood() -> None:
    """A block this test would skip silently is a block nobody checks."""
    found = blocks()
    assert len(found) > 10
    for block in found:
        runnable = block.lang == "sh" or block.tag("file") is not None
        output = block.lang == "text" and block.tags == ["output"]
        assert runnable or output, f"docs/tutorial.md:{block.line}: block is neither run nor checked"


def test_tutorial_runs_as_written(tmp_path: Path) -> None:
    env = dict(os.environ)
    # The tools of the interpreter running the tests (a venv's mlkit-opt, lit, filecheck).
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("MLKIT_TRACEBACK", None)
    found = blocks()
    written: set[str] = set()
    ran = 0
    for i, block in enumerate(found):
        name = block.tag("file")
        if name is not None:
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a" if name in written else "w") as f:
                f.write(block.body)
            written.add(name)
        elif block.lang == "sh":
            proc = subprocess.run(
                ["bash", "-e", "-o", "pipefail", "-c", block.body], cwd=tmp_path, env=env,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300,
            )
            where = f"docs/tutorial.md:{block.line}"
            assert proc.returncode == 0, f"{where}: exit {proc.returncode}\n{proc.stdout}"
            after = found[i + 1] if i + 1 < len(found) else None
            if after is not None and after.lang == "text":
                assert _matches(after.body, proc.stdout), (
                    f"{where}: output differs\n--- expected\n{after.body}--- got\n{proc.stdout}"
                )
            ran += 1
    assert ran >= 6


@pytest.mark.parametrize(
    ("expected", "actual", "ok"),
    [
        ("a ... b\n", "a 0x7f12 b\n", True),
        ("a\nb\n", "a\n", False),
        ("data = \n", "data =\n", True),
        ("x\n", "y\n", False),
    ],
)
def test_output_matching(expected: str, actual: str, ok: bool) -> None:
    assert _matches(expected, actual) is ok
