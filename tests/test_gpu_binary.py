"""Binary GPU objects stay bytes from ptxas to the host program: the cubin
``gpu-module-to-binary{format=bin}`` stores, prints and reads back is the
one ptxas wrote, and the translation embeds exactly those bytes."""

from __future__ import annotations

import shutil

import pytest
from test_cuda_runtime import lower

from mlkit.dialects.gpu.kernel import BinaryOp
from mlkit.target.llvmir.module import translate_module
from mlkit.target.llvmir.dialect.gpu import object_bytes, selected_object
from mlkit.syntax.printer import print_op

pytestmark = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")

KERNELS = """
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    llvm.func @k(%p: !llvm.ptr, %v: f32) attributes {gpu.kernel, nvvm.kernel} {
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
  }
}
"""


def _cubin(module: object) -> bytes:
    (binary,) = [op for op in module.walk() if isinstance(op, BinaryOp)]
    return object_bytes(selected_object(binary))


def test_cubin_bytes_survive_printing_and_translation() -> None:
    module = lower(KERNELS, "builtin.module(gpu-module-to-binary{format=bin})")
    cubin = _cubin(module)
    assert cubin.startswith(b"\x7fELF") and any(b >= 0x80 for b in cubin)
    reread = lower(print_op(module), "builtin.module()")
    assert _cubin(reread) == cubin
    assert f"@kernels_binary = internal constant [{len(cubin)} x i8]" in translate_module(module)
