"""``scf.while`` without initial values, against upstream MLIR: mlkit prints
it as upstream does, and upstream reads mlkit's output as the same IR."""

from __future__ import annotations

from pathlib import Path

from tests.upstream_oracle import mlkit_print, upstream_print

_FILE = Path(__file__).parent.parent / "lit_tests" / "Dialect" / "scf" / "while-no-inits.mlir"


def test_prints_as_upstream() -> None:
    text = _FILE.read_text()
    ours = mlkit_print(text, unregistered=True)
    assert ours.strip() == upstream_print(text, generic=False, unregistered=True).strip()


def test_upstream_reads_it_back() -> None:
    text = _FILE.read_text()
    ours = mlkit_print(text, unregistered=True)
    assert upstream_print(ours, unregistered=True) == upstream_print(text, unregistered=True)
