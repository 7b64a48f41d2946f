"""mlkit's cf canonicalization patterns (``cf_canonicalization``) reach the
IR upstream's ``canonicalize`` does, on branch chains, loops of pass-through
blocks and condition propagation, and on the CFG that ``convert-scf-to-cf``
makes of nested ``scf.if`` (issue 16: they replaced quadratic ones)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_reliability_core import nested_ifs
from upstream_oracle import assert_pass_as_upstream, lit_chunks

CHUNKS = lit_chunks(Path(__file__).parent.parent / "lit_tests" / "Dialect" / "cf" / "canonicalize.mlir")


@pytest.mark.parametrize("index", range(len(CHUNKS)))
def test_lit_chunks_canonicalize_as_upstream(index: int) -> None:
    assert_pass_as_upstream(CHUNKS[index], "builtin.module(canonicalize)", unregistered=True)


@pytest.mark.parametrize("depth", [1, 3, 12])
def test_nested_ifs_through_the_cfg_as_upstream(depth: int) -> None:
    pipeline = "builtin.module(func.func(convert-scf-to-cf), canonicalize)"
    assert_pass_as_upstream(nested_ifs(depth), pipeline, unregistered=True)
