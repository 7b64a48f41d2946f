"""``scf-forall-to-for`` leaves IR as upstream's pass does (issue 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from upstream_oracle import assert_pass_as_upstream, lit_chunks

CHUNKS = lit_chunks(Path(__file__).parent.parent / "lit_tests" / "Dialect" / "scf" / "forall-to-for.mlir")


@pytest.mark.parametrize("index", range(len(CHUNKS)))
def test_as_upstream(index: int) -> None:
    assert_pass_as_upstream(CHUNKS[index], "builtin.module(func.func(scf-forall-to-for))")
