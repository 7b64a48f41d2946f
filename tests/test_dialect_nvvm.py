"""Differential tests of mlkit's nvvm dialect against upstream MLIR, and checks
of what convert-gpu-to-nvvm and the PTX emitter rely on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from upstream_oracle import assert_upstream_reads_same_ir, ir, mlkit_print, upstream_print

ROOT = Path(__file__).resolve().parent.parent
NVVM_TESTS = ROOT / "lit_tests" / "Dialect" / "nvvm"


def test_upstream_reads_mlkit_output() -> None:
    assert_upstream_reads_same_ir(NVVM_TESTS / "ops.mlir")


def _normalized(text: str) -> list[str]:
    """Without SSA names, which the core printer numbers differently."""
    lines = [re.sub(r"%[\w$.-]+", "%v", line.split("  //")[0]).rstrip() for line in text.splitlines()]
    return [line for line in lines if line.strip()]


def test_generic_form_matches_upstream_text() -> None:
    """Properties and their defaults (``aligned = true``) are upstream's."""
    text = (NVVM_TESTS / "ops.mlir").read_text()
    assert _normalized(mlkit_print(text, generic=True)) == _normalized(
        upstream_print(text, generic=True)
    )


def _invalid_chunks() -> list[str]:
    return (NVVM_TESTS / "invalid.mlir").read_text().split("// -----")


@pytest.mark.parametrize("index", range(len(_invalid_chunks())))
def test_upstream_rejects_invalid_chunk(index: int) -> None:
    chunk = _invalid_chunks()[index]
    expected = re.search(r"expected-error[^{]*\{\{(.*)\}\}", chunk)
    assert expected is not None
    with pytest.raises(Exception) as info, ir.Context():
        ir.Module.parse(chunk)
    assert expected.group(1) in str(info.value)


TARGETS = [
    "#nvvm.target",
    "#nvvm.target<O = 3>",
    '#nvvm.target<chip = "sm_90", features = "+ptx80">',
    '#nvvm.target<O = 2, chip = "sm_75", features = "", triple = "nvptx64-nvidia-cuda">',
    '#nvvm.target<link = ["a.bc"], chip = "sm_80", O = 1>',
    "#nvvm.target<flags = {fast, ftz = true}>",
    "#nvvm.target<verifyTarget = false>",
    "#nvvm.target<verifyTarget = true>",
]


@pytest.mark.parametrize("target", TARGETS)
def test_target_prints_as_upstream(target: str) -> None:
    """Upstream leaves out parameters equal to its defaults, and orders the rest."""
    decl = f"llvm.func @f() attributes {{t = {target}}}"
    with ir.Context():
        expected = str(ir.Attribute.parse(target))
    assert f"t = {expected}" in mlkit_print(decl)


def test_target_defaults() -> None:
    """The PTX emitter reads a bare #nvvm.target as upstream does."""
    from mlkit.dialects.nvvm import NVVMTargetAttr

    target = NVVMTargetAttr()
    assert (target.O.data, target.triple.data, target.chip.data, target.features.data) == (
        2,
        "nvptx64-nvidia-cuda",
        "sm_75",
        "",
    )


def test_special_register_ops_by_name() -> None:
    from mlkit.dialects.nvvm import NVVM, SPECIAL_REGISTER_OPS, ThreadIdXOp

    names = {op.name for op in NVVM.operations}
    for base in ("tid", "ntid", "ctaid", "nctaid"):
        for dim in "xyz":
            assert f"nvvm.read.ptx.sreg.{base}.{dim}" in names
    assert SPECIAL_REGISTER_OPS["tid.x"] is ThreadIdXOp
    op = ThreadIdXOp()
    op.verify()
