"""mlkit's cf canonicalization patterns (``cf_canonicalization``) reach the
IR upstream's ``canonicalize`` does, on branch chains, loops of pass-through
blocks and condition propagation, and on the CFG that ``convert-scf-to-cf``
makes of nested ``scf.if`` (issue 16: they replaced quadratic ones)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_reliability_core import nested_ifs
from upstream_oracle import mlkit_print, upstream_print

LIT = Path(__file__).parent.parent / "lit_tests" / "Dialect" / "cf" / "canonicalize.mlir"
CHUNKS = [
    re.sub(r"^//.*$", "", chunk, flags=re.M).strip()
    for chunk in LIT.read_text().split("// -----")
]


def _same_as_upstream(text: str, pipeline: str) -> None:
    expected = upstream_print(text, generic=False, pipeline=pipeline, unregistered=True)
    printed = mlkit_print(text, pipeline=pipeline, unregistered=True)
    assert upstream_print(printed, generic=False, unregistered=True) == expected, printed


@pytest.mark.parametrize("index", range(len(CHUNKS)))
def test_lit_chunks_canonicalize_as_upstream(index: int) -> None:
    _same_as_upstream(CHUNKS[index], "builtin.module(canonicalize)")


@pytest.mark.parametrize("depth", [1, 3, 12])
def test_nested_ifs_through_the_cfg_as_upstream(depth: int) -> None:
    _same_as_upstream(nested_ifs(depth), "builtin.module(func.func(convert-scf-to-cf), canonicalize)")
