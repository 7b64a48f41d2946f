"""``gpu-lower-to-nvvm-pipeline``: upstream's named pipeline
(``GPUToNVVMPipeline.cpp``) from GPU code to NVVM and a binary, in three
stages: common (outlining, scf/func/arith/index to llvm,
expand-strided-metadata, nvvm-attach-target, lower-affine, canonicalize,
cse), inside ``gpu.module`` (convert-gpu-to-nvvm, then cleanups), host
(gpu-to-llvm, gpu-module-to-binary, math to llvm, cleanups).

Deviation: the GPU stage's canonicalize, cse and reconcile-unrealized-casts
run on the whole module, because mlkit's canonicalize and
reconcile-unrealized-casts cannot yet run on a ``gpu.module`` (they assume a
``builtin.module`` body); upstream's ``convert-nvgpu-to-nvvm``,
``convert-vector-to-scf`` and ``convert-nvvm-to-llvm`` steps are left out
(mlkit has no nvgpu dialect; the others are not ported).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GPUToNVVMPipeline:
    """The default pipeline lowers main dialects (arith, memref, scf, vector, gpu, and nvvm) to NVVM. It starts by lowering GPU code to the specified compilation target (default is fatbin) then lowers the host code.

    Lowers GPU code to NVVM and a GPU binary, then the host code.
    """

    name = "gpu-lower-to-nvvm-pipeline"

    cubin_triple: str = "nvptx64-nvidia-cuda"
    cubin_chip: str = "sm_50"
    cubin_features: str = "+ptx60"
    cubin_format: str = "fatbin"
    opt_level: int = 2
    kernel_use_bare_ptr_calling_convention: bool = False
    host_use_bare_ptr_calling_convention: bool = False
    index_bitwidth: int = 64

    def pipeline(self) -> str:
        target = (
            f"nvvm-attach-target{{chip={self.cubin_chip} features={self.cubin_features} "
            f"O={self.opt_level} triple={self.cubin_triple}}}"
        )
        kernel_bare = str(self.kernel_use_bare_ptr_calling_convention).lower()
        host_bare = str(self.host_use_bare_ptr_calling_convention).lower()
        common = (
            "gpu-kernel-outlining,convert-scf-to-cf,convert-func-to-llvm,"
            f"expand-strided-metadata,{target},lower-affine,convert-arith-to-llvm,"
            "convert-index-to-llvm,canonicalize,cse"
        )
        gpu = (
            f"gpu.module(convert-gpu-to-nvvm{{index-bitwidth={self.index_bitwidth} "
            f"use-bare-ptr-memref-call-conv={kernel_bare}}}),canonicalize,cse,"
            "reconcile-unrealized-casts"
        )
        host = (
            f"gpu-to-llvm{{use-bare-pointers-for-host={host_bare} "
            f"use-bare-pointers-for-kernels={kernel_bare}}},"
            f"gpu-module-to-binary{{format={self.cubin_format}}},"
            "convert-math-to-llvm,canonicalize,cse,reconcile-unrealized-casts"
        )
        return f"{common},{gpu},{host}"
