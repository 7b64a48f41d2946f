"""Lit files of mlkit's passes whose every chunk must come out of the pass as
it comes out of upstream's (compared as upstream reads both), issue 14."""

from __future__ import annotations

from pathlib import Path

import pytest

from upstream_oracle import assert_pass_as_upstream, lit_chunks

LIT = Path(__file__).parent.parent / "lit_tests"

FILES = [  # (lit file, pipeline, whether unregistered ops are allowed)
    ("Dialect/arith/expand-ops.mlir", "builtin.module(arith-expand)", False),
    ("Dialect/arith/expand-ops.mlir", "builtin.module(arith-expand{include-bf16=true})", False),
    ("Dialect/scf/forall-to-for.mlir", "builtin.module(func.func(scf-forall-to-for))", False),
    (
        "GPU/launch-sink-index-computations.mlir",
        "builtin.module(gpu-launch-sink-index-computations)",
        True,
    ),
]

CASES = [
    pytest.param(text, pipeline, unregistered, id=f"{name}#{i}:{pipeline}")
    for name, pipeline, unregistered in FILES
    for i, text in enumerate(lit_chunks(LIT / name))
]


@pytest.mark.parametrize(("text", "pipeline", "unregistered"), CASES)
def test_chunk_as_upstream(text: str, pipeline: str, unregistered: bool) -> None:
    assert_pass_as_upstream(text, pipeline, unregistered=unregistered)
