"""``cse`` across the blocks of a region, scoped by dominance, leaves IR as
upstream's does (issue 14: xDSL's driver skipped multi-block regions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_reliability_core import nested_ifs
from upstream_oracle import assert_pass_as_upstream, lit_chunks

CHUNKS = lit_chunks(Path(__file__).parent.parent / "lit_tests" / "Transforms" / "cse.mlir")


@pytest.mark.parametrize("index", range(len(CHUNKS)))
def test_lit_chunks_as_upstream(index: int) -> None:
    assert_pass_as_upstream(CHUNKS[index], "builtin.module(cse)")


@pytest.mark.parametrize("depth", [2, 9])
def test_the_cfg_of_nested_ifs_as_upstream(depth: int) -> None:
    """Deep dominator trees: every block's duplicates of the entry's ops go."""
    text = nested_ifs(depth).replace("scf.yield %x", "%y = arith.addi %x, %x : i32\n  scf.yield %y")
    assert_pass_as_upstream(text, "builtin.module(func.func(convert-scf-to-cf), cse)")


def test_lower_to_cpu_leaves_nothing_for_upstreams_cse() -> None:
    """The complaint in the issue: a function lowered to a CFG kept, in every
    block, its own copies of the constants (185 ``llvm.mlir.constant`` in the
    dense layer example, 29 now). Upstream's ``cse`` finds nothing left."""
    from upstream_oracle import mlkit_print, upstream_print

    example = Path(__file__).parent.parent / "examples" / "dense-layer.mlir"
    lowered = mlkit_print(example.read_text(), pipeline="builtin.module(lower-to-cpu)")
    assert upstream_print(lowered, generic=False, pipeline="builtin.module(cse)") == upstream_print(
        lowered, generic=False
    )
