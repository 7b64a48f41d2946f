"""Pass options as upstream MLIR has them: every option upstream prints for a
pass (its default pipeline text) exists in mlkit with the same default, so
upstream's RUN lines (``-inline='op-pipelines=...'``,
``-convert-to-llvm='allow-pattern-rollback=0'``) work unchanged."""

from __future__ import annotations

import re

import pytest

from upstream_oracle import ir, passmanager

from mlkit.pipeline.options import option_infos
from mlkit.plugins import default_registry

PASSES = ["inline", "convert-to-llvm", "convert-scf-to-cf"]


def _upstream_defaults(name: str) -> dict[str, str]:
    with ir.Context():
        text = str(passmanager.PassManager.parse(f"builtin.module({name})"))
    body = re.search(r"\{(.*)\}", text)
    return dict(re.findall(r"([\w-]+)=(\S+)", body.group(1))) if body else {}


@pytest.mark.parametrize("name", PASSES)
def test_defaults_are_upstreams(name: str) -> None:
    ours = {info.name: info.default for info in option_infos(default_registry().passes[name].load())}
    for option, default in _upstream_defaults(name).items():
        assert option in ours, f"{name} lacks upstream's option '{option}'"
        assert ours[option] == default, (name, option)


@pytest.mark.parametrize(
    "pipeline",
    [
        "inline{op-pipelines=func.func(canonicalize,cse)}",
        "inline{op-pipelines=func.func(canonicalize),gpu.func(cse) inlining-threshold=10}",
        "convert-to-llvm{filter-dialects=arith allow-pattern-rollback=0}",
        "convert-scf-to-cf{allow-pattern-rollback=false}",
    ],
)
def test_upstream_run_line_options_parse(pipeline: str) -> None:
    from mlkit.pipeline.manager import PipelineBuilder

    with ir.Context():
        passmanager.PassManager.parse(f"builtin.module({pipeline})")
    PipelineBuilder(default_registry()).parse(f"builtin.module({pipeline})")
