"""Differential tests of mlkit's gpu dialect against upstream MLIR."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from upstream_oracle import assert_upstream_reads_same_ir, ir, mlkit_print, upstream_print

ROOT = Path(__file__).resolve().parent.parent
GPU_TESTS = ROOT / "lit_tests" / "Dialect" / "gpu"


def test_upstream_reads_mlkit_output() -> None:
    assert_upstream_reads_same_ir(GPU_TESTS / "ops.mlir")


def _invalid_chunks() -> list[str]:
    return (GPU_TESTS / "invalid.mlir").read_text().split("// -----")


@pytest.mark.parametrize("index", range(len(_invalid_chunks())))
def test_upstream_rejects_invalid_chunk(index: int) -> None:
    chunk = _invalid_chunks()[index]
    expected = re.search(r"expected-error[^{]*\{\{(.*)\}\}", chunk)
    assert expected is not None
    with pytest.raises(Exception) as info, ir.Context():
        ir.Module.parse(chunk)
    assert expected.group(1) in str(info.value)


LAUNCH = """
func.func @f(%c: index, %i: i32) {
  %t = gpu.wait async
  %t1 = gpu.launch async [%t] clusters(%cx, %cy, %cz) in (%a = %c, %b = %c, %d = %c)
      blocks(%bx, %by, %bz) in (%gx = %c, %gy = %c, %gz = %c)
      threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c)
      dynamic_shared_memory_size %i
      workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    gpu.terminator
  }
  return
}
"""


def test_launch_region_arguments() -> None:
    """Later passes rely on upstream's order of the launch body's arguments."""
    from mlkit.context import make_context
    from mlkit.dialects.gpu.kernel import LaunchOp
    from mlkit.syntax.parser import parse_module

    module = parse_module(make_context(), LAUNCH, "<launch>")
    launch = next(op for op in module.walk() if isinstance(op, LaunchOp))
    names = [arg.name_hint for arg in launch.body.blocks[0].args]
    assert names == [
        "bx", "by", "bz", "tx", "ty", "tz", "gx", "gy", "gz", "sx", "sy", "sz",
        "cx", "cy", "cz", "a", "b", "d", "w",
    ]  # fmt: skip
    assert launch.has_cluster_size and launch.num_workgroup_attributions == 1
    assert upstream_print(mlkit_print(LAUNCH)) == upstream_print(LAUNCH)


def test_kernel_func_accessors() -> None:
    from mlkit.context import make_context
    from mlkit.dialects.gpu.kernel import GPUFuncOp
    from mlkit.syntax.parser import parse_module

    text = (GPU_TESTS / "ops.mlir").read_text()
    module = parse_module(make_context(), text, "ops.mlir")
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, GPUFuncOp)}
    kernel = funcs["kernel"]
    assert kernel.kernel is not None
    assert [a.name_hint for a in kernel.workgroup_args()] == ["wg"]
    assert [a.name_hint for a in kernel.private_args()] == ["pv"]
    assert funcs["device"].kernel is None
