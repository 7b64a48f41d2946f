"""The widest vector register of a target machine, for passes that choose a
vector width (``linalg-vectorize-loops``).

The target is what code is generated for: ``--mtriple``/``--mcpu`` (or the
module's ``llvm.target_triple``) when given, else the host, which is what
``mlkit-run`` and ``mlkit.compile`` JIT for (they create the host's machine with
its CPU name and features). The host's width comes from its CPU features as
LLVM reports them; a named CPU's from the ISA extensions LLVM gives that CPU.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from mlkit.target.machine import TargetOptions

__all__ = [
    "TargetVectors", "host_vector_bits", "module_target_vectors", "target_vector_bits",
    "target_vectors",
]

# x86 CPUs (LLVM's names) by their widest vector ISA: AVX-512F, AVX/AVX2.
_X86_512 = frozenset({
    "knl", "knm", "skylake-avx512", "skx", "cascadelake", "cooperlake", "cannonlake",
    "icelake-client", "icelake-server", "rocketlake", "tigerlake", "sapphirerapids",
    "emeraldrapids", "graniterapids", "graniterapids-d", "diamondrapids", "znver4",
    "znver5", "x86-64-v4",
})  # fmt: skip
_X86_256 = frozenset({
    "sandybridge", "corei7-avx", "ivybridge", "core-avx-i", "haswell", "core-avx2",
    "broadwell", "skylake", "alderlake", "raptorlake", "meteorlake", "arrowlake",
    "arrowlake-s", "lunarlake", "pantherlake", "gracemont", "sierraforest", "grandridge",
    "clearwaterforest", "bdver1", "bdver2", "bdver3", "bdver4", "btver2", "znver1",
    "znver2", "znver3", "x86-64-v3",
})  # fmt: skip


def _bits_from_features(arch: str, features: dict[str, bool]) -> int:
    if arch in ("x86_64", "i386", "i686", "x86"):
        if features.get("avx512f"):
            return 512
        if features.get("avx2") or features.get("avx"):
            return 256
    return 128  # SSE2 (the x86-64 baseline), NEON, and a guess elsewhere


@cache
def host_vector_bits() -> int:
    """The host's widest vector register in bits: 512 with AVX-512F, 256 with
    AVX or AVX2, 128 otherwise (SSE, NEON)."""
    import llvmlite.binding as llvm_binding

    arch = llvm_binding.get_process_triple().split("-")[0]
    features = dict(llvm_binding.get_host_cpu_features().items())
    return _bits_from_features(arch, features)


def target_vector_bits(options: TargetOptions | None = None, module_triple: str | None = None) -> int:
    """The widest vector register of the machine code is generated for."""
    options = options or TargetOptions()
    triple, cpu = options.triple or module_triple, options.cpu
    if cpu == "native" or (not triple and not cpu):
        return host_vector_bits()
    if triple:
        arch = triple.split("-")[0]
    else:
        import llvmlite.binding as llvm_binding

        arch = llvm_binding.get_process_triple().split("-")[0]
    if arch in ("x86_64", "i386", "i686", "x86") and cpu:
        if cpu in _X86_512:
            return 512
        if cpu in _X86_256:
            return 256
    return 128  # the architecture's baseline: SSE2 on x86-64, NEON on AArch64


def vector_bits_option() -> Any:
    """The ``vector-bits`` option of every pass that picks a vector width."""
    return field(
        default=0,
        metadata={"help": "Vector register width in bits; 0: the target machine's widest "
                          "(512 with AVX-512, 256 with AVX2, 128 with SSE or NEON)"},
    )


@dataclass(frozen=True)
class TargetVectors:
    """What a pass choosing register blocks needs of the target: the widest
    vector in bits, the architecture (``x86_64``, ``aarch64``) and whether code
    is generated for the host (whose caches can then be read)."""

    bits: int
    arch: str
    host: bool

    @property
    def registers(self) -> int:
        """Vector registers: 32 with AVX-512 and on AArch64, else 16."""
        if self.arch in ("aarch64", "arm64", "aarch64_be") or self.bits >= 512:
            return 32
        return 16


def target_vectors(options: TargetOptions | None = None, module_triple: str | None = None) -> TargetVectors:
    """The vector registers of the machine code is generated for."""
    import llvmlite.binding as llvm_binding

    options = options or TargetOptions()
    triple = options.triple or module_triple
    host = options.cpu == "native" or (not triple and not options.cpu)
    arch = (triple or llvm_binding.get_process_triple()).split("-")[0]
    return TargetVectors(target_vector_bits(options, module_triple), arch, host)


def module_target_vectors(ctx: Any, module: Any) -> TargetVectors:
    """:func:`target_vectors` for a pass: the context's ``--mtriple``/``--mcpu``
    and the module's ``llvm.target_triple``."""
    from xdsl.dialects.builtin import StringAttr

    from mlkit.target.machine import get_target_options

    triple = module.attributes.get("llvm.target_triple")
    return target_vectors(
        get_target_options(ctx), triple.data if isinstance(triple, StringAttr) else None
    )

